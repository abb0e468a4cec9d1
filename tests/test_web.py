"""The web table at the server level (Starlette's TestClient, no browser): joining by a seat link,
what each seat is sent, refusals of bad, illegal and stale actions, reconnecting, saving and resuming,
the server's limits, and a deal of every built-in game through the websockets with bots."""
from __future__ import annotations

import contextlib
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
from interpreter.engine import actions as A
from interpreter.engine import deal_cards, sides
from interpreter.engine.session import Session, sheet_tables
from interpreter.engine.text import parse
from interpreter.harness import logs
from interpreter.present.terminal import read_save
from interpreter.web import load_games
from interpreter.web.app import MAX_MESSAGE, create_app
from interpreter.web.faces import faces
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
    connects: the answer may already have moved the table on)."""
    newest, current, answered = -1, 0, -1
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
                    logs_by_seat[s].append(_until(other, lambda x: x.get("type") == "view" and "result" in x))
            return m
        if m["legal"]:
            if m["version"] > answered:
                answered = m["version"]
                ws.send_json({"type": "act", "action": choose(m), "version": m["version"]})
        elif m["to_act"] in seats and m["to_act"] != seat:
            current = seats.index(m["to_act"])
    raise AssertionError("the deal did not end")


def _tokens(msg) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(msg)))


def _check_private(table, seat, messages):
    """No message to `seat` names a card of another hand or of the talon unless the card was public
    in that message: said aloud (an event, but another seat's discard) or offered as a choice, in a trick,
    an open hand or a shown talon, in the seat's own hand or discards, or among what else its observation
    shows. And only the seat to act is offered actions, each with its kind."""
    rec = table.records[-1]
    others = {c for s, hand in enumerate(rec["hands"]) if s != seat for c in hand} | set(rec["talon"])
    assert others
    for m in messages:
        if m.get("type") != "view":
            continue
        public = {w for e in m["events"] if e["kind"] != "discard" or e["seat"] == seat for w in e["text"].split()}
        public |= {w for t in m["legal"] for w in t.split()} | _tokens(m.get("more", {}))
        public |= {c for _, c in m["trick"]} | {c for _, c in m["last_trick"]} | set(m.get("talon", []))
        public |= {c for h in m.get("open_hands", {}).values() for c in h}
        public |= set(m["hand"]) | set(m.get("discards", []))
        leaked = (_tokens(m) & others) - public
        assert not leaked, f"seat {seat} was sent {sorted(leaked)} (version {m['version']})"
        assert bool(m["legal"]) == (m["to_act"] == seat) and len(m["legal"]) == len(m["legal_kinds"])


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
    assert path.read_text() == saved["text"]
    header, records = read_save(path, GAMES["wien"].rs)     # the format `play --resume` reads
    assert header["people"] == [0, 1] and records[0]["actions"][0] == [1, view["legal"][0]]
    assert len(records[0]["actions"]) == 2
    table = open_save(path, GAMES)
    old = hub.places[table_id].table
    assert table.people == [0, 1] and table.kinds[2] == "rule"
    assert table.state.observation(1) == old.state.observation(1)
    assert table.token_of(0) != old.token_of(0)                 # new links for the resumed table
    table.act(0, table.state.action_text(table.state.legal_actions()[0]), table.version)
    assert len(read_save(path, GAMES["wien"].rs)[1][0]["actions"]) == 3       # it goes on saving to that file
    # and `play --resume` takes the same file: seat 0 is the player's, at the point the table reached
    import io

    from interpreter.present.terminal import play
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
    hub, client = _client(max_connections=1)
    with client:
        table, tokens = _seated(hub, ("person", "person", "rule"), seed=1)
        with client.websocket_connect(f"/ws/{table.id}") as a, client.websocket_connect(f"/ws/{table.id}") as b:
            _join(a, tokens[0])
            b.send_json({"type": "join", "token": tokens[1]})
            assert "too many" in b.receive_json()["message"]
            with pytest.raises(WebSocketDisconnect):
                b.receive_json()
            # and a browser that says too much too fast is cut off
            for _ in range(45):
                a.send_json({"type": "next"})
            assert "slow down" in _until(a, lambda m: m["type"] == "error" and "slow" in m["message"])["message"]


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


# ---- every built-in game through the websockets, with bots ------------------------------------------

def _engine_session(table):
    """The table's deals replayed by the engine alone, in a session of their own: (session, last state)."""
    sess, state = Session(table.game.rs, table.game.options), None
    for i, rec in enumerate(table.records):
        where = logs.Where("table", i + 2)
        state = logs.start(table.game.rs, rec, where, options=table.game.options, accounts=sess.accounts,
                           deal_number=sess.deal_number, seating={"seat_player": sess.table.seat_player, "table": sess.table})
        logs.play(state, logs.actions_of(rec, where), where)
        sess.finish(state)
    return sess, state


def _bot_chooser(table, rng, kontra=False):
    """A person who plays as the rule bot does (now and then at random, saying kontra where one may)."""
    bot = make_bot("rule", "person")

    def choose(v):
        st = table.state
        legal = st.legal_actions()
        doubling = [a for a in legal if kontra and rng is not None and A.kind_of(a) in (A.KONTRA, A.ITEM_KONTRA) and A.arg_of(a)]
        wild = rng is not None and rng.random() < 0.2
        a = rng.choice(doubling) if doubling else rng.choice(legal) if wild else bot.choose(st.clone())
        assert st.action_text(a) in v["legal"]
        return st.action_text(a)
    return choose


def _socket_deal(client, table, people, choose):
    """One deal at `table` through a websocket per person: every frame each seat received."""
    seen: dict[int, list] = {s: [] for s in people}
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/{table.id}")) for _ in people]
        for ws, s in zip(sockets, people):
            _join(ws, table.token_of(s))
        end = _play(sockets, list(people), seen, choose)
    return end, seen


def test_every_built_in_game_plays_a_deal_through_the_websockets_with_bots():
    """Two people (chosen by the rule bot's sense) and rule bots play a deal of every built-in game:
    the payments, sheets and final result shown are the engine's, and no frame leaks a hidden card."""
    games = load_games([])
    assert {"koenigrufen", "koenigrufen-5", "priffe", "priffe-5", "oh-hell"} <= set(games)
    hub = Hub(games, delay=0)
    kontras = set()
    with TestClient(create_app(hub)) as client:
        for i, (key, game) in enumerate(games.items()):
            assert set(faces(game.rs.doc["deck"])) == set(game.rs.card_index), key       # every card has a face
            table = hub.open(key, ["person", "person"] + ["rule"] * (game.seats - 2), seed=100 + i)
            end, seen = _socket_deal(client, table, (0, 1), _bot_chooser(table, random.Random(i), kontra=True))
            sess, state = _engine_session(table)
            assert state.is_over() and table.state.is_over(), key
            r = state.result()
            assert end["result"]["payments"] == {str(s): v for s, v in r["payments"].items()}, key
            assert (end["result"]["contract"], end["result"]["declarer"]) == (r["contract"], r["declarer"]), key
            assert end["active"] == list(state.active), key         # at five, the dealer of Königrufen sits out
            assert end["sheets"] == [{"title": t, "headers": h, "rows": rows} for t, h, rows in sheet_tables(sess)], key
            assert end["final"] == {str(s): str(v) if not isinstance(v, int) else v for s, v in sess.close().items()}, key
            for s in (0, 1):
                _check_private(table, s, seen[s])
            if any(e["kontra"] for e in end["events"]):
                kontras.add(key)
    assert kontras, "the page is told which actions are kontras"


def test_only_declarations_are_listed_as_announcements():
    """In a declaration round the end of a turn (`done`, the opener's "I am ready") is no announcement,
    whatever the rule file calls it; a declared figure is, and a kontra is a kontra."""
    table = Hub(load_games(["koenigrufen"]), delay=0).open("koenigrufen", ["person"] * 4, seed=2)
    choose = _bot_chooser(table, None)
    while table.state.phase != "announce":
        table.act(table.to_act(), choose(view(table, table.to_act())), table.version)
    said = []
    for kind in (A.ANNOUNCE, A.ITEM_KONTRA):    # the opener declares a figure, the next says kontra; each ends his turn
        legal = table.state.legal_actions()
        said += [table.state.action_text(next(a for a in legal if A.kind_of(a) == kind)), ""]
        table.act(table.to_act(), said[-2], table.version)
        said[-1] = table.state.action_text(table.state.legal_actions()[-1])
        table.act(table.to_act(), said[-1], table.version)
    events = {e["text"]: e for e in view(table, 0)["events"][-4:]}
    assert list(events) == said and said[0].startswith("declare ") and said[2].startswith("kontra ")
    assert said[1] == table.R.announce.opener and said[3] == table.R.words.get("done", "done")
    assert [events[t]["announce"] for t in said] == [True, False, False, False]
    assert [events[t]["kontra"] for t in said] == [False, False, True, False]


def test_koenigrufen_at_four_people_the_called_partner_stays_hidden_until_the_engine_reveals_him():
    """A whole deal at four people's websockets: the declarer calls a king, takes a talon half and
    discards card by card; every seat but the partner knows only the declarer until the engine reveals
    the partner, and then all know him (seed 2: declarer 0 calls the king seat 2 holds)."""
    hub = Hub(load_games(["koenigrufen"]), delay=0)
    with TestClient(create_app(hub)) as client:
        table = hub.open("koenigrufen", ["person"] * 4, seed=2)
        end, seen = _socket_deal(client, table, (0, 1, 2, 3), _bot_chooser(table, None))
    _, state = _engine_session(table)
    declarer, side = state.declarer, sorted(state.declarers)
    (partner,) = set(side) - {declarer}
    replay = logs.start(table.game.rs, table.records[0], logs.Where("t", 2))
    hidden = [False]        # after k actions: is the partnership still hidden from the table?
    for _, text in table.records[0]["actions"]:
        replay.apply(parse(replay, text))
        hidden.append(sides.hidden(replay))
    assert True in hidden and hidden[-1] is False
    for seat in range(4):
        _check_private(table, seat, seen[seat])
        for m in (f for f in seen[seat] if f.get("type") == "view" and "declarers" in f.get("more", {})):
            still = hidden[len(m["events"])]
            knows = side if not still or seat == partner else [declarer]
            assert sorted(m["more"]["declarers"]) == knows and m["more"]["partner_revealed"] is not still, (seat, m["version"])
    views = [f for f in seen[declarer] if f.get("type") == "view" and f["legal"]]
    assert any(set(v["legal_kinds"]) == {"partner-call"} for v in views)
    assert [len(v["more"]["packets"]) for v in views if set(v["legal_kinds"]) == {"packet"}] == [2]
    one_by_one = [v for v in views if set(v["legal_kinds"]) == {"discard"}]
    assert len(one_by_one) == 3 and all(len(t.split()) == 2 for v in one_by_one for t in v["legal"])
    outsider = next(s for s in range(4) if s not in side)
    discards = [(e["seat"], e["text"]) for e in seen[outsider][-1]["events"] if e["kind"] == "discard"]
    assert discards == [(declarer, "discard (1 card)")] * 3 and end["result"]["payments"]


def _to_the_end(table):
    while not table.state.is_over():
        table.bot_step() or table.act(0, view(table, 0)["legal"][0], table.version)


def test_oh_hell_deals_a_hand_of_the_size_of_each_deal():
    table = Hub(load_games(["oh-hell"]), delay=0).open("oh-hell", ["person"] + ["rule"] * 3, deals=3, seed=4)
    sizes = []
    for d in range(3):
        sizes.append(len(view(table, 0)["hand"]))
        hands, _ = deal_cards(table.R, random.Random(f"{table.seed}:{d}"), table.state.dealer, d, table.session.accounts)
        assert [table.game.rs.codes(h) for h in hands] == table.records[d]["hands"]
        _to_the_end(table)
        if d < 2:
            table.next_deal(0)
    assert sizes == [1, 2, 3] and view(table, 0)["final"]


def test_priffe_shows_partnerships_and_at_five_who_sits_in_each_chair_and_who_sits_out():
    hub = Hub(load_games(["priffe", "priffe-5"]), delay=0)
    assert view(hub.open("priffe", ["person"] + ["rule"] * 3, seed=1), 0)["teams"] == [[0, 2], [1, 3]]
    with pytest.raises(Refused, match="4 seats"):                 # five players, four chairs
        hub.open("priffe-5", ["person"] + ["rule"] * 4)
    assert 'name="seat4"' not in TestClient(create_app(hub)).get("/").text
    table = hub.open("priffe-5", ["person"] + ["rule"] * 3, deals=40, seed=3)
    shown = []
    while table.final is None and len(shown) < 40:
        v = view(table, 0)
        shown.append((v["seating"]["players"], v["seating"]["bench"]))
        assert sorted(v["seating"]["players"] + v["seating"]["bench"]) == [1, 2, 3, 4, 5]
        assert v["seating"]["players"] == [p + 1 for p in table.state.seat_player]
        assert v["active"] == [0, 1, 2, 3] and bool(v["legal"]) == (table.to_act() == 0)
        _to_the_end(table)
        if table.final is None:
            table.next_deal(0)
    assert shown[0] == ([1, 3, 2, 4], [5]) and len({tuple(b) for _, b in shown}) > 1, "the bench changes by the sit"
    end = view(table, 0)
    assert end["final_by"] == "player" and end["protocol"][0].startswith("Protocol")
