"""The Starlette application: pages, the rule booklets, static files and one websocket per browser.

A browser never names a file: games are the keys the server was started with, tables and seats are
random tokens. A seat's token travels in the page's fragment (never in a URL the server logs) and in
the websocket's first message. Every request and message is bounded in size and rate.
"""
from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from interpreter.web import pages
from interpreter.web.hub import Full, Hub
from interpreter.web.table import BOT_CHOICES, MAX_DEALS, PERSON, Refused

STATIC = Path(__file__).resolve().parent / "static"
MAX_FORM = 4096             # bytes of the form that opens a table
MAX_MESSAGE = 2048          # characters of one websocket message
JOIN_SECONDS = 15           # a new websocket must say which seat it is within this
RATE = (40, 10.0)           # at most 40 messages in 10 seconds per websocket

PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
BOOKLET_HEADERS = dict(PAGE_HEADERS, **{"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})


def _html(text: str, status: int = 200, headers: dict | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=headers or PAGE_HEADERS)


def create_app(hub: Hub, allowed_hosts: list[str] | None = None) -> Starlette:
    """The application; with `allowed_hosts`, requests naming another host are refused (a server on
    this machine only then answers no page that a rebound name leads to it)."""
    booklets: dict[str, str] = {}

    async def lobby(request: Request) -> Response:
        return _html(pages.lobby(hub.games))

    async def open_table(request: Request) -> Response:
        length = request.headers.get("content-length", "")
        if not length.isdigit() or int(length) > MAX_FORM:
            return _html(pages.lobby(hub.games, "the form is too large"), 413)
        body = await request.body()
        if len(body) > MAX_FORM:
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
        try:
            table = hub.open(game.key, kinds, deals=int(deals))
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
        place = hub.place(ws.path_params["table_id"])
        await ws.accept()
        if place is None:
            await ws.send_json({"type": "error", "message": "no such table"})
            await ws.close(code=4404)
            return
        try:
            first = await asyncio.wait_for(_receive(ws), JOIN_SECONDS)
        except (asyncio.TimeoutError, WebSocketDisconnect, ValueError):
            await _close(ws, 4400)
            return
        token = first.get("token") if isinstance(first, dict) and first.get("type") == "join" else None
        try:
            conn = await hub.join(place, token, ws.send_json, lambda: _close(ws, 4001))
        except Refused as err:
            await ws.send_json({"type": "error", "message": str(err)})
            await _close(ws, 4403)
            return
        times: list[float] = []
        try:
            while True:
                try:
                    msg = await _receive(ws)
                except ValueError as err:
                    await ws.send_json({"type": "error", "message": str(err)})
                    continue
                now = time.monotonic()
                times = [t for t in times if now - t < RATE[1]] + [now]
                if len(times) > RATE[0]:
                    await ws.send_json({"type": "error", "message": "too many messages; slow down"})
                    await _close(ws, 4429)
                    break
                await hub.handle(place, conn, msg)
        except (WebSocketDisconnect, RuntimeError):     # gone, or closed while a message was on its way
            pass
        finally:
            hub.leave(place, conn)
            await hub.broadcast(place)

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


async def _receive(ws: WebSocket) -> Any:
    """One JSON message, refused (ValueError) when it is too long, binary or not JSON."""
    raw = await ws.receive()
    if raw["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(raw.get("code", 1000))
    text = raw.get("text")
    if not isinstance(text, str):
        raise ValueError("messages are JSON text")
    if len(text) > MAX_MESSAGE:
        raise ValueError(f"a message may have at most {MAX_MESSAGE} characters")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("a message is a JSON object") from None


async def _close(ws: WebSocket, code: int) -> None:
    try:
        await ws.close(code=code)
    except Exception:       # already closed
        pass
