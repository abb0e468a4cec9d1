"""The web table's limits and what a seat may take away (issue 37, security), under Starlette's
TestClient: a seat's save, the Origin check, the tables one address may open, the life of a table
nobody joined, and the rate every message counts against. The attacks over real sockets:
test_web_attacks.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web table needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

from starlette.websockets import WebSocketDisconnect

from interpreter.bots import make_bot
from interpreter.present.terminal import read_save
from interpreter.web.app import MAX_MESSAGE
from interpreter.web.hub import Hub
from interpreter.web.table import Refused
from tests.test_web import GAMES, _client, _join, _seated, _tokens, _until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _bot_plays(table, until):
    """Every seat plays as the rule bot would, through the table, until `until()` holds."""
    bot = make_bot("rule", "all")
    while not until():
        who = table.to_act()
        table.act(who, table.state.action_text(bot.choose(table.state.clone())), table.version)


@pytest.mark.rules("WIEN-TAL-02")
def test_a_save_holds_only_what_that_seat_may_see():
    """Issue 37, security 1: "save" gave any seated player every hand, the talon, the declarer's discards
    and the seed (from which each later deal can be dealt again). Seat 1's save, mid-way through the
    first of two deals after seat 2 exchanged with the talon (seed 5: seat 2 discards 10D 7H), holds
    seat 1's own cards and the actions as seat 1 heard them; no other card it has not seen, not the
    discard, not the seed. Once the session is over, the host (the first person) may download the
    whole log, still without the seed; the other seats still get their records."""
    hub, client = _client()
    table = hub.open("wien", ["person"] * 3, deals=2, seed=5)
    rec = table.records[0]
    _bot_plays(table, lambda: any(t.startswith("discard ") for _, t in rec["actions"]))
    (who, discard), = [(s, t) for s, t in rec["actions"] if t.startswith("discard ")]
    assert (who, discard) == (2, "discard 10D 7H")
    seen = set(rec["hands"][1]) | {w for _, t in rec["actions"] if not t.startswith("discard ") for w in t.split()}
    hidden = ({c for s in (0, 2) for c in rec["hands"][s]} | set(rec["talon"])) - seen
    with client, client.websocket_connect(f"/ws/{table.id}") as ws:
        _join(ws, table.token_of(1))
        ws.send_json({"type": "save"})
        saved = _until(ws, lambda m: m["type"] == "save")
    text = saved["text"]
    assert '"seed"' not in text, "the seed foretells every later deal"
    assert not _tokens(text) & hidden, f"seat 1's save names {sorted(_tokens(text) & hidden)}"
    assert {"10D", "7H"} <= hidden and "discard (2 cards)" in text
    head, deal = (json.loads(line) for line in text.splitlines())
    assert head["format"] == "stichwort-seat-record" and head["seat"] == 1
    assert set(head) == {"format", "version", "rules", "options", "seat", "deals", "people", "seats"}
    assert deal["hand"] == rec["hands"][1] and [s for s, _ in deal["actions"]] == [s for s, _ in rec["actions"]]
    # the session ends: the host gets the whole log (without the seed); seat 1 still gets its record
    _bot_plays(table, lambda: table.state.is_over())
    for s in table.people:
        table.next_deal(s)
    _bot_plays(table, lambda: table.state.is_over())
    assert table.over
    name, log = table.save_for(0)
    assert name.endswith(".save") and '"seed"' not in log
    header, records = read_save_text(log)
    assert header["people"] == [0, 1, 2] and [r["hands"] for r in records] == [r["hands"] for r in table.records]
    name, mine = table.save_for(1)
    assert name.endswith("-seat1.record") and len(mine.splitlines()) == 3 and '"hands"' not in mine


def read_save_text(text):
    """A save file's header and deals, read as `play --resume` reads them."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "t.save"
        path.write_text(text, encoding="utf-8")
        return read_save(path, GAMES["wien"].rs)


