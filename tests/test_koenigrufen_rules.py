"""The Königrufen rule files against their catalog (../shared/rules/koenigrufen.md): the cards, the seat
draw and the deal of games/koenigrufen/koenigrufen.stw (KR-DECK, KR-SEAT, KR-DEAL), the five-player file
koenigrufen-5 (KR-VAR-01), the bidding and game tables and the figures table. Play, the declaration
round and the payments run through the engine in test_koenigrufen_play.py, test_koenigrufen_announce.py,
test_koenigrufen_figures.py and the scenario files."""
from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import cli, load
from interpreter.engine.seating import draw_key, seats_by_draw
from interpreter.model.values import constant

FILES = ["koenigrufen", "koenigrufen-5"]
BLACK = ["7", "8", "9", "10", "J", "C", "Q", "K"]
RED = ["4", "3", "2", "1", "J", "C", "Q", "K"]
TAROKS = [f"T{i}" for i in range(1, 22)] + ["SK"]


@pytest.fixture(scope="module")
def base():
    return load("koenigrufen", playable=False)


@pytest.fixture(scope="module")
def five():
    return load("koenigrufen-5", playable=False)


def card(rs, code):
    return rs.cards[rs.card_index[code]]


def suit_ranks(rs, suit):
    return [c.rank for c in sorted((c for c in rs.cards if c.suit == suit), key=lambda c: c.order)]


def base_points(rs, code):
    return card(rs, code).points - Fraction(1, 3)


