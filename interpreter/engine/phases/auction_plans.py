"""The auction's settings (AuctionSettings, from the rule file) and its plans: the calls the raise rules let
follow the highest call, with what judging each needs, made once per rule set and highest call."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine.phases.base import ALWAYS, NEVER
from interpreter.engine.phases.conditions import NOT_WORKED_OUT, condition, reads, reads_only
from interpreter.model.nodes import Attr, Name, sub_nodes

if TYPE_CHECKING:
    from collections.abc import Mapping

    from interpreter.engine.compile import Compiler
    from interpreter.engine.rules import CallRT
    from interpreter.engine.state import State
    from interpreter.model.expression import Expression
    from interpreter.model.game import Call
    from interpreter.model.phases import Auction

Fn = Any  # a compiled expression: Ctx -> value


@dataclass
class AuctionSettings:
    first: Fn
    style: str                      # open | once
    allowed: Fn
    allowed_key: tuple | None       # the `this.X` the constraint reads, when it reads only those
    ends: Fn | None
    exclude: Fn | None
    hold_call: str | None
    hold_who: Fn
    hold_bids: Fn
    contest_rounds: str             # open | once
    first_must_name: bool
    contest_ties: str | None
    all_pass: str | None            # the contract played when everyone passes
    pass_allowed: Fn
    pass_ref: Any
    hold_ref: Any
    # `pass_final`: a seat that passed is out of the auction. When false, a pass lasts until the next bid or
    # hold, which makes every pass before it void: the seats are asked in turn, passed or not, and `passes`
    # counts the seats that have passed since then (so the end conditions read passes in a row)
    pass_final: bool = True
    call_keys: list = field(default_factory=list)
    step_ranks: list[int] = field(default_factory=list)
    # per call: the index of its `allowed` among the distinct ones that do not read `this` (judged once
    # per turn for all the calls sharing it), else -1
    allowed_group: list[int] = field(default_factory=list)
    # the highest call's index (-1: none) → the calls that may follow (raise_plan)
    raises: dict = field(default_factory=dict)
    allowed_if: Any = None          # `allowed` taken apart (phases/conditions.py); None: always
    allowed_plan: Any = NOT_WORKED_OUT  # … and what is left of it to judge (a plan: phases/conditions.py)
    hold_bids_if: Any = None        # `hold.bids` taken apart, `high` fixed; None: always
    hold_plans: dict = field(default_factory=dict)  # the highest call's index → the plan of `hold.bids` (a plan)
    next_plan: tuple | None = None  # what AuctionPhase.apply reads of these and the rules after a call, found once
    # every condition of a call's legality reads the auction's state, the dealer and the seats alone
    # (POSITION_VALUES, POSITION_FUNCTIONS): the calls allowed are then a function of the position (AuctionState.key)
    positional: bool = False
    legal_memo: dict = field(default_factory=dict)  # position → the actions allowed there (AuctionPhase.legal)
    # (position, action) → (the auction's state after the step there, the next seat or -1: over), where
    # `ends` and `exclude` read no more than the calls' conditions (AuctionPhase.apply); None: each step
    # worked out. The states kept are shared with the deals that reach them, and never written
    steps: dict | None = None
    # a position's number: the auction's start (dealer, seats taking part, bid order), or (the position
    # before, the action) or (the position before, None, the seat excluded) → a small int, the position as
    # AuctionState.key holds it (an int hashes and compares at once, nested pairs level by level)
    positions: dict = field(default_factory=dict)
    # (first seat, dealer, seats taking part) → the auction's state at its start, where the steps are kept
    # (shared like them, never written); None where they are not
    starts: dict | None = None
    all_pass_expr: Fn | None = None     # `all_pass.contract = EXPR` giving the contract (engine/given.py)
    # `doubles`: the calls made on the highest bid, in order (phases/auction_doubles.py), their words and refs
    doubles: tuple = ()
    double_words: tuple = ()
    double_refs: tuple = ()
    declarer_by: str | None = None      # a field of the calls that names the declarer (auction_doubles.declarer_by)


# what the auction's own state, the dealer and the seats taking part decide, read by a rule expression: the
# built-in values and functions that read nothing else (engine/builtins.py), and the seat roles
POSITION_VALUES = frozenset({"dealer", "me", "this", "side", "item", "holder", "seats", "players", "active", "turn",
                             "passes", "bids", "high", "pass", "last_call", "double_level"})
POSITION_FUNCTIONS = frozenset({"next", "prev", "order", "first_call", "first_bid", "latest", "has_bid", "spoke",
                                "min", "max", "abs", "floor", "ceil", "size", "suit_of"})


def settings(auction: Auction, game_calls: Mapping[str, Call], lets: Mapping[str, Any], comp: Compiler, symbols: dict,
             pass_ref: Any, calls: list[CallRT]) -> AuctionSettings:
    hold_word = auction.hold_call
    x = comp.text
    S = AuctionSettings(
        first=x(auction.first), style=auction.style,
        allowed=x(auction.allowed) if auction.allowed is not None else ALWAYS,
        allowed_key=_this_attrs(auction.allowed),
        ends=x(auction.ends) if auction.ends is not None else None,
        exclude=x(auction.exclude) if auction.exclude is not None else None,
        hold_call=hold_word, hold_who=x(auction.hold_who) if auction.hold_who is not None else NEVER,
        hold_bids=x(auction.hold_bids) if auction.hold_bids is not None else ALWAYS,
        contest_rounds=auction.contest_rounds, first_must_name=auction.first_must_name,
        contest_ties=auction.contest_ties, all_pass=auction.all_pass,
        pass_allowed=x(auction.pass_allowed) if auction.pass_allowed is not None else ALWAYS,
        pass_ref=pass_ref, hold_ref=symbols.get(hold_word) if hold_word else None,
        pass_final=auction.pass_final, doubles=auction.doubles, declarer_by=auction.declarer_by)
    S.double_refs = tuple(symbols[n] for n in S.doubles)
    if S.allowed_key is not None:
        from interpreter.engine.compile import attr
        S.call_keys = [tuple(attr(c.ref, k) for k in S.allowed_key) for c in calls]
    S.step_ranks = sorted({c.rank for c in calls if c.raise_rule == "step"})
    if auction.allowed is not None:
        S.allowed_if = condition(comp, auction.allowed, lets, (), "this")
    if auction.hold_bids is not None:
        S.hold_bids_if = condition(comp, auction.hold_bids, lets, ("high",), "")
    groups: dict = {}
    for c in calls:
        allowed = game_calls[c.name].allowed if c.name in game_calls else None
        text = _source(allowed)
        if c.allowed is ALWAYS or not isinstance(text, str) or reads(allowed.node, "this", comp.let_bodies):  # type: ignore[union-attr]
            S.allowed_group.append(-1)
        else:
            S.allowed_group.append(groups.setdefault(text, len(groups)))
    exprs = [auction.allowed, auction.hold_who, auction.hold_bids, auction.pass_allowed]
    exprs += [game_calls[c.name].allowed if c.name in game_calls else None for c in calls]
    S.positional = all(reads_only(comp, e, lets, POSITION_VALUES, POSITION_FUNCTIONS) for e in exprs)
    if S.positional and all(reads_only(comp, e, lets, POSITION_VALUES, POSITION_FUNCTIONS)
                            for e in (auction.ends, auction.exclude)):
        S.steps = {}
        S.starts = {}
    return S


def _source(e: Expression | None) -> Any:
    """The expression's source as written, None where it is left out."""
    return e.source if e is not None else None


