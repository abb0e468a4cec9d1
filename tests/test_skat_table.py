"""Skat's table matters (games/skat/RULES.md): the German-suited pack as the names the table shows
(skat-german.stw, SKAT-DECK-02), and a card played that is never taken back (SKAT-PLAY-06)."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.harness.runner import play_one
from interpreter.present.labels import Names
from interpreter.resources import games_dir

SKAT = games_dir() / "skat"


@pytest.mark.rules("SKAT-DECK-02")
def test_the_german_suited_pack_names_the_suits_and_suit_games_and_plays_as_the_french():
    german, french = load(str(SKAT / "skat-german.stw")), load("skat")
    same = 0
    for i in range(30):
        g, _ = play_one(german, {}, 3, i)
        f, _ = play_one(french, {}, 3, i)
        names = Names(g.R)
        assert [names.suit(s) for s in "CSHD"] == ["Eichel", "Grün", "Herz", "Schellen"]
        assert Names(f.R).suit("C") == "clubs"
        # the same deal, bid and played the same way: only the words of the suit games differ
        rename = {"Eichel": "clubs", "Grün": "spades", "Herz": "hearts", "Schellen": "diamonds"}
        said = texts = [g.action_text(a) for _, a in g.log]
        for old, new in rename.items():
            texts = [t.replace(old, new) for t in texts]
        assert texts == [f.action_text(a) for _, a in f.log]
        assert g.result() == f.result()
        if g.con is not None and g.con.name in ("clubs", "spades", "hearts", "diamonds"):
            assert any(t.startswith("declare ") and t.split()[1] in rename for t in said)   # "declare Eichel"
            same += 1
    assert same >= 3


@pytest.mark.rules("SKAT-PLAY-06")
def test_a_card_played_at_the_web_table_is_not_taken_back():
    pytest.importorskip("starlette", reason="the web table needs the [web] extra (starlette)")
    from interpreter.web import load_games
    from interpreter.web.hub import Hub
    from interpreter.web.table import Refused
    from interpreter.web.views import view

    table = Hub(load_games(["skat"]), delay=0).open("skat", ["person", "rule", "rule"], deals=1, seed=3)
    while not (table.state.phase == "play" and table.to_act() == 0) and not table.state.is_over():
        table.bot_step() or table.act(0, view(table, 0)["legal"][0], table.version)
    assert not table.state.is_over()
    offered = view(table, 0)["legal"]
    version = table.version
    table.act(0, offered[0], version)
    card = offered[0].split()[-1]
    assert card not in table.state.R.rs.codes(table.state.hands[0])
    for text in offered[1:]:            # no second card in its place, on the version that offered it
        with pytest.raises(Refused):
            table.act(0, text, version)
    assert all(card not in t for t in view(table, 0)["legal"])
