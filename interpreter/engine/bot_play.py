"""The rule bot's judgement of contracts that want no tricks and its lead (engine/bots.py): kept apart so
that the bot module stays short. Generic: card ranks, suits, trumps and goals only."""
from __future__ import annotations

from interpreter.engine.cards import bits


def zero_risks(state, hand: int) -> dict[int, float]:
    """For a contract that wants no tricks: per card, the chance that it is forced to take one. The
    i-th lowest card of a suit is safe when the other seats hold at least i cards below it for each
    round it waits (7 alone, 7-9, 7-9-J with two opponents); each step above that is riskier, and
    a card with fewer than three outside cards above it is risky whatever lies below (once those are
    gone it wins, and where the rules make a seat beat the trick it must play over them)."""
    R = state.R
    opponents = max(1, len(state.active) - 1)
    cache = R.__dict__.setdefault("_bot_zero_risks", {})       # only read by the callers
    got = cache.get((hand, opponents))
    if got is not None:
        return got
    risks: dict[int, float] = {}
    for smask in R.suit_masks:
        cards = sorted(bits(hand & smask), key=lambda c: R.order_of[c])
        size = bin(smask).count("1")
        for i, c in enumerate(cards):
            excess = R.order_of[c] - opponents * i
            risk = 0.0 if excess <= 0 else min(0.9, 0.22 * excess + 0.06)
            # a card with few outside cards above it is caught once those are gone (or must beat them)
            above = size - 1 - R.order_of[c] - (len(cards) - 1 - i)
            top = (0.7, 0.35, 0.12)[above] if above < 3 else 0.0
            risks[c] = max(risk, top)
    if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
        cache.clear()
    cache[(hand, opponents)] = risks
    return risks


def forced_tricks(state, hand: int) -> float:
    """The tricks the hand is expected to be forced to take: the sum of its cards' zero_risks (kept per
    rule set, hand and number of seats playing, as zero_chance is)."""
    cache = state.R.__dict__.setdefault("_bot_forced_tricks", {})
    key = (hand, len(state.active))
    got = cache.get(key)
    if got is None:
        if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
            cache.clear()
        got = cache[key] = sum(zero_risks(state, hand).values())
    return got


def zero_chance(state, hand: int, take: int = 0, discard: int = 0) -> float:
    """The chance that the hand takes no trick; with a talon exchange the `discard` riskiest cards go
    and each of the `take` unknown cards may bring a risk of its own."""
    cache = state.R.__dict__.setdefault("_bot_zero_chances", {})
    key = (hand, take, discard, len(state.active))
    got = cache.get(key)
    if got is not None:
        return got
    risks = sorted(zero_risks(state, hand).values(), reverse=True)[discard:]
    chance = 0.88 ** take
    for p in risks:
        chance *= 1.0 - p
    if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
        cache.clear()
    cache[key] = chance
    return chance


def wants_few(state, seat: int, made: set[int]) -> bool:
    """Whether `seat` plays to take few tricks: every seat when nobody declares a contract that wants few
    (kind negative) or each plays for himself; the declaring side when its goal is an upper bound (no
    trick, at most six…); and a defender against such a goal that is not "no trick" (the declarers must
    be made to take more, so the defence gives tricks away; against "no trick" see `against_zero`)."""
    con = state.con
    if con.side == "nobody":
        return True
    if state.declarer is None:
        return con.ref.rec.get("kind") == "negative"
    upper = bool(made) and 0 in made and state.R.rs.hand_size not in made
    if seat in state.declarers:
        return upper
    return upper and made != {0}


def lead(state, legal):
    """Leading in a contract that wants tricks: the declaring side draws trumps with the highest one
    left; then anyone cashes a card no outstanding card of its suit beats; else a low card of the
    longest side suit (a defender keeps its trumps)."""
    R = state.R
    con = state.con
    me = state.to_act
    hand = state.hands[me]
    gone = hand
    for m in state.play.won_cards:
        gone |= m
    out = ((1 << len(R.cards)) - 1) & ~gone
    trump_mask = con.trump_mask if con.trump >= 0 else 0

    def master(c):
        same = out & R.suit_masks[R.suit_of[c]]
        return not any(con.strength[o] > con.strength[c] for o in bits(same))

    declaring = me in state.declarers
    trumps = [c for c in legal if (1 << c) & trump_mask]
    if declaring and trumps and out & trump_mask:
        top = max(trumps, key=lambda c: con.strength[c])
        if master(top):
            return top
    side = [c for c in legal if c not in trumps]
    cash = [c for c in side if master(c)]
    if cash:
        return max(cash, key=lambda c: (con.strength[c], -c))
    pool = side or legal
    length = {s: bin(hand & m).count("1") for s, m in enumerate(R.suit_masks)}
    return min(pool, key=lambda c: (-length[R.suit_of[c]], con.strength[c], c))


def against_zero(state, legal, rng):
    """Defending a contract that wants no tricks: lead low, so that the declarer must play over it;
    behind a declarer who is winning, keep him winning with the highest card that stays below; else
    keep the low cards for later leads and give away a high one."""
    con = state.con
    me = state.to_act
    if not state.trick:
        return min(legal, key=lambda c: (con.strength[c], rng.random()))
    win_seat, win_card = state.win
    beats = con.beaters[win_card]
    under = [c for c in legal if not (1 << c) & beats]
    declarer_played = any(s in state.declarers for s, _c in state.trick)
    if win_seat in state.declarers and under:
        return max(under, key=lambda c: con.strength[c])
    if not declarer_played:
        return min(legal, key=lambda c: con.strength[c])
    return max(under or legal, key=lambda c: con.strength[c]) if me is not None else legal[0]