def _this_attrs(e: Expression | None) -> tuple | None:
    """If an expression reads the judged call only as `this.X` (for a fixed set of X), those X; else None.

    The auction then evaluates the expression once per distinct (X…) value instead of once per call."""
    if e is None or not isinstance(e.source, str):
        return ()

    attrs: set = set()
    stack = [e.node]
    while stack:
        n = stack.pop()
        if isinstance(n, Attr) and n.obj == Name("this"):
            attrs.add(n.name)
            continue
        if isinstance(n, Name) and n.ident == "this":
            return None
        stack.extend(sub_nodes(n))
    return tuple(sorted(attrs))


def raise_plan(st: State, high: CallRT | None) -> tuple:
    """The calls the raise rules let follow the highest call, with what judging each needs (made once
    per rule set and highest call)."""
    R = st.R
    out = []
    calls = R.calls
    start = R.first_call_at_rank[high.rank] if high is not None else 0
    for call in calls[start:] if start else calls:
        rule = call.raise_rule
        if high is not None:
            if rule == "higher":
                if call.rank <= high.rank:
                    continue
            elif rule == "step":
                if call.rank != next_rank(st, high.rank):
                    continue
            elif rule == "equal" and not (call.rank > high.rank or (
                    call.rank == high.rank and call.contest and call.contest == high.contest)):
                continue
        elif rule == "step" and call.rank != next_rank(st, None):
            continue
        out.append(call)
    S = R.auction
    # (action, ref, own `allowed` or None, its group, the key of the auction's `allowed` or None)
    cands = tuple((call.action, call.ref, None if call.allowed is ALWAYS else call.allowed,
                   S.allowed_group[call.index], S.call_keys[call.index] if S.allowed_key is not None else None)
                  for call in out)
    firsts = pairs = None
    if all(e[2] is None and e[4] is not None for e in cands):    # keyed, without calls' own `allowed`
        seen: dict = {}
        for e in cands:
            seen.setdefault(e[4], e[1])
        # the calls in runs of one key: (key, their actions)
        keyed: list = []
        for e in cands:
            if keyed and keyed[-1][0] == e[4]:
                keyed[-1] = (e[4], keyed[-1][1] + (e[0],))
            else:
                keyed.append((e[4], (e[0],)))
        firsts, pairs = tuple(seen.items()), tuple(keyed)
    # the calls in runs: (the actions of a run of calls without their own `allowed`, None, None, 0), or
    # ((the action,), ref, its `allowed`, its group) for a call with one
    runs: list = []
    for action, ref, allowed, g, _key in cands:
        if allowed is None:
            if runs and runs[-1][2] is None:
                runs[-1] = (runs[-1][0] + (action,), None, None, 0)
            else:
                runs.append(((action,), None, None, 0))
        else:
            runs.append(((action,), ref, allowed, g))
    raises = S.raises[high.index if high is not None else -1] = (cands, firsts, pairs, tuple(runs))
    return raises


def next_rank(st: State, rank: int | None) -> int | None:
    ranks = st.R.auction.step_ranks
    if rank is None:
        return ranks[0] if ranks else None
    for r in ranks:
        if r > rank:
            return r
    return None


def own_allowed(c: Any, ref: Any, allowed: Any, g: int, shared: dict) -> bool:
    """A call's own `allowed`, judged with `this` the call; a call of a group (g >= 0) shares its group's
    answer, judged once per turn in `shared`."""
    c.this = ref
    if g < 0:
        return bool(allowed(c))
    ok = shared.get(g)
    if ok is None:
        ok = shared[g] = bool(allowed(c))
    return ok
