"""The web table at the server level (Starlette's TestClient, no browser): joining by a seat link,
what each seat is sent, refusals of bad, illegal and stale actions, reconnecting, saving and resuming,
and the server's limits. A deal of every built-in game through the websockets: test_web_games.py."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():     # Starlette 1.x prefers httpx2 and warns about httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from interpreter.bots import make_bot
from interpreter.diagnostics import DiagnosticError
from interpreter.present.terminal import read_save
from interpreter.web import load_games
from interpreter.web.app import MAX_MESSAGE, create_app
from interpreter.web.hub import Hub
from interpreter.web.table import Refused, open_save
from interpreter.web.views import view

GAMES = load_games(["wien"])
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _client(save_dir=None, **hub_options):
    hub = Hub(GAMES, save_dir=save_dir, delay=0, **hub_options)
    return hub, TestClient(create_app(hub))


def _open(client, seats=("person", "rule", "rule"), deals=1):
    form = {"game": "wien", "deals": str(deals)} | {f"seat{s}": k for s, k in enumerate(seats)}
    r = client.post("/tables", data=form)
    assert r.status_code == 200, r.text
    links = re.findall(r'href="/table/([^"#]+)#([^"]+)"', r.text)
    assert len(links) == seats.count("person")
    return links[0][0], [tok for _, tok in links]


def _join(ws, token):
    ws.send_json({"type": "join", "token": token})
    hello = ws.receive_json()
    assert hello["type"] == "hello", hello
    return hello


def _until(ws, want, log=None):
    """Messages until `want(msg)` holds; every message read is kept in `log`."""
    for _ in range(2000):
        m = ws.receive_json()
        if log is not None:
            log.append(m)
        if want(m):
            return m
    raise AssertionError("the awaited message never came")


def _seated(hub, seats, seed):
    """A table opened with a fixed seed (the form's tables get a random one)."""
    table = hub.open("wien", list(seats), seed=seed)
    return table, [table.token_of(s) for s in table.people]


def _play(sockets, seats, logs_by_seat, choose):
    """Play one deal to its end, each person answering with `choose(view)`. Views older than the newest
    one seen on any socket are skipped (every socket gets the same sequence), and a view of a version
    already answered is not answered again (the table sends the same version again when a person
    connects: the answer may already have moved the table on). At its first turn each person also asks
    for a hint and a save, so that every kind of frame the server sends is read and checked."""
    newest, current, answered, asked = -1, 0, -1, set()
    for _ in range(5000):
        ws, seat = sockets[current], seats[current]
        m = ws.receive_json()
        logs_by_seat[seat].append(m)
        assert m["type"] != "error", m
        if m["type"] != "view" or m["version"] < newest:
            continue
        newest = m["version"]
        if "result" in m:
            for other, s in zip(sockets, seats):
                if s != seat:
                    _until(other, lambda x: x.get("type") == "view" and "result" in x, logs_by_seat[s])
            return m
        if m["legal"]:
            if m["version"] > answered:
                answered = m["version"]
                if seat not in asked:
                    asked.add(seat)
                    ws.send_json({"type": "hint", "version": m["version"]})
                    ws.send_json({"type": "save"})
                ws.send_json({"type": "act", "action": choose(m), "version": m["version"]})
        elif m["to_act"] in seats and m["to_act"] != seat:
            current = seats.index(m["to_act"])
    raise AssertionError("the deal did not end")


def _tokens(msg) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(msg)))


FRAMES = {"hello", "view", "hint", "save", "error"}      # every kind of message the server sends a browser


def _public(m, seat) -> set[str]:
    """The cards a view shows its seat: said aloud (an event, but another seat's discard) or offered as a
    choice, in a trick, an open hand or a shown talon, in the seat's own hand or discards, or among what
    else its observation shows."""
    public = {w for e in m["events"] if e["kind"] != "discard" or e["seat"] == seat for w in e["text"].split()}
    public |= {w for t in m["legal"] for w in t.split()} | _tokens(m.get("more", {}))
    public |= {c for _, c in m["trick"]} | {c for _, c in m["last_trick"]} | set(m.get("talon", []))
    public |= {c for h in m.get("open_hands", {}).values() for c in h}
    public |= {c for h in (m.get("result") or {}).get("hands", {}).values() for c in h}   # shown once the deal is over
    return public | set(m["hand"]) | set(m.get("discards", []))


