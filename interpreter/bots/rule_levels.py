"""The rule bot's sense of a call that carries a level (a ladder's step, `this.level`) and of decisions
(`choice`): knowing no game by name, it asks the rule file.

- A level: whether the contract the hand would play is still worth the call. The bot tries the contract's
  goal on a copy of the deal in which the auction ended with that call, the seat declares, and its side
  wins narrowly (the fewest tricks the goal is made with, or, where the goal reads card points, one point
  more than half of them); a goal that fails even then (a game worth less than the bid is lost) says
  the call overbids. The highest level still worth it is found once per hand and contract (levels rise with
  the calls' ranks: a halving search), kept per rule set, bounded.
- A decision: the option after which the contracts the seat may still name look best for its hand (each
  contract's `allowed` read with the option taken); the first option written of equally good ones.
"""
from __future__ import annotations

from interpreter.engine import actions as A
from interpreter.engine.errors import RuleRuntimeError
from interpreter.engine.given import may_name, talon_name
from interpreter.engine.phases.play import own_play

_BOUND = 200_000
# what the seat handling a one-card exchange gains beyond the card's worth: the loser it discards (calibrated
# on a five-card game's rule bots, where the dealer takes up the card turned up)
DISCARD_GAIN = 0.4


def level_of(call) -> int | None:
    """The level a call carries (a ladder's step), or None."""
    level = call.ref.rec.get("level") if call is not None else None
    return level if isinstance(level, int) and not isinstance(level, bool) else None


def _made_at(state, me: int, call, contract, tricks: int, points) -> bool:
    """Whether `contract`'s goal holds when the auction ended with `call`, `me` declares and its side takes
    `tricks` tricks and (when given) `points` card points."""
    probe = state.clone()
    probe.given_up = False
    probe.announce = type(probe.announce)()
    probe.final_call = call
    probe.con = contract
    probe.declarer = me
    side = probe.declarers or (me,)
    others = [s for s in probe.active if s not in side]
    total = state.R.rs.hand_size
    won = own_play(probe).tricks_won = [0] * probe.n
    for i, s in enumerate(side):
        won[s] = tricks // len(side) + (1 if i < tricks % len(side) else 0)
    for i, s in enumerate(others):
        rest = total - tricks
        won[s] = rest // len(others) + (1 if i < rest % len(others) else 0)
    if points is not None:
        deck = state.R.rs.total_points()
        given = {s: points / len(side) for s in side}
        given.update({s: (deck - points) / len(others) for s in others} if others else {})
        probe.announce.given = {"points": given}
    try:
        return bool(contract.goal(probe.ctx()))
    except Exception:       # a goal that needs more than the deal's outcome: not the bot's to judge
        return True


