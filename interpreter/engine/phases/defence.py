"""Defence: the defenders in turn go along or stay home; one who goes alone may invite the other."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.context import Ctx
from interpreter.engine.phases.base import ALWAYS, NEVER, Phase

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import Defence


@dataclass
class DefenceSettings:
    present: bool
    when: Any
    first: Any | None
    compulsory: Any
    invite: Any
    kontra_required: Any
    nobody_tricks: int | None       # when nobody defends, the declarer counts as taking this many tricks


def settings(df: Defence, comp: Compiler) -> DefenceSettings:
    x = comp.text
    return DefenceSettings(
        present=df.present, when=x(df.when) if df.when is not None else ALWAYS,
        first=x(df.first) if df.first is not None else None,
        compulsory=x(df.compulsory) if df.compulsory is not None else NEVER,
        invite=x(df.invite) if df.invite is not None else NEVER,
        kontra_required=x(df.kontra_required) if df.kontra_required is not None else NEVER,
        nobody_tricks=df.nobody_tricks)


@dataclass(init=False)
class DefenceState:
    n: int
    answers: list                   # per seat: "go", "stay" or None
    queue: list[int]                # defenders still to answer, next first
    stage: str | None               # ask | invite
    invited: bool
    host: int | None
    guest: int | None
    compulsory: bool

    def __init__(self, n: int, answers: list | None = None, queue: list[int] | None = None, stage: str | None = None,
                 invited: bool = False, host: int | None = None, guest: int | None = None, compulsory: bool = False):
        self.n = n
        self.answers = answers if answers else [None] * n
        self.queue = queue if queue is not None else []
        self.stage = stage
        self.invited = invited
        self.host = host
        self.guest = guest
        self.compulsory = compulsory

    def copy(self) -> DefenceState:
        return DefenceState(self.n, list(self.answers), list(self.queue), self.stage, self.invited, self.host,
                            self.guest, self.compulsory)


_GO, _STAY, _INVITE, _ALONE = A.make(A.DEFEND, 0), A.make(A.DEFEND, 1), A.make(A.INVITE, 0), A.make(A.INVITE, 1)


def _first_defender(st: State, first: int | None, declarer: int) -> int:
    """The defender asked first: `first`, or the next defender after it in turn when it is none (then from the
    declarer) or no defender (docs/language.md, Totality)."""
    s = st.seat_after(declarer) if first is None else first
    for _ in range(st.n):
        if s in st.defenders:
            return s
        s = st.seat_after(s)
    return st.defenders[0]


class DefencePhase(Phase):
    name = "defence"

    def start(self, st: State) -> bool:
        S = st.R.defence
        con = st._con                   # the values behind the properties `con` and `declarer`
        declarer = st._declarer
        if declarer is None or con is None or con.defence == "all" or not S.present:
            st.playing = st.active
            return False
        if con.defence == "nobody":
            st.playing = st.declarers
            return False
        c = Ctx(st)
        if S.kontra_required is not NEVER and S.kontra_required(c):     # (none in most rule files: no call)
            st.kontra.required = True
            st.playing = st.active
            return False
        if not S.when(c):
            st.playing = st.active
            return False
        df = st.defence
        if S.compulsory(c):
            df.compulsory = True
            st.playing = st.active
            return False
        if not st.defenders:            # nobody to ask (every seat declares)
            st.playing = st.active
            return False
        first = _first_defender(st, S.first(c) if S.first is not None else None, declarer)
        df.queue = [first] + [s for s in st.defenders if s != first]
        st.to_act = df.queue[0]
        df.stage = "ask"
        return True

    def legal(self, st: State) -> list[int]:
        if st.defence.stage == "ask":
            return [_GO, _STAY]
        return [_INVITE, _ALONE]

    def apply(self, st: State, action: int) -> None:
        me = st.to_act
        df = st.defence
        if df.stage == "ask":
            df.answers[me] = "stay" if action & A.ARG else "go"
            df.queue.pop(0)
            if df.queue:
                st.to_act = df.queue[0]
                return
            goers = [s for s in st.defenders if df.answers[s] == "go"]
            stayers = [s for s in st.defenders if df.answers[s] == "stay"]
            if len(goers) == 1 and stayers and st.R.defence.invite(Ctx(st, goers[0])):
                df.stage = "invite"
                st.to_act = goers[0]
                return
            self._finish(st)
            return
        if not action & A.ARG:
            df.invited = True
            df.host = me
            df.guest = next(s for s in st.defenders if s != me)
        self._finish(st)

    def _finish(self, st: State) -> None:
        df = st.defence
        goers = [s for s in st.defenders if df.answers[s] == "go" or (df.invited and s == df.guest)]
        st.playing = tuple(s for s in st.active if s in goers or s in st.declarers)
        st.to_act = -1
        st._advance()
