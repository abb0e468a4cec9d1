"""The Starlette application: pages, the rule booklets, static files and one websocket per browser.

A browser never names a file: games are the keys the server was started with, tables and seats are
random tokens. A seat's token travels in the page's fragment (never in a URL the server logs) and in
the websocket's first message. Every request and message is bounded in size and rate, counted per
address where one client could otherwise take what all share (limits.py; docs/web.md, "Threat model
and limits"). Each websocket has two tasks: one reads the browser's messages, one sends what the
table queued for it (outbox.py); the table never waits for either.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.web import limits, pages
from interpreter.web.gate import Gate, address_of, same_origin
from interpreter.web.hub import Conn, Full, Hub, Place
from interpreter.web.limits import JOIN_SECONDS, MAX_FORM, MAX_MESSAGE, RATE  # noqa: F401 (their old home)
from interpreter.web.table import BOT_CHOICES, MAX_DEALS, PERSON, Refused

STATIC = Path(__file__).resolve().parent / "static"
TOO_FAST = 4429         # the close code of a browser that sent too many messages

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",     # (not no-referrer: under it a browser sends the form's Origin as "null")
    "Cache-Control": "no-store",
}
BOOKLET_HEADERS = dict(PAGE_HEADERS, **{"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})


def _html(text: str, status: int = 200, headers: dict | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=headers or PAGE_HEADERS)


def create_app(hub: Hub, allowed_hosts: list[str] | None = None) -> Starlette:
    """The application; with `allowed_hosts`, requests naming another host are refused (a server on
    this machine only then answers no page that a rebound name leads to it)."""
    booklets: dict[str, str] = {}
    gate = Gate()

    async def lobby(request: Request) -> Response:
        return _html(pages.lobby(hub.games))

    async def open_table(request: Request) -> Response:
        if not same_origin(request.headers.get("origin"), request.headers.get("host")):
            return _html(pages.lobby(hub.games, "a table is opened from this server's own page"), 403)
        address = address_of(request.client.host if request.client else None)
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > limits.MAX_FORM:
            return _html(pages.lobby(hub.games, "the form is too large"), 413)
        body = await request.body()
        if len(body) > limits.MAX_FORM:
            return _html(pages.lobby(hub.games, "the form is too large"), 413)
        try:
            pairs = parse_qs(body.decode("utf-8"), max_num_fields=80, strict_parsing=False)
        except (UnicodeDecodeError, ValueError):
            return _html(pages.lobby(hub.games, "the form could not be read"), 400)
        form = {k: v[0] for k, v in pairs.items()}
        key = form.get("game")
        game = hub.games.get(key) if isinstance(key, str) else None
        if game is None:
            return _html(pages.lobby(hub.games, "choose one of the games below"), 400)
        kinds = []
        for s in range(game.seats):
            k = form.get(f"seat{s}")
            if k not in (PERSON, *BOT_CHOICES):
                return _html(pages.lobby(hub.games, f"seat {s}: choose a person or one of the bots"), 400)
            kinds.append(str(k))
        deals = str(form.get("deals") or "1")
        if not deals.isdigit() or not 1 <= int(deals) <= MAX_DEALS:
            return _html(pages.lobby(hub.games, f"deals: a number from 1 to {MAX_DEALS}"), 400)
        if not gate.tables.allow(address):
            n, seconds = limits.TABLE_RATE
            return _html(pages.lobby(hub.games, f"your address opened {n} tables in {seconds / 60:g} minutes; "
                                                "try again later"), 429)
        try:
            table = hub.open(game.key, kinds, deals=int(deals), opener=address)
        except Refused as err:
            return _html(pages.lobby(hub.games, str(err)), 503 if isinstance(err, Full) else 400)
        return _html(pages.created(table, str(request.base_url).rstrip("/")))

    async def table_page(request: Request) -> Response:
        place = hub.place(request.path_params["table_id"])
        if place is None:
            return _html(pages.message("no such table", "The table is closed or the link is wrong."), 404)
        return _html(pages.table_page(place.table))

    async def booklet(request: Request) -> Response:
        from interpreter.present import explain
        from interpreter.present.boundary import printable_booklet

        key = request.path_params["game"]
        game = hub.games.get(key)
        if game is None:
            return _html(pages.message("no such game", "This server offers no game of that name."), 404)
        if key not in booklets:
            booklets[key] = explain.to_html(printable_booklet(explain.build(game.rs)))
        return _html(booklets[key], headers=BOOKLET_HEADERS)

    async def socket(ws: WebSocket) -> None:
        address = address_of(ws.client.host if ws.client else None)
        if not same_origin(ws.headers.get("origin"), ws.headers.get("host")):
            await _deny(ws, 403, "a table is played from this server's own page")
            return
        if not gate.enter(address):
            await _deny(ws, 429, "too many connections waiting from your address; try again")
            return
        try:
            place = hub.place(ws.path_params["table_id"])
            await ws.accept()
            if place is None:
                await _say_and_close(ws, "no such table", 4404)
                return
            try:
                first = await asyncio.wait_for(_receive(ws), limits.JOIN_SECONDS)
            except asyncio.TimeoutError:        # no closing handshake: the connection ends at once
                return
            except (WebSocketDisconnect, ValueError, RuntimeError):
                await _close(ws, 4400)
                return
            token = first.get("token") if isinstance(first, dict) and first.get("type") == "join" else None
            try:
                conn = hub.join(place, token, address)
            except Refused as err:
                await _say_and_close(ws, str(err), 4403)
                return
        finally:
            gate.joined(address)
        await _seated(ws, hub, place, conn)

    routes = [
        Route("/", lobby),
        Route("/tables", open_table, methods=["POST"]),
        Route("/tables", lambda request: RedirectResponse("/", 303), methods=["GET"]),
        Route("/table/{table_id}", table_page),
        Route("/rules/{game}", booklet),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)] if allowed_hosts else []
    app = Starlette(routes=routes, middleware=middleware)
    app.state.hub = hub
    return app


async def _seated(ws: WebSocket, hub: Hub, place: Place, conn: Conn) -> None:
    """A joined browser: one task reads its messages, one sends its outbox; when either ends (the
    browser left, was let go, or is too slow to read) the other is stopped and the seat is left."""
    async def send(msg: dict) -> None:
        await ws.send_text(json.dumps(msg, separators=(",", ":"), ensure_ascii=False))

    reader = asyncio.ensure_future(_read(ws, hub, place, conn))
    writer = asyncio.ensure_future(conn.outbox.run(send, lambda code: ws.close(code=code)))
    try:
        done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
        if reader in done and reader.result():      # (a failure of the reader's is raised here, as before)
            await writer            # the server lets it go: what is queued is sent (each send bounded), then the close
    finally:
        reader.cancel()
        writer.cancel()
        hub.leave(place, conn)


async def _read(ws: WebSocket, hub: Hub, place: Place, conn: Conn) -> bool:
    """The browser's messages, until it leaves (False) or is cut off for sending too many (True).
    Every message counts against the rate, whether it is read or refused."""
    times: deque[float] = deque()
    try:
        while True:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                return False
            now = time.monotonic()
            times.append(now)
            while now - times[0] >= limits.RATE[1]:
                times.popleft()
            if len(times) > limits.RATE[0]:
                conn.send({"type": "error", "message": "too many messages; slow down"})
                conn.outbox.close(TOO_FAST)
                return True
            try:
                msg = _parse(raw)
            except ValueError as err:
                conn.send({"type": "error", "message": str(err)})
                continue
            await hub.handle(place, conn, msg)
    except (WebSocketDisconnect, RuntimeError):     # gone, or closed while a message was on its way
        return False


async def _receive(ws: WebSocket) -> Any:
    """One JSON message, refused (ValueError) when it is too long, binary or not JSON."""
    raw = await ws.receive()
    if raw["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    return _parse(raw)


def _parse(raw: Mapping[str, Any]) -> Any:
    text = raw.get("text")
    if not isinstance(text, str):
        raise ValueError("messages are JSON text")
    if len(text) > limits.MAX_MESSAGE:
        raise ValueError(f"a message may have at most {limits.MAX_MESSAGE} characters")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("a message is a JSON object") from None


async def _deny(ws: WebSocket, status: int, why: str) -> None:
    """Refuse a websocket before it opens: an HTTP answer where the server can give one, else a close."""
    try:
        await asyncio.wait_for(ws.send_denial_response(PlainTextResponse(why, status_code=status)), limits.SEND_SECONDS)
    except RuntimeError:        # no denial responses on this server: the handshake is refused with 403
        await _close(ws, 1008)
    except Exception:           # gone already
        pass


async def _say_and_close(ws: WebSocket, why: str, code: int) -> None:
    try:
        await asyncio.wait_for(ws.send_json({"type": "error", "message": why}), limits.SEND_SECONDS)
    except Exception:           # gone already, or not reading
        pass
    await _close(ws, code)


async def _close(ws: WebSocket, code: int) -> None:
    try:
        await asyncio.wait_for(ws.close(code=code), limits.SEND_SECONDS)
    except Exception:       # already closed, or not reading
        pass
