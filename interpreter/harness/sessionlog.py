"""Logs of whole sessions (`simulate --session K --log FILE`): one JSON line per deal, as `simulate --log`
writes, each also naming its `session` and its deal number within it. A deal of a session starts from
the accounts the deals before it left (a pot, score columns), so `replay` carries them from line to
line while the session is the same, and checks every result against the log."""
from __future__ import annotations

from typing import Any


def record(state, start: tuple, rules_name: str, options: dict, seed, session: int, deal: int) -> dict:
    """The log line of deal `deal` of session `session`."""
    from interpreter.harness.runner import deal_record

    rec = deal_record(state, start, rules_name, options, seed, deal)
    rec["session"] = session
    return rec


class Carry:
    """The accounts carried from one logged deal of a session to the next, while the lines name the
    same rules, options and session; a line without `session` starts from nothing."""

    def __init__(self) -> None:
        self.key: Any = None
        self.session: Any = None

    def before(self, rs, rec: dict, options: dict) -> tuple[Any, int | None]:
        """The accounts and deal number the line's deal starts from (None, None: a deal on its own)."""
        from interpreter.engine.session import Session

        if not isinstance(rec.get("session"), int) or isinstance(rec.get("session"), bool):
            self.key = self.session = None
            return None, None
        key = (rs.name, repr(sorted(options.items())), rec["session"])
        if key != self.key or self.session is None:
            self.key, self.session = key, Session(rs, options, dealer=0)
        return self.session.accounts, self.session.deal_number

    def seating(self) -> dict | None:
        """Who sits where in the session's next deal (players change seats between sits)."""
        if self.session is None:
            return None
        return {"seat_player": self.session.table.seat_player, "table": self.session.table}

    def after(self, state) -> None:
        if self.session is not None:
            self.session.finish(state)
