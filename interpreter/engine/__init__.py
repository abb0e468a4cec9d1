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

from interpreter.engine.deals import validate_deal
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.rules import DEFAULT_KONTRA_MAX, Rules, compile_rules
from interpreter.engine.state import IllegalAction, State
from interpreter.model.ruleset import Ruleset


def deal_cards(rules: Rules, rng: random.Random, dealer: int) -> tuple[list[int], list[int]]:
    """Shuffle with `rng` and deal by the packet schedule: (hands by seat, talon list)."""
    deck = list(range(len(rules.cards)))
    rng.shuffle(deck)
    n = rules.n_seats
    active = [s for s in range(n) if not (n > rules.players and s == dealer)]
    start = (dealer + 1) % n
    order = sorted(active, key=lambda s: (s - start) % n)
    hands = [0] * n
    talon: list[int] = []
    pos = 0
    for p in rules.doc["deal"]["packets"]:
        for _ in range(p.get("repeat", 1)):
            if p["to"] == "each":
                for s in order:
                    for c in deck[pos:pos + p["cards"]]:
                        hands[s] |= 1 << c
                    pos += p["cards"]
            else:
                talon.extend(deck[pos:pos + p["cards"]])
                pos += p["cards"]
    return hands, talon


def new_game(ruleset: Ruleset, seed: int | None = None, deal: dict | None = None, options: dict | None = None,
             dealer: int = 0, accounts: dict | None = None, deal_number: int = 0) -> State:
    """A new deal: cards from `seed` (a seeded random.Random) or explicit `deal` = {"hands": [...], "talon": [...]}
    with card codes."""
    rules = compile_rules(ruleset, options)
    if deal is not None:
        hands, talon = validate_deal(rules, deal.get("hands"), deal.get("talon", []), dealer)
    else:
        rng = random.Random(seed)
        hands, talon = deal_cards(rules, rng, dealer)
    return State(rules, dealer, hands, talon, accounts=accounts, deal_number=deal_number)


__all__ = ["new_game", "deal_cards", "State", "IllegalAction", "compile_rules", "RuleRuntimeError", "DEFAULT_KONTRA_MAX"]
