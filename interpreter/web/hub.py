"""The server's tables and the browsers connected to them, with their limits.

Each table has a lock: a person's action, a bot's move and the start of a deal happen one at a time,
and after each every browser at the table is sent its own seat's view. Bots move in a task of the
table, with a short pause between moves so that people can follow the trick; a search bot thinks in
a worker thread, so the server keeps answering meanwhile. Standard library only (asyncio).
"""
from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine import RuleRuntimeError
from interpreter.web.faces import faces
from interpreter.web.table import Game, Refused, Table
from interpreter.web.views import hello, view

Send = Callable[[dict], Awaitable[None]]

MAX_TABLES = 32
MAX_CONNECTIONS = 200
MAX_PER_SEAT = 4             # tabs of one seat; the oldest is closed beyond this
IDLE_SECONDS = 6 * 3600      # a table nobody touched for this long may be closed to make room


class Full(Refused):
    """The server holds as many tables or browsers as it may."""


@dataclass
class Conn:
    seat: int
    send: Send
    close: Callable[[], Awaitable[None]]


@dataclass
class Place:
    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: list[Conn] = field(default_factory=list)
    bots: asyncio.Task | None = None
    touched: float = field(default_factory=time.monotonic)


class Hub:
    def __init__(self, games: dict[str, Game], save_dir: Path | None = None, delay: float = 0.6,
                 max_tables: int = MAX_TABLES, max_connections: int = MAX_CONNECTIONS, seed: int | None = None):
        self.games = games
        self.save_dir = save_dir
        self.delay = delay
        self.max_tables = max_tables
        self.max_connections = max_connections
        self.places: dict[str, Place] = {}
        self._seeds = random.Random(seed) if seed is not None else None     # reproducible deals, for tests and demos
        self._faces = {k: faces(g.rs.doc["deck"]) for k, g in games.items()}

    # ---- tables -------------------------------------------------------------------------------------
    def _make_room(self) -> None:
        if len(self.places) < self.max_tables:
            return
        now = time.monotonic()
        idle = [k for k, p in self.places.items() if not p.conns and now - p.touched > IDLE_SECONDS]
        idle += [k for k, p in self.places.items() if not p.conns and p.table.over and k not in idle]
        if not idle:
            raise Full(f"the server has its {self.max_tables} tables in use; try again later")
        del self.places[idle[0]]

    def open(self, key: str, kinds: list[str], deals: int = 1, seed: int | None = None) -> Table:
        game = self.games.get(key)
        if game is None:
            raise Refused("no such game here")
        self._make_room()
        try:
            if seed is None and self._seeds is not None:
                seed = self._seeds.randrange(1 << 30)
            table = Table(game, kinds, deals=deals, seed=seed, save_dir=self.save_dir)
        except ValueError as err:
            raise Refused(str(err)) from None
        self.places[table.id] = Place(table)
        return table

    def adopt(self, table: Table) -> None:
        """A table made elsewhere (resumed from a save file)."""
        self._make_room()
        self.places[table.id] = Place(table)

    def place(self, table_id: Any) -> Place | None:
        return self.places.get(table_id) if isinstance(table_id, str) else None

    # ---- browsers -----------------------------------------------------------------------------------
    def connections(self) -> int:
        return sum(len(p.conns) for p in self.places.values())

    async def join(self, place: Place, token: Any, send: Send, close: Callable[[], Awaitable[None]]) -> Conn:
        seat = place.table.seat_of(token)
        if seat is None:
            raise Refused("this link does not open a seat at this table")
        if self.connections() >= self.max_connections:
            raise Full("the server has too many browsers connected; try again later")
        conn = Conn(seat, send, close)
        mine = [c for c in place.conns if c.seat == seat]
        if len(mine) >= MAX_PER_SEAT:
            place.conns.remove(mine[0])
            await _quietly(mine[0].close())
        place.conns.append(conn)
        place.touched = time.monotonic()
        t = place.table
        await send(hello(t, seat, self._faces[t.game.key], f"/rules/{t.game.key}"))
        await self.broadcast(place)
        self.kick(place)
        return conn

    def leave(self, place: Place, conn: Conn) -> None:
        if conn in place.conns:
            place.conns.remove(conn)

    def connected(self, place: Place) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in place.conns:
            out[c.seat] = out.get(c.seat, 0) + 1
        return out

    async def broadcast(self, place: Place) -> None:
        seated = self.connected(place)
        views: dict[int, dict] = {}
        for c in list(place.conns):
            if c.seat not in views:
                views[c.seat] = view(place.table, c.seat, seated)
            await _quietly(c.send(views[c.seat]))

    # ---- what a browser asks ------------------------------------------------------------------------
    async def handle(self, place: Place, conn: Conn, msg: Any) -> None:
        """One message from a browser: act, next (deal), save or hint (what the rule bot would choose, to
        that browser only); a refusal goes to that browser only."""
        place.touched = time.monotonic()
        try:
            if not isinstance(msg, dict):
                raise Refused("a message is a JSON object")
            kind = msg.get("type")
            if kind == "save":
                await conn.send({"type": "save", "name": f"{place.table.game.key}-{place.table.id}.save",
                                 "text": place.table.save_text()})
                return
            if kind == "hint":
                async with place.lock:
                    text = place.table.hint(conn.seat, msg.get("version"))
                await conn.send({"type": "hint", "text": text, "version": msg.get("version")})
                return
            async with place.lock:
                if kind == "act":
                    place.table.act(conn.seat, msg.get("action"), msg.get("version"))
                elif kind == "next":
                    place.table.next_deal(conn.seat)
                else:
                    raise Refused("unknown request")
            await self.broadcast(place)
            self.kick(place)
        except Refused as err:
            await conn.send({"type": "error", "message": str(err)})
        except RuleRuntimeError as err:           # the rule file fails at play: say so, keep serving
            await conn.send({"type": "error", "message": f"the rules fail at play: {err}"})

    def kick(self, place: Place) -> None:
        """Let the bots move, in the table's task, if one is to act and none is running."""
        if place.table.bot_to_act() and (place.bots is None or place.bots.done()):
            place.bots = asyncio.get_running_loop().create_task(self._run_bots(place))

    async def _run_bots(self, place: Place) -> None:
        table = place.table
        while table.bot_to_act():
            if self.delay:
                await asyncio.sleep(self.delay)
            async with place.lock:
                who = table.to_act()
                if who is None or not table.bot_to_act():
                    break
                bot = table.bots[who]
                snapshot = table.state.clone()
                version = table.version
                try:
                    action = await asyncio.to_thread(bot.choose, snapshot)
                    if table.version == version:
                        table.take(who, action)
                except (Refused, RuleRuntimeError) as err:     # the table stops; every browser is told why
                    for c in list(place.conns):
                        await _quietly(c.send({"type": "error", "message": f"the bot at seat {who} cannot move: {err}"}))
                    return
            await self.broadcast(place)


async def _quietly(aw: Awaitable[Any]) -> None:
    try:
        await aw
    except Exception:       # a browser gone away: its own handler removes it
        pass
