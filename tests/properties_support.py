"""Shared settings and strategies of the property-based tests (test_properties.py,
test_properties_never_crash.py): the example counts (scaled by STICHWORT_PROPERTY_SCALE), the shipped rule
files and games' names, the strategies for the grammar's terminals and the weighted grammar strategy, and
the binary operators the expression strategies draw from."""
from __future__ import annotations

import functools
import os
import re
import string

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from interpreter.language.parser import _KEYWORDS, fresh_parser
from interpreter.resources import games_dir

# STICHWORT_PROPERTY_SCALE=20 runs twenty times as many examples (a deeper search before a release).
SCALE = int(os.environ.get("STICHWORT_PROPERTY_SCALE", "1"))
PROFILE = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                         HealthCheck.filter_too_much])


def examples(n: int) -> settings:
    return settings(PROFILE, max_examples=n * SCALE)


# Every shipped rule file, found when the tests are collected (games are added all the time); one
# snapshot, so that a file added during the run cannot change what Hypothesis draws from.
RULE_FILES = sorted(games_dir().rglob("*.stw"))
GAME_NAMES = sorted({p.stem for p in RULE_FILES})


# ---- strategies for the grammar's terminals ------------------------------------------------------

_LETTERS = string.ascii_letters + "_äöüéÀßłžčşДж"
_WORD_CHARS = _LETTERS + string.digits


def _is_name(text: str) -> bool:
    return re.fullmatch(r"(?!\d+$)\w+", text) is not None and text not in _KEYWORDS


names = st.one_of(
    st.tuples(st.sampled_from(_LETTERS), st.text(_WORD_CHARS, max_size=5)),
    st.tuples(st.text(string.digits, min_size=1, max_size=2), st.text(_LETTERS, min_size=1, max_size=2)),  # 10H
).map(lambda parts: "".join(parts)).map(lambda n: n + "_" if n in _KEYWORDS else n)
numbers = st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,2})?", fullmatch=True)
string_bodies = st.text(st.characters(codec="utf-8", exclude_characters='"\\\n'), max_size=8)
escapes = st.sampled_from(['\\"', "\\\\", "\\n", "\\t", "\\x"])
strings = st.lists(st.one_of(string_bodies, escapes), max_size=3).map(lambda parts: '"' + "".join(parts) + '"')
rule_lines = st.lists(st.sampled_from(["---", ":---", "---:", ":----:"]), min_size=1, max_size=3).map(
    lambda cells: "|" + "|".join(cells) + "|")
comments = st.text(st.characters(codec="utf-8", exclude_characters="\n\r"), max_size=10).map(lambda t: "#" + t + "\n")


def _spaced(strategy):
    """Tokens are written with a space either side, so that neighbours never run together."""
    return strategy.map(lambda tok: " " + tok + " ")


def terminal_strategies() -> dict:
    """Explicit strategies for every terminal of the grammar (from_lark cannot know that tokens must
    be separated, nor that NAME excludes the keywords)."""
    explicit = {
        "NAME": names, "NUMBER": numbers, "STRING": strings, "RULE_LINE": rule_lines,
        "COMP_OP": st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]),
    }
    out = {}
    for term in fresh_parser().terminals:
        if term.name == "WS":
            out[term.name] = st.sampled_from([" ", "\n", "\t"])
        elif term.name == "COMMENT":
            out[term.name] = st.just(" ") | comments
        elif term.name in explicit:
            out[term.name] = _spaced(explicit[term.name])
        else:
            assert term.pattern.type == "str", term.name
            out[term.name] = st.just(" " + term.pattern.value + " ")
    return out


_EXPRESSION_RULES = {"expr", "or_test", "and_test", "not_test", "comparison", "sum", "product", "unary", "power",
                     "postfix", "atom"}


def _weighted(name: str, options: list) -> list:
    """The expansions of one rule, repeated to weight the choice between them."""
    shortest = [e for e in options if len(e) == min(map(len, options))]
    if name in _EXPRESSION_RULES or name.startswith("__atom"):
        return shortest * 6 + options             # expressions branch a lot: mostly take the shortest way
    if name == "start":
        return [e for e in options if e] * 9 + options      # rarely an empty file
    if name.startswith(("__start_star", "__keyed_table_plus", "__row_plus")):
        return [e for e in options if e[0].name == name] * 2 + options     # a few statements, rows, cells
    if name == "value":
        return [e for e in options if [s.name for s in e] == ["expr"]] * 4 + options
    return options


@functools.cache
def grammar_strategy(start: str):
    """from_lark over the project's grammar, with the choice between a rule's expansions weighted:
    the expression rules branch so much that a uniform choice almost never stops, and Hypothesis
    would give up on nearly every draw."""
    strategy = from_lark(fresh_parser(), start=start, explicit=terminal_strategies())
    inner = strategy.wrapped_strategy
    inner.nonterminal_strategies = {name: st.sampled_from(_weighted(name, list(expansions.elements)))
                                    for name, expansions in inner.nonterminal_strategies.items()}
    return strategy


BINARY_OPS = ["or", "and", "+", "-", "*", "/", "%", "^", "in", "not in", "==", "!=", "<", "<=", ">", ">="]
