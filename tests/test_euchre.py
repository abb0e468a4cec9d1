"""Euchre (games/euchre/euchre.stw) as the engine deals and plays it, beyond its scenarios: the pack and the deal,
the upcard that stays the card turned up once the dealer takes it, a lone maker's partner who never plays (the
mechanism `play.sits_out`), a dealer who may not discard the card he took up (talon `keep_taken`), and a deal at
the web table and in the terminal."""
from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from interpreter import DiagnosticError, load
from interpreter.engine import new_game
from interpreter.engine.text import parse
from interpreter.present.terminal import play as terminal_play

EUCHRE = "games/euchre/euchre.stw"
# the deal of games/euchre/scenarios/bowers-ordered-up.yaml: dealer D (seat 3), upcard 10H
HANDS = [["AH", "JD", "KH", "AC", "9S"], ["JH", "QD", "9D", "KS", "10C"], ["QH", "9H", "AD", "KD", "10S"],
         ["10D", "JS", "QS", "AS", "9C"]]
TALON = ["10H", "JC", "QC", "KC"]


def _say(st, *texts):
    for text in texts:
        st.apply(parse(st, text))


@pytest.mark.rules("EUC-DECK-01", "EUC-DEAL-01", "EUC-DEAL-02")
@pytest.mark.parametrize("seed", range(4))
def test_euchre_deals_five_cards_each_in_threes_and_twos_and_turns_up_the_top_of_the_kitty(seed):
    rs = load("euchre")
    assert len(rs.cards) == 24 and sorted({c.rank for c in rs.cards}) == sorted(["9", "10", "J", "Q", "K", "A"])
    st = new_game(rs, seed=seed, dealer=seed)
    assert [(p.to, p.cards) for p in st.R.packets] == [("each", 3), ("each", 2), ("talon", 4)]
    assert [bin(h).count("1") for h in st.hands] == [5, 5, 5, 5] and len(st.talon) == 4
    upcard = rs.cards[st.talon[0]].code
    kitty = {rs.cards[c].code for c in st.talon[1:]}
    for seat in range(4):
        obs = st.observation(seat)
        assert obs["turned_up"] == upcard and not kitty & set(str(obs).replace("'", " ").split())


@pytest.mark.rules("EUC-BID-02", "EUC-DEAL-02")
def test_the_upcard_stays_the_turned_card_after_the_dealer_takes_it_and_the_kitty_stays_hidden():
    st = new_game(load("euchre"), deal={"hands": HANDS, "talon": TALON}, dealer=3)
    _say(st, "bid hearts")
    assert st.current_player() == 3 and "10H" in st.observation(3)["hand"]
    _say(st, "discard 9C")
    for seat in range(4):
        seen = str(st.observation(seat))
        assert st.observation(seat)["turned_up"] == "10H"
        assert not [c for c in ("JC", "QC", "KC") if f"'{c}'" in seen], seat     # the rest of the kitty: nobody's to see


@pytest.mark.rules("EUC-OS-03", "EUC-AMB-01")
def test_the_table_game_lets_the_dealer_discard_the_upcard_and_openspiel_s_form_does_not():
    texts = {}
    for name in (EUCHRE, "games/euchre/euchre-openspiel.stw"):
        st = new_game(load(name), deal={"hands": HANDS, "talon": TALON}, dealer=3)
        _say(st, "bid hearts")
        texts[name] = {st.action_text(a) for a in st.legal_actions()}
    assert "discard 10H" in texts[EUCHRE]
    assert texts["games/euchre/euchre-openspiel.stw"] == texts[EUCHRE] - {"discard 10H"}


@pytest.mark.rules("EUC-ALONE-01", "EUC-ALONE-02", "EUC-VAR-02")
@pytest.mark.parametrize("lone_defender", [False, True])
def test_a_seat_that_sits_out_keeps_its_cards_and_every_trick_has_a_card_fewer(lone_defender):
    rs = load(EUCHRE)
    rng = random.Random(35)
    seen = 0
    for i in range(60):
        st = new_game(rs, seed=i, dealer=i % 4, options={"allow_lone_defender": lone_defender})
        while st.phase != "play" and not st.is_over():
            texts = {st.action_text(a): a for a in st.legal_actions()}
            st.apply(texts["alone"] if "alone" in texts and st.phase in ("alone", "defend_first") else
                     rng.choice(list(texts.values())))
        if st.is_over():
            continue
        out = [s for s in range(4) if s not in st.playing]
        assert len(out) == (2 if lone_defender else 1) and (st.declarer + 2) % 4 in out
        held = {s: st.hands[s] for s in out}
        while not st.is_over():
            assert st.current_player() not in out
            st.apply(rng.choice(st.legal_actions()))
        assert {s: st.hands[s] for s in out} == held                         # their five cards, never played
        assert all(len(t) == 4 - len(out) for t, _ in st.play.history)         # three (or two) cards a trick
        assert sum(st.result()["tricks"].values()) == 5
        seen += 1
    assert seen > 30


