"""The rule bot's judgement of contracts that want no tricks, its lead and the card tables its play reads
(bots/rule.py): kept apart so that the bot module stays short. Generic: card ranks, suits, trumps and
goals only. What depends only on the rule set or the contract is worked out once and kept on it (both
are only read once compiled); what depends on a hand is kept in bounded memos."""
from __future__ import annotations

import math
from fractions import Fraction

from interpreter.engine.cards import bits


def _suit_orders(R) -> tuple[tuple[int, list[int] | None, int], ...]:
    """Per suit (kept per rule set): its mask; its cards lowest order first (ties: lowest index first),
    or None when that is the order of their indices; and its size. The cards of a hand in a suit, in this
    order, are the same as its cards of the suit sorted by order."""
    got = R.__dict__.get("_bot_suit_orders")
    if got is None:
        order_of = R.order_of
        suits = []
        for smask in R.suit_masks:
            in_order = sorted(bits(smask), key=order_of.__getitem__)
            suits.append((smask, None if in_order == bits(smask) else in_order, smask.bit_count()))
        got = R.__dict__["_bot_suit_orders"] = tuple(suits)
    return got


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
    parts = R.__dict__.setdefault("_bot_suit_risks", {})        # per suit, the same for its cards in a hand
    for s, (smask, in_order, size) in enumerate(_suit_orders(R)):
        part = hand & smask
        if part:
            key = (s, part, opponents)
            in_suit = parts.get(key)
            if in_suit is None:
                if len(parts) > 200_000:            # bounded, as the hands' own
                    parts.clear()
                in_suit = parts[key] = _suit_risks(R, part, in_order, size, opponents)
            risks.update(in_suit)
    if len(cache) > 200_000:            # bounded: the search bot judges many sampled hands
        cache.clear()
    cache[(hand, opponents)] = risks
    return risks


def _suit_risks(R, part: int, in_order: list[int] | None, size: int, opponents: int) -> dict[int, float]:
    """zero_risks for the cards `part` of one suit (its cards `in_order`, see _suit_orders, and its size)."""
    order_of = R.order_of
    cards = bits(part) if in_order is None else [c for c in in_order if part >> c & 1]
    last = len(cards) - 1
    risks = {}
    for i, c in enumerate(cards):
        order = order_of[c]
        excess = order - opponents * i
        risk = 0.0 if excess <= 0 else min(0.9, 0.22 * excess + 0.06)
        # a card with few outside cards above it is caught once those are gone (or must beat them)
        above = size - 1 - order - (last - i)
        top = _TOP_RISK[above] if above < 3 else 0.0
        risks[c] = max(risk, top)
    return risks


_TOP_RISK = (0.7, 0.35, 0.12)       # a card with 0, 1 or 2 outside cards above it


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


def _lead_tables(R, con) -> tuple[tuple[int, ...], list[tuple]]:
    """Per contract, worked out once (kept on the contract, which is only read): per card the mask of
    the cards of its suit that are stronger in the trick, and the key `lead` cashes by (strength, then
    the lowest card)."""
    got = con.__dict__.get("_bot_lead_tables")
    if got is None:
        strength = con.strength
        suit_masks, suit_of = con.suit_masks, con.suit_of      # the suits as its ranking sees them
        stronger = []
        for c in range(len(R.cards)):
            mask = 0
            for o in bits(suit_masks[suit_of[c]]):
                if strength[o] > strength[c]:
                    mask |= 1 << o
            stronger.append(mask)
        got = con.__dict__["_bot_lead_tables"] = (tuple(stronger), [(strength[c], -c) for c in range(len(R.cards))])
    return got


def lead(state, legal):
    """Leading in a contract that wants tricks: the declaring side draws trumps with the highest one
    left; then anyone cashes a card no outstanding card of its suit beats; else a low card of the
    longest side suit (a defender keeps its trumps)."""
    R = state.R
    con = state.con
    strength = con.strength
    stronger, cash_key = _lead_tables(R, con)
    me = state.to_act
    hand = state.hands[me]
    gone = hand
    for m in state.play.won_cards:
        gone |= m
    out = R.full_mask & ~gone           # the cards still out: a card is master when none of them beats it
    trump_mask = con.trump_mask if con.trump_class >= 0 else 0
    if trump_mask and out & trump_mask and me in state.declarers:
        trumps = [c for c in legal if trump_mask >> c & 1]
        if trumps:
            top = max(trumps, key=strength.__getitem__)
            if not out & stronger[top]:
                return top
    side = [c for c in legal if not trump_mask >> c & 1]
    cash = [c for c in side if not out & stronger[c]]
    if cash:
        return max(cash, key=cash_key.__getitem__)
    pool = side or legal
    suit_of, suit_masks = con.suit_of, con.suit_masks
    return min(pool, key=lambda c: (-(hand & suit_masks[suit_of[c]]).bit_count(), strength[c], c))


