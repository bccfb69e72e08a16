"""A documented API: every public object (``threshold_choice.__all__`` and the eight Displays
with their ``from_predictions``, ``from_estimator`` and ``plot``) has a numpydoc docstring
that numpydoc's validator accepts, and its examples run as doctests, one test per object.
The constants of ``__all__`` (numpydoc validates callables and classes only) each have a
``#:`` comment where their module defines them."""

from __future__ import annotations

import doctest
import importlib
import inspect
import io
import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")  # the Displays' examples draw; no window, whatever the environment

import matplotlib.pyplot as plt
from numpydoc.validate import ERROR_MSGS, Validator, get_doc_object, validate

import threshold_choice

DISPLAYS = ("CostCurveDisplay", "BrierCurveDisplay", "CertaintyDisplay", "DecisionCurveDisplay",
            "FROCDisplay", "FCostDisplay", "ROCDisplay", "LogOddsRegretDisplay")
DISPLAY_METHODS = ("from_predictions", "from_estimator", "plot")
#: the Display of beliefs (no scores): its constructor, its refusal of scores, and plot
BELIEF_METHODS = tuple(f"threshold_choice.plotting.CostWeightDisplay.{method}"
                       for method in ("from_distributions", "from_predictions", "plot"))

#: numpydoc's checks this API keeps: all of them but four.
#: * PR01, PR02, PR03 (parameters missing from the docstring, unknown to the signature, out of
#:   its order), RT01 (no Returns for a callable that returns something), EX01 (no Examples)
#:   and SS01 (no summary): the contract itself;
#: * the rest of SS (a one-line summary, capitalised, ending in a period), PR04/PR07 (each
#:   parameter has a type and a description), PR10/RT02/GL02/GL03/GL06/GL07 (the layout the
#:   numpydoc parser and Sphinx rely on: a misspelt or misplaced section is otherwise silently
#:   not parsed), YD01 (Yields of generators), PR05/PR06/PR08/PR09, RT03-RT05, SA02-SA04
#:   (descriptions present, capitalised and ended, as the whole API writes them), GL08 (no
#:   docstring), GL09/GL10 (deprecation notes and directives);
#: left out: ES01 (an extended summary; needed only where a convention matters, and then
#: written), SA01 (a See Also section; given where helpful, not everywhere), SS05 (a
#: heuristic taking a first word ending in "s" for a third-person verb: it misfires on nouns)
#: and GL01 (the project writes the summary on the line of the opening quotes, PEP 257's
#: style, which numpydoc 1.8 flags and later releases accept).
ENFORCED = frozenset(ERROR_MSGS) - {"ES01", "SA01", "SS05", "GL01"}


def _documented() -> list[str]:
    """Import paths of the callables and classes of ``__all__`` (each in the module
    ``_EXPORTS`` names) and of the Displays' public methods."""
    paths = []
    for name in threshold_choice._EXPORTS:
        obj = getattr(threshold_choice, name)
        if inspect.isclass(obj) or inspect.isroutine(obj):
            paths.append(f"threshold_choice.{threshold_choice._EXPORTS[name]}.{name}")
    # the modules callable as their function: the function's docstring
    paths += [f"threshold_choice.{name}.{name}" for name in threshold_choice._CALLABLE_MODULES]
    paths += [f"threshold_choice.plotting.{display}.{method}"
              for display in DISPLAYS for method in DISPLAY_METHODS]
    return [*paths, *BELIEF_METHODS]


DOCUMENTED = _documented()
CONSTANTS = [name for name in threshold_choice._EXPORTS
             if f"threshold_choice.{threshold_choice._EXPORTS[name]}.{name}" not in DOCUMENTED]


def _short(path: str) -> str:
    return path.removeprefix("threshold_choice.")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def numpydoc_errors(path: str) -> list[str]:
    """The enforced numpydoc errors of the object at ``path``."""
    errors = [(code, message) for code, message in validate(path)["errors"] if code in ENFORCED]
    obj = Validator._load_obj(path)
    if inspect.ismethod(obj):
        # numpydoc checks the Returns of plain functions only, not of a method bound to its
        # class (the Displays' from_* classmethods): the same check, here
        doc = Validator(get_doc_object(obj))
        if not doc.returns and not doc.yields and doc.method_returns_something:
            errors.append(("RT01", ERROR_MSGS["RT01"]))
    return [f"{code}: {message}" for code, message in errors]


def test_every_public_object_is_checked():
    assert len(DOCUMENTED) == (len(threshold_choice.__all__) - len(CONSTANTS)
                               + 3 * len(DISPLAYS) + len(BELIEF_METHODS))
    assert sorted(CONSTANTS) == ["METHODS", "PAPER_GAMMAS", "PAPER_METHODS"]
    assert {f"threshold_choice.plotting.{d}" for d in DISPLAYS} <= set(DOCUMENTED)


@pytest.mark.parametrize("path", DOCUMENTED, ids=_short)
def test_the_docstring_is_numpydoc(path):
    errors = numpydoc_errors(path)
    assert not errors, f"{path}:\n" + "\n".join(errors)


def test_a_missing_parameters_section_fails_the_check(monkeypatch):
    """The check can fail: without its Parameters section, a docstring is refused."""
    from threshold_choice import uncertainty

    doc = uncertainty.parse_gamma.__doc__
    cut = re.sub(r"\n    Parameters\n    ----------\n.*?\n\n", "\n", doc, count=1, flags=re.S)
    assert cut != doc
    monkeypatch.setattr(uncertainty.parse_gamma, "__doc__", cut)
    assert any(e.startswith("PR01") for e in numpydoc_errors("threshold_choice.uncertainty"
                                                             ".parse_gamma"))


def _doctests(path: str) -> list[doctest.DocTest]:
    """The examples of the object at ``path`` (a class with its own methods'), run in a
    namespace of their own: each example imports what it uses."""
    obj = Validator._load_obj(path)
    finder = doctest.DocTestFinder(exclude_empty=True)
    return finder.find(obj, _short(path), module=inspect.getmodule(obj), globs={})


@pytest.mark.parametrize("path", DOCUMENTED, ids=_short)
def test_the_examples_run(path):
    tests = _doctests(path)
    assert sum(len(t.examples) for t in tests) > 0, f"{path} has no examples"
    runner = doctest.DocTestRunner(optionflags=0)  # as plain doctest runs them
    report = io.StringIO()
    for test in tests:
        runner.run(test, out=report.write)
    assert runner.failures == 0, report.getvalue()


@pytest.mark.parametrize("name", CONSTANTS)
def test_each_constant_has_a_documentation_comment(name):
    """Sphinx's ``#:`` comment, in the module (or a module of the package) ``_EXPORTS``
    names."""
    module = importlib.import_module(f"threshold_choice.{threshold_choice._EXPORTS[name]}")
    where = Path(module.__file__)
    files = sorted(where.parent.glob("*.py")) if where.name == "__init__.py" else [where]
    comments = [m.group(1) for f in files for m in re.finditer(
        rf"((?:^#: .*\n)+)^{name}\b", f.read_text(encoding="utf-8"), flags=re.M)]
    assert len(comments) == 1, f"{name}: no #: comment before its definition"
    assert len(comments[0]) > 80  # it says what the constant holds, not just its name
