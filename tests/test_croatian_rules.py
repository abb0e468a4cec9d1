"""The Croatian Preference rule files against their catalog (../shared/rules/croatian-preference.md):
the cards, the seats and the deal of games/croatian/croatian.stw (CRO-DECK, CRO-SEAT, CRO-DEAL), the
contract data (CRO-CON-09), the score sheet of the catalog's worked example (CRO-EX-08..29) replayed
through the settlement rows, and the variants serbian, slovenian, slovenian-hidden and
serbian-preferans (CRO-VAR-01..13), each of which must validate."""
from __future__ import annotations

import contextlib
import io
import random

import pytest
from helpers import act, legal_texts

from interpreter import cli, load
from interpreter.engine import deal_cards, new_game
from interpreter.engine.phases.play import own_play
from interpreter.engine.rules import compile_rules
from interpreter.model.ruleset import thaw

FILES = ["croatian", "serbian", "slovenian", "slovenian-hidden", "serbian-preferans"]
FRENCH = {"S": "Spades", "D": "Diamonds", "H": "Hearts", "C": "Clubs"}
A, B, C = 0, 1, 2          # the catalog's players, in the order of play (CRO-EX-08)


@pytest.fixture(scope="module")
def base():
    return load("croatian")


def discard_any(state) -> None:
    state.apply(state.legal_actions()[0])


# ---- DECK ----------------------------------------------------------------------------------------

@pytest.mark.rules("CRO-DECK-01")
def test_deck_01_thirty_two_cards_four_suits_german_names(base):
    assert base.deck_size == 32
    assert len(base.suits) == 4
    assert all(bin(base.suit_mask[s]).count("1") == 8 for s in base.suits)
    assert len({c.code for c in base.cards}) == 32
    en = base.doc["deck"]["names"]["en"]
    assert {en[s] for s in base.suits} == {"Leaves", "Bells", "Hearts", "Acorns"}


@pytest.mark.rules("CRO-DECK-02")
def test_deck_02_rank_order_ace_high_seven_low_in_every_suit(base):
    for suit in base.suits:
        ranks = [c.rank for c in sorted((c for c in base.cards if c.suit == suit), key=lambda c: c.order)]
        assert ranks == ["7", "8", "9", "10", "J", "Q", "K", "A"]
    own = base.doc["deck"].get("suit") or {}             # no suit has an order of its own (only how it is drawn)
    assert not any("ranks" in x or "cards" in x for x in own.values())
    assert not any("ranks" in base.contract(c) for c in base.contracts)
    en, hr = base.doc["deck"]["names"]["en"], base.doc["deck"]["names"]["hr"]
    assert (en["Q"], en["J"]) == ("Over", "Under")          # Over above Under, in the places of Q and J
    assert hr["A"] == "As" and hr["K"] == "Kralj" and hr["J"] == "Decko" and hr["Q"].startswith("Kraljica")


@pytest.mark.rules("CRO-DECK-03", "CRO-CON-03")
def test_deck_03_suit_numbers_two_to_five_low_to_high(base):
    assert base.suits == ("S", "D", "H", "C")
    en = base.doc["deck"]["names"]["en"]
    numbered = {}
    for name in ("two", "three", "four", "five"):
        con = base.contract(name)
        assert con["level"] == con["value"]                  # the number is both bid and value
        numbered[con["level"]] = con["trump"]
        assert base.call(name)["rank"] == con["level"]       # and the bid
    assert numbered == {2: "S", 3: "D", 4: "H", 5: "C"}
    assert [en[numbered[n]] for n in (2, 3, 4, 5)] == ["Leaves", "Bells", "Hearts", "Acorns"]
    # the suits rank from low to high in that order
    assert [base.suits.index(numbered[n]) for n in (2, 3, 4, 5)] == [0, 1, 2, 3]


@pytest.mark.rules("CRO-DECK-04", "CRO-CON-04", "CRO-CON-05")
def test_deck_04_six_bettel_seven_sanac_without_trumps_above_the_suits(base):
    bettel, sanac = base.contract("bettel"), base.contract("sanac")
    assert (bettel["level"], sanac["level"]) == (6, 7)
    assert bettel["trump"] is None and sanac["trump"] is None
    assert bettel["goal"] == "tricks(declarer) == 0" and sanac["goal"] == "tricks(declarer) >= 6"
    suits_top = max(base.contract(c)["rank"] for c in ("two", "three", "four", "five"))
    assert suits_top < bettel["rank"] < sanac["rank"]
    assert base.call("six")["contracts"] == ("bettel", "sanac") and base.call("seven")["contracts"] == ("sanac",)


