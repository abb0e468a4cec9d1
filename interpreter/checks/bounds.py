"""Pass: static cost bounds, so that every rule file that validates runs in bounded time and memory.

- E320 an expression whose cost, with every `let` function inlined (as the engine compiles them) and
  every comprehension multiplied by the size of what it ranges over, passes MAX_COST steps — a chain
  of `let` functions that each call the previous one twice doubles per level;
- E321 comprehensions nested deeper than MAX_COMPREHENSION_DEPTH, or one ranging over a list
  literal longer than MAX_RANGE;
- E322 a power whose exponent can be told in advance and is above MAX_EXPONENT (towers of powers);
- E311 a procedure missing a phase its sections need (calls that leave a choice of contracts and
  no `contract` phase to make it; a `contract` phase before the auction);
- E312 seat arithmetic that leaves the table: more seats than players with nobody sitting out, more
  than one seat too many, a role further from the dealer than the table is wide;
- E313 a talon that makes a player discard more cards than he holds, or take more than it has.
"""
from __future__ import annotations

import math

from interpreter.checks.context import Context
from interpreter.diagnostics import DiagnosticError
from interpreter.language.document import escape
from interpreter.language.expressions import children, parse_text
from interpreter.model.deck import resolved_packets, schedule_counts

MAX_COST = 100_000               # evaluation steps of one expression
MAX_COMPREHENSION_DEPTH = 3
MAX_RANGE = 1_000                # entries of a list literal a comprehension ranges over
MAX_EXPONENT = 64                # as the engine's power()
SEAT_SETS = {"seats", "active", "defenders", "declarers", "playing", "side"}


class _TooDeep(Exception):
    pass


class Costs:
    """Costs and sizes of expressions, `let` definitions memoised."""

    def __init__(self, ctx: Context, lets: dict[str, tuple[tuple, tuple]]):
        self.ctx = ctx
        self.lets = lets
        self.memo: dict[str, int] = {}
        self.busy: set[str] = set()
        seating = ctx.doc.get("seating")
        seats = seating.get("seats") if isinstance(seating, dict) else None
        players = ctx.doc.get("players")
        self.seats = seats if isinstance(seats, int) else players if isinstance(players, int) else 8
        self.deck = max(len(ctx.cards), 1)

    def size(self, node) -> int:
        """How many members a comprehension's iterable can have."""
        if node[0] == "list":
            return len(node[1])
        if node[0] == "name" and node[1] in SEAT_SETS:
            return self.seats
        return self.deck

    def let_cost(self, name: str) -> int:
        if name in self.memo:
            return self.memo[name]
        if name in self.busy:          # a cycle: the expressions pass reports it
            return 1
        self.busy.add(name)
        try:
            cost = self.cost(self.lets[name][1])
        finally:
            self.busy.discard(name)
        self.memo[name] = cost
        return cost

    def cost(self, node, depth: int = 0) -> int:
        if depth > 400:
            raise _TooDeep
        kind = node[0]
        if kind == "comp":
            _, _fname, body, _var, iterable, cond = node
            inner = self.cost(body, depth + 1) + (self.cost(cond, depth + 1) if cond is not None else 0)
            return min(self.cost(iterable, depth + 1) + self.size(iterable) * inner, MAX_COST * 10)
        total = 1
        if (kind == "call" and node[1] in self.lets) or (kind == "name" and node[1] in self.lets
                                                           and not self.lets[node[1]][0]):
            total += self.let_cost(node[1])
        for child in children(node):
            total += self.cost(child, depth + 1)
            if total > MAX_COST * 10:
                return total
        return total


def _comprehension_depth(node, depth: int = 0) -> int:
    if depth > 400:
        raise _TooDeep
    here = 1 if node[0] == "comp" else 0
    return here + max((_comprehension_depth(c, depth + 1) for c in children(node)), default=0)


def _long_ranges(node, out: list, depth: int = 0) -> None:
    if depth > 400:
        raise _TooDeep
    if node[0] == "comp" and node[4][0] == "list" and len(node[4][1]) > MAX_RANGE:
        out.append(len(node[4][1]))
    for c in children(node):
        _long_ranges(c, out, depth + 1)


def _value(node, lets, depth: int = 0):
    """The value of a constant number expression, or None when it depends on the game."""
    if depth > 400:
        raise _TooDeep
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind == "neg":
        v = _value(node[1], lets, depth + 1)
        return -v if v is not None else None
    if kind == "name" and node[1] in lets and not lets[node[1]][0]:
        return _value(lets[node[1]][1], lets, depth + 1)
    if kind == "bin" and node[1] in ("+", "-", "*", "^"):
        a, b = _value(node[2], lets, depth + 1), _value(node[3], lets, depth + 1)
        if a is None or b is None:
            return None
        if node[1] == "^":
            if b.denominator != 1 or b < 0 or b > MAX_EXPONENT or abs(a) > 2 ** 64:
                return None
            return a ** int(b)
        return a + b if node[1] == "+" else a - b if node[1] == "-" else a * b
    return None


