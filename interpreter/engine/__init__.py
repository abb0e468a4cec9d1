"""The generic engine: deal, bid, play and settle any rule file through one state machine.

    from interpreter import load
    from interpreter.engine import new_game
    state = new_game(load(NAME), seed=7)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    print(state.result())
"""
from __future__ import annotations

import random

from interpreter.engine import builtins
from interpreter.engine.deals import deal_cards, validate_deal
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.phases import PHASES
from interpreter.engine.phases.play import OBLIGATIONS
from interpreter.engine.rules import DEFAULT_KONTRA_MAX, compile_rules
from interpreter.engine.state import IllegalAction, State
from interpreter.model.ruleset import Ruleset


def new_game(ruleset: Ruleset, seed: int | None = None, deal: dict | None = None, options: dict | None = None,
             dealer: int = 0, accounts: dict | None = None, deal_number: int = 0, seat_player: tuple | None = None,
             table=None, rng: random.Random | None = None) -> State:
    """A new deal: cards from `seed` (a seeded random.Random), from the caller's generator `rng` (shuffled as
    `rng.shuffle` would, drawing what it draws: a driver that plays many deals passes its own generator
    instead of a seed per deal), or explicit `deal` = {"hands": [...], "talon": [...]} with card codes.
    `seat_player` and `table`: who sits where in a session of sits (engine/reseating.py)."""
    if rng is not None and (seed is not None or deal is not None):
        raise ValueError("new_game takes one of seed, rng and deal")
    rules = compile_rules(ruleset, options)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < rules.n_seats:
        raise ValueError(f"the dealer must be a seat of the deal, 0 to {rules.n_seats - 1}, not {dealer!r}")
    if deal is not None:
        hands, talon = validate_deal(rules, deal.get("hands"), deal.get("talon", []), dealer, deal_number, accounts)
    else:
        if rng is None:
            rng = random.Random(seed)
        hands, talon = deal_cards(rules, rng, dealer, deal_number, accounts)
    return State(rules, dealer, hands, talon, accounts=accounts, deal_number=deal_number, seat_player=seat_player,
                 table=table)


def implemented() -> dict[str, set[str]]:
    """What the engine implements, by kind: read from the dispatch tables the engine really uses."""
    return {
        "value": set(builtins.VALUES),
        "function": set(builtins.FUNCTIONS),
        "comprehension": set(builtins.COMPREHENSIONS),
        "phase": set(PHASES),
        "obligation": set(OBLIGATIONS),
    }


__all__ = ["implemented", "new_game", "deal_cards", "State", "IllegalAction", "compile_rules", "RuleRuntimeError", "DEFAULT_KONTRA_MAX"]
