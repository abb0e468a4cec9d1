"""Scenario files of a game in development: they cannot run (the engine lacks the game's mechanisms), but they
can be read. `check_waiting` reads one as far as the rule file alone allows, without the engine, so that a
file waiting for its game is already well formed when the game becomes playable:

- the header: `rules` (a game in development), `options`, `seats`, `dealer`, `first_deal`;
- each deal's shape, its cards (every card of the deck once: harness/scenario_cards.py) and its steps: every
  step names a seat of the file or is a check (`legal`, `turn`, `sees`, `trick`); a `play` or `discard` names
  cards of the deck, each played once in a deal, by a seat that was dealt it (or from the talon);
- `expect` and `outcome` state only keys a deal's result and an outcome have, with exact numbers, and only
  accounts the rule file keeps.

Anything wrong is an E501 at its line, as when the file runs.
"""
from __future__ import annotations

from pathlib import Path

from interpreter.diagnostics import DiagnosticError, best_matches
from interpreter.harness import scenario_input as shape
from interpreter.harness.scenario_cards import explicit_cards
from interpreter.harness.scenario_expect import OUTCOME_KEYS, RESULT_KEYS, refuse_decimals
from interpreter.harness.scenario_input import span_of

UNPLAYED_KEYS = ("declarer", "contract", "turn", "phase", "tricks")
CHECKS = ("legal", "turn", "sees", "trick")
CARD_WORDS = ("play", "discard")


def check_waiting(path: Path, target: str) -> int:
    """Read the scenario file at `path` for the rule file `target` (in development); its number of deals."""
    from interpreter.harness.scenario import _err, load_yaml
    from interpreter.pipeline import load

    _yaml, data, _text = load_yaml(path)
    shown = str(path)
    checker = shape.Checker(shown)
    rs = load(target, playable=False)
    shape.options(rs, data, checker)
    seats = shape.seats(rs, data, checker)
    dealer = checker.scalar(data.get("dealer", seats[-1]), "'dealer'", span_of(data, "dealer"))
    if dealer not in seats:
        raise checker.fail(f"unknown dealer seat '{dealer}'", span_of(data, "dealer"), suggestions=best_matches(dealer, seats))
    checker.whole(data.get("first_deal", 0), "'first_deal' (the number of the first deal, from 0)",
                  span_of(data, "first_deal"), 0, 10**9)
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise checker.fail("the scenario has no 'deals'", span_of(data, "deals"))
    accounts = set(rs.doc.get("account") or {}) | {"pot", "money"}
    for di, deal in enumerate(deals):
        shape.deal(rs, deal, di, seats, checker, deals)
        dealt = explicit_cards(rs, deal, seats, seats, shown, _err) if "hands" in deal else None
        _steps(rs, deal, seats, dealt, checker)
        _expect(deal, accounts, checker, unplayed=deal.get("rest") == "unplayed")
        if "outcome" in deal:
            _keys(deal["outcome"], OUTCOME_KEYS, "is not said of an outcome; it states", checker, span_of(deal, "outcome"))
    checker.mapping(data, "expect_final")
    return len(deals)


def _steps(rs, deal: dict, seats: list[str], dealt: dict | None, checker) -> None:
    """Every step names a seat or is a check; the cards a step plays or discards are the deck's, each played
    once, by a seat that holds it (dealt to it, or taken from the talon)."""
    holds = {s: set(h) for s, h in zip(seats, dealt["hands"])} if dealt else None
    talon = set(dealt["talon"]) if dealt else set()
    played: set[str] = set()
    steps = deal.get("actions") or []
    for ai, entry in enumerate(steps):
        (who, text), = entry.items()
        who, where = str(who), span_of(steps, index=ai)
        if who in CHECKS:
            continue
        if who not in seats:
            raise checker.fail(f"unknown seat '{who}'", where, suggestions=best_matches(who, seats))
        words = str(text).split()
        if not words or words[0] not in CARD_WORDS:
            continue
        for code in words[1:]:
            if code not in rs.card_index:
                raise checker.fail(f"unknown card '{code}' in '{who}: {text}'", where,
                                   suggestions=best_matches(code, rs.card_index))
            if words[0] != "play":
                continue
            if code in played:
                raise checker.fail(f"'{code}' is played twice in this deal", where)
            played.add(code)
            if holds is not None and code not in holds[who] and code not in talon:
                raise checker.fail(f"'{who}' plays '{code}', which was dealt to another seat", where)


def _expect(deal: dict, accounts: set[str], checker, unplayed: bool) -> None:
    if "expect" not in deal:
        return
    expect = deal["expect"]
    span = span_of(deal, "expect")
    if not isinstance(expect, dict) or not expect:
        raise checker.fail("'expect: {}' checks nothing; state what the deal comes to or leave 'expect' out", span)
    refuse_decimals(expect, checker, span)
    pool = dict.fromkeys(UNPLAYED_KEYS) if unplayed else RESULT_KEYS
    _keys(expect, pool, "is not part of a deal's result; expect states", checker, span)
    named = expect.get("accounts")
    for name in named if isinstance(named, dict) else ():
        if str(name) not in accounts:
            raise checker.fail(f"unknown account '{name}'", span_of(named, name) or span,
                               suggestions=best_matches(str(name), accounts))


def _keys(mapping, pool, says: str, checker, span) -> None:
    if not isinstance(mapping, dict):
        return
    refuse_decimals(mapping, checker, span)
    for key in mapping:
        if str(key) not in pool:
            raise checker.fail(f"'{key}' {says} {', '.join(pool)}", span_of(mapping, key) or span,
                               suggestions=best_matches(str(key), pool))


def waiting_target(path: Path) -> str | None:
    """The rule file a scenario file names, when it is a game in development (else None)."""
    from interpreter.files import is_file
    from interpreter.harness.scenario_files import _rules_of
    from interpreter.pipeline import check

    name = _rules_of(path)
    if not name:
        return None
    target = str(path.parent / name) if is_file(path.parent / name) else name
    try:
        report = check(target)
    except DiagnosticError:
        return None
    return target if report.only_pending else None