def _big_exponents(node, lets, out: list, depth: int = 0) -> None:
    if depth > 400:
        raise _TooDeep
    if node[0] == "bin" and node[1] == "^":
        e = _value(node[3], lets)
        if e is not None and (e > MAX_EXPONENT or e < 0 or e.denominator != 1):
            out.append(e)
        elif e is None and _constant_tower(node[3], lets):
            out.append(None)             # constant, but too large to work out
        elif e is not None:
            a = _value(node[2], lets)    # a constant power beyond what the engine computes (2 ^ 64)
            if a is not None and abs(a) > 1 and int(e) * math.log2(abs(a)) > MAX_EXPONENT:
                out.append(("power", a, int(e)))
    for c in children(node):
        _big_exponents(c, lets, out, depth + 1)


def _constant_tower(node, lets) -> bool:
    """A power of constants too large to compute in advance (2 ^ 2 ^ 2 ^ 2 ^ 2). A `let` without parameters
    counts as constant only when its body is: `let K = kontra_level` is not."""
    stack = [node]
    seen: set[str] = set()
    while stack:
        n = stack.pop()
        if n[0] == "name":
            if not (n[1] in lets and not lets[n[1]][0]) or n[1] in seen:
                return False                # a game value, or a cycle (E404 says so)
            seen.add(n[1])
            stack.append(lets[n[1]][1])
            continue
        if n[0] not in ("num", "bin", "neg"):
            return False
        stack.extend(children(n))
    return True


def check(ctx: Context) -> None:
    _check_seats(ctx)
    _check_procedure(ctx)
    _check_talons(ctx)
    _check_expressions(ctx)


def _parsed_lets(ctx: Context) -> dict[str, tuple[tuple, tuple]]:
    out = {}
    for name, value in (ctx.lets if isinstance(ctx.lets, dict) else {}).items():
        params, text = ((), value) if not isinstance(value, dict) else (tuple(value.get("params", [])), value.get("body"))
        if not isinstance(text, str):
            continue
        try:
            out[str(name)] = (params, parse_text(text))
        except DiagnosticError:
            pass                     # the expressions pass reports it
    return out


def _check_expressions(ctx: Context) -> None:
    lets = _parsed_lets(ctx)
    costs = Costs(ctx, lets)
    items = [("/let/" + escape(n), node, f"let {n}") for n, (_, node) in lets.items()]
    for ptr, value, kind, path in ctx.fields:
        if path[:1] == ("let",) or kind not in ("expr", "num") or not isinstance(value, str):
            continue
        try:
            items.append((ptr, parse_text(value), ".".join(p for p in path if p not in ("*", "#"))))
        except DiagnosticError:
            pass
    over: set[str] = set()
    for ptr, node, where in items:
        try:
            depth = _comprehension_depth(node)
            ranges: list = []
            _long_ranges(node, ranges)
            powers: list = []
            _big_exponents(node, lets, powers)
            cost = costs.cost(node)
        except (_TooDeep, RecursionError):
            ctx.error("E321", f"the expression in {where} nests too deeply to evaluate", ptr,
                      help="name parts of it with 'let'")
            continue
        if depth > MAX_COMPREHENSION_DEPTH:
            ctx.error("E321", f"comprehensions nested {depth} deep in {where}; at most {MAX_COMPREHENSION_DEPTH}", ptr,
                      help="name the inner part with 'let' over fewer members")
        for n in ranges:
            ctx.error("E321", f"a comprehension in {where} ranges over a list of {n} entries; at most {MAX_RANGE}",
                      ptr, help="range over seats, cards or a card group instead")
        for e in powers:
            if isinstance(e, tuple):
                ctx.error("E322", f"{e[1]} ^ {e[2]} in {where} is larger than 2 ^ {MAX_EXPONENT}, the largest power "
                          "the engine works out", ptr, help="write a smaller number")
                continue
            shown = "a tower of powers" if e is None else f"{e}"
            ctx.error("E322", f"an exponent in {where} is {shown}; exponents are whole numbers from 0 to {MAX_EXPONENT}",
                      ptr, help="write the power out, or use a smaller exponent")
        if cost > MAX_COST:
            reported = bool(_lets_used(node) & over)      # a costly let is reported once, not at every use
            if where.startswith("let "):
                over.add(where[4:])
            if reported:
                continue
            ctx.error("E320", f"{where} is too costly to evaluate: {_shown(cost)} steps, "
                      f"with 'let' functions inlined (at most {MAX_COST:,})", ptr,
                      help="a 'let' function that calls another twice doubles the cost at every level; "
                           "name an intermediate value with a 'let' without parameters, or simplify")


