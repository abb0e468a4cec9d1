"""The rule bot's bidding in a partnership game with invitation calls.

An *invitation* is a call that, if it stays the final call, gives a contract nobody declares (`side =
no_declarer`): it is never meant to be played, only to tell the partner what the hand holds. The lower
such call is the weak invitation, the higher the strong one. The call they invite to is the highest
positive contract without trumps. The seats whose partner still speaks later open for their side (while
an invitation call is still theirs to make they are *opening*); the last of a side to speak answers. The
bot (bots/rule.py) asks `choose` first; None leaves the choice to its general judgement.

    inviting   a hand with tops and stoppers but not enough to bid the invited contract alone: two aces,
               an ace and two guarded kings, or three guarded kings for the weak call; three aces, or two
               aces and two guarded kings, for the strong one; stoppers in at least three suits
    low invite opening, the call of the contract wanting few tricks invites too and says the hand can play
               it: tops like the weak invitation's (two aces, an ace and a guarded king or queen, or an
               ace heading four or more cards of a suit no trump call names) with good cards for few
               tricks (the lowest card of two or more suits); made before the weak invitation
    alone      enough sure stick and stoppers in three suits: the invited contract itself
    promise    an opening call promises more than cards for its own contract: a trump call shows a long
               suit strong at the top and otherwise good cards for few tricks; the call of the contract
               wanting few tricks needs the tops above; a hand good for the contract only passes
    answering  partner invited: bid the invited contract on a strong invitation; on a weak one with three
               likely stick, or two with a hand poor for a contract wanting few tricks; with a hand good for
               such a contract (at most about two top cards) bid it instead, unless speaking last (passing
               gives it anyway); a merely fair such hand passes, the call failing too often. Partner's
               call of the contract wanting few tricks invites too: bid the invited contract with two likely
               stick and a hand poor for few tricks, else let it stand
    guarding   partner holds the auction with a trump call and an opponent still speaks after this seat:
               with fair cards for few tricks, the call of the contract wanting few tricks when a higher
               trump call is left to that opponent in a suit this hand does not stop (shut it out where
               the side is weak), else let partner's call stand; with poor such cards the invited contract
               only with three likely stick and stoppers in every suit no trump call names (partner's trump
               call showed weakness there), else let it stand: a few tricks lost to the opponent's contract
               wanting few tricks cost less than the penalty of a failed invited contract
    last word  speaking last for the side (the last of all, or before the last opponent) with an opponent
               holding the auction with a trump call, which left standing is usually made: let it stand with
               four of its trumps, two of them among the three top cards (enough to defeat it); else take
               the most favourable call left: a higher trump call with a long suit strong at the top, the
               invited contract with one or two likely stick, the call of the contract wanting few tricks
               with a hand not poor for it, a higher trump call with four cards of its suit; else let it
               stand, every overbid costing more than the contract left standing
    after an opponent's invitation, a call of the contract wanting few tricks tells nothing: not made
    no call of a contract wanting few tricks with two tops (aces, guarded kings) in the suits of the lower
    trump calls: partner's room to support
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A
from interpreter.engine.cards import bits

FAIR_LOW = 2.7        # a hand's risk for the contract wanting few tricks still fair for it (good: 2.4)
ANSWER_LOW = 2.4      # risk low enough to answer a weak invitation with the contract wanting few tricks


def _plan(R: Any) -> tuple[list[Any], Any, Any] | None:
    """(invitation calls weakest first, the invited call, the call of a contract wanting few tricks) or None."""
    cached = R.__dict__.get("_invitation_plan", False)
    if cached is not False:
        return cached
    plan = None
    invites = [c for c in R.calls if c.contracts and all(R.contracts[n].side == "no_declarer" for n in c.contracts)]
    if invites:
        def one(call: Any) -> Any:
            return R.contracts[call.contracts[0]] if len(call.contracts) == 1 and call.contracts[0] in R.contracts else None
        positive = [c for c in R.calls if one(c) is not None and one(c).trump < 0 and one(c).side == "partnership"
                    and "<" not in str(one(c).ref.rec.get("goal") or "")]
        negative = [c for c in R.calls if one(c) is not None and one(c).side == "partnership"
                    and "<" in str(one(c).ref.rec.get("goal") or "")]
        if positive:
            plan = (sorted(invites, key=lambda c: c.rank), max(positive, key=lambda c: c.rank),
                    max(negative, key=lambda c: c.rank) if negative else None)
    R.__dict__["_invitation_plan"] = plan
    return plan


def _suits(R: Any) -> list[tuple[int, int, int, int, int]]:
    """Per suit, kept per rule set: (its cards, its top card, the second, the third, its lowest card) as
    card masks (by order within the suit: the top card has the highest)."""
    got = R.__dict__.get("_invitation_suits")
    if got is None:
        got = []
        for smask in R.suit_masks:
            top = len(bits(smask)) - 1
            at = [sum(1 << c for c in bits(smask) if R.order_of[c] == o) for o in (top, top - 1, top - 2, 0)]
            got.append((smask, *at))
        R.__dict__["_invitation_suits"] = got
    return got


def hand_tops(R: Any, hand: int) -> tuple[int, int, int]:
    """(aces, guarded kings, stopped suits) of a hand, the ace being each suit's top card."""
    aces = kings = stops = 0
    for smask, first, second, third, _low in _suits(R):
        n = (hand & smask).bit_count()
        has_ace = bool(hand & first)
        guarded_king = bool(hand & second) and n >= 2
        aces += has_ace
        kings += guarded_king
        if has_ace or guarded_king or (hand & third and n >= 3):
            stops += 1
    return aces, kings, stops


