"""The server's tables and the browsers connected to them, with their limits.

Each table has a lock: a person's action, a bot's move and the start of a deal happen one at a time,
and after each every browser at the table is sent its own seat's view. Sending never waits: each
browser has its own outbox (outbox.py), emptied by its own task, and a browser that stops reading is
dropped, so neither the game, the bots nor the other browsers ever wait for one. Bots move in a task
of the table, with a short pause between moves so that people can follow the trick; a search bot
thinks in a worker thread, so the server keeps answering meanwhile. Standard library only (asyncio).
"""
from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.engine import RuleRuntimeError
from interpreter.web import limits
from interpreter.web.faces import faces
from interpreter.web.limits import IDLE_SECONDS, MAX_CONNECTIONS, MAX_PER_SEAT, MAX_TABLES  # noqa: F401 (their old home)
from interpreter.web.outbox import Outbox
from interpreter.web.table import Game, Refused, Table
from interpreter.web.views import hello, view

PUSHED_OUT = 4001       # the close code of a tab that gave way to a newer one


class Full(Refused):
    """The server holds as many tables or browsers as it may."""


@dataclass(eq=False)
class Conn:
    seat: int
    address: str = "unknown"
    outbox: Outbox = field(default_factory=Outbox)
    since: float = field(default_factory=time.monotonic)

    def send(self, msg: dict) -> None:
        self.outbox.put(msg)


