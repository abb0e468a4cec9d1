"""Kontra chains: a defender doubles, the declarer answers, and so on up to the chain's maximum."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.context import Ctx
from interpreter.engine.phases.base import ALWAYS, Phase
from interpreter.model.limits import DEFAULT_KONTRA_MAX  # a chain without `max` ends here; validate warns (W340)

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import Kontra



@dataclass
class KontraSettings:
    present: bool
    when: Any
    first: Any | None
    levels: list[str]
    max: int
    invites: bool


def settings(kt: Kontra, comp: Compiler) -> KontraSettings:
    mx = kt.max
    return KontraSettings(
        present=kt.present, when=comp.text(kt.when) if kt.when is not None else ALWAYS,
        first=comp.text(kt.first) if kt.first is not None else None, levels=list(kt.levels),
        max=mx if isinstance(mx, int) and not isinstance(mx, bool) else DEFAULT_KONTRA_MAX,
        invites=kt.invites)


@dataclass
class KontraState:
    level: int = 0
    required: bool = False                          # the contract is played only if a kontra is said
    sayer: int | None = None
    queue: list[int] = field(default_factory=list)  # defenders who may still say the first kontra

    def copy(self) -> KontraState:
        return KontraState(self.level, self.required, self.sayer, list(self.queue))


def word(st: State, level: int) -> str:
    levels = st.R.kontra.levels or ["kontra"]
    return levels[level - 1] if level <= len(levels) else f"{levels[-1]} {level}"


class KontraPhase(Phase):
    name = "kontra"

    def start(self, st: State) -> bool:
        S = st.R.kontra
        declarer = st._declarer         # (the values behind the properties `declarer` and `con`)
        if not S.present or declarer is None or st._con is None:
            return False
        kt = st.kontra
        c = Ctx(st)
        first = S.first(c) if S.first is not None else st.seat_after(declarer)
        order = [first] + [s for s in st.defenders if s != first]
        kt.queue = []
        for s in order:
            c.me = s
            if S.when(c):
                kt.queue.append(s)
        kt.sayer = None
        if not kt.queue:
            self._done(st)
            return False
        st.to_act = kt.queue[0]
        return True

    def legal(self, st: State) -> list[int]:
        level = st.kontra.level
        if level >= st.R.kontra.max:
            return [A.make(A.KONTRA, 0)]
        return [A.make(A.KONTRA, level + 1), A.make(A.KONTRA, 0)]

    def apply(self, st: State, action: int) -> None:
        me = st.to_act
        kt = st.kontra
        level = action & A.ARG
        if level:
            kt.level = level
            if kt.sayer is None:
                kt.sayer = me
                if st.R.kontra.invites:
                    df = st.defence
                    others = [s for s in st.defenders if s != me]
                    df.host = me
                    df.guest = others[0] if others else None
                    df.invited = df.guest is not None
                    st.playing = tuple(st.active)
            answer = st.declarer if me != st.declarer else kt.sayer
            assert answer is not None
            st.to_act = answer
            return
        if kt.sayer is None:
            kt.queue.pop(0)
            if kt.queue:
                st.to_act = kt.queue[0]
                return
        self._done(st)
        st.to_act = -1
        st._advance()

    def _done(self, st: State) -> None:
        if st.kontra.required and st.kontra.sayer is None:
            st.playing = st.declarers