def against_zero(state, legal, rng):
    """Defending a contract that wants no tricks: lead low, so that the declarer must play over it;
    behind a declarer who is winning, keep him winning with the highest card that stays below; else
    keep the low cards for later leads and give away a high one."""
    con = state.con
    strength = con.strength
    trick = state.trick
    if not trick:
        rand = rng.random           # one draw per card, in order (ties are broken by them)
        return min(legal, key=lambda c: (strength[c], rand()))
    win_seat, win_card = state.win
    beats = con.beaters[win_card]
    under = [c for c in legal if not beats >> c & 1]
    declarers = state.declarers
    if win_seat in declarers and under:
        return max(under, key=strength.__getitem__)
    for s, _c in trick:
        if s in declarers:          # a declarer has played
            break
    else:
        return min(legal, key=strength.__getitem__)
    return max(under or legal, key=strength.__getitem__) if state.to_act is not None else legal[0]


def card_points(R) -> tuple[list[float], list[int]]:
    """Per rule set: each card's points as a float, and as a whole number in a common unit (sums of these
    compare exactly as the sums of the points do, without adding fractions)."""
    got = R.__dict__.get("_bot_points")
    if got is None:
        points = [c.points for c in R.cards]
        unit = math.lcm(*[Fraction(p).denominator for p in points]) if points else 1
        got = R.__dict__["_bot_points"] = ([float(p) for p in points], [int(p * unit) for p in points])
    return got


def card_worths(state) -> list[float]:
    """Per card, how much it helps the hand under the contract (RuleBot._card_worth), worked out once per
    contract (kept on it; without one, on the rule set)."""
    R = state.R
    con = state.con
    holder = con.__dict__ if con is not None else R.__dict__
    got = holder.get("_bot_card_worths")
    if got is None:
        points = card_points(R)[0]
        if con is None or con.trump_class < 0:
            got = [points[c] * 0.8 for c in range(len(R.cards))]
        else:       # a trump by its place among the trumps (its rank in its suit without a ranking)
            trumps, strength = con.trump_mask, con.strength
            got = [(6.0 + 0.3 * strength[c][1] if trumps >> c & 1 else 0.0) + points[c] * 0.8 for c in range(len(R.cards))]
        holder["_bot_card_worths"] = got
    return got


def discard_costs(R, con) -> list[float]:
    """Per card, what laying it away costs (RuleBot._discard): its rank, 5 more for a trump; per contract
    (kept on it; without one, on the rule set)."""
    holder = con.__dict__ if con is not None else R.__dict__
    got = holder.get("_bot_discard_costs")
    if got is None:
        trumps = con.trump_mask if con is not None and con.trump_class >= 0 else 0
        got = holder["_bot_discard_costs"] = [
            R.order_of[c] * 1.0 + (5 if trumps >> c & 1 else 0) for c in range(len(R.cards))]
    return got


# What a hand's estimate under a ranking adds to its top cards and trump length: such a contract's trumps are
# more than a plain suit's and take the points of the suits they ruff. Calibrated with the rule bots on the
# built-in games with rankings: about 60% of the games declared are made, and fewer than a third of the
# three-player duel auctions are passed in (without it: 76% made, more than half passed in).
RANKED_EXTRA = 0.7


def ranked_estimate(R, hand: int, con) -> float:
    """The tricks a hand may take under a contract with a `ranking` (HandJudge.tricks_estimate without one):
    per suit as the ranking sees it, its top cards held (1 for the highest, 0.6 for one just below the
    cards above it), for the trumps their length as well, and RANKED_EXTRA."""
    est = RANKED_EXTRA
    for k, smask in enumerate(con.suit_masks):
        held = hand & smask
        if not held:
            continue
        in_order = sorted(bits(smask), key=con.strength.__getitem__, reverse=True)
        cards = [c for c in in_order if held >> c & 1]
        for depth, c in enumerate(cards[:3]):
            gap = in_order.index(c)
            if gap <= depth:
                est += 1.0 if gap == 0 else 0.6
        if k == con.trump_class:
            n = len(cards)
            est += max(0, n - 3) * 0.9 + 0.3 * min(n, 3)
    return min(est, R.rs.hand_size)