def _check_private(table, seat, messages):
    """No message of any kind to `seat` names a card of another hand or of the talon unless the card was
    public for that seat: a view only the cards it shows as public, the greeting none (but the deck's
    faces, which name every card of the deck, not of the deal), and a hint, a save or an error none
    beyond what the seat's last view showed. The host's whole log once the session is over is the one
    exception. And only the seat to act is offered actions, each with its kind."""
    rec = table.records[-1]
    others = {c for s, hand in enumerate(rec["hands"]) if s != seat for c in hand} | set(rec["talon"])
    assert others
    public: set[str] = set()
    for m in messages:
        kind = m.get("type")
        assert kind in FRAMES, f"seat {seat} was sent a frame of a kind no test checks: {kind!r}"
        if kind == "view":
            public = _public(m, seat)
            assert bool(m["legal"]) == (m["to_act"] == seat) and len(m["legal"]) == len(m["legal_kinds"])
            leaked = (_tokens(m) & others) - public
        elif kind == "hello":
            leaked = _tokens({k: v for k, v in m.items() if k != "faces"}) & others
        elif kind == "save" and table.over and seat == table.people[0] and m["name"].endswith(".save"):
            continue
        else:
            leaked = (_tokens(m) & others) - public
            if kind == "save":
                assert '"seed"' not in m["text"], f"seat {seat} was sent the seed"
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} in a {kind} frame (version {m.get('version')})"


def test_pages_and_booklet():
    _, client = _client()
    r = client.get("/")
    assert r.status_code == 200 and "Préférence" in r.text and "/rules/wien" in r.text
    assert "Content-Security-Policy" in r.headers
    r = client.get("/rules/wien")
    assert r.status_code == 200 and "<table>" in r.text
    assert client.get("/rules/..%2F..%2Fetc%2Fpasswd").status_code == 404
    assert client.get("/static/table.js").status_code == 200
    assert client.get("/table/nothing-here").status_code == 404


def test_a_local_server_answers_only_its_own_names():
    hub = Hub(GAMES, delay=0)
    client = TestClient(create_app(hub, allowed_hosts=["127.0.0.1", "localhost"]), base_url="http://127.0.0.1")
    assert client.get("/").status_code == 200
    assert client.get("/", headers={"host": "attacker.example"}).status_code == 400


def test_games_from_paths_get_keys_safe_in_a_url(tmp_path):
    own = tmp_path / "house rules #1.stw"
    from interpreter.resources import builtin_games

    own.write_text(Path(builtin_games()["wien"]).read_text(encoding="utf-8"), encoding="utf-8")
    games = load_games(["wien", str(own)])
    assert list(games) == ["wien", "house-rules-1"]
    client = TestClient(create_app(Hub(games, delay=0)))
    assert client.get("/rules/house-rules-1").status_code == 200
    assert 'value="house-rules-1"' in client.get("/").text


def test_bad_forms_are_refused():
    _, client = _client()
    assert client.post("/tables", data={"game": "/etc/passwd", "seat0": "person"}).status_code == 400
    r = client.post("/tables", data={"game": "wien", "seat0": "rule", "seat1": "rule", "seat2": "rule"})
    assert r.status_code == 400 and "person" in r.text
    r = client.post("/tables", data={"game": "wien", "seat0": "person", "seat1": "python", "seat2": "rule"})
    assert r.status_code == 400
    r = client.post("/tables", data={"game": "wien", "seat0": "person", "seat1": "rule", "seat2": "rule", "deals": "0"})
    assert r.status_code == 400
    r = client.post("/tables", content=b"game=wien&x=" + b"a" * 5000,
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413


def test_a_wrong_token_gets_no_seat():
    _, client = _client()
    with client:
        table_id, _ = _open(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "join", "token": "guess"})
            m = ws.receive_json()
            assert m["type"] == "error" and "seat" in m["message"]
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()


