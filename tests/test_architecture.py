"""The direction of the imports between the packages: the library (the modules at the top of
``threshold_choice`` and ``plotting``) and the paper's ``datasets``, ``splits`` and ``models``
never load ``threshold_choice.reproduction`` or ``threshold_choice.cli``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import threshold_choice

PACKAGE = Path(threshold_choice.__file__).resolve().parent
#: the subpackages outside the library
APART = ("reproduction", "cli", "datasets", "splits", "models")
FORBIDDEN = ("threshold_choice.reproduction", "threshold_choice.cli")

# Imports each module of argv[1] (a JSON list) in turn and prints, for each, the modules of the
# prefixes argv[2:] that importing it loaded first (so a failure names the culprit).
_PROBE = """
import importlib, json, sys
modules, prefixes = json.loads(sys.argv[1]), tuple(sys.argv[2:])
below = tuple(p + "." for p in prefixes)
def loaded():
    return {m for m in sys.modules if m in prefixes or m.startswith(below)}
seen, culprits = loaded(), {}
for name in modules:
    importlib.import_module(name)
    new = loaded() - seen
    if new:
        culprits[name] = sorted(new)
        seen |= new
print(json.dumps(culprits))
"""


def module_names(folder: Path) -> list[str]:
    """The dotted names of the modules in ``folder`` and below (from the files, importing
    nothing), ``__main__`` left out."""
    names = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def library_modules() -> list[str]:
    apart = tuple(f"threshold_choice.{p}" for p in APART)
    return [m for m in module_names(PACKAGE)
            if m != "threshold_choice" and not m.startswith(apart)]


def first_loaders(modules: list[str], prefixes: tuple[str, ...] = FORBIDDEN) -> dict[str, list]:
    """``{module: [modules of prefixes it loaded first]}``, importing ``modules`` in order in a
    fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(modules), *prefixes],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_the_probe_sees_a_module_that_loads_the_reproduction():
    figures = "threshold_choice.reproduction.figures"
    culprits = first_loaders(["threshold_choice.costlines", figures])
    assert list(culprits) == [figures]
    assert "threshold_choice.reproduction.paper" in culprits[figures]


def test_the_library_modules_are_found():
    modules = library_modules()
    for name in ("threshold_choice.evaluation", "threshold_choice.plotting._base",
                 "threshold_choice.plotting._common", "threshold_choice.plotting"):
        assert name in modules
    assert not [m for m in modules if ".reproduction" in m or ".cli" in m or ".models" in m]


def test_the_library_loads_neither_the_reproduction_nor_the_cli():
    assert first_loaders(library_modules()) == {}


def test_datasets_splits_and_models_load_neither_the_reproduction_nor_the_cli():
    modules = [m for p in ("datasets", "splits", "models") for m in module_names(PACKAGE / p)]
    assert "threshold_choice.models.weka" in modules and "threshold_choice.splits.core" in modules
    assert first_loaders(modules) == {}
