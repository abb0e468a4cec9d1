"""Defence: going along or staying home, invitations, and kontra chains."""
from __future__ import annotations

from interpreter.engine import actions as A


class DefencePhases:
    """Methods of State (engine/state.py) for this phase."""

    # ---- defence ----------------------------------------------------------------------------------
    def _start_defence(self) -> bool:
        df = self.R.defence
        con = self.con
        if self.declarer is None:
            self.playing = self.active
            return False
        defenders = self.defenders
        if con.defence == "all" or not df["present"]:
            self.playing = self.active
            return False
        if con.defence == "nobody":
            self.playing = self.declarers
            return False
        self.me = None
        if df["kontra_required"](self):
            self.kontra_required = True
            self.playing = self.active
            return False
        if not df["when"](self):
            self.playing = self.active
            return False
        if df["compulsory"](self):
            self.compulsory = True
            self.playing = self.active
            return False
        first = df["first"](self) if df["first"] is not None else self.next(self.declarer)
        queue = [first] + [s for s in defenders if s != first]
        self.defence_queue = queue
        self.to_act = queue[0]
        self.defence_stage = "ask"
        return True

    def _legal_defence(self) -> list[int]:
        if self.defence_stage == "ask":
            return [A.make(A.DEFEND, 0), A.make(A.DEFEND, 1)]
        return [A.make(A.INVITE, 0), A.make(A.INVITE, 1)]

    def _apply_defence(self, action: int) -> None:
        me = self.to_act
        if self.defence_stage == "ask":
            self.answers[me] = "go" if A.arg_of(action) == 0 else "stay"
            self.defence_queue.pop(0)
            if self.defence_queue:
                self.to_act = self.defence_queue[0]
                return
            goers = [s for s in self.defenders if self.answers[s] == "go"]
            stayers = [s for s in self.defenders if self.answers[s] == "stay"]
            if len(goers) == 1 and stayers:
                self.me = goers[0]
                if self.R.defence["invite"](self):
                    self.defence_stage = "invite"
                    self.to_act = goers[0]
                    return
            self._finish_defence()
            return
        if A.arg_of(action) == 0:
            self.invited = True
            self.host = me
            self.guest = next(s for s in self.defenders if s != me)
        self._finish_defence()

    def _finish_defence(self):
        goers = [s for s in self.defenders if self.answers[s] == "go" or (self.invited and s == self.guest)]
        self.playing = tuple(s for s in self.active if s in goers or s in self.declarers)
        self.to_act = -1
        self._advance()

    # ---- kontra -----------------------------------------------------------------------------------
    def _start_kontra(self) -> bool:
        K = self.R.kontra
        if not K["present"] or self.declarer is None or self.con is None:
            return False
        first = K["first"](self) if K["first"] is not None else self.next(self.declarer)
        order = [first] + [s for s in self.defenders if s != first]
        self.kontra_queue = []
        for s in order:
            self.me = s
            if K["when"](self):
                self.kontra_queue.append(s)
        self.kontra_sayer = None
        if not self.kontra_queue:
            self._kontra_done()
            return False
        self.to_act = self.kontra_queue[0]
        return True

    def _kontra_word(self, level: int) -> str:
        levels = self.R.kontra["levels"] or ["kontra"]
        return levels[level - 1] if level <= len(levels) else f"{levels[-1]} {level}"

    def _legal_kontra(self) -> list[int]:
        mx = self.R.kontra["max"]
        if mx is not None and self.kontra_level >= mx:
            return [A.make(A.KONTRA, 0)]
        return [A.make(A.KONTRA, self.kontra_level + 1), A.make(A.KONTRA, 0)]

    def _apply_kontra(self, action: int) -> None:
        me = self.to_act
        level = A.arg_of(action)
        if level:
            self.kontra_level = level
            if self.kontra_sayer is None:
                self.kontra_sayer = me
                if self.R.kontra["invites"]:
                    others = [s for s in self.defenders if s != me]
                    self.host = me
                    self.guest = others[0] if others else None
                    self.invited = self.guest is not None
                    self.playing = tuple(s for s in self.active)
            self.to_act = self.declarer if me != self.declarer else self.kontra_sayer
            return
        if self.kontra_sayer is None:
            self.kontra_queue.pop(0)
            if self.kontra_queue:
                self.to_act = self.kontra_queue[0]
                return
        self._kontra_done()
        self.to_act = -1
        self._advance()

    def _kontra_done(self) -> None:
        if self.kontra_required and self.kontra_sayer is None:
            self.playing = self.declarers
