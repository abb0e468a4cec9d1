"""What a deal's `expect` and `outcome` may state, checked before the file runs: every key known and one the
game records, nothing empty, every number exact. A key the game never records, or a decimal where the
game counts in thirds, would otherwise pass or fail for the wrong reason; each is an error at its line
(E501, exit 2). docs/scenarios.md lists RESULT_KEYS and OUTCOME_KEYS; tests keep the lists equal.
"""
from __future__ import annotations

import re
from typing import Any

from interpreter.diagnostics import best_matches
from interpreter.harness.scenario_input import span_of

# every key `expect` may state of a finished deal, what it holds, and which games record it
RESULT_KEYS = {
    "declarer": "the declarer (`null` when nobody declares)",
    "contract": "the contract played (`null` after an all-pass without one)",
    "made": "whether the declaring side made its game, as every table reads it",
    "tricks": "tricks taken per seat",
    "payments": "money won or lost in the deal's settlement, per seat",
    "pot": "the pot after the deal",
    "rows": "the payment rows the deal paid, all of them, each by its name on the table (its note without the catalog ids) with the money per seat",
    "accounts": "every other account: `{NAME: {SEAT: value}}` (score columns, counters, columns kept per pair as `P/Q`, …)",
    "game_over": "whether the game has ended by `session.ends` once this deal is taken in",
    "sheet": "columns of the score sheet after the deal, per seat and by column title",
    "points": "card points per seat, exact (games that count card points)",
    "side_points": "card points of `declarers` and `defenders` with their talon shares (games that count card points)",
    "partner": "the declarer's partner (games with a called partner)",
    "declared": "figure → the seat that declared it (games with figures)",
    "kontras": "item → calls in its side-wide chain; the contract's name is the game (games with figures)",
    "personal": "`\"C/A\"` → calls in the personal chain on C's game between C and A (games with figures)",
    "figures": "figure → `declarers` or `defenders`, the side that made it (games with figures)",
}

# every key `outcome` may state, and which games use it
OUTCOME_KEYS = {
    "all_pass": "`true`: everyone passed (with the rule file's all-pass contract, state its `tricks`)",
    "declarer": "the declarer",
    "contract": "the contract played",
    "tricks": "tricks taken per seat",
    "playing": "the seats that played (games where a defender may stay out; default all)",
    "host": "the defender who invited or said kontra (games with a defence or a kontra)",
    "kontra": "the length of the kontra chain on the game (games with a kontra)",
    "partner": "the declarer's partner (games with a called partner)",
    "points": "card points per seat, exact: `35`, `\"107/3\"` or `\"35 2/3\"` (games that count card points)",
    "declared": "figure → the seat that declared it (games with figures)",
    "kontras": "item → calls in its chain; the contract's name is the game (games with figures)",
    "personal": "`C: 2` is C's chain with the declarer, `\"C/A\": 1` A's chain on C's game (games with figures)",
    "figures": "figure → `declarers`, `defenders` or a seat: who made it (games with figures)",
    "attempted": "figure → who tried it silently (games with figures)",
    "given_up": "`true`: the game was lost without play (games whose talon may give up)",
    "base_bidder": "a joining call's base bidder, who plays … (games with joining calls)",
    "base_contract": "… this contract too",
}


def counts_points(R: Any) -> bool:
    return any(c.points for c in R.rs.cards)


def _uses(R: Any) -> dict[str, bool]:
    """Whether the game records (or uses) each key that only some games do."""
    figures = bool(R.figures)
    kontra = R.kontra.present
    defence = R.defence.present
    return {
        "points": counts_points(R), "side_points": counts_points(R), "partner": R.partner.present,
        "declared": figures, "kontras": figures, "personal": figures, "figures": figures, "attempted": figures,
        "sheet": bool(R.sheet),
        "given_up": any(p.give_up is not None or p.requires is not None for p in R.talons.values()),
        "base_bidder": any(c.joins for c in R.calls), "base_contract": any(c.joins for c in R.calls),
        "kontra": kontra, "host": kontra or defence, "playing": defence,
    }


