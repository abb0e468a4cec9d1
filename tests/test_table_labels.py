"""What a card player reads, on the page and in the terminal: every action, contract, call, figure and
card by the rule file's display names (present/labels.py), the deal's end with its payment rows and
card points (present/outcome.py), the deck's own card labels, and what each seat's view adds to them
(the contract with its trump, the partner as the seat knows him, the talon's cards it took) — never
more than that seat may see."""
from __future__ import annotations

import random
import re

import pytest

from interpreter import load
from interpreter.bots import make_bot
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.session import Session
from interpreter.pipeline import NotPlayable
from interpreter.present import outcome
from interpreter.present.labels import CARD, label
from interpreter.resources import builtin_games

CODES = re.compile(r"[A-Za-z0-9]+")


def _playable():
    for name in builtin_games():
        try:
            yield name, load(name)
        except NotPlayable:
            continue


def test_every_label_of_every_built_in_game_is_in_display_names_and_names_no_card_its_text_does_not():
    """Three deals of each game, bots and random choices: no label shows an internal name (`_`), and a
    label's cards are its text's cards (or a talon packet the seat is shown)."""
    checked = 0
    for name, rs in _playable():
        for seed in range(3):
            st, rng = new_game(rs, seed=seed), random.Random(seed)
            bot = make_bot("rule", str(seed))
            while not st.is_over():
                who = st.current_player()
                shown = {c for p in st.observation(who).get("packets", []) for c in p}
                for a in st.legal_actions():
                    text, said = st.action_text(a), label(st, a, who, who)
                    assert "_" not in said, (name, said)
                    assert set(CARD.findall(said)) <= set(CODES.findall(text)) | shown, (name, text, said)
                    checked += 1
                st.apply(rng.choice(st.legal_actions()) if rng.random() < 0.3 else bot.choose(st))
    assert checked > 1000


def test_labels_say_the_rule_files_words_and_titles():
    kr = new_game(load("koenigrufen"), seed=5)
    texts = {kr.action_text(a): label(kr, a) for a in kr.legal_actions()}
    while "bid mein spiel" not in texts:
        kr.apply(kr.legal_actions()[0])
        texts = {kr.action_text(a): label(kr, a) for a in kr.legal_actions()}
    assert texts["bid mein spiel"] == "bid mein spiel"                  # the call's `word`, not mein_spiel
    declares: set[str] = set()
    for seed in range(12):
        st = new_game(load("wien"), seed=seed)
        while not st.is_over():
            declares |= {label(st, a) for a in st.legal_actions() if A.kind_of(a) == A.DECLARE}
            st.apply(make_bot("rule", "x").choose(st))
    # wien.stw: contract one is "One" with trump C, four "Four" with trump H; the deck's English names
    # for C and H are clubs and hearts
    assert {"declare One (trumps: clubs)", "declare Four (trumps: hearts)"} <= declares, declares
    kr = new_game(load("koenigrufen"), seed=5)
    farben = next(a for a in range(len(kr.R.contract_names)) if kr.R.contract_names[a] == "farbendreier")
    assert label(kr, A.make(A.DECLARE, farben)) == "declare Farbendreier (no trumps)"   # trump = none in the file


def test_another_seats_discard_is_a_count_of_cards():
    st = new_game(load("wien"), seed=3)
    while not any(A.kind_of(a) == A.DISCARD for a in st.legal_actions()):
        st.apply(make_bot("rule", "x").choose(st))
    who = st.current_player()
    a = next(a for a in st.legal_actions() if A.kind_of(a) == A.DISCARD)
    assert label(st, a, (who + 1) % 3, who) == "discard (2 cards)"
    assert label(st, a, who, who).count("{") == 2                       # the seat's own: its two cards


def _koenigrufen_deal(seed: int):
    rs = load("koenigrufen")
    sess = Session(rs, {})
    st = sess.start(rng=random.Random(seed))
    bots = [make_bot("rule", f"{seed}:{s}") for s in range(4)]
    while not st.is_over():
        st.apply(bots[st.current_player()].choose(st))
    sess.finish(st)
    return sess, st


@pytest.mark.rules("KR-DECK-11", "KR-SCORE-01")
def test_the_end_of_a_deal_lists_card_points_and_payment_rows_that_add_up():
    """The rows' amounts add up to each seat's payments (money is conserved row by row); in a positive
    game the sides' card points are the deck's 70; contracts and declarers by name on the sheets."""
    for seed in range(1, 6):
        sess, st = _koenigrufen_deal(seed)
        s = outcome.summary(st)
        total = {seat: sum(row["amounts"].get(seat, 0) for row in s["rows"]) for seat in range(4)}
        assert total == st.result()["payments"] and sum(total.values()) == 0
        if st.R.rs.game.contracts[st.con.name].record["kind"] == "positive" and "points" in s:
            assert st.points(tuple(st.declarers)) + st.points(tuple(st.defenders)) == 70
        assert all("_" not in cell for _, headers, rows in outcome.sheets(sess) for row in rows for cell in headers + row)
        assert all("KR-" not in row["note"] for row in s["rows"])       # the catalog ids stay in the booklet


