"""The documentation site builds as its documented command builds it (Sphinx, warnings as
errors, every cross-reference checked), has the pages it promises, and renders in a browser:
Debian's headless chromium opens the home page, an API page, a gallery example and the
configuration reference, each with its title, a code block and (where it has one) a figure
whose PNG was built."""

from __future__ import annotations

import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

import threshold_choice
from tests.conftest import REPO

pytestmark = pytest.mark.slow

DOCS = REPO / "docs"
BUILD = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-b", "html"]
PNG = b"\x89PNG\r\n\x1a\n"
EXAMPLES = sorted(p.stem for p in (REPO / "examples").glob("plot_*.py"))
GUIDE = ["getting-started", "user-guide", "conventions", "library", "methods", "uncertainty",
         "estimators", "cost-distributions", "decision-curves", "contexts", "scikit-learn",
         "tutorial", "cli", "reproducing", "reproduction", "comparison", "workflow-reference",
         "workflow", "config-reference", "cluster", "benchmarks", "changelog", "api"]


def documented_commands() -> list[tuple[str, str]]:
    """``(page, command line)`` of each place the README and docs/ give the site's build: the
    ``bash`` lines that run Sphinx, with the lines before them in their block (the install)."""
    found = []
    for page in (REPO / "README.md", DOCS / "index.md"):
        for block in re.findall(r"```bash\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            if "-m sphinx" in block:
                found.append((page.name, " && ".join(block.strip().splitlines())))
    return found


def test_the_documented_site_commands_install_what_the_build_imports():
    # a reader who followed the README's install (no docs extra) runs the line as written:
    # its install part must bring every distribution the build imports
    import tomllib
    from importlib.metadata import packages_distributions

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    commands = documented_commands()
    assert {page for page, _ in commands} == {"README.md", "index.md"}
    names = {m: packages_distributions().get(m, [m])[0].lower().replace("_", "-")
             for m in ("sphinx", "numpydoc", "sphinx_gallery", "myst_parser",
                       "pydata_sphinx_theme", "yaml", "matplotlib", "numpy")}
    for page, line in commands:
        install, build = line.split(" && ")
        wanted = re.fullmatch(r'python3 -m pip install -e "\.\[([\w,]+)\]"', install)
        assert wanted, (page, install)
        given = set(project["dependencies"])
        for extra in wanted.group(1).split(","):
            given |= set(extras[extra])
        given = {re.split(r"[<>=;\[ ]", r, maxsplit=1)[0].lower() for r in given}
        assert set(names.values()) <= given, (page, set(names.values()) - given)
        assert build.split()[:-2] == ["python3", *BUILD[1:]], (page, build)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site, built once into a temporary folder from a fresh environment (``-E``: every
    page read again, so every warning shows), by the README's command (its output folder
    aside)."""
    for module in ("sphinx", "numpydoc", "sphinx_gallery", "myst_parser", "pydata_sphinx_theme"):
        if importlib.util.find_spec(module) is None:
            pytest.fail(f"{module} is not installed: python3 -m pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    warnings = out / "warnings.txt"
    readme = dict(documented_commands())["README.md"].split(" && ")[1].split()
    assert readme[-2:] == ["docs", "docs/_build/html"]
    build = [sys.executable, *readme[1:-2]]
    proc = subprocess.run([*build, "-E", "-w", str(warnings), str(DOCS), str(out / "html")],
                          cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert warnings.read_text().strip() == ""
    return out / "html"


def test_the_site_has_every_page_it_promises(site):
    for page in GUIDE:
        assert (site / f"{page}.html").is_file(), page
    # every Markdown page of docs/ is a page of the site (the README links into them)
    for page in DOCS.glob("*.md"):
        assert (site / f"{page.stem}.html").is_file(), page.name
    # the API reference: every public name, and the Displays' base
    for name in threshold_choice.__all__:
        # a callable module (bootstrap) is documented by its function
        page = f"{name}.{name}" if inspect.ismodule(getattr(threshold_choice, name)) else name
        assert (site / "generated" / f"threshold_choice.{page}.html").is_file(), name
    assert (site / "generated" / "threshold_choice.plotting.ThresholdChoiceDisplay.html").is_file()
    # the gallery: each example executed, its figure a PNG
    assert (site / "auto_examples" / "index.html").is_file()
    assert len(EXAMPLES) >= 5
    for example in EXAMPLES:
        assert (site / "auto_examples" / f"{example}.html").is_file(), example
        figure = site / "_images" / f"sphx_glr_{example}_001.png"
        assert figure.read_bytes()[:8] == PNG, example


def _schema_keys(node: dict, prefix: str = ""):
    for name, child in node.get("properties", {}).items():
        yield prefix + name
        yield from _schema_keys(child, prefix + name + ".")


def test_the_configuration_reference_lists_every_key_of_the_schema(site):
    schema = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())
    page = (site / "config-reference.html").read_text(encoding="utf-8")
    keys = list(_schema_keys(schema))
    assert "evaluation.cost_distribution" in keys and len(keys) > 30
    for key in keys:
        assert f'<span class="pre">{key}</span>' in page, key


def test_the_benchmarks_say_which_script_and_when():
    text = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    rows = [r for r in text.split("\n## ")[0].splitlines() if r.startswith("| ") and "---" not in r]
    assert len(rows) > 5
    for row in rows[1:]:
        _, script, measured = (c.strip() for c in row.strip("|").split("|"))
        assert re.search(r"\d{4}-\d\d-\d\d", measured), row
        for path in re.findall(r"(?:benchmarks|tests)/[\w/]+\.(?:py|sh)", script):
            assert (REPO / path).is_file(), path


def test_the_getting_started_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    namespace: dict = {}
    for i, code in enumerate(re.findall(r"```python\n(.*?)```", text, flags=re.S)):
        exec(compile(code, f"docs/getting-started.md block {i}", "exec"), namespace)
    assert set(namespace["losses"]["method"]) == {"test-optimal", "train-optimal",
                                                   "score-driven", "rate-driven"}
    assert (tmp_path / "certainty.png").read_bytes()[:8] == PNG


class _Page(HTMLParser):
    """What a rendered page shows: its title, code blocks, images and tables."""

    def __init__(self) -> None:
        super().__init__()
        self.title, self.images, self.pre, self.tables = "", [], 0, 0
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        self._in_title = tag == "title"
        self.pre += tag == "pre"
        self.tables += tag == "table"
        if tag == "img":
            self.images.append(dict(attrs).get("src", ""))

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag):
        self._in_title = self._in_title and tag != "title"


def _chromium(*args: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--disable-quic", f"--user-data-dir={profile}", *args],
            capture_output=True, text=True, timeout=180, check=True)


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="Debian's chromium is not installed (.ci/run installs it)")
@pytest.mark.parametrize(("page", "title", "figure"), [
    ("index.html", "threshold-choice", True),
    ("generated/threshold_choice.CertaintyDisplay.html", "CertaintyDisplay", True),
    ("auto_examples/plot_roc_cost_space.html", "ROC space beside cost space", True),
    ("config-reference.html", "Configuration reference", False),
])
def test_pages_render_in_a_browser(site, page, title, figure):
    path = site / page
    dom = _chromium("--virtual-time-budget=5000", "--dump-dom", path.as_uri()).stdout
    shown = _Page()
    shown.feed(dom)
    assert shown.title.startswith(title), shown.title
    assert shown.pre > 0  # a code block
    assert "Getting started" in dom and "API reference" in dom  # the site's navigation
    figures = [src for src in shown.images if src.endswith(".png")]
    if figure:
        assert figures, f"no figure on {page}"
    for src in figures:
        image = (path.parent / src).resolve()
        assert image.is_file() and image.read_bytes()[:8] == PNG, src
        assert image.stat().st_size > 1000, src
    if page == "config-reference.html":
        assert shown.tables >= 5 and "evaluation.gammas" in dom


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="Debian's chromium is not installed (.ci/run installs it)")
def test_a_gallery_page_is_drawn_with_its_figure(site, tmp_path):
    """A screenshot of a gallery page: a picture with more than the page's background."""
    import matplotlib.image

    shot = tmp_path / "page.png"
    _chromium("--hide-scrollbars", "--window-size=1280,1600", f"--screenshot={shot}",
              (site / "auto_examples" / "plot_certainty.html").as_uri())
    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[:2] == (1600, 1280)
    colours = {tuple(p) for p in (pixels[::8, ::8, :3] * 255).astype(int).reshape(-1, 3)}
    assert len(colours) > 50  # text, a code block's colours and the figure's lines


