"""The direction of the imports between the packages: the library (the modules at the top of
``threshold_choice`` and ``plotting``) and the paper's ``datasets``, ``splits`` and ``models``
never load ``threshold_choice.reproduction`` or ``threshold_choice.cli``."""

from __future__ import annotations

import ast
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


# -- no import cycles ----------------------------------------------------------------------------


def _under_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def package_imports(modules: dict[str, Path]) -> dict[str, set[str]]:
    """``{module: the package's modules it imports}``, read from the source: every import,
    at the top or inside a function (a lazy import is still a dependency), except those only
    a type checker runs. ``from a import b`` counts module ``a.b`` when it is one, else
    ``a``; a module's own packages (which Python imports first anyway) are left out."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str] = set()
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        stack: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
        while stack:
            node = stack.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and _under_type_checking(child):
                    stack.extend(child.orelse)
                elif isinstance(child, ast.Import):
                    found |= {a.name for a in child.names if a.name in modules}
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        anchor = package.rsplit(".", child.level - 1)[0] if child.level > 1 \
                            else package
                        base = f"{anchor}.{base}" if base else anchor
                    for alias in child.names:
                        full = f"{base}.{alias.name}"
                        found.add(full if full in modules else base)
                else:
                    stack.append(child)
        graph[name] = {m for m in found & modules.keys()
                       if m != name and not name.startswith(m + ".")}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    cycles.append(sorted(component))
    return cycles


def _package_modules() -> dict[str, Path]:
    return {name: PACKAGE.parent.joinpath(*name.split("."), "__init__.py")
            if PACKAGE.parent.joinpath(*name.split("."), "__init__.py").is_file()
            else PACKAGE.parent.joinpath(*name.split(".")).with_suffix(".py")
            for name in module_names(PACKAGE)} | {"threshold_choice": PACKAGE / "__init__.py"}


def test_the_cycle_finder_finds_a_cycle_and_only_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_sees_lazy_imports_and_skips_type_checking_ones(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from pkg import c\n\ndef f():\n    from pkg.b import g\n")
    (pkg / "b.py").write_text("from . import a\ndef g():\n    pass\n")
    (pkg / "c.py").write_text("")
    modules = {"pkg": pkg / "__init__.py", "pkg.a": pkg / "a.py", "pkg.b": pkg / "b.py",
               "pkg.c": pkg / "c.py"}
    graph = package_imports(modules)
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"}
    assert import_cycles(graph) == [["pkg.a", "pkg.b"]]


def test_the_package_has_no_import_cycles():
    modules = _package_modules()
    assert "threshold_choice.methods.specs" in modules
    graph = package_imports(modules)
    assert "threshold_choice.methods.builders" in graph["threshold_choice.methods.specs"]
    assert import_cycles(graph) == []


# -- one home for the results folder's layout ---------------------------------------------------

#: spellings of the shared results paths that only ``reproduction.layout`` may write out
LAYOUT_SPELLINGS = ("runs.parquet", "table5.csv", "_gamma-", "comparison/", '"comparison"',
                    "/scores/", "/data/", "/splits/", "/runs/", "report.rst")
WORKFLOW = PACKAGE.parents[1] / "workflow"


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of ``path`` outside comments (docstrings and messages may name paths)."""
    return [(i, line) for i, line in enumerate(path.read_text().splitlines(), 1)
            if line.strip() and not line.strip().startswith("#")]


def test_the_rules_name_shared_results_paths_only_through_the_layout():
    offenders = [
        f"{rules.name}:{i}: {line.strip()}"
        for rules in sorted((WORKFLOW / "rules").glob("*.smk"))
        for i, line in _code_lines(rules)
        if "{R}/" in line and any(s in line for s in LAYOUT_SPELLINGS)
    ]
    assert not offenders, "write these paths with threshold_choice.reproduction.layout:\n" + \
        "\n".join(offenders)


def test_the_comparison_and_the_cli_read_the_results_through_the_layout():
    for module in ("reproduction/comparison.py", "reproduction/config.py", "cli/compare.py"):
        source = (PACKAGE / module).read_text()
        code = [line for line in source.splitlines() if "/ \"" in line or "/ '" in line]
        joined = [line for line in code if any(s in line for s in LAYOUT_SPELLINGS)]
        assert not joined, f"{module} joins a results path itself: {joined}"


def test_gamma_labels_of_the_paper_match_the_workflows_wildcard():
    import re

    from threshold_choice.reproduction import layout
    from threshold_choice.uncertainty import PAPER_GAMMAS, gamma_label

    pattern = re.compile(f"^({layout.GAMMA_LABEL})$")
    for gamma in (*PAPER_GAMMAS, 0.5, 1e30, 2.5e-3):
        assert pattern.match(gamma_label(gamma)), gamma
    assert not pattern.match("-1") and not pattern.match("nan")