def test_the_stake_before_the_deal_reconciles_payments_and_balance():
    """Préférence: the dealer's stake goes to the pot before the deal; payments + stake = the change of
    each seat's balance."""
    rs = load("wien")
    sess = Session(rs, {})
    for d in range(3):
        st = sess.start(rng=random.Random(d))
        while not st.is_over():
            st.apply(make_bot("rule", str(d)).choose(st))
        s = outcome.summary(st)
        before = st.start_accounts["money"]
        assert s["stake"]["amounts"][st.dealer] == -10 and s["stake"]["amounts"]["pot"] == 10   # stake 10 (wien.stw)
        assert {k: before[k] + v for k, v in s["with_stake"].items()} == s["balance"]
        sess.finish(st)


def test_deck_labels_print_the_cards_and_must_match_the_cards(tmp_path):
    from interpreter.web.faces import faces

    f = faces(dict(load("koenigrufen").doc["deck"]))
    assert (f["T21"]["label"], f["T21"]["name"], f["T1"]["label"], f["SK"]["label"]) == ("XXI", "Mond", "I", "Sküs")
    assert f["KH"]["label"] == "K" and f["KH"]["symbol"] == "\u2665"
    german = faces(dict(load("croatian").doc["deck"]))                  # croatian.stw draws its German suits
    assert german["AC"]["symbol"] == "\U0001F330" and german["AC"]["name"] == "Ace of Acorns"
    assert faces(dict(load("serbian").doc["deck"]))["AC"]["symbol"] == "\u2663"    # French suits again
    from pathlib import Path

    bad = tmp_path / "bad.stw"
    text = Path(load("koenigrufen").path).read_text(encoding="utf-8")
    assert 'XXI, "Sküs"]' in text
    bad.write_text(text.replace('XXI, "Sküs"]', "XXI]"), encoding="utf-8")
    from interpreter.cli import main

    assert main(["validate", str(bad)]) == 1


def test_a_view_names_the_contract_its_trump_and_the_talon_cards_taken_only_for_that_seat():
    pytest.importorskip("starlette")
    from interpreter.web import load_games
    from interpreter.web.hub import Hub
    from interpreter.web.views import view

    hub = Hub(load_games(["wien"]), delay=0)
    table = hub.open("wien", ["person", "rule", "rule"], seed=3)
    seen_trump = False
    while not table.state.is_over():
        for seat in range(3):
            v = view(table, seat)
            own = set(v["hand"]) | set(v.get("discards", []))
            own |= {t.split()[1] for who, _, t in table.events if who == seat and t.startswith("play ")}   # played itself
            assert set(v.get("from_talon", [])) <= own
            if v["contract"] is None:
                assert "title" not in v["game"] and "trump" not in v["game"]
            else:
                seen_trump = True
                con = table.state.con
                assert v["game"]["title"] == table.game.rs.doc["contract"][con.name]["title"]
                assert v["game"]["trump"].startswith("trumps: ") == (con.trump >= 0)
            assert len(v["labels"]) == len(v["legal"]) and all("_" not in x for x in v["labels"])
        who = table.to_act()
        table.take(who, make_bot("rule", "x").choose(table.state.clone()))
    assert seen_trump


def test_the_lobby_groups_games_by_family_base_game_first():
    pytest.importorskip("starlette")
    from interpreter.web import load_games
    from interpreter.web.pages import families, lobby

    games = load_games([])
    groups = dict(families(games))
    assert {"preference", "tarock", "whist"} <= set(groups)
    for keys in groups.values():
        bases = [k for k in keys if len(games[k].rs.chain) == 1]
        for k in keys:                  # a variant comes after the game it extends
            base = str(games[k].rs.chain[0])
            first = next(i for i, x in enumerate(keys) if str(games[x].rs.chain[0]) == base)
            assert len(games[keys[first]].rs.chain) == 1 or not bases
            assert keys.index(k) >= first
    assert groups["preference"].index("wien") < groups["preference"].index("wien-4")
    assert groups["preference"].index("croatian") < groups["preference"].index("serbian")
    html = lobby(games)
    assert html.count('<section class="family">') == len(groups)
    assert "Austrian tarock for four." in html                         # koenigrufen.stw's description, its first sentence
    assert "Forehand opens and may not pass" not in html