@pytest.mark.parametrize(("link", "broken"), [
    ("[a heading](other.md#a-heading)", False),
    ("[a heading](other.md#no-such-heading)", True),
    ("[a page](no-such-page.md)", True),
    ("{py:func}`threshold_choice.no_such_function`", True),
])
def test_a_broken_link_between_pages_fails_the_build(tmp_path, link, broken):
    """The site's settings (docs/conf.py: GitHub's heading anchors, nitpicky) on two pages:
    a link to a missing page or heading, or a reference to a missing object, is a warning,
    and so fails the build."""
    source = tmp_path / "src"
    source.mkdir()
    conf = str(DOCS / "conf.py")
    (source / "conf.py").write_text(
        f"ns = {{'__file__': {conf!r}}}\n"
        "exec(compile(open(ns['__file__']).read(), ns['__file__'], 'exec'), ns)\n"
        "extensions = ['myst_parser']\n"
        "myst_heading_anchors = ns['myst_heading_anchors']\n"
        "myst_enable_extensions = ns['myst_enable_extensions']\n"
        "nitpicky = ns['nitpicky']\n"
        "suppress_warnings = ns['suppress_warnings']\n")
    (source / "index.md").write_text(f"# Home\n\nSee {link}.\n\n```{{toctree}}\nother\n```\n")
    (source / "other.md").write_text("# Other\n\n## A heading\n\nText.\n")
    proc = subprocess.run([*BUILD, str(source), str(tmp_path / "html")], capture_output=True,
                          text=True, timeout=300)
    assert (proc.returncode != 0) == broken, proc.stderr
    if broken:
        assert "WARNING" in proc.stderr and "index.md" in proc.stderr
