"""The schema check validates against the schema with its `$defs` references written in place
(interpreter/checks/schema.py, for speed). It must report exactly what the published schema, with its
references, reports: the same errors at the same paths, with the same help text, for every built-in
rule file and for many broken copies of each."""
from __future__ import annotations

import copy
import random

import pytest
from jsonschema import Draft202012Validator

from interpreter.checks import schema as schema_check
from interpreter.language.loader import load as load_document
from interpreter.resources import builtin_games, schema

GAMES = sorted(builtin_games())
BAD_VALUES = [12345678901, -3, [], ["x y"], {"zz": 1}, "not a name!", True, None, "a" * 5000, 1.5]


def _errors(validator: Draft202012Validator, doc: dict) -> list[tuple]:
    out = []
    for err in validator.iter_errors(doc):
        sub = err.schema if isinstance(err.schema, dict) else {}
        out.append((tuple(map(str, err.absolute_path)), err.validator, err.message,
                    schema_check._resolve(sub).get("description"), "propertyNames" in err.schema_path))
    return sorted(out, key=repr)


def _paths(node, path=()):
    """Every place in a document: (parent, key) pairs, parents first."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield node, k
            yield from _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield node, i
            yield from _paths(v, (*path, i))


def test_inlined_schema_has_no_references_left():
    def refs(node):
        if isinstance(node, dict):
            return sum((refs(v) for k, v in node.items() if k != "$defs"), int("$ref" in node))
        if isinstance(node, list):
            return sum(refs(v) for v in node)
        return 0
    assert refs(schema()) > 0
    assert refs(schema_check.validator().schema) == 0


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_inlined_schema_reports_what_the_published_schema_reports(game):
    reference = Draft202012Validator(schema())
    fast = schema_check.validator()
    doc = load_document(game, False).doc
    assert _errors(fast, doc) == _errors(reference, doc) == []
    rng = random.Random(game)
    places = list(_paths(doc))
    broken = 0
    for _ in range(25):
        bad = copy.deepcopy(doc)
        # the same place in the copy: walk the copy in the same order
        i = rng.randrange(len(places))
        parent, key = list(_paths(bad))[i]
        if isinstance(parent, dict) and rng.random() < 0.2:
            parent["unknown_" + str(key)] = 1
        else:
            parent[key] = rng.choice(BAD_VALUES)
        want = _errors(reference, bad)
        assert _errors(fast, bad) == want
        broken += bool(want)
    assert broken > 5     # the mutations did break most copies, so the comparison says something
