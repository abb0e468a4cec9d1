"""The rule bot's bidding in a partnership game with invitation calls.

An *invitation* is a call that, if it stays the final call, gives a contract nobody declares (`side =
no_declarer`): it is never meant to be played, only to tell the partner what the hand holds. The lower
such call is the weak invitation, the higher the strong one. The call they invite to is the highest
positive contract without trumps. The bot (engine/bots.py) asks `choose` first; None leaves the choice
to its general judgement.

    inviting   a hand with tops and stoppers but not enough to bid the invited contract alone: two aces,
               an ace and two guarded kings, or three guarded kings for the weak call; three aces, or two
               aces and two guarded kings, for the strong one; stoppers in at least three suits
    alone      enough sure stick and stoppers in three suits: the invited contract itself
    answering  partner invited: bid the invited contract on a strong invitation; on a weak one with three
               likely stick, or two with a hand poor for a contract wanting few tricks; with a hand good for
               such a contract bid it instead, unless speaking last (passing gives it anyway). Partner's
               call of the contract wanting few tricks invites too: bid the invited contract with two likely
               stick and a hand poor for few tricks, else let it stand
    after an opponent's invitation, a call of the contract wanting few tricks tells nothing: not made
    opening    a trump call where an invitation could still be made shows a long suit strong at the top and
               otherwise good cards for few tricks; no call of a contract wanting few tricks with two tops
               (aces, guarded kings) in the suits of the lower trump calls, partner's room to support
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.cards import bits


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


def hand_tops(R: Any, hand: int) -> tuple[int, int, int]:
    """(aces, guarded kings, stopped suits) of a hand, the ace being each suit's top card."""
    aces = kings = stops = 0
    for smask in R.suit_masks:
        cards = sorted((R.order_of[c] for c in bits(hand & smask)), reverse=True)
        top = len(bits(smask)) - 1
        n = len(cards)
        has_ace = bool(cards) and cards[0] == top
        has_king = top - 1 in cards
        aces += has_ace
        kings += has_king and n >= 2
        if has_ace or (has_king and n >= 2) or (top - 2 in cards and n >= 3):
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
    legal_calls = {R.calls[A.arg_of(a)].name: a for a in legal if A.kind_of(a) == A.BID}
    passes = [a for a in legal if A.kind_of(a) == A.PASS]
    con = R.contracts[target.contracts[0]]
    sure = bot.tricks_estimate(state, hand, con)
    low_risk = bot.low_estimate(state, hand, con)
    poor_low = low_risk >= 5.0
    aces, kings, stops = hand_tops(R, hand)
    partner = sides.fixed_partners(state).get(me)
    said = state.latest(partner) if partner is not None else None
    names = [c.name for c in invites]
    if said is not None and str(said) in names:                          # partner invited
        strong = names.index(str(said)) == len(names) - 1
        if target.name in legal_calls and (strong or sure >= 3.0 or (sure >= 2.0 and poor_low)):
            return legal_calls[target.name]
        last = all(state.spoke(s) for s in state.active if s != me)
        if low is not None and low.name in legal_calls and not poor_low and not strong and not last:
            return legal_calls[low.name]
        return passes[0] if passes else None
    holder = state.auction.holder
    if low is not None and said is not None and str(said) == low.name and holder == partner:
        if target.name in legal_calls and sure >= 2.0 and poor_low:
            return legal_calls[target.name]                               # partner's low call invites too
        return passes[0] if passes else None
    if partner is not None and holder == partner and state.high is not None:
        return passes[0] if passes else None                              # let partner's contract stand
    high = state.high_call
    opponent_invited = high is not None and high.name in names            # a low call would tell nothing
    opening = any(n in legal_calls for n in names)                        # a trump call is an invitation too
    if target.name in legal_calls and sure >= 4.0 and stops >= 3:         # enough to bid it alone
        return legal_calls[target.name]
    if stops >= 3:
        if invites[-1].name in legal_calls and (aces >= 3 or (aces >= 2 and kings >= 2)):
            return legal_calls[invites[-1].name]
        if invites[0].name in legal_calls and (aces >= 2 or (aces >= 1 and kings >= 2) or kings >= 3):
            return legal_calls[invites[0].name]
    if target.name in legal_calls and sure >= 2.0 and stops >= 3 and not any(n in legal_calls for n in names):
        return legal_calls[target.name]                                   # a responder bids it on his own
    for name, a in sorted(legal_calls.items(), key=lambda kv: -R.call_by_name[kv[0]].rank):
        call = R.call_by_name[name]
        trump = R.contracts[call.contracts[0]].trump if call.contracts and call.contracts[0] in R.contracts else -1
        if trump >= 0 and call not in invites and _long_strong(R, hand, trump) and sure >= 1.5 \
                and (not opening or _risk_outside(bot, state, hand, trump) <= 2.4):
            return a                                                      # a long suit strong at the top
    if low is not None and low.name in legal_calls and low_risk <= 2.4 and not opponent_invited \
            and _trump_tops(R, hand, low) < 2:
        return legal_calls[low.name]                                      # good cards for few tricks
    return passes[0] if passes else None


def _long_strong(R: Any, hand: int, suit: int) -> bool:
    """Five or more cards of the suit with two of its three top cards."""
    cards = [R.order_of[c] for c in bits(hand & R.suit_masks[suit])]
    top = len(bits(R.suit_masks[suit])) - 1
    return len(cards) >= 5 and sum(1 for o in cards if o >= top - 2) >= 2


def _risk_outside(bot: Any, state: Any, hand: int, suit: int) -> float:
    """The hand's risk for a contract wanting few tricks, the given suit left out."""
    return float(bot.low_estimate(state, hand & ~state.R.suit_masks[suit], None))


def _trump_tops(R: Any, hand: int, low: Any) -> int:
    """Aces and guarded kings in the trump suits of the calls ranked below the low call: strength there
    is partner's room to support, which a low call would take away."""
    suits = {R.contracts[n].trump for c in R.calls if c.rank < low.rank for n in (c.contracts or ())
             if n in R.contracts and R.contracts[n].trump >= 0}
    count = 0
    for suit in suits:
        cards = [R.order_of[c] for c in bits(hand & R.suit_masks[suit])]
        top = len(bits(R.suit_masks[suit])) - 1
        count += (top in cards) + (top - 1 in cards and len(cards) >= 2)
    return count