def test_illegal_stale_and_malformed_actions_are_refused():
    _, client = _client()
    with client:
        table_id, tokens = _open(client, ("person", "person", "rule"))
        with client.websocket_connect(f"/ws/{table_id}") as a, client.websocket_connect(f"/ws/{table_id}") as b:
            _join(a, tokens[0])
            _join(b, tokens[1])
            view = _until(b, lambda m: m.get("type") == "view" and m["legal"])      # seat 1 is forehand
            a.send_json({"type": "act", "action": "pass", "version": view["version"]})
            assert "not your turn" in _until(a, lambda m: m["type"] == "error")["message"]
            b.send_json({"type": "act", "action": "bid nothing", "version": view["version"]})
            assert "not a legal action" in _until(b, lambda m: m["type"] == "error")["message"]
            b.send_json({"type": "act", "action": view["legal"][0], "version": view["version"] - 1})
            assert "moved on" in _until(b, lambda m: m["type"] == "error")["message"]
            b.send_text("{not json")
            assert "JSON" in _until(b, lambda m: m["type"] == "error")["message"]
            b.send_text(json.dumps({"type": "act", "action": "x" * MAX_MESSAGE}))
            assert "at most" in _until(b, lambda m: m["type"] == "error")["message"]
            b.send_json({"type": "act", "action": ["pass"], "version": view["version"]})
            assert _until(b, lambda m: m["type"] == "error")
            b.send_json({"type": "next"})
            assert "not over" in _until(b, lambda m: m["type"] == "error")["message"]
            # a legal action still goes through, and both seats see it
            b.send_json({"type": "act", "action": view["legal"][0], "version": view["version"]})
            newer = _until(a, lambda m: m.get("type") == "view" and m["version"] > view["version"])
            assert newer["calls"][0][0] == 1


def test_a_hint_says_what_the_rule_bot_would_choose_and_plays_nothing():
    hub, client = _client()
    with client:
        table_id, tokens = _open(client, ("person", "person", "rule"))
        table = hub.places[table_id].table
        with client.websocket_connect(f"/ws/{table_id}") as a, client.websocket_connect(f"/ws/{table_id}") as b:
            _join(a, tokens[0])
            _join(b, tokens[1])
            view = _until(b, lambda m: m.get("type") == "view" and m["legal"])      # seat 1 is forehand
            b.send_json({"type": "hint", "version": view["version"]})
            hint = _until(b, lambda m: m["type"] in ("hint", "error"))
            assert hint["type"] == "hint" and hint["text"] in view["legal"] and hint["version"] == view["version"]
            bot = make_bot("rule", f"hint:{table.id}:{table.version}")            # the rule bot in that seat
            assert table.state.action_text(bot.choose(table.state.clone())) == hint["text"]
            assert table.version == view["version"] and table.to_act() == 1        # nothing was played
            a.send_json({"type": "hint", "version": view["version"]})
            assert "not your turn" in _until(a, lambda m: m["type"] == "error")["message"]
            b.send_json({"type": "hint", "version": view["version"] - 1})
            assert "moved on" in _until(b, lambda m: m["type"] == "error")["message"]
            # the seat still acts on the same view
            b.send_json({"type": "act", "action": hint["text"], "version": view["version"]})
            newer = _until(a, lambda m: m.get("type") == "view" and m["version"] > view["version"])
            assert newer["calls"][0][0] == 1


def test_a_reconnecting_browser_gets_its_seat_back():
    hub, client = _client()
    with client:
        table_id, tokens = _open(client, ("person", "person", "rule"))
        with client.websocket_connect(f"/ws/{table_id}") as b:
            _join(b, tokens[1])
            view = _until(b, lambda m: m.get("type") == "view" and m["legal"])
            b.send_json({"type": "act", "action": view["legal"][0], "version": view["version"]})
            _until(b, lambda m: m.get("type") == "view" and m["version"] > view["version"])
        with client.websocket_connect(f"/ws/{table_id}") as b2:
            assert _join(b2, tokens[1])["seat"] == 1
            again = _until(b2, lambda m: m.get("type") == "view")
            assert again["seat"] == 1 and again["hand"] == view["hand"] and again["version"] > view["version"]
            assert again["calls"][0] == [1, view["legal"][0].split(" ", 1)[1]]


def test_saved_tables_resume(tmp_path):
    hub, client = _client(save_dir=tmp_path)
    with client:
        table_id, tokens = _open(client, ("person", "person", "rule"))
        with client.websocket_connect(f"/ws/{table_id}") as b:
            _join(b, tokens[1])
            view = _until(b, lambda m: m.get("type") == "view" and m["legal"])
            b.send_json({"type": "act", "action": view["legal"][0], "version": view["version"]})
            _until(b, lambda m: m.get("type") == "view" and m["to_act"] == 0)       # after the bot's call
            b.send_json({"type": "save"})
            saved = _until(b, lambda m: m["type"] == "save")
    path = tmp_path / f"{table_id}.save"
    assert saved["text"] != path.read_text() and saved["name"].endswith("-seat1.record")   # the browser gets its seat's record
    header, records = read_save(path, GAMES["wien"].rs)     # the format `play --resume` reads
    assert header["people"] == [0, 1] and records[0]["actions"][0] == [1, view["legal"][0]]
    assert len(records[0]["actions"]) == 2
    old = hub.places[table_id].table
    with pytest.raises(DiagnosticError, match="another game is writing this save file"):
        open_save(path, GAMES)          # the server's table still writes it (issue 38: serve --save-dir locks)
    old.close()
    table = open_save(path, GAMES)
    assert table.people == [0, 1] and table.kinds[2] == "rule"
    assert table.state.observation(1) == old.state.observation(1)
    assert table.token_of(0) != old.token_of(0)                 # new links for the resumed table
    table.act(0, table.state.action_text(table.state.legal_actions()[0]), table.version)
    assert len(read_save(path, GAMES["wien"].rs)[1][0]["actions"]) == 3       # it goes on saving to that file
    # and `play --resume` takes the same file: seat 0 is the player's, at the point the table reached
    import io

    from interpreter.present.terminal import play
    with pytest.raises(DiagnosticError, match="another game is writing this save file"):
        play(GAMES["wien"].rs, {}, resume=str(path), inp=io.StringIO("q\n"), out=io.StringIO())
    table.close()
    out = io.StringIO()
    assert play(GAMES["wien"].rs, {}, resume=str(path), inp=io.StringIO("q\n"), out=out) == 0
    assert "resumed deal 1 after 3 actions" in out.getvalue()