@pytest.mark.rules("CRO-DECK-05", "CRO-VAR-07")
@pytest.mark.parametrize("name", ["serbian", "slovenian"])
def test_deck_05_french_suited_pack_same_numbers(base, name):
    rs = load(name)
    en = rs.doc["deck"]["names"]["en"]
    assert {s: en[s] for s in rs.suits} == FRENCH
    assert rs.suits == base.suits == ("S", "D", "H", "C")    # spades 2, diamonds 3, hearts 4, clubs 5
    assert (en["J"], en["Q"]) == ("Jack", "Queen")
    for suit in rs.suits:
        ranks = [c.rank for c in sorted((c for c in rs.cards if c.suit == suit), key=lambda c: c.order)]
        assert ranks == ["7", "8", "9", "10", "J", "Q", "K", "A"]


# ---- SEAT ----------------------------------------------------------------------------------------

@pytest.mark.rules("CRO-SEAT-01")
@pytest.mark.parametrize("name", FILES)
def test_seat_01_three_players(name):
    rs = load(name)
    assert rs.players == 3 and rs.seats == 3


@pytest.mark.rules("CRO-SEAT-02", "CRO-AUC-01")
def test_seat_02_clockwise_dealer_left_speaks_first_dealer_last(base):
    assert base.direction == "clockwise"
    assert base.roles["forehand"] == 1
    assert base.doc["session"]["dealer"] == "next(dealer)"
    for dealer in range(3):
        state = new_game(base, seed=dealer, dealer=dealer)
        order = []
        for _ in range(3):
            order.append(state.current_player())
            act(state, "pass")
        assert order == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]


@pytest.mark.rules("CRO-SEAT-03")
def test_seat_03_one_declarer_two_defenders(base):
    state = new_game(base, seed=4, dealer=C)
    act(state, "bid two")
    act(state, "pass")
    act(state, "pass")
    assert state.declarer == A
    assert sorted(state.defenders) == [B, C]


@pytest.mark.rules("CRO-SEAT-04", "CRO-VAR-06")
def test_seat_04_serbian_plays_counter_clockwise_nothing_else_in_the_seating(base):
    rs = load("serbian")
    assert rs.direction == "counterclockwise" and base.direction == "clockwise"
    seating, base_seating = thaw(rs.doc["seating"]), thaw(base.doc["seating"])
    seating.pop("direction"), base_seating.pop("direction")
    assert seating == base_seating                        # roles are steps in the direction of play
    assert rs.doc["deal"]["cut"] == "prev(dealer)" and rs.doc["session"]["dealer"] == "next(dealer)"


# ---- DEAL ----------------------------------------------------------------------------------------

@pytest.mark.rules("CRO-DEAL-01")
def test_deal_01_right_hand_neighbour_cuts(base):
    assert base.doc["deal"]["cut"] == "prev(dealer)"


@pytest.mark.rules("CRO-DEAL-02")
def test_deal_02_five_talon_two_five_from_the_dealers_left(base):
    packets = [(p["to"], p["cards"]) for p in base.doc["deal"]["packets"]]
    assert packets == [("each", 5), ("talon", 2), ("each", 5)]
    assert base.doc["deal"]["start"] == "forehand"
    rules = compile_rules(base)
    for dealer in range(3):
        deck = list(range(32))
        random.Random(7).shuffle(deck)
        hands, talon = deal_cards(rules, random.Random(7), dealer)
        left, next_one = (dealer + 1) % 3, (dealer + 2) % 3
        assert hands[left] & sum(1 << c for c in deck[:5]) == sum(1 << c for c in deck[:5])
        assert hands[next_one] & sum(1 << c for c in deck[5:10]) == sum(1 << c for c in deck[5:10])
        assert talon == deck[15:17]