def highest_level(bot, state, me: int, hand: int, contract, calls: list) -> int:
    """The highest level of `calls` (rising) at which the hand still makes `contract` narrowly; -1: none."""
    from interpreter.bots.rule_judge import POINTS, ZERO, goal_kind, reads_points

    R = state.R
    cache = R.__dict__.setdefault("_bot_levels", {})
    key = (hand, me, contract.name, len(state.active), calls[0].name, calls[-1].name)
    got = cache.get(key)
    if got is not None:
        return got
    kind, lo = goal_kind(state, contract)
    points = None
    if kind == ZERO:
        tricks = 0
    else:
        tricks = max(lo, R.rs.hand_size // 2 + 1) if kind == POINTS else lo
        if reads_points(R, contract):
            points = R.rs.total_points() / 2 + 1
    low, high, best = 0, len(calls) - 1, -1
    while low <= high:
        mid = (low + high) // 2
        if _made_at(state, me, calls[mid], contract, tricks, points):
            best, low = level_of(calls[mid]) or 0, mid + 1
        else:
            high = mid - 1
    if len(cache) > _BOUND:
        cache.clear()
    cache[key] = best
    return best


def worth(bot, state, hand: int, call) -> bool:
    """Whether a call that carries a level is worth making (or holding) with the hand: some contract of it the
    hand looks good for is still made narrowly at that level. A call without a level: always."""
    level = level_of(call)
    if level is None:
        return True
    from interpreter.bots.rule_judge import call_entries

    R = state.R
    ladder = call.ref.rec.get("ladder")
    calls = [c for c in R.calls if c.ref.rec.get("ladder") == ladder and level_of(c) is not None]
    me = state.to_act
    for entry in call_entries(state, call):
        contract = entry[0]
        if bot.best_margin(state, hand, (entry,)) <= 0:
            continue
        if highest_level(bot, state, me, hand, contract, calls) >= level:
            return True
    return False


def talon_help(state, call, bot=None, hand: int = 0) -> float:
    """What the talon procedure a call gives by an expression (`talon = if chose(pickup) == hand then untouched
    else exchange`) brings, as the auction stands (its decisions not taken yet); 0 for a call that names its
    procedure (the judge counts that one) or none. An exchange handled by a seat of its own (`who`, e.g. the
    dealer taking up the card turned up) is judged by who that is: handler_help."""
    if call.talon_expr is None:
        return 0.0
    from interpreter.bots.rule_judge import talon_help as help_of

    try:
        name = talon_name(state, call)
    except RuleRuntimeError:
        return 0.0
    proc = state.R.talons.get(name) if name else None
    if proc is None or proc.take == 0:
        return 0.0
    if proc.who is not None and proc.kind == "exchange" and bot is not None:
        return handler_help(bot, state, hand, call, proc)
    return help_of(state.R, proc, len(state.active))


def handler_help(bot, state, hand: int, call, proc) -> float:
    """An exchange of one card face up (`deal.turn_up`) that a seat named by `who` handles: when that seat is
    the one calling, what the hand gains by taking the card and discarding its weakest (the estimate under
    the call's first contract); when it is its fixed partner, what the card alone is worth under that
    contract, and the loser it discards (DISCARD_GAIN); an opponent's, as much less. Anything else: what the
    kind of exchange brings (rule_judge)."""
    from interpreter.bots.rule_judge import talon_help as help_of
    from interpreter.engine import deals, sides
    from interpreter.engine.phases.talon import _judge

    up = deals.turned_up(state)
    R = state.R
    try:
        seat = _judge(proc.who, state)
    except RuleRuntimeError:
        seat = None
    if up is None or proc.take != 1 or not call.contracts or not isinstance(seat, int):
        return help_of(R, proc, len(state.active))
    con = R.contracts[call.contracts[0]]
    me = state.to_act
    if seat == me:
        after = hand | 1 << up
        best = max(bot.tricks_estimate(state, after & ~(1 << c), con) for c in range(len(R.cards)) if after >> c & 1)
        return best - bot.tricks_estimate(state, hand, con)
    worth = bot.tricks_estimate(state, 1 << up, con) - bot.tricks_estimate(state, 0, con) + DISCARD_GAIN
    return worth if sides.fixed_partners(state).get(me) == seat else -worth


def choose_option(bot, state, legal: list[int]) -> int:
    """The option after which the best contract the seat may still name is best for its hand; the first
    written of equally good ones (and always the first where no contract is left to name)."""
    names = list(getattr(state, "choices", None) or ())
    if state.con is not None or len(names) < 2:
        return legal[0]
    R = state.R
    hand = state.hands[state.to_act]
    best, best_value = legal[0], None
    for a in legal:
        probe = state.clone()
        probe.chosen = {**probe.chosen, _choice_name(state, a): _option(state, a)}
        left = [R.contracts[n] for n in names if may_name(probe, n)]
        value = max((bot.can_make(state, hand, con) for con in left), default=-99.0)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = a, value
    return best


def _choice_name(state, action: int) -> str:
    from interpreter.engine.phases.choice import settings_of

    return settings_of(state, action).name


def _option(state, action: int) -> str:
    from interpreter.engine.phases.choice import OPTION_BITS, settings_of

    return settings_of(state, action).options[A.arg_of(action) & ((1 << OPTION_BITS) - 1)]
