"""A rule set read for some table options, before any backend hands out functions: the option values
checked against their bounds, the packets sized for them, the symbols of the expression language (cards,
groups, suits, calls, contracts, figures, options) and the compiler with the lets compiled. What every
compiled form of a rule set under those options shares (engine/rules.assemble builds on it)."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.engine import figures
from interpreter.engine.builtins import card_value
from interpreter.engine.compile import Compiler, Fn, Ref
from interpreter.engine.errors import RuleRuntimeError
from interpreter.model.expression import node_of
from interpreter.model.game import Option, Packet
from interpreter.model.nodes import Node, names_in
from interpreter.model.ruleset import Ruleset


def _option_values(rs: Ruleset, overrides: dict | None) -> dict:
    values = dict(rs.options)
    specs = rs.game.options
    for k, v in (overrides or {}).items():
        spec = specs[k] if k in specs else Option(k)
        # the bounds and choices the rule file declares for a table option
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if spec.min is not None and v < spec.min:
                raise ValueError(f"table option {k} = {v} is below its minimum {spec.min}")
            if spec.max is not None and v > spec.max:
                raise ValueError(f"table option {k} = {v} is above its maximum {spec.max}")
            step = spec.multiple_of
            if step and v % step:
                raise ValueError(f"table option {k} = {v} is not a multiple of {step}")
        if spec.choices and v not in spec.choices:
            raise ValueError(f"table option {k} = {v} is not one of {list(spec.choices)}")
        values[k] = v
    return values


def _dealt_by_options(rs: Ruleset, options: dict) -> tuple[Ruleset, tuple[Packet, ...]]:
    """The packets with their sizes worked out for these option values (a packet may give its size by
    an expression over the options), and the ruleset with the hand and talon they deal."""
    try:
        packets, per, talon, piles = rs.game.dealt_for(options, rs.players)
    except ValueError as err:       # an option value the checker could not try (no min/max): said in words
        raise RuleRuntimeError(f"with these table options the deal cannot be made: {err}") from None
    if (per, talon) == (rs.hand_size, rs.talon_size):
        return rs, packets
    if per * rs.players + talon + piles != rs.deck_size:
        raise ValueError(f"with these table options the packets deal {per * rs.players + talon + piles} cards, "
                         f"not the {rs.deck_size} of the deck")
    return dataclasses.replace(rs, hand_size=per, talon_size=talon), packets


@dataclass
class Prepared:
    """What every compiled form of a rule set under some options shares, whichever functions it runs:
    the option values, the packets, the symbols (the calls' and contracts' Refs) and the
    compiler with the lets compiled."""
    rs: Ruleset
    options: dict
    packets: tuple[Packet, ...]
    symbols: dict
    comp: Compiler
    refs_call: dict[str, Ref]
    refs_con: dict[str, Ref]
    pass_ref: Ref
    figure_refs: dict[str, Ref]
    roles: dict[str, int]


def prepare(rs: Ruleset, options_items: tuple) -> Prepared:
    """The document read for these table options, the symbols and the compiler, the lets compiled."""
    options = _option_values(rs, dict(options_items))
    rs, packets = _dealt_by_options(rs, options)
    suit_names = list(rs.suits)
    symbols: dict = {}
    for s in suit_names:
        symbols[s] = s
    for c in rs.cards:
        symbols[c.code] = card_value(c.index)       # one card, not a mask of the bits of its index
    for g, m in rs.groups.items():
        symbols[g] = m
    game = rs.game
    refs_call = {n: Ref(n, c.fields, "call") for n, c in game.calls.items()}
    refs_con = {n: Ref(n, c.fields, "contract") for n, c in game.contracts.items()}
    pass_ref = Ref("pass", {"rank": -1, "category": None}, "call")
    hold_word = game.hold_word
    for n, r in refs_con.items():
        symbols[n] = r
    for n, r in refs_call.items():
        symbols[n] = r          # a call shadows a contract of the same name; both compare equal by name
    symbols["pass"] = pass_ref
    if hold_word:
        symbols[hold_word] = Ref(hold_word, {"rank": -1, "category": None}, "call")
    for name in game.phases.auction.doubles:     # calls on the bid (phases/auction_doubles.py)
        symbols[name] = Ref(name, {"rank": -1, "category": None}, "call")
    for cat in game.categories:
        symbols.setdefault(cat, cat)
    figure_refs = figures.refs(rs.game.figures, Ref)
    for n, r in figure_refs.items():
        symbols.setdefault(n, r)
    for k, v in options.items():
        symbols[k] = v
    for name in game.phases.choices:
        symbols.setdefault(name, name)      # `chose(NAME)` reads the choice by its name
    roles = dict(game.roles)
    for role in roles:
        symbols.pop(role, None)
    game_accounts = {a for a, acc in rs.game.accounts.items() if acc.per == "game"}
    comp = Compiler(symbols, roles, game_accounts)
    comp.accounts |= set(rs.game.accounts)
    comp.card_sets = set(rs.groups)
    _compile_lets(comp, dict(game.lets))
    return Prepared(rs=rs, options=options, packets=packets, symbols=symbols, comp=comp,
                    refs_call=refs_call, refs_con=refs_con, pass_ref=pass_ref, figure_refs=figure_refs, roles=roles)


def _compile_lets(comp: Compiler, lets: dict) -> None:
    """Compile the rule file's lets: a let that uses another is compiled after it (the checker has already
    rejected cycles); let functions are compiled where they are called."""
    bodies = comp.let_bodies = let_bodies(lets)
    pending = {name: node for name, node in bodies.items() if name not in _functions(lets)}
    comp.seat_dependent = _seat_dependent(lets, bodies)
    for name in _functions(lets):
        comp.let_functions[name] = (tuple(lets[name]["params"]), bodies[name])
    for _ in range(len(pending) + 1):
        if not pending:
            break
        progressed = False
        for name in list(pending):
            node = pending[name]
            if any(n in pending and n != name for n in names_in(node)):
                continue
            comp.let_trees[name] = node
            comp.lets[name] = _memo(name, comp.node(node), name in comp.seat_dependent)
            del pending[name]
            progressed = True
        if not progressed:
            for name in list(pending):
                comp.lets[name] = comp.node(pending[name])
                del pending[name]


def let_bodies(lets: Mapping[str, Any]) -> dict[str, Node]:
    """Each let's body as a node (a constant's too), parsed by the front end; a let function's body."""
    return {name: node_of(body["body"] if isinstance(body, dict) else body) for name, body in lets.items()}


def _functions(lets: Mapping[str, Any]) -> list[str]:
    return [name for name, body in lets.items() if isinstance(body, dict)]


# the names that read the seat being judged (a let reading one depends on the seat)
SEAT_NAMES = {"s", "t", "me", "this", "side"}


def _seat_dependent(lets: dict, bodies: dict[str, Node]) -> set:
    """Lets whose value depends, directly or through other lets, on the seat being judged."""
    deps = {}
    for name, body in lets.items():
        deps[name] = names_in(bodies[name])
        if isinstance(body, dict):
            deps[name] |= set(body["params"])
    out: set = set()
    changed = True
    while changed:
        changed = False
        for name, used in deps.items():
            if name not in out and used & (SEAT_NAMES | out):
                out.add(name)
                changed = True
    return out


def _memo(name: str, f: Fn, seat_dependent: bool) -> Fn:
    """A let that does not depend on the seat being judged is computed once per settlement."""
    if seat_dependent:
        return f

    def cached(c: Any) -> Any:
        cache = c.cache
        if cache is None:
            return f(c)
        key = "let:" + name
        if key not in cache:
            cache[key] = f(c)
        return cache[key]
    return cached