def test_the_next_deal_starts_when_every_person_is_ready():
    table = Hub(GAMES, delay=0).open("wien", ["person", "person", "rule"], deals=2, seed=8)
    rng = random.Random(2)
    while not table.state.is_over():
        if not table.bot_step():
            who = table.to_act()
            table.act(who, table.state.action_text(rng.choice(table.state.legal_actions())), table.version)
    with pytest.raises(Refused):
        table.act(0, "pass", table.version)
    assert table.next_deal(0) is False and table.deal_index == 0
    assert view(table, 1)["waiting"] == [1]
    assert table.next_deal(1) is True and table.deal_index == 1
    assert not table.state.is_over() and table.state.dealer == 1 and table.session.deal_number == 1
    assert table.records[1]["dealer"] == 1 and table.records[1]["actions"] == []


def test_limits():
    hub, client = _client(max_tables=2)
    with client:
        _open(client)
        table_id, (token,) = _open(client)
        r = client.post("/tables", data={"game": "wien", "seat0": "person", "seat1": "rule", "seat2": "rule"})
        assert r.status_code == 503 and "tables" in r.text
        with pytest.raises(Refused):
            hub.open("wien", ["person", "rule", "rule"])
        # at most four tabs per seat: the oldest is closed
        sockets = [client.websocket_connect(f"/ws/{table_id}") for _ in range(5)]
        opened = [s.__enter__() for s in sockets]
        for ws in opened:
            _join(ws, token)
        assert len(hub.places[table_id].conns) == 4
        for s in sockets:
            s.__exit__(None, None, None)


def test_the_server_bounds_its_connections():
    """At the server's limit a seat's own link still gets in: the oldest connection of the address
    holding the most gives way (here the only other one), told why."""
    hub, client = _client(max_connections=1)
    with client:
        table, tokens = _seated(hub, ("person", "person", "rule"), seed=1)
        with client.websocket_connect(f"/ws/{table.id}") as a, client.websocket_connect(f"/ws/{table.id}") as b:
            _join(a, tokens[0])
            _join(b, tokens[1])
            assert "full" in _until(a, lambda m: m["type"] == "error")["message"]
            with pytest.raises(WebSocketDisconnect):
                _until(a, lambda m: False)
            assert [c.seat for c in hub.places[table.id].conns] == [1]
            # and a browser that says too much too fast is cut off
            for _ in range(45):
                b.send_json({"type": "next"})
            assert "slow down" in _until(b, lambda m: m["type"] == "error" and "slow" in m["message"])["message"]


def test_the_core_needs_no_web_libraries():
    code = ("import sys, interpreter, interpreter.cli; interpreter.cli.build_parser(); "
            "assert not any(m.split('.')[0] in ('starlette', 'uvicorn', 'websockets') for m in sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    import interpreter.web
    from interpreter.cli import main

    monkeypatch.setattr(interpreter.web, "missing", lambda: ["starlette"])
    assert main(["serve", "wien"]) == 2
    assert "pip install 'stichwort[web]'" in capsys.readouterr().err


def test_serve_refuses_bad_arguments(tmp_path):
    from interpreter.cli import main

    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["serve", "wien", "--save-dir", str(blocker)]) == 2
    assert main(["serve", "wien", "--delay", "99"]) == 2
    assert main(["serve", "wien", "--port", "0"]) == 2
    assert main(["serve", "wien", "simple", "--set", "stake=5"]) == 2