@pytest.mark.rules("CRO-DEAL-03")
@pytest.mark.parametrize("name", FILES)
def test_deal_03_ten_cards_each_two_in_the_talon(name):
    rs = load(name)
    assert rs.hand_size == 10 and rs.talon_size == 2
    state = new_game(rs, seed=3, dealer=0)
    assert [bin(h).count("1") for h in state.hands] == [10, 10, 10]
    assert len(state.talon) == 2


@pytest.mark.rules("CRO-DEAL-04", "CRO-AUC-18")
def test_deal_04_deal_rotates_also_after_an_all_pass(base):
    assert base.doc["session"]["dealer"] == "next(dealer)"
    assert base.doc["auction"]["all_pass"]["contract"] is None
    state = new_game(base, seed=1, dealer=0)
    for _ in range(3):
        act(state, "pass")
    assert state.is_over() and state.declarer is None and state.all_passed


# ---- contracts and calls -------------------------------------------------------------------------

@pytest.mark.rules("CRO-CON-06", "CRO-CON-09", "CRO-SCORE-06")
def test_con_09_values_and_basic_scores(base):
    table = {"two": (2, 4, 3, 6), "three": (3, 6, 4, 8), "four": (4, 8, 5, 10),
             "five": (5, 10, 6, 12), "bettel": (6, 12, 7, 14), "sanac": (7, 14, 8, 16)}
    for name, (value, bs, gvalue, gbs) in table.items():
        plain, game = base.contract(name), base.contract(name + "_g")
        assert (plain["value"], 2 * plain["value"], plain["game"]) == (value, bs, False)
        assert (game["value"], 2 * game["value"], game["game"]) == (gvalue, gbs, True)
        assert game["trump"] == plain["trump"] and game["goal"] == plain["goal"]
    assert base.doc["let"]["BS"] == "2 * contract.value"


@pytest.mark.rules("CRO-AUC-02", "CRO-AUC-03", "CRO-AUC-10", "CRO-AUC-17", "CRO-CON-07", "CRO-CON-08")
def test_auc_calls_numbers_step_games_in_one_contest(base):
    assert base.doc["auction"]["raise"] == "step"
    numbers = ["two", "three", "four", "five", "six", "seven"]
    assert [base.call(n)["rank"] for n in numbers] == [2, 3, 4, 5, 6, 7]
    assert all(base.call(n)["talon"] == "exchange" for n in numbers)
    assert base.call("four")["contracts"] == ("four", "five", "bettel", "sanac")           # CRO-EX-01
    games = {n: base.call(n) for n in ("game", "bettel", "sanac")}
    assert {g["contest"] for g in games.values()} == {"game"}
    assert {g["rank"] for g in games.values()} == {10} and all(g.get("talon") is None for g in games.values())
    assert games["game"]["sealed"] is True
    assert games["game"]["contracts"] == ("two_g", "three_g", "four_g", "five_g", "bettel_g", "sanac_g")
    assert games["bettel"]["contracts"] == ("bettel_g",) and games["sanac"]["contracts"] == ("sanac_g",)
    state = new_game(base, seed=2, dealer=C)
    assert legal_texts(state) == {"bid two", "bid game", "bid bettel", "bid sanac", "pass"}


# ---- the worked example: the score sheet of notes (a)..(p) ---------------------------------------

def _settle(rs, accounts, declarer, contract, tricks, playing, host=None, kontra=0):
    """Settle one hand as the engine does after play, with the outcome given directly."""
    state = new_game(rs, seed=0, dealer=C, accounts=accounts)
    R = state.R
    state.declarer, state.con = declarer, R.contracts[contract]
    own_play(state).tricks_won = list(tricks)
    state.playing = tuple(playing)
    state.kontra.level = kontra
    df = state.defence
    df.host = host
    df.invited = host is not None
    df.guest = next((s for s in (A, B, C) if s not in (declarer, host)), None) if host is not None else None
    state._apply_rows(R.settle_rows, record=True)
    return state.accounts