def choose(bot: Any, state: Any, legal: list[int]) -> int | None:
    R = state.R
    plan = _plan(R)
    if plan is None:
        return None
    invites, target, low = plan
    me = state.to_act
    hand = state.hands[me]
    legal_calls = {R.calls[a & A.ARG].name: a for a in legal if a >> A.SHIFT == A.BID}
    passes = [a for a in legal if a >> A.SHIFT == A.PASS]
    con = R.contracts[target.contracts[0]]
    sure = bot.tricks_estimate(state, hand, con)
    low_risk = bot.low_estimate(state, hand, con)
    poor_low = low_risk >= 5.0
    aces, kings, stops = hand_tops(R, hand)
    mates = [t for t in state.teams.get(me, ()) if t != me]              # as sides.fixed_partners
    partner = mates[0] if len(mates) == 1 else None
    said = state.latest(partner) if partner is not None else None
    names = [c.name for c in invites]
    last = all(state.spoke(s) for s in state.active if s != me)          # nobody speaks after this seat
    if said is not None and str(said) in names:                          # partner invited
        strong = names.index(str(said)) == len(names) - 1
        if target.name in legal_calls and (strong or sure >= 3.0 or (sure >= 2.0 and poor_low)):
            return legal_calls[target.name]
        if low is not None and low.name in legal_calls and low_risk <= ANSWER_LOW and not strong and not last:
            return legal_calls[low.name]
        return passes[0] if passes else None
    holder = state.auction.holder
    if low is not None and said is not None and str(said) == low.name and holder == partner:
        if target.name in legal_calls and sure >= 2.0 and poor_low:
            return legal_calls[target.name]                               # partner's low call invites too
        return passes[0] if passes else None
    if partner is not None and holder == partner and state.high is not None:
        blocked = None if last else _guard_partners_trump_call(state, hand, legal_calls, plan, sure, low_risk)
        if blocked is not None:
            return blocked
        return passes[0] if passes else None                              # let partner's contract stand
    high = state.auction.high_call
    if high is not None and state.spoke(partner) and holder is not None and holder != partner:
        over = _overbid_opponents_trump_call(state, hand, legal_calls, passes, plan, sure, low_risk)
        if over is not None:
            return over
    opponent_invited = high is not None and high.name in names            # a low call would tell nothing
    opening = any(n in legal_calls for n in names)                        # a trump call is an invitation too
    if target.name in legal_calls and sure >= 4.0 and stops >= 3:         # enough to bid it alone
        return legal_calls[target.name]
    if stops >= 3 and invites[-1].name in legal_calls and (aces >= 3 or (aces >= 2 and kings >= 2)):
        return legal_calls[invites[-1].name]
    if opening and low is not None and low.name in legal_calls and not opponent_invited \
            and _trump_tops(R, hand, low) < 2 and _low_invitation(R, hand, low_risk, aces):
        return legal_calls[low.name]                                      # the low call invites as well
    if stops >= 3 and invites[0].name in legal_calls and (aces >= 2 or (aces >= 1 and kings >= 2) or kings >= 3):
        return legal_calls[invites[0].name]
    if target.name in legal_calls and sure >= 2.0 and stops >= 3 and not any(n in legal_calls for n in names):
        return legal_calls[target.name]                                   # a responder bids it on his own
    for name, a in sorted(legal_calls.items(), key=lambda kv: -R.call_by_name[kv[0]].rank):
        call = R.call_by_name[name]
        trump = R.contracts[call.contracts[0]].trump if call.contracts and call.contracts[0] in R.contracts else -1
        if trump >= 0 and name not in names and _long_strong(R, hand, trump) and sure >= 1.5 \
                and (not opening or _risk_outside(bot, state, hand, trump) <= 2.4):
            return a                                                      # a long suit strong at the top
    if low is not None and low.name in legal_calls and low_risk <= 2.4 and not opponent_invited \
            and _trump_tops(R, hand, low) < 2 and not opening:
        return legal_calls[low.name]                                      # good cards for few tricks
    return passes[0] if passes else None


