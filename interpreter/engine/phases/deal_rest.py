"""A deal in two parts: `deal.pause` names the packet after which the deal waits, and the phase `deal_rest`,
where the procedure places it, deals the packets after it.

    deal {
      packets = table { | name | to | cards | | first | each | 4 | | second | each | 4 | }
      pause = first
    }
    procedure = [knock_1, knock_2, deal_rest, auction, play, settle]

Until `deal_rest` each player holds only the cards the packets up to `pause` dealt him (`Rules.deal_pause`
of them), so a phase before it (a decision such as knocking) is taken having seen only those: his hand,
what he may do and what his observation shows are those cards. The rest is held back (`State.held`, a
mask per seat, replaced and never written in place) and added to the hands at `deal_rest`.

Which of a player's cards came in the first packets is drawn when the deal starts, with a random.Random
seeded by the whole deal (every hand and the talon): a shuffled deck dealt packet by packet gives each
hand's first packets as a uniformly drawn part of the hand, and a part drawn from the whole deal is the
same in every replay, log and scenario of that deal, while no player can work it out from his own cards.
The hands as dealt (`dealt_hands`, `dealt_cards`) are the whole hands throughout.

`deal_pause`, the phase that holds the cards back, is put first in the procedure when `deal.pause` is
given (it asks nothing); `deal_rest` asks nothing either.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from interpreter.engine.cards import bits
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from interpreter.engine.state import State


def first_cards(packets, pause: str | None) -> int:
    """The cards each player holds at the pause: those of the `each` packets up to and including the packet
    named `pause`; 0 without a pause."""
    if pause is None:
        return 0
    count = 0
    for p in packets:
        if p.to == "each":
            count += p.cards * p.repeat
        if p.name == pause:
            return count
    return 0


def _held(st: State, first: int) -> tuple[int, ...]:
    """Per seat, the cards dealt after the pause: all but `first` of its hand, drawn as module doc says."""
    R = st.R
    rng = random.Random(",".join([*(" ".join(R.rs.codes(h)) for h in st.hands),
                                  " ".join(R.codes[c] for c in st.dealt_talon_order)]))
    held = []
    for hand in st.hands:
        cards = bits(hand)
        later = rng.sample(cards, max(0, len(cards) - first)) if len(cards) > first else []
        held.append(sum(1 << c for c in later))
    return tuple(held)


class DealPausePhase(Phase):
    """Holds back the cards dealt after the pause (first in the procedure when `deal.pause` is given)."""
    name = "deal_pause"

    def start(self, st: State) -> bool:
        first = st.R.deal_pause
        if first:
            held = _held(st, first)
            st.held = held
            st.hands = [h & ~m for h, m in zip(st.hands, held)]
        return False


class DealRestPhase(Phase):
    """Deals the packets after the pause: every held card joins its player's hand."""
    name = "deal_rest"

    def start(self, st: State) -> bool:
        held = st.held
        if held:
            st.hands = [h | m for h, m in zip(st.hands, held)]
            st.held = ()
        return False
