"""What one browser is yet to be sent. The table puts messages in and never waits; the browser's own
task (`run`) sends them in order, each within `limits.SEND_SECONDS`. A view replaces a view not yet
sent (each view is the whole table as that seat sees it), so a browser that reads slowly is sent
the newest view, not every one. A browser that does not take a message in time, or lets more than
`limits.OUTBOX` messages pile up, is dropped as a slow reader: nobody waits for it."""
from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from interpreter.web import limits

SLOW = 4008         # the close code of a slow reader (its connection is most likely stalled: it may never see it)


class Outbox:
    def __init__(self, size: int | None = None) -> None:
        self.items: deque[dict] = deque()
        self.size = size if size is not None else limits.OUTBOX
        self.closing: int | None = None          # a close code, once the browser is to be let go
        self.slow = False
        self._wake = asyncio.Event()

    def put(self, msg: dict) -> None:
        """Queue a message; never waits. Too many waiting: the browser is dropped as a slow reader."""
        if self.closing is not None:
            return
        if msg.get("type") == "view":
            for i, m in enumerate(self.items):
                if m.get("type") == "view":
                    del self.items[i]
                    break
        if len(self.items) >= self.size:
            self.slow = True
            self.close(SLOW)
            return
        self.items.append(msg)
        self._wake.set()

    def close(self, code: int) -> None:
        """Let the browser go: what is queued is sent, then the close (a slow reader gets neither)."""
        if self.closing is None:
            self.closing = code
        self._wake.set()

    async def run(self, send: Callable[[dict], Awaitable[Any]], close: Callable[[int], Awaitable[Any]]) -> None:
        """Send until closed. Returns when the browser is let go, is gone, or too slow."""
        seconds = limits.SEND_SECONDS
        while True:
            while self.items and not self.slow:
                msg = self.items.popleft()
                try:
                    await asyncio.wait_for(send(msg), seconds)
                except asyncio.TimeoutError:
                    self.slow = True
                    self.closing = SLOW
                except Exception:       # the browser went away
                    self.closing = self.closing or 1006
                    return
            if self.slow:
                return
            if self.closing is not None:
                try:
                    await asyncio.wait_for(close(self.closing), seconds)
                except Exception:       # gone already, or too slow to take the close
                    pass
                return
            self._wake.clear()
            await self._wake.wait()