def _whose(description: str) -> str:
    """The games a key is for, as its description says in brackets at its end."""
    return description.rsplit("(", 1)[-1].rstrip(")")


def check_expect(R: Any, deal: dict, checker: Any, unplayed: bool = False) -> None:
    """The deal's `expect`: a mapping that states something, of keys the game records, numbers exact."""
    if "expect" not in deal:
        return
    expect = deal["expect"]
    span = span_of(deal, "expect")
    if not isinstance(expect, dict) or not expect:
        raise checker.fail("'expect: {}' checks nothing; state what the deal comes to (declarer, payments, …) "
                           "or leave 'expect' out", span)
    refuse_decimals(expect, checker, span)
    if unplayed:
        return                              # an unplayed deal's keys: scenario._check_unplayed
    uses = _uses(R)
    for key in expect:
        where = span_of(expect, key) or span
        k = str(key)
        if k not in RESULT_KEYS:
            raise checker.fail(f"'{key}' is not part of a deal's result; expect states {', '.join(RESULT_KEYS)}",
                               where, suggestions=best_matches(k, RESULT_KEYS))
        if not uses.get(k, True):
            raise checker.fail(f"{R.rs.name} records no '{k}': it is a result of {_whose(RESULT_KEYS[k])} only",
                               where)
    for key, value in expect.items():
        _check_shape(str(key), value, checker, span_of(expect, key) or span)
    accounts = expect.get("accounts")
    if isinstance(accounts, dict):
        for name in accounts:
            if str(name) not in R.accounts:
                raise checker.fail(f"unknown account '{name}'", span_of(accounts, name) or span,
                                   suggestions=best_matches(str(name), R.accounts))


def check_outcome(R: Any, outcome: Any, deal: dict, checker: Any) -> None:
    """The deal's `outcome`: keys the game uses, and an all-pass deal states only what one can."""
    if not isinstance(outcome, dict):
        return
    span = span_of(deal, "outcome")
    refuse_decimals(outcome, checker, span)
    uses = _uses(R)
    for key in outcome:
        where = span_of(outcome, key) or span
        k = str(key)
        if k not in OUTCOME_KEYS:
            raise checker.fail(f"'{key}' is not said of an outcome; it states {', '.join(OUTCOME_KEYS)}",
                               where, suggestions=best_matches(k, OUTCOME_KEYS))
        if not uses.get(k, True):
            raise checker.fail(f"{R.rs.name} has no use for '{k}' in an outcome: it is for {_whose(OUTCOME_KEYS[k])} "
                               "only", where)
    if outcome.get("all_pass"):
        played = R.auction.all_pass
        for key in outcome:
            k = str(key)
            if k == "all_pass" or (k == "tricks" and played is not None):
                continue
            if k == "tricks":
                raise checker.fail(f"in {R.rs.name} nothing is played when everyone passes: an all-pass deal has "
                                   "no 'tricks'", span_of(outcome, key) or span)
            raise checker.fail("an all-pass deal states only 'all_pass'"
                               + (f" and the 'tricks' of {played}" if played is not None else ""),
                               span_of(outcome, key) or span)


_DECIMAL = re.compile(r"(?=[^0-9]*[0-9])\s*[-+]?[0-9]*\.[0-9]*(?:\s+[0-9]+\s*/\s*[0-9]+)?\s*(?:…|\.\.\.)?\s*")


def refuse_decimals(node: Any, checker: Any, span: Any) -> None:
    """No decimal anywhere in an expectation: card points in thirds are never exact as decimals."""
    if isinstance(node, float) or (isinstance(node, str) and _DECIMAL.fullmatch(node)):
        raise checker.fail(f"{node!r} is a decimal, which is not exact: write a whole number or a fraction "
                           "(\"125/3\" or \"41 2/3\")", span)
    if isinstance(node, dict):
        for k, v in node.items():
            refuse_decimals(v, checker, span_of(node, k) or span)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            refuse_decimals(v, checker, span_of(node, index=i) or span)


