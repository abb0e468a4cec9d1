"""The web table (`stichwort serve`): play any rule file in the browser, with friends and bots.

Needs the optional extra `[web]` (Starlette, uvicorn, websockets); nothing else in the package imports
this stage, so the core install stays small. `table.py` is the game loop of `play` for many seats,
`views.py` what one seat is sent, `hub.py` the tables and connections, `app.py` the HTTP side.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

NEEDS = ("starlette", "uvicorn", "websockets")


def missing() -> list[str]:
    """The web libraries that are not installed."""
    import importlib.util

    return [m for m in NEEDS if importlib.util.find_spec(m) is None]


def load_games(targets: list[str]) -> dict:
    """The games a server offers, by key: the names or paths given, or every playable built-in game."""
    from interpreter.pipeline import NotPlayable, load
    from interpreter.resources import builtin_games
    from interpreter.web.table import Game

    games: dict[str, Game] = {}
    explicit = bool(targets)
    for t in targets or list(builtin_games()):
        try:
            rs = load(t)
        except NotPlayable:
            if explicit:
                raise
            continue
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", rs.name).strip("-.")[:60] or "game"     # safe in a URL as it is
        key, n = stem, 2
        while key in games:
            key, n = f"{stem}-{n}", n + 1
        games[key] = Game(key, rs, {})
    return games


def serve(args, read_options) -> int:
    """The `serve` command: open the games, resume saved tables, run the server until interrupted."""
    gone = missing()
    if gone:
        print(f"stichwort: error: serve needs the web extra ({', '.join(gone)} missing): "
              "pip install 'stichwort[web]'", file=sys.stderr)
        return 2
    from interpreter.web.hub import Hub

    if not 0 <= args.delay <= 10:
        print("stichwort: error: --delay is a number of seconds from 0 to 10", file=sys.stderr)
        return 2
    games = load_games(list(args.targets))
    if args.set:
        if len(games) != 1:
            print("stichwort: error: --set needs exactly one game", file=sys.stderr)
            return 2
        (game,) = games.values()
        game.options.update(read_options(game.rs, args.set))
    save_dir = Path(args.save_dir) if args.save_dir else None
    if save_dir is not None:
        try:
            save_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            print(f"stichwort: error: cannot use --save-dir {save_dir}: {err.strerror or err}", file=sys.stderr)
            return 2
    hub = Hub(games, save_dir=save_dir, delay=args.delay)
    try:
        return _serve(args, hub)
    finally:
        hub.close()


def _serve(args, hub) -> int:
    import uvicorn

    from interpreter.web.app import create_app
    from interpreter.web.table import open_save

    games = hub.games
    for path in args.resume or []:
        table = open_save(Path(path), games, force=bool(getattr(args, "force", False)))
        hub.adopt(table)
        for s in table.people:
            print(f"resumed {path}: seat {s} at http://{args.host}:{args.port}/table/{table.id}#{table.token_of(s)}")
    print(f"stichwort: serving {len(games)} game{'s' if len(games) != 1 else ''} at http://{args.host}:{args.port}/")
    sys.stdout.flush()
    try:
        sock = listen(args.host, args.port)
    except OSError as err:              # the port taken, say, or no such address here
        print(f"stichwort: error: cannot serve on {args.host}:{args.port}: {err.strerror or err}", file=sys.stderr)
        return 2
    local = ["127.0.0.1", "localhost", "::1"] if args.host in ("127.0.0.1", "localhost", "::1") else None
    try:
        uvicorn.Server(server_config(create_app(hub, allowed_hosts=local))).run(sockets=[sock])
    except SystemExit as stop:          # uvicorn exits when it cannot start
        if stop.code:
            print(f"stichwort: error: cannot serve on {args.host}:{args.port}", file=sys.stderr)
            return 2
    finally:
        sock.close()
    return 0


def server_config(app, **options):
    """uvicorn's settings for the web table (limits.py): frame size, connections, quiet logs."""
    import uvicorn

    from interpreter.web import limits

    return uvicorn.Config(app, log_level="warning", ws_max_size=limits.WS_MAX_SIZE,
                          limit_concurrency=limits.MAX_CONCURRENCY, **options)


def listen(host: str, port: int, user_timeout: float | None = None):
    """The server's listening socket. Every connection accepted from it has TCP_USER_TIMEOUT set
    (Linux): a peer that takes none of what is sent to it (a browser that stopped reading, and was
    dropped by the table) is reset by the kernel after that many seconds instead of holding its
    connection open for ever."""
    import socket

    from interpreter.web import limits

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            seconds = limits.TCP_USER_TIMEOUT if user_timeout is None else user_timeout
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(seconds * 1000))
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock
