"""Bots that play any rule file: the random bot, the rule bot (bots/rule.py), a search bot that samples the hidden
cards from what its seat has seen (PIMC), and information-set MCTS on the same sampler.
`make_bot("search:64", seed)` builds one from a name;
`parse_bots("search,rule,rule", seats)` reads a per-seat list as the command line spells it."""
from __future__ import annotations

from typing import Any

from interpreter.bots.ismcts import IsmctsBot
from interpreter.bots.random_bot import RandomBot
from interpreter.bots.rule import RuleBot
from interpreter.bots.search import SearchBot
from interpreter.bots.view import SeatView, seat_view

KINDS = ("rule", "random", "search", "ismcts")


def make_bot(spec: str, seed: Any = 0) -> Any:
    """A bot from its name: `rule`, `random`, `search` or `search:N` (PIMC, N playouts per decision),
    `ismcts` or `ismcts:N` (information-set MCTS, N iterations per decision)."""
    name, _, arg = spec.partition(":")
    if name == "random" and not arg:
        return RandomBot(seed)
    if name == "rule" and not arg:
        return RuleBot(seed)
    if name == "search":
        if not arg:
            return SearchBot(seed)
        if arg.isascii() and arg.isdigit() and len(arg) <= 9 and int(arg) > 0:
            return SearchBot(seed, playouts=int(arg))
    if name == "ismcts":
        if not arg:
            return IsmctsBot(seed)
        if arg.isascii() and arg.isdigit() and len(arg) <= 9 and int(arg) > 0:
            return IsmctsBot(seed, iterations=int(arg))
    raise ValueError(f"unknown bot '{spec}': say rule, random, search[:N] (N playouts per decision) "
                     f"or ismcts[:N] (N iterations per decision)")


def parse_bots(text: str, seats: int) -> list[str]:
    """A comma-separated list of bot names, one per seat; a single name serves every seat."""
    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    if not parts:
        raise ValueError("--bots needs at least one bot name")
    for p in parts:
        make_bot(p)
    if len(parts) == 1:
        return parts * seats
    if len(parts) != seats:
        raise ValueError(f"--bots names {len(parts)} bots, the game has {seats} seats")
    return parts


__all__ = ["KINDS", "IsmctsBot", "RandomBot", "RuleBot", "SearchBot", "SeatView", "make_bot", "parse_bots", "seat_view"]