@pytest.mark.rules(
    "CRO-EX-08", "CRO-EX-09", "CRO-EX-10", "CRO-EX-11", "CRO-EX-12", "CRO-EX-13", "CRO-EX-14", "CRO-EX-15",
    "CRO-EX-16", "CRO-EX-17", "CRO-EX-18", "CRO-EX-19", "CRO-EX-20", "CRO-EX-21", "CRO-EX-22", "CRO-EX-23",
    "CRO-EX-24", "CRO-EX-25", "CRO-EX-26", "CRO-EX-27", "CRO-EX-28", "CRO-EX-29",
    "CRO-SCORE-02", "CRO-SCORE-07", "CRO-SCORE-08", "CRO-SCORE-09", "CRO-SCORE-10", "CRO-SCORE-11",
    "CRO-SCORE-13", "CRO-SCORE-14", "CRO-SCORE-15", "CRO-SCORE-16", "CRO-SESS-01", "CRO-SESS-02",
    "CRO-SESS-04", "CRO-SESS-07", "CRO-SESS-09", "CRO-SESS-10", "CRO-SESS-12", "CRO-SESS-13",
    "CRO-DEF-10", "CRO-DEF-14", "CRO-DEF-15", "CRO-AMB-01", "CRO-AMB-02", "CRO-AMB-03", "CRO-AMB-05")
def test_ex_08_29_the_example_score_sheet(base):
    acc = new_game(base, seed=0, dealer=C).accounts
    assert acc["score"] == [-30, -30, -30]                                    # (a) bula 30
    everyone = (A, B, C)
    acc = _settle(base, acc, C, "three", [2, 2, 6], everyone)                 # (b)
    assert acc["score"] == [-30, -30, -24] and acc["juha"] == {(A, C): 12, (B, C): 12}
    acc = _settle(base, acc, B, "five", [0, 7, 3], (B, C))                    # (c)
    assert acc["score"][B] == -20 and acc["juha"][(C, B)] == 30
    state = new_game(base, seed=0, dealer=C, accounts=acc)                    # (d) everyone passes
    state._apply_rows(state.R.session_rows.all_pass, record=True)
    acc = state.accounts
    assert acc["refa"] == [1, 1, 1] and acc["refas_declared"] == 1
    acc = _settle(base, acc, A, "five", [7, 0, 3], (A, C))                    # (e) A's refa
    assert acc["score"][A] == -10 and acc["juha"][(C, A)] == 60 and acc["refa"][A] == 0
    acc = _settle(base, acc, C, "four_g", [2, 2, 6], everyone, host=A)        # (f) C's refa, A invites B
    assert acc["score"][C] == -4 and acc["juha"][(A, C)] == 12 + 80 and (B, C) in acc["juha"]
    assert acc["juha"][(B, C)] == 12 and acc["refa"][C] == 0
    acc = _settle(base, acc, A, "two", [7, 2, 1], everyone, host=B, kontra=1)  # (g) B says kontra
    assert acc["score"][A] == -2 and acc["score"][B] == -28 and acc["juha"][(B, A)] == 24
    acc = _settle(base, acc, B, "bettel", [0, 1, 0], everyone)                # (h) B's refa, Bettel lost
    assert acc["score"][B] == -52 and acc["juha"][(A, B)] == 120 and acc["juha"][(C, B)] == 150
    assert acc["refa"] == [0, 0, 0]
    acc = _settle(base, acc, C, "bettel", [5, 5, 0], everyone)                # (i) Bettel made: under the hat
    assert acc["score"][C] == 8 and acc["juha"][(A, C)] == 92
    acc = _settle(base, acc, C, "five", [4, 1, 3], everyone)                  # (j) the defence takes 5
    assert acc["score"][C] == -2 and acc["juha"][(A, C)] == 132 and acc["juha"][(B, C)] == 22
    acc = _settle(base, acc, A, "four", [6, 2, 2], everyone, host=C, kontra=2)  # (k) kontra, rekontra
    assert acc["score"][A] == 30 and acc["score"][C] == -34 and acc["juha"][(C, A)] == 188
    acc = _settle(base, acc, C, "sanac_g", [0, 2, 8], (B, C))                 # (l)
    assert acc["score"][C] == -18 and acc["juha"][(B, C)] == 54
    acc = _settle(base, acc, B, "five", [2, 6, 2], everyone, host=A)          # (m) A invites C
    assert acc["score"][B] == -42 and acc["juha"][(A, B)] == 160 and (C, B) in acc["juha"]
    assert acc["juha"][(C, B)] == 150
    acc = _settle(base, acc, B, "five_g", [0, 10, 0], (B,))                   # (n) nobody defends
    assert acc["score"][B] == -30
    acc = _settle(base, acc, A, "bettel", [0, 5, 5], everyone)                # (o)
    assert acc["score"] == [42, -30, -18]
    acc = _settle(base, acc, B, "five", [1, 6, 3], everyone)                  # (p) reduced to 6
    assert acc["score"] == [42, -24, -18]
    assert acc["juha"] == {(A, C): 132, (B, C): 54, (C, B): 168, (C, A): 188, (A, B): 166, (B, A): 24}
    state = new_game(base, seed=0, dealer=C, accounts=acc)
    assert state.R.session_rows.ends(state.ctx())                                # the sum is zero: game over
    state._apply_rows(state.R.session_rows.reckoning, record=True)
    assert state.accounts["money"] == [506, -496, -10]


