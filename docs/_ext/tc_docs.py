"""Sphinx extension of this project's site.

* **The configuration reference from the schema.** A page holding the line
  ``<!-- config-keys: PATH -->`` (PATH relative to the repository) gets, in its place, the
  table of every key of that JSON schema (YAML): its path, whether it is required, its
  type, allowed values and default, and its description, generated when the page is read, so
  that the table cannot drift from the schema the workflow validates against. A key without a
  ``description`` is a build warning (hence an error under ``-W``).
* **Tables from CSV files.** ``<!-- csv-table: PATH -->`` becomes the table of that CSV file
  (the known causes of differences with the paper, ``config/published/known_causes.csv``).
* **Aliases of public objects.** The API reference documents each public object once, under
  the name users import (``threshold_choice.expected_losses``); a docstring that names it by
  its defining module (``threshold_choice.evaluation.expected_losses``) is resolved to that
  entry instead of being reported missing.
"""

from __future__ import annotations

import csv
import importlib
import json
import re
import sys
from pathlib import Path
from typing import Any

import yaml
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

MARKER = re.compile(r"<!--\s*config-keys:\s*(\S+)\s*-->")
CSV_MARKER = re.compile(r"<!--\s*csv-table:\s*(\S+)\s*-->")


# -- the configuration reference -------------------------------------------------------------

def _code(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else value
    return "`" + text.replace("|", "\\|") + "`"


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _types(node: dict) -> list[str]:
    """The types a key takes: a string let through only for the config checker's message
    (``if: {type: string}``) is not a type of its own."""
    if "else" in node and node.get("if") == {"type": "string"}:
        node = {**node, **node["else"]}
    if "enum" in node:
        return ["one of " + ", ".join(_code(v) for v in node["enum"])]
    if "oneOf" in node:
        return [" or ".join(t for alt in node["oneOf"] for t in _types(alt))]
    if "$ref" in node:
        return [_cell(node["$ref"].rsplit("/", 1)[-1])]
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind else []
    out = []
    for k in kinds:
        if k == "array":
            items = node.get("items", {})
            inner = _types(items) if isinstance(items, dict) else []
            if "enum" in items:
                out.append("list of " + ", ".join(_code(v) for v in items["enum"]))
            elif inner and items.get("then"):
                out.append("list of numbers >= 0 or texts (`inf`)")
            else:
                out.append("list of " + (inner[0] if inner else "values"))
        elif k == "null":
            out.append("`null`")
        else:
            out.append(k)
    return out


def _bounds(node: dict) -> list[str]:
    if "else" in node and node.get("if") == {"type": "string"}:
        node = {**node, **node["else"]}
    out = []
    for key, sign in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="),
                      ("exclusiveMaximum", "<")):
        if key in node:
            out.append(f"{sign} {node[key]}")
    if "minItems" in node:
        out.append(f"at least {node['minItems']} item(s)")
    if node.get("uniqueItems"):
        out.append("no repeats")
    if "pattern" in node:
        out.append("matches " + _code(node["pattern"]))
    return out


def _rows(node: dict, path: str, required: bool, defs: dict, missing: list[str]):
    if "$ref" in node:  # a shared definition: its bounds and type, this key's default
        ref = defs.get(node["$ref"].rsplit("/", 1)[-1], {})
        node = {**ref, **{k: v for k, v in node.items() if k != "$ref"}}
    description = node.get("description")
    if path and not description:
        missing.append(path)
    kind = " or ".join(_types(node)) or "any"
    bounds = _bounds(node)
    default = _code(node["default"]) if "default" in node else ""
    key = f"`{path}`" + (" (required)" if required else "")
    detail = kind + ("; " + ", ".join(bounds) if bounds else "")
    if default:
        detail += "; default " + default
    yield key, detail, _cell(description or "")
    props = node.get("properties", {})
    needed = set(node.get("required", []))
    for name, child in props.items():
        yield from _rows(child, f"{path}.{name}" if path else name, name in needed, defs,
                         missing)


