"""Dummy: one seat's hand laid open and played by another seat (as dummy is played by the
declarer).

    play { dummy { seat = partner_of(declarer)  by = declarer  after_lead = 1 } }

`seat` and `by` are judged when the play starts (none: no dummy in this deal). From the lead to trick
`after_lead` on (1: right after the opening lead) the seat's hand is shown to every other seat
(`open_hands` in each observation). At the seat's turn the seat `by` acts for it: `current_player()` is `by`,
the legal actions are the dummy's cards, and the log names the dummy's seat with the card, as it names the
seat whose card it is. The dummy himself never acts in the play.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import Dummy

__all__ = ["DummySettings", "settings", "start", "shown"]


@dataclass(frozen=True)
class DummySettings:
    seat: Any                   # expression: the dummy's seat (none: no dummy)
    by: Any                     # expression: the seat that plays the dummy's cards
    after_lead: int             # shown after the lead to this trick


def settings(d: Dummy | None, comp: Compiler) -> DummySettings | None:
    if d is None:
        return None
    return DummySettings(seat=comp.text(d.seat), by=comp.text(d.by), after_lead=d.after_lead)


def start(st: State, S: DummySettings) -> None:
    """The play starts: who is dummy in this deal, and who plays for him."""
    c = Ctx(st)
    seat, by = S.seat(c), S.by(c)
    if isinstance(seat, int) and isinstance(by, int) and seat != by and seat in st.playing:
        st.dummy, st.dummy_by = seat, by
    else:
        st.dummy = st.dummy_by = None


def shown(st: State) -> bool:
    """The dummy's hand is on the table: the lead to trick `after_lead` is made (or that trick is over);
    the views read the same (engine/views.py `_dummy`)."""
    S = st.R.dummy
    if st.dummy is None or S is None or st.phase != "play":
        return False
    done = len(st.play.history)
    return done >= S.after_lead or (done == S.after_lead - 1 and bool(st.trick))
