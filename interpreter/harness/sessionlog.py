"""Logs of whole sessions (`simulate --session K --log FILE`): one JSON line per deal, as `simulate --log`
writes, each also naming its `session` and its deal number within it. A deal of a session starts from
the accounts the deals before it left (a pot, score columns), so `replay` carries them from line to
line while the session is the same, and checks every result against the log.

Simulate and replay end a deal of a session the same way, with `Session.finish`, and both take the
result it returns — the deal's result as its play left it. What the session books after the deal (a
sit's reckoning, the final reckoning when the game ends) is booked on the same state, so reading
`state.result()` afterwards would count it in the last deal. The last line of a session also says how
the session ended (`session_end`: "rule", the game's own end, or "limit", the deal limit) and each
seat's (or player's) `final` result, which replay checks too."""
from __future__ import annotations

from typing import Any

from interpreter.harness.inputs import BadInput
from interpreter.harness.logs import deal_record, jsonable

ENDS = ("rule", "limit")


def record(state, start: tuple, rules_name: str, options: dict, seed, session: int, deal: int,
           result: dict) -> dict:
    """The log line of deal `deal` of session `session`; `result`: what `Session.finish` returned."""
    rec = deal_record(state, start, rules_name, options, seed, deal, result=result)
    rec["session"] = session
    return rec


def close(rec: dict, session, by_rule: bool) -> None:
    """Mark `rec`, the log line of the session's last deal: how the session ended and its final results."""
    rec["session_end"] = "rule" if by_rule else "limit"
    rec["final"] = jsonable(session.close())


class Carry:
    """The accounts carried from one logged deal of a session to the next, while the lines name the
    same rules, options and session; a line without `session` starts from nothing."""

    def __init__(self) -> None:
        self.key: Any = None
        self.session: Any = None
        self.stopped = False            # the session was closed at the deal limit (its line said so)

    def before(self, rs, rec: dict, options: dict) -> tuple[Any, int | None]:
        """The accounts and deal number the line's deal starts from (None, None: a deal on its own)."""
        from interpreter.engine.session import Session

        if not isinstance(rec.get("session"), int) or isinstance(rec.get("session"), bool):
            self.key = self.session = None
            return None, None
        key = (rs.name, repr(sorted(options.items())), rec["session"])
        if key == self.key and self.session is not None and self.session.ended:
            how = "at the deal limit" if self.stopped else "by the game's own rule"
            raise BadInput(f"session {rec['session']} ended {how} after its deal {self.session.deal_number - 1}, "
                           "but the log goes on with another deal of it")
        if key != self.key or self.session is None:
            self.key, self.session, self.stopped = key, Session(rs, options, dealer=0), False
        return self.session.accounts, self.session.deal_number

    def seating(self) -> dict | None:
        """Who sits where in the session's next deal (players change seats between sits)."""
        if self.session is None:
            return None
        return {"seat_player": self.session.table.seat_player, "table": self.session.table}

    def after(self, state) -> dict:
        """End the line's deal as `simulate` does; returns its result as its play left it."""
        if self.session is None:
            return state.result()
        return self.session.finish(state)

    def closing(self, rec: dict) -> str | None:
        """After `after`: what is wrong with the session's end as the line states it (None: nothing)."""
        sess = self.session
        said = rec.get("session_end")
        if sess is None or said is None:       # a line that does not close a session (or an older log)
            return None
        if said not in ENDS:
            return f"'session_end' must be one of {', '.join(map(repr, ENDS))}, not {str(said)[:40]!r}"
        if said == "rule" and not sess.ended:
            return "the log says the game ended by its own rule after this deal, the rules say it goes on"
        if said == "limit" and sess.ended:
            return "the log says the session was stopped at the deal limit, but the game ended by its own rule"
        self.stopped = said == "limit"
        final = jsonable(sess.close())
        if final != rec.get("final"):
            return f"the session's final results are {final}, the log says {rec.get('final')}"
        return None