@pytest.mark.rules("CRO-SESS-05", "CRO-SESS-06", "CRO-AMB-08", "CRO-AMB-09")
def test_sess_05_06_no_refa_under_the_hat_or_beyond_the_limit(base):
    def all_pass(acc, options=None):
        state = new_game(base, seed=0, dealer=C, accounts=acc, options=options)
        state._apply_rows(state.R.session_rows.all_pass, record=True)
        return state.accounts

    acc = new_game(base, seed=0, dealer=C).accounts
    acc = all_pass(all_pass(acc))                       # bula 30: one refa only
    assert acc["refa"] == [1, 1, 1] and acc["refas_declared"] == 1
    hat = dict(acc, score=[5, -10, -25], refas_declared=0, refa=[0, 0, 0])
    assert all_pass(hat)["refa"] == [0, 0, 0]           # one player under the hat: nobody gets one
    fifty = new_game(base, seed=0, dealer=C, options={"bula": 50}).accounts
    assert fifty["score"] == [-50, -50, -50]
    for _ in range(4):
        fifty = all_pass(fifty, {"bula": 50})
    assert fifty["refa"] == [3, 3, 3]                   # bula 50: three


# ---- plain two and kontra ------------------------------------------------------------------------

def _plain_two(name, dealer=C):
    state = new_game(load(name), seed=9, dealer=dealer)
    act(state, "bid two")
    act(state, "pass")
    act(state, "pass")
    discard_any(state)
    act(state, "declare two")
    return state


@pytest.mark.rules("CRO-DEF-18", "CRO-SCORE-08", "CRO-AMB-11")
def test_def_18_plain_two_without_kontra_is_not_played(base):
    state = _plain_two("croatian")
    assert legal_texts(state) == {"kontra", "pass"} and state.current_player() == B
    act(state, "pass")
    act(state, "pass")
    assert state.is_over() and state.play.tricks_won[A] == 10
    assert state.accounts["score"] == [-26, -30, -30]


@pytest.mark.rules("CRO-VAR-04", "CRO-VAR-03")
def test_var_04_slovenian_leaves_without_kontra_thrown_in_for_a_radlc():
    state = _plain_two("slovenian")
    act(state, "pass")
    act(state, "pass")
    assert state.is_over()
    assert state.accounts["score"] == [-30, -30, -30] and state.accounts["refa"] == [1, 1, 1]
    assert load("slovenian").doc["names"]["sl"]["refa"] == "radlc"


@pytest.mark.rules("CRO-VAR-09", "CRO-VAR-11", "CRO-AMB-17")
def test_var_09_11_serbian_two_played_without_kontra_gives_refe():
    state = _plain_two("serbian")
    assert legal_texts(state) == {"play", "drop out"}     # asked as usual
    act(state, "drop out")
    act(state, "drop out")
    assert state.is_over()                                # nobody plays; a defender who dropped out cannot kontra
    assert state.play.tricks_won[A] == 10
    assert state.accounts["score"] == [-30, -30, -30]     # not under the hat: no score
    assert state.accounts["refa"] == [1, 1, 1]


@pytest.mark.rules("CRO-VAR-10")
def test_var_10_serbian_one_refa_per_thirty_of_bula():
    rs = load("serbian")
    state = new_game(rs, seed=0, dealer=C, options={"bula": 100})
    assert state.R.compiler.lets["refa_max"](state.ctx()) == 3
    state = new_game(load("croatian"), seed=0, dealer=C, options={"bula": 50})
    assert state.R.compiler.lets["refa_max"](state.ctx()) == 3  # main rule: 3 for 50 (CRO-SESS-06)