# ---- validation ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", FILES)
def test_stichwort_validate_accepts(name):
    """Well formed, checked and playable: no errors, and the sweep over the built-in games lists it as ok."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate", name, "--json"]) == 0, out.getvalue()
    [report] = json.loads(out.getvalue())
    assert not [d for d in report["diagnostics"] if d["severity"] == "error"]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate"]) == 0
    assert any(line.split()[:2] == ["ok", name] for line in out.getvalue().splitlines())


@pytest.mark.rules("KR-DECK-11")
def test_deck_11_a_wrong_total_is_rejected(tmp_path):
    bad = tmp_path / "kr-bad.stw"
    bad.write_text('extends "koenigrufen"\ndeck { points { total = 71 } }\n', encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate", str(bad)]) == 1
    assert "70" in out.getvalue()


# ---- DECK ----------------------------------------------------------------------------------------

@pytest.mark.rules("KR-DECK-01")
def test_deck_01_54_cards_32_suit_cards_22_taroks(base):
    assert base.deck_size == 54 and len({c.code for c in base.cards}) == 54
    assert sum(1 for c in base.cards if c.suit != "T") == 32
    assert bin(base.suit_mask["T"]).count("1") == 22
    assert base.groups["suit_cards"] == sum(base.suit_mask[s] for s in "CSDH")


@pytest.mark.rules("KR-DECK-02")
def test_deck_02_four_side_suits_of_eight(base):
    assert set(base.suits) == {"S", "C", "H", "D", "T"}
    for s in "SCHD":
        assert bin(base.suit_mask[s]).count("1") == 8


@pytest.mark.rules("KR-DECK-03")
def test_deck_03_black_suits_king_queen_cavall_jack_10_to_7(base):
    for s in "SC":
        assert suit_ranks(base, s) == BLACK
    assert card(base, "KS").order > card(base, "QS").order > card(base, "CS").order > card(base, "JS").order > card(base, "10S").order
    assert "6S" not in base.card_index and "1C" not in base.card_index


@pytest.mark.rules("KR-DECK-04")
def test_deck_04_red_suits_reverse_pips_ace_highest(base):
    for s in "HD":
        assert suit_ranks(base, s) == RED
    assert card(base, "1H").order > card(base, "2H").order > card(base, "3H").order > card(base, "4H").order
    assert card(base, "JD").order > card(base, "1D").order
    assert "5H" not in base.card_index and "10D" not in base.card_index


@pytest.mark.rules("KR-DECK-05")
def test_deck_05_taroks_are_permanent_trumps_higher_number_beats_lower(base):
    assert base.trump_suit == "T"
    orders = [card(base, f"T{i}").order for i in range(1, 22)]
    assert orders == sorted(orders) == list(range(21))


@pytest.mark.rules("KR-DECK-06")
def test_deck_06_skus_is_the_highest_trump(base):
    sk = card(base, "SK")
    assert sk.suit == "T" and sk.order == 21
    assert all(sk.order > c.order for c in base.cards if c.suit == "T" and c.code != "SK")
    assert suit_ranks(base, "T") == TAROKS


@pytest.mark.rules("KR-DECK-07")
def test_deck_07_pagat_and_mond(base):
    names = base.doc["deck"]["names"]["en"]
    assert names["T1"] == "Pagat" and names["T21"] == "Mond" and names["SK"] == "Sküs"
    assert card(base, "T1").order == 0                       # the Pagat is tarok I, the lowest


@pytest.mark.rules("KR-DECK-08")
def test_deck_08_matadors_are_skus_mond_pagat(base):
    assert set(base.codes(base.groups["matadors"])) == {"SK", "T21", "T1"}


@pytest.mark.rules("KR-DECK-09")
def test_deck_09_basic_card_values(base):
    for s in "SCHD":
        assert base_points(base, "K" + s) == 4
        assert base_points(base, "Q" + s) == 3
        assert base_points(base, "C" + s) == 2
        assert base_points(base, "J" + s) == 1
    for code in ("SK", "T21", "T1"):
        assert base_points(base, code) == 4
    for code in ["7S", "10C", "1H", "4D"] + [f"T{i}" for i in range(2, 21)]:
        assert base_points(base, code) == 0


@pytest.mark.rules("KR-DECK-10")
def test_deck_10_every_card_one_blatt_more(base):
    assert constant(base.doc["deck"]["points"]["each"]) == Fraction(1, 3)
    for c in base.cards:
        assert (c.points - Fraction(1, 3)).denominator == 1      # whole basic value plus one blatt
    assert card(base, "7C").points == Fraction(1, 3)


@pytest.mark.rules("KR-DECK-11")
def test_deck_11_seventy_points_in_all(base):
    assert base.total_points() == 70
    assert base.doc["deck"]["points"]["total"] == 70
    basic = sum(c.points for c in base.cards) - Fraction(54, 3)
    assert basic == 52


# ---- SEAT ----------------------------------------------------------------------------------------

@pytest.mark.rules("KR-SEAT-01")
@pytest.mark.parametrize("name", FILES)
def test_seat_01_play_goes_counterclockwise(name):
    rs = load(name, playable=False)
    assert rs.direction == "counterclockwise"
    assert rs.doc["session"]["dealer"] == "forehand"          # the deal too (KR-SESS-05)


@pytest.mark.rules("KR-SEAT-02")
def test_seat_02_seats_and_first_dealer_by_draw(base):
    assert base.doc["seating"]["first_dealer"] == "draw"
    assert any("KR-SEAT-02" in c for c in base.doc["customs"])


@pytest.mark.rules("KR-SEAT-03")
def test_seat_03_any_tarok_beats_any_suit_card_skus_highest(base):
    assert draw_key(base, "T1") > draw_key(base, "KH")
    assert draw_key(base, "T2") > draw_key(base, "T1")
    assert max((c.code for c in base.cards), key=lambda code: draw_key(base, code)) == "SK"
    assert tuple(base.doc["seating"]["draw"]["compare"])[0] == "trump"


@pytest.mark.rules("KR-SEAT-04", "KR-AMB-04")
def test_seat_04_red_pips_count_as_the_black_pip_in_the_same_place(base):
    pairs = [("1H", "10S"), ("2D", "9C"), ("3H", "8S"), ("4D", "7C")]
    for red, black in pairs:
        assert draw_key(base, red)[:2] == draw_key(base, black)[:2]
    for rank in "KQCJ":
        assert draw_key(base, rank + "H")[:2] == draw_key(base, rank + "C")[:2]
    assert draw_key(base, "1D")[:2] > draw_key(base, "9S")[:2]
    assert draw_key(base, "JS")[:2] > draw_key(base, "1H")[:2]


@pytest.mark.rules("KR-SEAT-05")
def test_seat_05_equal_ranks_hearts_diamonds_spades_clubs(base):
    order = sorted(["10C", "10S", "1D", "1H"], key=lambda code: draw_key(base, code), reverse=True)
    assert order == ["1H", "1D", "10S", "10C"]
    assert draw_key(base, "KH") > draw_key(base, "KD") > draw_key(base, "KS") > draw_key(base, "KC")


@pytest.mark.rules("KR-SEAT-06")
def test_seat_06_highest_card_deals_first(base):
    assert base.doc["seating"]["draw"]["dealer"] == "highest"
    seats = seats_by_draw(base, {"A": "T5", "B": "KH", "C": "SK", "D": "7C"})
    assert seats[0] == "C"


@pytest.mark.rules("KR-SEAT-07")
@pytest.mark.parametrize("name", FILES)
def test_seat_07_others_sit_counterclockwise_in_falling_order(name):
    rs = load(name, playable=False)
    cards = {"A": "T5", "B": "KH", "C": "SK", "D": "7C", "E": "1H"}
    drawn = dict(list(cards.items())[:rs.seats])
    seats = seats_by_draw(rs, drawn)
    assert len(seats) == rs.seats
    falling = sorted(drawn, key=lambda p: draw_key(rs, drawn[p]), reverse=True)
    # step k from the dealer in the direction of play (counter-clockwise) holds the (k+1)-th highest card
    assert [seats[k] for k in range(rs.seats)] == falling


@pytest.mark.rules("KR-SEAT-08")
@pytest.mark.parametrize("name", FILES)
def test_seat_08_forehand_is_the_dealers_right_and_gets_cards_first(name):
    rs = load(name, playable=False)
    assert rs.roles["forehand"] == 1                    # the next seat counter-clockwise = the dealer's right
    assert rs.doc["deal"]["start"] == "forehand"
    assert rs.doc["auction"]["first"] == "forehand"


# ---- DEAL ----------------------------------------------------------------------------------------

def packets(rs):
    return [(p["to"], p["cards"], p.get("repeat", 1)) for p in rs.doc["deal"]["packets"]]


@pytest.mark.rules("KR-DEAL-01")
def test_deal_01_the_player_on_the_dealers_left_cuts(base):
    # counter-clockwise, the previous seat is the dealer's left
    assert base.doc["deal"]["cut"] == "prev(dealer)"
    assert any("KR-DEAL-01" in c for c in base.doc["customs"])     # the dealer shuffles


@pytest.mark.rules("KR-DEAL-02")
@pytest.mark.parametrize("name", FILES)
def test_deal_02_first_round_six_each_from_forehand(name):
    rs = load(name, playable=False)
    assert packets(rs)[0] == ("each", 6, 1)
    assert rs.doc["deal"]["start"] == "forehand"


@pytest.mark.rules("KR-DEAL-03")
@pytest.mark.parametrize("name", FILES)
def test_deal_03_then_six_to_the_talon(name):
    rs = load(name, playable=False)
    assert packets(rs)[1] == ("talon", 6, 1)
    assert rs.talon_size == 6


@pytest.mark.rules("KR-DEAL-04", "KR-VAR-02")
def test_deal_04_talon_as_one_pile_traditional_layout_a_custom(base):
    assert [p for p in packets(base) if p[0] == "talon"] == [("talon", 6, 1)]
    assert any("KR-DEAL-04" in c and "KR-VAR-02" in c for c in base.doc["customs"])


@pytest.mark.rules("KR-DEAL-05")
@pytest.mark.parametrize("name", FILES)
def test_deal_05_second_round_twelve_in_every_hand(name):
    rs = load(name, playable=False)
    assert packets(rs) == [("each", 6, 1), ("talon", 6, 1), ("each", 6, 1)]
    assert rs.hand_size == 12
    assert rs.players * rs.hand_size + rs.talon_size == rs.deck_size == 54


@pytest.mark.rules("KR-DEAL-06", "KR-VAR-01", "KR-SESS-07")
def test_deal_06_five_at_the_table_the_dealer_sits_out(five, base):
    assert five.seats == 5 and five.players == 4
    assert five.doc["seating"]["sit_out"] == "dealer"
    assert base.seats == base.players == 4
    assert [Path(f).name for f in five.chain] == ["koenigrufen.stw", "koenigrufen-5.stw"]
    # the rest is inherited: same cards, same contracts, the deal still passes to forehand
    assert five.contracts == base.contracts and five.calls == base.calls
    assert five.doc["session"]["dealer"] == "forehand"
    assert list(five.doc["seating"]["draw"]["places"]) == [4, 3, 2, 1, 0]


@pytest.mark.rules("KR-DEAL-07", "KR-VAR-03")
@pytest.mark.parametrize("name", FILES)
def test_deal_07_knocking_talon_first_then_four_piles_of_twelve(name):
    rs = load(name, playable=False)
    knock = rs.doc["deal"]["knock"]
    assert knock["by"] == "prev(dealer)"                 # the player on the dealer's left, instead of cutting
    assert [(p["to"], p["cards"], p.get("repeat", 1)) for p in knock["packets"]] == [("talon", 6, 1), ("pile", 12, 4)]


@pytest.mark.rules("KR-DEAL-08")
def test_deal_08_piles_chosen_from_forehand(base):
    assert base.doc["deal"]["knock"]["choose"] == "forehand"


# ---- auction and the game table --------------------------------------------------------------------

GAME_TABLE = {   # KR-SCORE-14, KR-SCORE-15: rank, win, loss, king call, talon
    "trischaken": (0, 1, 1, "nobody", "trischaken"), "sechserdreier": (0, 3, 6, "alone", "whole"),
    "rufer": (1, 1, 1, "called", "halves"), "piccolo": (2, 2, 2, "alone", "aside"),
    "zwiccolo": (3, 2, 2, "alone", "aside"), "solorufer": (4, 2, 2, "called", "solo"),
    "bettler": (5, 3, 3, "alone", "aside"), "pagatrufer": (6, 1, 1, "called", "halves"),
    "uhurufer": (7, 1, 1, "called", "halves"), "kakadurufer": (8, 1, 1, "called", "halves"),
    "farbendreier": (9, 3, 3, "alone", "farben"), "piccolo_bei_p": (10, 2, 2, "alone", "aside"),
    "dreier": (11, 4, 4, "alone", "halves"), "bettler_bei_p": (12, 3, 3, "alone", "aside"),
    "piccolo_bei_b": (13, 2, 2, "alone", "aside"), "piccolo_ouverte": (14, 5, 5, "alone", "aside"),
    "bettler_bei_b": (15, 3, 3, "alone", "aside"), "farbensolo": (16, 6, 6, "alone", "farben_solo"),
    "bettler_ouverte": (17, 7, 7, "alone", "aside"), "solodreier": (18, 8, 8, "alone", "solo"),
}


@pytest.mark.rules("KR-AUC-12", "KR-SCORE-14", "KR-SCORE-15", "KR-SCORE-16", "KR-TAL-01", "KR-AMB-01")
def test_game_table(base):
    assert set(base.contracts) == set(GAME_TABLE)
    for name, (rank, win, loss, side, talon) in GAME_TABLE.items():
        c = base.contract(name)
        assert (c["rank"], c["props"]["win"], c["props"]["loss"], c["side"], c["talon"]) == (rank, win, loss, side, talon), name
    doubled = {n for n in base.contracts if base.contract(n)["props"].get("forehand_double")}
    assert doubled == {"farbendreier", "farbensolo"}        # KR-SCORE-17, KR-SCORE-18


@pytest.mark.rules("KR-AUC-05", "KR-AUC-06", "KR-AUC-07", "KR-AUC-08", "KR-AMB-06")
def test_mein_spiel_ranks_as_rufer_and_reaches_every_game_but_bei(base):
    ms = base.call("mein_spiel")
    assert ms["rank"] == base.call("rufer")["rank"] == 1
    assert base.call("piccolo")["rank"] == 2
    assert set(ms["contracts"]) == {n for n in base.contracts if "bei" not in n}
    for rank0 in ("trischaken", "sechserdreier"):
        assert rank0 not in base.calls                       # only through mein spiel
        assert [c for c in base.calls if rank0 in base.call(c)["contracts"]] == ["mein_spiel"]


@pytest.mark.rules("KR-AUC-13", "KR-AUC-15", "KR-AUC-16")
def test_bei_calls_join_plain_piccolo_or_bettler(base):
    joins = {c: tuple(base.call(c)["joins"]) for c in base.calls if "joins" in base.call(c)}
    assert joins == {"piccolo_bei_p": ("piccolo",), "bettler_bei_p": ("piccolo",),
                     "piccolo_bei_b": ("bettler",), "bettler_bei_b": ("bettler",)}
    assert [base.call(c)["rank"] for c in ("piccolo_bei_p", "bettler_bei_p", "piccolo_bei_b", "bettler_bei_b")] == [10, 12, 13, 15]


# ---- the count and the figures table ------------------------------------------------------------------


@pytest.mark.rules("KR-SCORE-32", "KR-ANN-13", "KR-AMB-27")
def test_figures_table(base):
    fig = base.doc["figure"]
    want = {"trull": (1, 2), "four_kings": (1, 2), "grammeln": (1, 2), "grossgrammeln": (1, 2),
            "kung_ultimo": (1, 2), "pagat_ultimo": (1, 2), "uhu": (2, 4), "kakadu": (3, 6), "valat": (4, 8)}
    assert {n: (f["silent"], f["declared"]) for n, f in fig.items()} == want
    assert fig["valat"]["multiplier"] is True
    assert {fig[b]["card"] for b in ("pagat_ultimo", "uhu", "kakadu")} == set(base.codes(base.groups["birds"]))


@pytest.mark.rules("KR-ANN-14", "KR-ANN-15", "KR-ANN-16", "KR-AMB-19")
def test_figures_only_in_positive_games(base):
    for name in base.contracts:
        c = base.contract(name)
        figs = set(c.get("figures", ()))
        if c["kind"] != "positive":
            assert not figs, name
        elif name.startswith("farben"):
            assert figs == {"grammeln", "grossgrammeln", "valat"}
        else:
            assert ("kung_ultimo" in figs) == (c["side"] == "called"), name