def config_reference(schema_path: Path) -> tuple[str, list[str]]:
    """The Markdown of the key tables of ``schema_path``, one table per top-level key that
    holds others, and the keys that have no description."""
    schema = yaml.safe_load(schema_path.read_text(encoding="utf-8"))
    defs = schema.get("$defs", {})
    needed = set(schema.get("required", []))
    missing: list[str] = []
    header = ("| key | type, allowed values, default | description |\n"
              "|---|---|---|\n")
    scalars, sections = [], []
    for name, node in schema["properties"].items():
        rows = list(_rows(node, name, name in needed, defs, missing))
        if "properties" in node:
            sections.append((name, rows))
        else:
            scalars.extend(rows)
    parts = ["## Top-level keys\n\n" + header + "".join(
        "| " + " | ".join(r) + " |\n" for r in scalars)]
    for name, rows in sections:
        parts.append(f"## `{name}`\n\n" + header + "".join(
            "| " + " | ".join(r) + " |\n" for r in rows))
    return "\n".join(parts), missing


def csv_table(path: Path) -> str:
    """A CSV file as a Markdown table (its header the table's)."""
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    head, body = rows[0], rows[1:]
    lines = ["| " + " | ".join(_cell(h) for h in head) + " |",
             "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in body]
    return "\n".join(lines) + "\n"


def _on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    for found in CSV_MARKER.finditer(source[0]):
        app.env.note_dependency(str(Path(app.srcdir).parent / found.group(1)))
    source[0] = CSV_MARKER.sub(
        lambda m: csv_table(Path(app.srcdir).parent / m.group(1)), source[0])
    match = MARKER.search(source[0])
    if not match:
        return
    schema_path = Path(app.srcdir).parent / match.group(1)
    app.env.note_dependency(str(schema_path))
    table, missing = config_reference(schema_path)
    for key in missing:
        logger.warning("config key %s has no description in %s", key, match.group(1),
                       location=docname, type="tc_docs", subtype="config")
    source[0] = MARKER.sub(lambda _: table, source[0])


# -- aliases of public objects ---------------------------------------------------------------

def _resolve(dotted: str) -> Any:
    """The object at a dotted path inside ``threshold_choice``, or None."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _documented(env, obj: Any) -> tuple[str, Any] | None:
    """The API reference's entry (name, domain entry) of ``obj``, if it has one."""
    for name, entry in env.get_domain("py").objects.items():
        if not entry.aliased and name.startswith("threshold_choice") and _resolve(name) is obj:
            return name, entry
    return None


def _defining_module(env, docname: str) -> str | None:
    """The module that defines the object a generated API page documents
    (``generated/threshold_choice.expected_losses`` -> ``threshold_choice.evaluation``)."""
    if not docname.startswith("generated/"):
        return None
    obj = _resolve(docname.removeprefix("generated/"))
    return getattr(obj, "__module__", None) if obj is not None else None


def _on_missing_reference(app: Sphinx, env, node, contnode):
    """A reference that Sphinx did not find, to an object of this package: linked to the API
    reference's entry of the same object when it has one (a docstring may name an object by
    its defining module, or by a name relative to that module); written as code without a
    link when the object exists but the reference does not document it (a constant, a
    private helper); left to Sphinx's warning when no such object exists (a typo, a
    rename). A bare name is looked for in the defining module, then in every module of the
    package (an autosummary table's summary lines are read in the API page's context)."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip("~.")
    candidates = [target] if target.startswith("threshold_choice") else []
    for module in (node.get("py:module"), _defining_module(env, node["refdoc"])):
        if module and module.startswith("threshold_choice"):
            parts = module.split(".")
            candidates += [".".join([*parts[:i], target]) for i in range(len(parts), 0, -1)]
    if "." not in target:  # a summary line of the API page names an object of its module
        candidates += sorted(f"{name}.{target}" for name, module in list(sys.modules.items())
                             if name.startswith("threshold_choice") and module is not None
                             and target in vars(module))
    for candidate in candidates:
        obj = _resolve(candidate)
        if obj is None:
            continue
        found = _documented(env, obj) if node.get("reftype") != "mod" else None
        if found is None:
            return contnode
        name, entry = found
        newnode = nodes.reference("", "", internal=True, reftitle=name)
        newnode["refuri"] = (app.builder.get_relative_uri(node["refdoc"], entry.docname)
                             + "#" + entry.node_id)
        newnode.append(contnode)
        return newnode
    return None


def _skip_foreign_members(app: Sphinx, what: str, name: str, obj: Any, skip: bool, options):
    """Members a class gets from scikit-learn (``set_fit_request``, ...) are scikit-learn's
    to document (their docstrings point into its own site)."""
    if re.fullmatch(r"set_\w+_request", name):
        return True
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and module and not module.startswith("threshold_choice"):
        return True
    return None


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _on_source_read)
    app.connect("missing-reference", _on_missing_reference)
    app.connect("autodoc-skip-member", _skip_foreign_members)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