# ---- the first lead ------------------------------------------------------------------------------

def _sanac_lead(name, dealer):
    state = new_game(load(name), seed=9, dealer=dealer)
    declarer = state.current_player()                     # the dealer's left bids and declares sanac
    act(state, "bid two")
    act(state, "pass")
    act(state, "pass")
    discard_any(state)
    act(state, "declare sanac")
    act(state, "play")
    act(state, "play")
    while state.phase == "kontra":
        act(state, "pass")
    assert state.phase == "play"
    return declarer, state.current_player(), state


@pytest.mark.rules("CRO-PLAY-02", "CRO-PLAY-04", "CRO-CON-05", "CRO-AMB-12")
def test_play_04_sanac_declarer_never_leads_first(base):
    declarer, leader, state = _sanac_lead("croatian", dealer=C)
    assert declarer == A == (C + 1) % 3 and leader == B


@pytest.mark.rules("CRO-VAR-02", "CRO-VAR-12")
@pytest.mark.parametrize("name", ["slovenian", "serbian"])
def test_var_02_12_sans_declarer_plays_second(name):
    declarer, leader, state = _sanac_lead(name, dealer=C)
    assert leader == state.prev(declarer)
    assert state.next(leader) == declarer


# ---- variants ------------------------------------------------------------------------------------

@pytest.mark.rules("CRO-VAR-08", "CRO-VAR-07")
def test_var_08_serbian_plain_igra_is_trumps_only():
    rs = load("serbian")
    assert rs.call("game")["contracts"] == ("two_g", "three_g", "four_g", "five_g")
    assert rs.call("bettel")["word"] == "igra betl" and rs.call("sanac")["word"] == "igra sans"
    assert rs.call("bettel")["allowed"] == rs.call("sanac")["allowed"] == "not spoke(me)"
    assert rs.contract("bettel")["title"] == "Betl" and rs.doc["names"]["sr"]["juha"] == "supa"


@pytest.mark.rules("CRO-VAR-01", "CRO-VAR-02")
def test_var_01_slovenian_names():
    rs = load("slovenian")
    assert rs.contract("bettel")["title"] == "Berač" and rs.contract("sanac")["title"] == "Sans atout"


@pytest.mark.rules("CRO-VAR-05", "CRO-TAL-01")
def test_var_05_hidden_talon_only_in_its_own_file(base):
    assert base.doc["talon"]["exchange"]["exposed"] is True
    assert load("slovenian").doc["talon"]["exchange"]["exposed"] is True
    hidden = thaw(load("slovenian-hidden").doc)
    assert hidden["talon"]["exchange"]["exposed"] is False
    plain = thaw(load("slovenian").doc)
    for d in (hidden, plain):
        d.pop("title"), d["talon"]["exchange"].pop("exposed"), d["talon"]["exchange"].pop("rule")
    assert hidden == plain


@pytest.mark.rules("CRO-VAR-13", "CRO-AMB-16")
def test_var_13_preferans_eight_all_tricks_no_quota():
    rs = load("serbian-preferans")
    for name, value in (("preferans", 8), ("preferans_g", 9)):
        con = rs.contract(name)
        assert con["value"] == value and con["trump"] is None and con["defence"] == "all"
        assert con["goal"] == "tricks(declarer) == 10"
    assert rs.call("preferans")["allowed"] == "not spoke(me)" and rs.call("eight")["contracts"] == ("preferans",)
    assert "preferans" in rs.call("two")["contracts"] and "preferans_g" not in rs.call("game")["contracts"]


@pytest.mark.rules("CRO-VAR-14", "CRO-VAR-15", "CRO-VAR-16", "CRO-VAR-17", "CRO-VAR-18", "CRO-VAR-19",
                   "CRO-VAR-20", "CRO-PLAY-12")
def test_var_14_20_conventions_are_customs_not_rules(base):
    customs = " ".join(base.doc["customs"])
    for n in range(14, 21):
        assert f"CRO-VAR-{n}" in customs


@pytest.mark.parametrize("name", FILES)
def test_stichwort_validate_accepts(name):
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["validate", name]) == 0


@pytest.mark.parametrize("name", FILES[1:])
def test_variants_extend_the_base(name):
    rs = load(name)
    assert rs.chain[0].endswith("croatian.stw") and len(rs.chain) >= 2