def _long_strong(R: Any, hand: int, suit: int) -> bool:
    """Five or more cards of the suit with two of its three top cards."""
    smask, first, second, third, _low = _suits(R)[suit]
    return (hand & smask).bit_count() >= 5 and (hand & (first | second | third)).bit_count() >= 2


def _risk_outside(bot: Any, state: Any, hand: int, suit: int) -> float:
    """The hand's risk for a contract wanting few tricks, the given suit left out."""
    return float(bot.low_estimate(state, hand & ~state.R.suit_masks[suit], None))


def _trump_tops(R: Any, hand: int, low: Any) -> int:
    """Aces and guarded kings in the trump suits of the calls ranked below the low call: strength there
    is partner's room to support, which a low call would take away."""
    count = 0
    table = _suits(R)
    for suit in _trump_suits_below(R, low.rank):
        smask, first, second, _third, _low = table[suit]
        count += bool(hand & first) + (bool(hand & second) and (hand & smask).bit_count() >= 2)
    return count


def _trump_suits_below(R: Any, below: int) -> frozenset[int]:
    """The trump suits of the trump calls ranked below `below`; kept per rule set and rank."""
    cache = R.__dict__.setdefault("_invitation_trumps_below", {})
    if below not in cache:
        cache[below] = frozenset(R.contracts[n].trump for c in R.calls if c.rank < below for n in (c.contracts or ())
                                 if n in R.contracts and R.contracts[n].trump >= 0)
    return cache[below]


def _trump_suits(R: Any, above: int = -1) -> frozenset[int]:
    """The trump suits of the trump calls ranked above `above` (every trump call by default); kept per
    rule set and rank."""
    cache = R.__dict__.setdefault("_invitation_trumps_above", {})
    if above not in cache:
        cache[above] = frozenset(R.contracts[n].trump for c in R.calls if c.rank > above for n in (c.contracts or ())
                                 if n in R.contracts and R.contracts[n].trump >= 0)
    return cache[above]


def _stopped(R: Any, hand: int, suit: int) -> bool:
    """The top card, the second guarded once or the third guarded twice."""
    smask, first, second, third, _low = _suits(R)[suit]
    n = (hand & smask).bit_count()
    return bool(hand & first or (hand & second and n >= 2) or (hand & third and n >= 3))