DRAW_KEYS = {
    "dealer": "the player who deals first",
    "order": "the players by their drawn cards, the first dealer first",
    "seats": "where the players then sit: the players in the order of play, the first dealer first",
}


def check_draw(rs: Any, data: dict, failures: list[str], checker: Any) -> None:
    """`draw: {A: 7H, B: AD, …}` with `expect_draw: {dealer: A, order: [A, B, …], seats: [A, C, …]}`: the
    draw for the first dealer and, where the rule file seats the players by it (`seating.draw.places`),
    where each then sits."""
    from interpreter.engine.seating import draw_order, seats_by_draw

    drawn = data["draw"]
    span = span_of(data, "draw")
    if not isinstance(drawn, dict) or not drawn:
        raise checker.fail("'draw' maps players to the cards they drew", span)
    for p, code in drawn.items():
        if str(code) not in rs.card_index:
            raise checker.fail(f"unknown card '{code}'", span_of(drawn, p),
                               suggestions=best_matches(str(code), rs.card_index))
    cards = {str(p): str(c) for p, c in drawn.items()}
    order = draw_order(rs, cards)
    want = data.get("expect_draw") or {}
    for key in want:
        if str(key) not in DRAW_KEYS:
            raise checker.fail(f"'{key}' is not said of the draw; expect_draw states {', '.join(DRAW_KEYS)}",
                               span_of(want, key), suggestions=best_matches(str(key), DRAW_KEYS))
    if "dealer" in want and str(want["dealer"]) != order[0]:
        failures.append(f"draw: expected dealer {want['dealer']}, got {order[0]}")
    if "order" in want and [str(x) for x in want["order"]] != order:
        failures.append(f"draw: expected order {list(want['order'])}, got {order}")
    if "seats" in want:
        places = seats_by_draw(rs, cards)
        if not places:
            raise checker.fail(f"{rs.name}'s draw names the first dealer only, not the seats "
                               "(no `seating.draw.places`)", span_of(want, "seats"))
        seated = [places[k] for k in sorted(places)]
        if not isinstance(want["seats"], list) or [str(x) for x in want["seats"]] != seated:
            failures.append(f"draw: expected seats {want['seats']}, got {seated} (in the order of play, "
                            "the first dealer first)")


# what each result holds: a truth value, a name (or null), a number, or a mapping of them (per seat, …)
_TRUTHS = {"made", "game_over"}
_NAMES = {"declarer", "contract", "partner"}
_NUMBERS = {"pot"}
_NUMBERS_BY_KEY = {"tricks", "payments", "points", "side_points"}


def _check_shape(key: str, value: Any, checker: Any, where: Any) -> None:
    """An expectation of the wrong kind (`made: 1`, `payments: {A: "twenty"}`) is a malformed file
    (E501 at its line), not an expectation that passes or fails."""
    if key in _TRUTHS and not (isinstance(value, bool) or value is None):
        raise checker.fail(f"'{key}' is true or false, not {value!r}"[:200], where)
    if key in _NAMES and not (value is None or (isinstance(value, str) and value.strip())):
        raise checker.fail(f"'{key}' is a name (or null), not {value!r}"[:200], where)
    if key in _NUMBERS and not _number(value):
        raise checker.fail(f"'{key}' is a number, not {value!r}"[:200], where)
    if key in _NUMBERS_BY_KEY:
        if not isinstance(value, dict):
            raise checker.fail(f"'{key}' maps each seat to a number, not {value!r}"[:200], where)
        for k, v in value.items():
            if not _number(v):
                raise checker.fail(f"{key}.{k} is a number (whole, or exact such as 107/3 or 35 2/3), not {v!r}"[:200],
                                   span_of(value, k) or where)


def _number(v: Any) -> bool:
    from interpreter.harness.scenario_steps import as_number

    return v is None or (not isinstance(v, bool) and as_number(v) is not None)