def test_a_table_is_opened_and_played_only_from_the_servers_own_pages():
    """Issue 37, security 4: a POST with `Origin: evil.example` opened a table. A form or a websocket
    that a page of another site sends is refused; the server's own page, and clients that send no
    Origin (no browser), are not."""
    from starlette.testclient import WebSocketDenialResponse

    hub, client = _client()
    # a browser sends a form's Origin as "null" under `no-referrer`: the pages keep referrers to themselves instead
    assert client.get("/").headers["referrer-policy"] == "same-origin"
    form = {"game": "wien", "seat0": "person", "seat1": "rule", "seat2": "rule"}
    for origin in ("http://evil.example", "null", "http://testserver:8080", "https://testserver.evil.example"):
        r = client.post("/tables", data=form, headers={"origin": origin})
        assert r.status_code == 403, (origin, r.status_code)
    assert not hub.places
    assert client.post("/tables", data=form, headers={"origin": "http://testserver"}).status_code == 200
    table_id = next(iter(hub.places))
    with client:
        with pytest.raises(WebSocketDenialResponse), \
                client.websocket_connect(f"/ws/{table_id}", headers={"origin": "http://evil.example"}):
            pass
        with client.websocket_connect(f"/ws/{table_id}", headers={"origin": "http://testserver"}) as ws:
            _join(ws, hub.places[table_id].table.token_of(0))


def test_one_address_opens_a_bounded_number_of_tables():
    """Issue 37, security 4: anyone could fill the 32 tables, and an empty table lived 6 hours. One
    address opens at most TABLE_RATE tables in its window and holds at most MAX_TABLES_PER_ADDRESS
    (its oldest table without browsers gives way to its newest)."""
    from interpreter.web import limits

    hub, client = _client()
    n = limits.TABLE_RATE[0]
    form = {"game": "wien", "seat0": "person", "seat1": "rule", "seat2": "rule"}
    codes = [client.post("/tables", data=form).status_code for _ in range(n + 1)]
    assert codes == [200] * n + [429], codes
    assert len(hub.places) == limits.MAX_TABLES_PER_ADDRESS < n


def test_a_table_nobody_joined_gives_way_after_a_quarter_of_an_hour():
    """Issue 37, security 4: an empty unfinished table lived 6 hours. When the server is full, a table
    no browser ever joined gives way after UNUSED_SECONDS; one that people play at does not."""
    import time

    from interpreter.web import limits

    hub = Hub(GAMES, delay=0, max_tables=2)
    unused = hub.open("wien", ["person", "rule", "rule"])
    played = hub.open("wien", ["person", "rule", "rule"])
    hub.places[played.id].used = True               # as `join` marks it
    for t in (unused, played):
        hub.places[t.id].touched = time.monotonic() - limits.UNUSED_SECONDS - 1
    newer = hub.open("wien", ["person", "rule", "rule"])
    assert set(hub.places) == {played.id, newer.id}
    with pytest.raises(Refused):
        hub.open("wien", ["person", "rule", "rule"])


def test_malformed_binary_and_over_long_messages_count_against_the_rate():
    """Issue 37, security 5: messages that are not JSON, binary or too long were answered without
    counting (9,800 a second). Every message counts: the socket that sends too many is cut off."""
    from interpreter.web import limits

    hub, client = _client()
    table, tokens = _seated(hub, ("person", "person", "rule"), seed=1)
    sent = limits.RATE[0] + 10
    errors, slow, closed = 0, False, False
    with client, client.websocket_connect(f"/ws/{table.id}") as ws:
        _join(ws, tokens[0])
        for i in range(sent):
            [lambda: ws.send_text("{not json"), lambda: ws.send_bytes(b"\x00\x01"),
             lambda: ws.send_text("x" * (MAX_MESSAGE + 1))][i % 3]()
        for _ in range(10 * sent):
            try:
                m = ws.receive_json()
            except WebSocketDisconnect:
                closed = True
                break
            if m["type"] == "error":
                errors += 1
                slow = slow or "slow down" in m["message"]
                if errors == sent:
                    break
    print(f"\n{sent} malformed messages: {errors} answered, cut off: {slow and closed}")
    assert slow and closed and errors == limits.RATE[0] + 1
