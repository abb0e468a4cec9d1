"""The talon after the auction: which procedure applies, taking it up, and the declarer's discards."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from interpreter.engine import actions as A
from interpreter.engine.cards import combinations_of, mask_of
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from interpreter.engine.state import State
    from interpreter.model.ruleset import Ruleset


@dataclass(frozen=True)
class TalonProc:
    name: str
    kind: str                   # exchange | aside | defenders | … (only exchange asks anything)
    take: int | None            # None: the whole talon
    discard: int | None         # None: as many as taken
    exposed: bool
    never: int                  # cards that may not be discarded


def settings(doc: dict, rs: Ruleset) -> dict[str, TalonProc]:
    out = {}
    for name, t in (doc.get("talon") or {}).items():
        out[name] = TalonProc(name=name, kind=t.get("kind", "exchange"), take=t.get("take"),
                              discard=t.get("discard"), exposed=bool(t.get("exposed")),
                              never=rs.mask(t["never"]) if t.get("never") else 0)
    return out


@dataclass
class TalonState:
    exposed: bool = False
    shown: tuple = ()            # the cards shown to everyone when the talon is exposed
    discard_count: int = 0
    rest: int = 0                # cards of the talon nobody took

    def copy(self) -> TalonState:
        return TalonState(self.exposed, self.shown, self.discard_count, self.rest)


def procedure(st: State) -> TalonProc | None:
    """The talon procedure of this deal: the final call's, else the contract's."""
    name = None
    if st.final_call is not None and st.final_call.talon is not None:
        name = st.final_call.talon
    elif st.con is not None:
        name = st.con.talon
    return st.R.talons.get(name) if name else None


class TalonPhase(Phase):
    name = "talon"

    def start(self, st: State) -> bool:
        proc = procedure(st)
        tl = st.talon_state
        if proc is None or st.declarer is None or proc.kind != "exchange":
            tl.rest = mask_of(st.talon)
            return False
        take = proc.take if proc.take is not None else len(st.talon)
        taken = st.talon[:take]
        st.talon = st.talon[take:]
        tl.exposed = proc.exposed
        tl.shown = tuple(taken) if tl.exposed else ()
        st.hands[st.declarer] |= mask_of(taken)
        st.to_act = st.declarer
        tl.discard_count = proc.discard if proc.discard is not None else len(taken)
        return tl.discard_count > 0

    def legal(self, st: State) -> list[int]:
        hand = st.hands[st.to_act]
        proc = procedure(st)
        allowed = hand & ~proc.never if proc else hand
        return [A.make(A.DISCARD, m) for m in combinations_of(allowed, st.talon_state.discard_count)]

    def apply(self, st: State, action: int) -> None:
        m = A.arg_of(action)
        st.hands[st.to_act] &= ~m
        st.discards |= m
        st.to_act = -1
        st._advance()
