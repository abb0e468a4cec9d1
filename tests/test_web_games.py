"""The web table with every built-in game: a deal of each through the websockets with bots (two people playing
as the rule bot does), what each seat is shown and kept from, and the games' own table views."""
from __future__ import annotations

import contextlib
import random
import warnings

import pytest

pytest.importorskip("starlette", reason="the web table needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

with warnings.catch_warnings():     # Starlette 1.x prefers httpx2 and warns about httpx; both work
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from interpreter.bots import make_bot
from interpreter.engine import actions as A
from interpreter.engine import deal_cards, sides
from interpreter.engine.session import Session
from interpreter.engine.text import parse
from interpreter.harness import logs
from interpreter.present import outcome
from interpreter.web import load_games
from interpreter.web.app import create_app
from interpreter.web.faces import faces
from interpreter.web.hub import Hub
from interpreter.web.table import Refused
from interpreter.web.views import view
from tests.test_web import _check_private, _join, _play

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


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


@pytest.mark.slow
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
            assert end["sheets"] == [{"title": t, "headers": h, "rows": rows} for t, h, rows in outcome.sheets(sess)], key
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


def _contiguous(hand: list[str], block: set[str]) -> bool:
    at = [i for i, c in enumerate(hand) if c in block]
    return at == list(range(at[0], at[0] + len(at))) if at else True


def test_once_a_contract_is_played_a_hand_is_sorted_by_its_trumps_as_the_terminal_sorts_it():
    """Skat's jacks are trumps in suit games and grand: once the contract is known the hand shows them
    together with the trump suit's cards (in a suit game), not among the deck's suits; before, by the deck."""
    games = load_games(["skat"])
    seen = 0
    for seed in range(1, 40):
        table = Hub(games, delay=0).open("skat", ["person", "rule", "rule"], seed=seed)
        before = view(table, 0)["hand"]
        assert before == sorted(before, key=lambda c: (table.R.suit_of[table.R.codes.index(c)],
                                                       table.R.order_of[table.R.codes.index(c)]))
        while not table.state.is_over() and (table.state.con is None or table.state.phase != "play"):
            table.bot_step() or table.act(0, view(table, 0)["legal"][0], table.version)
        con = table.state.con
        if table.state.is_over() or con is None or con.trump_class < 0:
            continue
        hand = view(table, 0)["hand"]
        jacks = {c for c in hand if c.startswith("J")}
        trumps = {c for c in hand if table.R.codes.index(c) >= 0 and con.trump_mask >> table.R.codes.index(c) & 1}
        if len(jacks) < 2 or len(trumps) == len(hand):
            continue
        assert jacks <= trumps and _contiguous(hand, trumps), (seed, con.name, hand)
        seen += 1
    assert seen >= 3