def _lets_used(node) -> set[str]:
    out, stack = set(), [node]
    while stack:
        n = stack.pop()
        if n[0] in ("call", "name"):
            out.add(n[1])
        stack.extend(children(n))
    return out


def _shown(cost: int) -> str:
    return f"about {cost:,}" if cost < MAX_COST * 10 else f"more than {MAX_COST * 10:,}"


def _check_seats(ctx: Context) -> None:
    d = ctx.doc
    players = d.get("players")
    seating = d.get("seating")
    if not isinstance(players, int) or not isinstance(seating, dict):
        return
    seats = seating.get("seats", players)
    if not isinstance(seats, int) or isinstance(seats, bool):
        return
    sit_out = seating.get("sit_out", "nobody")
    if seats < players:
        ctx.error("E312", f"{players} players cannot sit at a table of {seats} seats", "/seating/seats",
                  help=f"give at least {players} seats")
    elif seats > players and sit_out in (None, "nobody"):
        ctx.error("E312", f"{seats} seats for {players} players, but nobody sits out", "/seating/seats",
                  help="say who sits out (`sit_out = dealer` or `rotation`), or give as many seats as players")
    elif seats > players + 1:
        ctx.error("E312", f"{seats} seats for {players} players: {seats - players} would sit out, "
                  "but only one seat sits out each deal", "/seating/seats",
                  help=f"give {players} or {players + 1} seats")
    roles = seating.get("roles")
    for name, offset in (roles.items() if isinstance(roles, dict) else ()):
        if isinstance(offset, int) and not isinstance(offset, bool) and abs(offset) >= max(seats, 1):
            ctx.error("E312", f"role '{name}' sits {offset} seats from the dealer, but the table has {seats} seats",
                      f"/seating/roles/{escape(str(name))}", help=f"give an offset from {1 - seats} to {seats - 1}")


def _contract_choices(calls) -> list[str]:
    out = []
    for name, call in (calls.items() if isinstance(calls, dict) else ()):
        options = call.get("contracts") if isinstance(call, dict) else None
        if (isinstance(options, list) and len(options) > 1) or isinstance(options, str):
            out.append(str(name))
    return out


def _check_procedure(ctx: Context) -> None:
    procedure = ctx.doc.get("procedure")
    if not isinstance(procedure, list):
        return
    phases = [p for p in procedure if isinstance(p, str)]
    if "auction" in phases and "contract" not in phases:
        choosing = _contract_choices(ctx.doc.get("call"))
        if choosing:
            listed = ", ".join(f"'{c}'" for c in choosing[:4]) + (" …" if len(choosing) > 4 else "")
            ctx.error("E311", f"calls {listed} leave the declarer a choice of contracts, but the procedure has no "
                      "'contract' phase to make it", "/procedure",
                      help="add 'contract' to the procedure after the auction (and the talon, if the choice "
                           "follows it), or give each call a single contract")
    if "contract" in phases and "auction" in phases and phases.index("contract") < phases.index("auction"):
        ctx.error("E311", "the 'contract' phase comes before the auction that it follows up",
                  f"/procedure/{procedure.index('contract')}", help="move 'contract' after 'auction'")


def _check_talons(ctx: Context) -> None:
    d = ctx.doc
    deal, players = d.get("deal"), d.get("players")
    if not isinstance(deal, dict) or not isinstance(players, int) or not isinstance(deal.get("packets"), list):
        return
    try:
        hand, talon, _piles = schedule_counts(resolved_packets(d), players)
    except (TypeError, ValueError, KeyError, AttributeError):
        return
    sections = [(f"/talon/{escape(str(n))}", t) for n, t in (d.get("talon") or {}).items() if isinstance(t, dict)]
    if isinstance(d.get("after_purchase"), dict):
        sections.append(("/after_purchase", d["after_purchase"]))
    for ptr, spec in sections:
        take = spec.get("take")
        if isinstance(take, int) and not isinstance(take, bool) and take > talon:
            ctx.error("E313", f"a player takes {take} cards from a talon of {talon}", ptr + "/take",
                      help=f"take at most {talon}")
        taken = take if isinstance(take, int) and not isinstance(take, bool) else talon
        discard = spec.get("discard")
        if isinstance(discard, int) and not isinstance(discard, bool) and discard > hand + min(taken, talon):
            ctx.error("E313", f"a player discards {discard} cards but holds only {hand + min(taken, talon)} "
                      f"({hand} dealt + {min(taken, talon)} from the talon)", ptr + "/discard",
                      help="discard at most what the hand holds")
        elif (spec.get("kind") == "exchange" and isinstance(discard, int) and not isinstance(discard, bool)
              and discard != min(taken, talon)):
            got = min(taken, talon)
            ctx.error("E313", f"the declarer takes {got} cards and discards {discard}: he would hold "
                      f"{hand + got - discard} cards, every other seat {hand}, and each seat plays one card to "
                      "every trick", ptr + "/discard", help=f"discard as many as he takes ({got})")