def _low_invitation(R: Any, hand: int, low_risk: float, aces: int) -> bool:
    """Tops like the weak invitation's and good cards for the contract wanting few tricks: two aces, or an
    ace and a guarded king or queen, or an ace heading four or more cards of a suit no trump call names;
    and the lowest card of two or more suits, the cards besides the aces carrying little risk."""
    lows = heads = guarded = 0
    plain = set(range(len(R.suit_masks))) - _trump_suits(R)
    for suit, (smask, first, second, third, low) in enumerate(_suits(R)):
        n = (hand & smask).bit_count()
        lows += bool(hand & low)
        guarded += (bool(hand & second) and n >= 2) + (bool(hand & third) and n >= 3)
        heads += suit in plain and bool(hand & first) and n >= 4
    tops = aces >= 2 or (aces >= 1 and guarded >= 1) or heads >= 1
    return tops and lows >= 2 and low_risk - 0.9 * aces <= 1.5


def _guard_partners_trump_call(state: Any, hand: int, legal_calls: dict[str, int], plan: Any,
                               sure: float, low_risk: float) -> int | None:
    """Partner holds the auction with a trump call and a later opponent still speaks: shut that opponent
    out where the side is weak. With fair cards for few tricks: the low call when a higher trump call
    is left to the opponent in a suit the hand does not stop, else let partner's call stand. With poor
    such cards the invited contract only with stoppers in every suit no trump call names (partner's
    call showed them weak) and three likely stick; else let it stand, a few tricks lost in the low
    contract costing less than the penalty of a failed invited contract. None: not this case."""
    R = state.R
    invites, target, low = plan
    high = state.auction.high_call
    trump = _trump_of(R, high)
    if high in invites or trump < 0:
        return None
    if low_risk <= FAIR_LOW:
        higher = _trump_suits(R, high.rank) - {trump}
        if low is not None and low.name in legal_calls and any(not _stopped(R, hand, s) for s in higher):
            return legal_calls[low.name]
        return None
    plain = set(range(len(R.suit_masks))) - _trump_suits(R)
    if target.name in legal_calls and sure >= 3.0 and all(_stopped(R, hand, s) for s in plain):
        return legal_calls[target.name]
    return None


def _overbid_opponents_trump_call(state: Any, hand: int, legal_calls: dict[str, int], passes: list[int],
                                  plan: Any, sure: float, low_risk: float) -> int | None:
    """Speaking last for the side (the partner has spoken), an opponent holding the auction with a trump
    call: a trump contract left standing is usually made and costs more than a call that fails by a
    trick or two, so take the most favourable call left (speaking last of all, nobody can overbid it;
    before the last opponent, it shuts out that opponent's lower options). Let it stand
    with four or more of its trumps, two of them among the three top cards (strong enough to defeat it);
    else a higher trump call with a long suit strong at the top; else the invited contract with one or
    two likely stick; else the call of the contract wanting few tricks with a hand not poor for it; else
    a higher trump call with four cards of its suit; else let it stand, every overbid costing more.
    None: not this case."""
    R = state.R
    invites, target, low = plan
    trump = _trump_of(R, state.auction.high_call)
    if state.auction.high_call in invites or trump < 0:
        return None
    smask, first, second, third, _low = _suits(R)[trump]
    if (hand & smask).bit_count() >= 4 and (hand & (first | second | third)).bit_count() >= 2:
        return passes[0] if passes else None                              # strong enough to defeat it
    higher = [(name, t) for name in legal_calls if (t := _trump_of(R, R.call_by_name[name])) >= 0]
    for name, t in higher:
        if _long_strong(R, hand, t):
            return legal_calls[name]
    if target.name in legal_calls and sure >= 1.5:
        return legal_calls[target.name]
    if low is not None and low.name in legal_calls and low_risk < 5.0:
        return legal_calls[low.name]
    for name, t in higher:
        if len(bits(hand & R.suit_masks[t])) >= 4:
            return legal_calls[name]
    return passes[0] if passes else None


def _trump_of(R: Any, call: Any) -> int:
    """The trump suit of a call naming one contract with trumps, else -1."""
    if call is None or not call.contracts or call.contracts[0] not in R.contracts:
        return -1
    return int(R.contracts[call.contracts[0]].trump)
