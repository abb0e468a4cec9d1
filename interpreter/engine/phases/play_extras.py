"""What the play does beyond following suit and the highest card: the trick a set of cards upsets (`play.upset`: when all of them fall in one trick and one of them would win
it, the `wins` card takes it instead), and the talon left over that the called card brings to its side
(a talon's `called_rest`). engine/phases/play.py calls `trick_end` as each trick is complete, when
`extras_of` says the rules have either of the last two.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.cards import mask_of

if TYPE_CHECKING:
    from interpreter.engine.state import State


@dataclass(frozen=True)
class Extras:
    upset: int = 0              # the cards that upset a trick together (a mask; 0: none)
    wins: int = -1              # the card that then takes it


def extras_of(R: Any) -> Extras | None:
    """The rules' upset (play.upset) as masks, once per rule set; None when the rules have neither an upset
    nor a talon with `called_rest`."""
    memos = R.memos
    if memos.play_extras_found:
        return memos.play_extras
    phases = R.rs.game.phases
    play = phases.play
    extras = Extras()
    if play.upset_cards and play.upset_wins:        # `wins` is one of the cards, written there or not
        wins = R.rs.card_index[play.upset_wins]
        extras = Extras(R.rs.mask(play.upset_cards) | 1 << wins, wins)
    rests = any(t.called_rest for t in phases.talons.values())
    memos.play_extras = found = extras if extras.upset or rests else None
    memos.play_extras_found = True
    return found


def trick_end(st: State, trick: tuple, ex: Extras) -> None:
    """The trick is complete, its winner not yet recorded: an upset changes the winner (State.win); the called
    card winning it brings the talon left to the declarer's side."""
    if ex.upset:
        m = 0
        for _, c in trick:
            m |= 1 << c
        win = st.win
        if m & ex.upset == ex.upset and win is not None and ex.upset >> win[1] & 1:
            st.win = next(p for p in trick if p[1] == ex.wins)
    tl = st.peek("talon_state")
    proc = tl.proc if tl is not None else None
    if proc is None or not proc.called_rest or not st.talon:
        return
    card = st.called_card
    if card is None or st.win is None or st.win[1] != card or any(h >> card & 1 for h in st.dealt_hands):
        return
    from interpreter.engine.phases.base import own_part
    from interpreter.engine.phases.talon import TalonState

    rest = mask_of(st.talon)        # (the cards stay where they lie; their points count for the declaring side)
    if not rest & ~tl.to_declarers:
        return
    tl = own_part(st, "talon_state", TalonState)
    tl.to_declarers |= rest
    tl.to_defenders &= ~rest
