"""Sphinx configuration of the documentation site.

Build it (warnings are errors, cross-references checked) from the repository root:

    python3 -m sphinx -W --keep-going -n -b html docs docs/_build/html

Why this stack: the scikit-learn family's. **numpydoc** renders the docstrings, which follow
its format (Parameters, Returns, Raises, Examples); **sphinx-gallery** runs the scripts of
``examples/`` at build time and collects their figures, which are the library's Displays, so a
figure in the docs is what the code draws today; **myst-parser** keeps the Markdown pages of
``docs/`` (which read well on a forge too, and which the README links to) as pages of the site,
with their links checked. The theme is pydata-sphinx-theme (scikit-learn's, NumPy's).

Nothing here needs the network: no intersphinx (its inventories are downloaded), so references
to other projects' objects (numpy, pandas, scikit-learn, matplotlib, Python itself) cannot be
resolved offline and are let through by the narrow patterns of ``nitpick_ignore_regex`` below;
every reference to this package's own objects, documents and headings must resolve.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
sys.path.insert(0, str(REPO / "src"))  # the package of this checkout, whatever is installed
sys.path.insert(0, str(DOCS / "_ext"))

os.environ.setdefault("MPLBACKEND", "Agg")

import threshold_choice  # noqa: E402

project = "threshold-choice"
author = "the threshold-choice authors"
copyright = "the threshold-choice authors (MIT licence)"
release = threshold_choice.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
    "tc_docs",  # docs/_ext/tc_docs.py: the config key table from the schema, aliases
]

root_doc = "index"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "**.ipynb_checkpoints", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.json"]
templates_path = ["_templates"]

# -- checks ----------------------------------------------------------------------------------
nitpicky = True
# Other projects' objects (no intersphinx offline) and Python's builtins and typing names.
# References to this package's own objects are handled by docs/_ext/tc_docs.py: linked to the
# API reference's entry of the same object (whatever module path the docstring names it by),
# written as code when the object exists but is not in the reference (a constant, a private
# helper), and a warning when no such object exists. Nothing else is ignored.
_EXTERNAL = (r"(numpy|np|scipy|pandas|pd|sklearn|matplotlib|mpl|plt|pyarrow|jsonschema|"
             r"snakemake|collections|typing|pathlib|os|io|abc|enum|dataclasses|functools|"
             r"numbers|datetime|decimal|types|builtins)(\..*)?")
_BUILTIN = (r"(int|float|complex|str|bytes|bool|None|object|list|tuple|dict|set|frozenset|"
            r"callable|Callable|Sequence|Mapping|Iterable|Iterator|Any|Path|array|array-like|"
            r"array_like|ArrayLike|ndarray|DataFrame|Series|Axes|Figure|optional|default|"
            r"Exception|ValueError|TypeError|KeyError|RuntimeError|OSError|FileNotFoundError|"
            r"UserWarning|Warning|NotImplementedError|IndexError)")
nitpick_ignore_regex = [
    (r"py:.*", _EXTERNAL),
    (r"py:.*", _BUILTIN),
]
suppress_warnings = []  # none: a broken link or reference fails the build

# -- MyST (the Markdown pages) ---------------------------------------------------------------
# GitHub's heading slugs, so that `page.md#a-heading` works both on a forge and in the site,
# and a link to a missing page or heading is a warning (myst.xref_missing), i.e. an error.
myst_heading_anchors = 6
myst_enable_extensions = ["colon_fence", "deflist"]

# -- API reference ---------------------------------------------------------------------------
autosummary_generate = True
# signatures without annotations (the types are in the numpydoc Parameters sections), as
# scikit-learn's reference: the annotations name private aliases (_typing) and other
# projects' types that cannot be cross-referenced offline
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": False}
autoclass_content = "class"
numpydoc_show_class_members = False  # the class template lists the members itself
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False  # free-text types ("array-like of shape (n,)")
numpydoc_validation_checks: set[str] = set()  # validated by the test suite, not here

# -- the gallery -----------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(REPO / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "show_memory": False,
    "abort_on_example_error": True,
    "reset_modules": ("matplotlib",),
    "plot_gallery": "True",
    # "Examples in the gallery" on each API page (the templates' minigallery)
    "doc_module": ("threshold_choice",),
    "backreferences_dir": "generated/backreferences",
}

# -- HTML ------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"threshold-choice {release}"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 8,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
}
# pages without a section of their own: no empty section navigation beside them
html_sidebars = {page: [] for page in ("index", "getting-started", "benchmarks", "changelog")}
html_show_sourcelink = False
html_copy_source = False