def test_sits_out_must_give_a_set_of_seats(tmp_path: Path):
    path = tmp_path / "bad.stw"
    path.write_text(f'extends "{Path(EUCHRE).resolve()}"\nplay {{ sits_out = tricks(declarer) }}\n', encoding="utf-8")
    with pytest.raises(DiagnosticError) as err:
        load(str(path))
    assert [d.code for d in err.value.diagnostics] == ["E402"] and "sits_out" in str(err.value)


@pytest.mark.rules("EUC-SCORE-01", "EUC-SESS-01")
def test_euchre_plays_a_game_to_ten_at_the_web_table():
    pytest.importorskip("starlette", reason="the web table needs the [web] extra (starlette)")
    from interpreter.web import load_games
    from interpreter.web.hub import Hub
    from interpreter.web.views import view
    table = Hub(load_games(["euchre"]), delay=0).open("euchre", ["person"] + ["rule"] * 3, deals=60, seed=7)
    deals = 0
    while table.final is None and deals < 60:
        while not table.state.is_over():
            table.bot_step() or table.act(0, view(table, 0)["legal"][0], table.version)
            trick = view(table, 0)["trick"]
            assert len(trick) <= len(table.state.playing)
        deals += 1
        if table.final is None:
            table.next_deal(0)
    scores = table.session.accounts["score"]
    assert table.final is not None and max(scores.values()) >= 10 and deals >= 3


def test_euchre_plays_a_deal_in_the_terminal(tmp_path: Path):
    out = io.StringIO()
    answers = io.StringIO("1\n" * 40)
    terminal_play(load(EUCHRE), {}, seat=0, seed=3, deals=1, inp=answers, out=out, save=str(tmp_path / "d.save"))
    text = out.getvalue()
    assert "Euchre — deal 1" in text and "takes the trick" in text
    assert ("declarer seat" in text and "Tricks:" in text) or "passed" in text


PACKETS = """
title = "A packet kept"
players = 3
seating { direction = clockwise  roles { forehand = 1 } }
deck { suits = [C, S, H, D]  ranks = [7, 8, 9, 10, J, Q, K, A] }
deal { packets = table { | to | cards | | each | 10 | | talon | 2 | } }
procedure = [auction, talon, play, settle]
auction { first = forehand  ends = passes == players - 1 and high != none  all_pass { contract = none } }
table call { | call | rank | contracts | talon | | game | 1 | [game] | packs | }
talon packs { kind = halves  packets = 2  discard = 1  keep_taken = true }
contract game { rank = 1  trump = none  goal = tricks(declarer) >= 5 }
play { lead = forehand  winner = trump_then_led  obligations = [follow_suit] }
account list { per = seat  initial = 0 }
settle { pay = table { | to | amount | | account(list, declarer) | if made then 1 else -1 | } }
"""


def test_keep_taken_holds_back_the_packet_taken_from_a_halves_talon(tmp_path: Path):
    path = tmp_path / "packets.stw"
    path.write_text(PACKETS, encoding="utf-8")
    for keep in (True, False):
        path.write_text(PACKETS.replace("keep_taken = true", f"keep_taken = {str(keep).lower()}"), encoding="utf-8")
        st = new_game(load(str(path)), seed=5, dealer=2)
        _say(st, "bid game", "pass", "pass")
        taken = load(str(path)).cards[st.talon[1]].code         # the second packet: the talon's second card
        _say(st, "take 2")
        legal = {st.action_text(a) for a in st.legal_actions()}
        assert len(legal) == (10 if keep else 11) and (f"discard {taken}" in legal) is not keep


def test_sits_out_never_leaves_fewer_than_two_seats_playing(tmp_path: Path):
    path = tmp_path / "all-out.stw"
    path.write_text(f'extends "{Path(EUCHRE).resolve()}"\nplay {{ sits_out = set(t != declarer for t in active) }}\n',
                    encoding="utf-8")
    st = new_game(load(str(path)), deal={"hands": HANDS, "talon": TALON}, dealer=3)
    _say(st, "bid hearts", "discard 9C", "alone")
    assert st.phase == "play" and st.playing == (0, 1, 2, 3)
