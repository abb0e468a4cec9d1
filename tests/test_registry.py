"""The vocabulary registry keeps its promises: every entry has a doc and an example, the engine
implements exactly the entries that are not pending, the schema's phases and obligations are the
registry's, and every pending document field is one the schema describes."""
from __future__ import annotations

import pytest

from interpreter.diagnostics import DiagnosticError
from interpreter.engine import implemented
from interpreter.language.expressions import parse_text
from interpreter.model.vocabulary import ENTRIES, FIELDS, KINDS, OBLIGATIONS, PHASES, REGISTRY
from interpreter.resources import schema

ENGINE_KINDS = ("value", "function", "comprehension", "phase", "obligation")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.kind}:{e.name}")
def test_every_entry_has_a_doc_and_an_example(entry):
    assert entry.kind in KINDS
    assert entry.doc.strip() and entry.example.strip()
    bare = entry.name.split("=")[0].split(".")[-1]
    assert bare in entry.example, f"the example of {entry.name} does not show it"
    if entry.kind in ("value", "function", "comprehension"):
        try:
            parse_text(entry.example)
        except DiagnosticError as err:
            pytest.fail(f"the example of {entry.name} is not an expression: {err}")


def test_names_are_unique_per_kind():
    assert len(REGISTRY) == len(ENTRIES)


@pytest.mark.parametrize("kind", ENGINE_KINDS)
def test_the_engine_implements_exactly_what_is_not_pending(kind):
    engine = implemented()[kind]
    declared = {e.name for e in ENTRIES if e.kind == kind and not e.pending}
    pending = {e.name for e in ENTRIES if e.kind == kind and e.pending}
    assert not (declared - engine), f"registry {kind}s without an implementation: {sorted(declared - engine)}"
    assert not (engine - declared - pending), f"engine {kind}s the registry does not declare: {sorted(engine - declared - pending)}"
    assert not (pending & engine), f"pending {kind}s the engine implements (clear the flag): {sorted(pending & engine)}"


def _enums_at(node, key: str) -> set[str]:
    """Every enum value found under properties named `key`, anywhere in the schema."""
    found: set[str] = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            for k, v in n.items():
                if k == key:
                    inner = [v]
                    while inner:
                        m = inner.pop()
                        if isinstance(m, dict):
                            found.update(x for x in m.get("enum", ()) if isinstance(x, str))
                            inner.extend(m.values())
                        elif isinstance(m, list):
                            inner.extend(m)
                stack.append(v)
        elif isinstance(n, list):
            stack.extend(n)
    return found


def test_schema_phases_are_the_registry_phases():
    assert _enums_at(schema(), "procedure") == set(PHASES)


def test_schema_obligations_are_the_registry_obligations():
    assert _enums_at(schema(), "obligations") == set(OBLIGATIONS)


def _schema_has(path: str) -> bool:
    where, _, value = path.partition("=")
    nodes = [schema()]
    for step in where.split("."):
        nxt = []
        for n in nodes:
            nxt += _children(n, step)
        nodes = nxt
    if not nodes:
        return False
    return not value or any(value in _enums_at({"x": n}, "x") for n in nodes)


def _children(node, step: str) -> list:
    """Schema nodes reached from `node` by one step of a document path (`*` = any member name)."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        if not isinstance(n, dict):
            continue
        for comb in ("oneOf", "anyOf", "allOf"):
            stack.extend(n.get(comb, []))
        if "$ref" in n:
            ref = n["$ref"].split("/")[-1]
            stack.append(schema().get("$defs", {}).get(ref, {}))
        props = n.get("properties", {})
        if step == "*":
            if isinstance(n.get("additionalProperties"), dict):
                out.append(n["additionalProperties"])
            out.extend(n.get("patternProperties", {}).values())
        elif step in props:
            out.append(props[step])
    return out


@pytest.mark.parametrize("path", FIELDS)
def test_every_pending_field_is_described_by_the_schema(path):
    assert _schema_has(path), f"{path} is not a field of the schema"