@dataclass(eq=False)
class Place:
    table: Table
    opener: str | None = None           # the address that opened the table (None: the server's own)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: list[Conn] = field(default_factory=list)
    bots: asyncio.Task | None = None
    touched: float = field(default_factory=time.monotonic)
    used: bool = False                  # a browser has joined it
    shown: frozenset[int] = frozenset()  # the seats shown as connected in the last views sent
    presence: asyncio.TimerHandle | None = None


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
    def _make_room(self, opener: str | None) -> None:
        now = time.monotonic()
        free = [k for k, p in self.places.items() if not p.conns]
        if opener is not None:
            mine = [k for k, p in self.places.items() if p.opener == opener]
            if len(mine) >= limits.MAX_TABLES_PER_ADDRESS:
                own = [k for k in free if k in mine]
                if not own:
                    raise Full(f"your address holds {len(mine)} tables with players at them; finish one first")
                self._drop(min(own, key=lambda k: self.places[k].touched))
        if len(self.places) < self.max_tables:
            return
        idle = [k for k in free if now - self.places[k].touched > limits.IDLE_SECONDS or self.places[k].table.over
                or (not self.places[k].used and now - self.places[k].touched > limits.UNUSED_SECONDS)]
        if not idle:
            raise Full(f"the server has its {self.max_tables} tables in use; try again later")
        self._drop(idle[0])

    def _drop(self, key: str) -> None:
        """A table leaves the server; its save file's lock is released."""
        self.places.pop(key).table.close()

    def close(self) -> None:
        """The server stops: every table's save file is released."""
        for place in self.places.values():
            place.table.close()

    def open(self, key: str, kinds: list[str], deals: int = 1, seed: int | None = None, opener: str | None = None) -> Table:
        game = self.games.get(key)
        if game is None:
            raise Refused("no such game here")
        self._make_room(opener)
        try:
            if seed is None and self._seeds is not None:
                seed = self._seeds.randrange(1 << 30)
            table = Table(game, kinds, deals=deals, seed=seed, save_dir=self.save_dir)
        except ValueError as err:
            raise Refused(str(err)) from None
        self.places[table.id] = Place(table, opener)
        return table

    def adopt(self, table: Table) -> None:
        """A table made elsewhere (resumed from a save file)."""
        self._make_room(None)
        self.places[table.id] = Place(table)

    def place(self, table_id: Any) -> Place | None:
        return self.places.get(table_id) if isinstance(table_id, str) else None

    # ---- browsers -----------------------------------------------------------------------------------
    def connections(self) -> int:
        return sum(len(p.conns) for p in self.places.values())

    def _all(self) -> list[tuple[Place, Conn]]:
        return [(p, c) for p in self.places.values() for c in p.conns]

    def join(self, place: Place, token: Any, address: str = "unknown") -> Conn:
        """A browser takes its seat: it is sent the greeting and its view (never waiting for it). A
        seat's own token always gets in: at a limit, the oldest connection gives way, of that seat,
        of that address, or of the address holding the most."""
        seat = place.table.seat_of(token)
        if seat is None:
            raise Refused("this link does not open a seat at this table")
        conn = Conn(seat, address)
        mine = [c for c in place.conns if c.seat == seat]
        if len(mine) >= limits.MAX_PER_SEAT:
            self.drop(place, mine[0], "this seat was opened in another tab")
        here = [(p, c) for p, c in self._all() if c.address == address]
        if len(here) >= limits.MAX_PER_ADDRESS:
            own = [(p, c) for p, c in here if p is place and c.seat == seat]
            p, c = min(own or here, key=lambda pc: pc[1].since)
            self.drop(p, c, "too many tabs from your address; this one gave way to a newer one")
        if self.connections() >= self.max_connections:
            counts: dict[str, list[tuple[Place, Conn]]] = {}
            for p, c in self._all():
                counts.setdefault(c.address, []).append((p, c))
            heaviest = max(counts.values(), key=lambda held: len(held))
            p, c = min(heaviest, key=lambda pc: pc[1].since)
            self.drop(p, c, "the server is full; this tab gave way to another")
        t, seated = place.table, self.connected(place)
        seated[seat] = seated.get(seat, 0) + 1
        conn.send(hello(t, seat, self._faces[t.game.key], f"/rules/{t.game.key}"))
        conn.send(view(t, seat, seated))
        place.conns.append(conn)            # counted from here on; the caller's `leave` uncounts it
        place.touched = time.monotonic()
        place.used = True
        self._presence(place)
        self.kick(place)
        return conn

    def drop(self, place: Place, conn: Conn, why: str) -> None:
        """Let a browser go, telling it why (it goes on its own task, never waited for)."""
        self.leave(place, conn)
        conn.send({"type": "error", "message": why})
        conn.outbox.close(PUSHED_OUT)

    def leave(self, place: Place, conn: Conn) -> None:
        if conn in place.conns:
            place.conns.remove(conn)
            self._presence(place)

    def connected(self, place: Place) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in place.conns:
            out[c.seat] = out.get(c.seat, 0) + 1
        return out

    def _presence(self, place: Place) -> None:
        """Joins and leaves: the others see who is connected at most every PRESENCE_SECONDS, and only
        when the seats connected changed (a reload of a seat that stays connected changes nothing)."""
        if place.presence is None and frozenset(self.connected(place)) != place.shown:
            place.presence = asyncio.get_running_loop().call_later(limits.PRESENCE_SECONDS, self._presence_due, place)

    def _presence_due(self, place: Place) -> None:
        place.presence = None
        if frozenset(self.connected(place)) != place.shown:
            self.broadcast(place)

    def broadcast(self, place: Place) -> None:
        """Every browser at the table is sent its seat's view (queued; nothing waits)."""
        seated = self.connected(place)
        place.shown = frozenset(seated)
        views: dict[int, dict] = {}
        for c in list(place.conns):
            if c.seat not in views:
                views[c.seat] = view(place.table, c.seat, seated)
            c.send(views[c.seat])

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
                name, text = place.table.save_for(conn.seat)
                conn.send({"type": "save", "name": name, "text": text})
                return
            if kind == "hint":
                async with place.lock:
                    text = place.table.hint(conn.seat, msg.get("version"))
                conn.send({"type": "hint", "text": text, "version": msg.get("version")})
                return
            async with place.lock:
                if kind == "act":
                    place.table.act(conn.seat, msg.get("action"), msg.get("version"))
                elif kind == "next":
                    place.table.next_deal(conn.seat)
                else:
                    raise Refused("unknown request")
            self.broadcast(place)
            self.kick(place)
        except Refused as err:
            conn.send({"type": "error", "message": str(err)})
        except RuleRuntimeError as err:           # the rule file fails at play: say so, keep serving
            conn.send({"type": "error", "message": f"the rules fail at play: {err}"})

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
                        c.send({"type": "error", "message": f"the bot at seat {who} cannot move: {err}"})
                    return
            self.broadcast(place)
