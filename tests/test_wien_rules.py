"""The Vienna rule files against their catalog (../shared/rules/wien-preference.md): the cards, the seats
and the deal of games/wien/wien.stw (WIEN-DECK, WIEN-SEAT, WIEN-DEAL), the four-player file wien-4
(WIEN-SESS-10..13) and the variants wien-hearts, wien-five-six and wien-trumpf (WIEN-VAR-01..07), each of
which must differ from the base exactly where its rule says and nowhere else."""
from __future__ import annotations

import contextlib
import io
import random

import pytest
from helpers import act, legal_texts

from interpreter import cli, load
from interpreter.engine import deal_cards, new_game
from interpreter.engine.rules import compile_rules
from interpreter.model.ruleset import thaw

VARIANTS = ["wien-4", "wien-hearts", "wien-five-six", "wien-trumpf"]
PREMIUM_BEYOND_HEARTS = ["five", "five_wp", "six", "six_wp", "seven", "seven_wp", "eight", "eight_wp"]
SEVEN_EIGHT = ["seven", "seven_wp", "eight", "eight_wp"]


@pytest.fixture(scope="module")
def base():
    return load("wien")


def doc(name) -> dict:
    return thaw(load(name).doc)


def without(d: dict, *paths: str) -> dict:
    """A copy of document `d` with the dotted paths removed (a missing path is ignored)."""
    d = thaw(d)
    for path in paths:
        *parents, last = path.split(".")
        node = d
        for p in parents:
            node = node.get(p, {})
        node.pop(last, None)
    return d


# ---- DECK ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-DECK-01")
def test_deck_01_thirty_two_cards_seven_to_ace(base):
    assert base.deck_size == 32
    assert {c.rank for c in base.cards} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert all(bin(base.suit_mask[s]).count("1") == 8 for s in base.suits)
    assert len({c.code for c in base.cards}) == 32


@pytest.mark.rules("WIEN-DECK-02")
def test_deck_02_suit_order_clubs_spades_diamonds_hearts(base):
    assert base.suits == ("C", "S", "D", "H")
    assert base.doc["deck"]["names"]["en"] == {"C": "clubs", "S": "spades", "D": "diamonds", "H": "hearts"}


@pytest.mark.rules("WIEN-DECK-03")
def test_deck_03_rank_order_seven_low_ace_high(base):
    for suit in base.suits:
        ranks = [c.rank for c in sorted((c for c in base.cards if c.suit == suit), key=lambda c: c.order)]
        assert ranks == ["7", "8", "9", "10", "J", "Q", "K", "A"]


@pytest.mark.rules("WIEN-DECK-04", "WIEN-DECK-05", "WIEN-AMB-01")
def test_deck_04_05_william_tell_names_follow_the_same_order(base):
    names = base.doc["deck"]["names"]
    assert {"en", "de"} <= set(names)                     # French-suited and German-suited packs
    de = names["de"]
    # acorns < leaves < bells < hearts, in the place of clubs < spades < diamonds < hearts
    assert [de[s] for s in base.suits] == ["Eichel", "Grün", "Schellen", "Herz"]
    assert de["J"] == "Unter" and de["Q"] == "Ober"       # Unter and Ober in the places of J and Q


@pytest.mark.rules("WIEN-DECK-06", "WIEN-CON-05")
def test_deck_06_trump_contracts_one_to_four_run_up_the_suits(base):
    trumps = [base.contract(c)["trump"] for c in ("one", "two", "three", "four")]
    assert trumps == list(base.suits)
    de = base.doc["deck"]["names"]["de"]
    assert [de[t] for t in trumps] == ["Eichel", "Grün", "Schellen", "Herz"]


# ---- SEAT ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SEAT-01")
def test_seat_01_three_players(base):
    assert base.players == 3 and base.seats == 3


@pytest.mark.rules("WIEN-SEAT-02")
def test_seat_02_highest_card_drawn_deals_first(base):
    seating = base.doc["seating"]
    assert seating["first_dealer"] == "draw"
    assert seating["draw"]["dealer"] == "highest"


@pytest.mark.rules("WIEN-SEAT-03", "WIEN-EX-01")
def test_seat_03_draw_compares_suit_before_rank(base):
    draw = base.doc["seating"]["draw"]
    assert tuple(draw["compare"]) == ("suit", "rank")
    key = {c.code: tuple((base.suits.index(c.suit) if k == "suit" else c.order) for k in draw["compare"])
           for c in base.cards}
    assert key["7H"] > key["AD"]                          # WIEN-EX-01
    assert max(key, key=key.get) == "AH" and min(key, key=key.get) == "7C"


@pytest.mark.rules("WIEN-SEAT-04")
def test_seat_04_clockwise(base):
    assert base.direction == "clockwise"


@pytest.mark.rules("WIEN-SEAT-05", "WIEN-SEAT-06")
def test_seat_05_06_forehand_left_rearhand_right_of_the_dealer(base):
    assert base.roles["forehand"] == 1
    assert base.roles["rearhand"] == -1


@pytest.mark.rules("WIEN-SEAT-06", "WIEN-AUC-01")
def test_seat_06_forehand_speaks_first_then_rearhand_then_dealer(base):
    for dealer in range(3):
        state = new_game(base, seed=dealer, dealer=dealer)
        order = []
        for _ in range(3):
            order.append(state.current_player())
            act(state, "pass")
        assert order == [(dealer + 1) % 3, (dealer - 1) % 3, dealer]
        assert order[1] == (dealer + base.roles["rearhand"]) % 3


# ---- DEAL ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-DEAL-01")
def test_deal_01_clockwise_starting_with_forehand(base):
    assert base.doc["deal"]["start"] == "forehand"
    rules = compile_rules(base)
    for dealer in range(3):
        deck = list(range(32))
        random.Random(11).shuffle(deck)
        hands, _ = deal_cards(rules, random.Random(11), dealer)
        forehand, next_one = (dealer + 1) % 3, (dealer + 2) % 3
        first_packet = sum(1 << c for c in deck[:3])
        second_packet = sum(1 << c for c in deck[3:6])
        assert hands[forehand] & first_packet == first_packet
        assert hands[next_one] & second_packet == second_packet


@pytest.mark.rules("WIEN-DEAL-02")
def test_deal_02_packets_three_talon_two_four_three(base):
    packets = [(p["to"], p["cards"]) for p in base.doc["deal"]["packets"]]
    assert packets == [("each", 3), ("talon", 2), ("each", 4), ("each", 3)]


@pytest.mark.rules("WIEN-DEAL-03")
def test_deal_03_ten_cards_each_two_in_the_talon(base):
    assert base.hand_size == 10 and base.talon_size == 2
    state = new_game(base, seed=5, dealer=0)
    assert [bin(h).count("1") for h in state.hands] == [10, 10, 10]
    assert len(state.talon) == 2


# ---- four players --------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SESS-10", "WIEN-SEAT-01")
def test_sess_10_four_seats_three_players_dealer_sits_out():
    rs = load("wien-4")
    assert rs.seats == 4 and rs.players == 3
    assert rs.doc["seating"]["sit_out"] == "dealer"
    for dealer in range(4):
        state = new_game(rs, seed=dealer, dealer=dealer)
        assert state.hands[dealer] == 0
        assert sorted(bin(h).count("1") for h in state.hands) == [0, 10, 10, 10]
        assert dealer not in state.active


@pytest.mark.rules("WIEN-SESS-11", "WIEN-SESS-12", "WIEN-AMB-04")
def test_sess_11_12_roles_with_four():
    rs = load("wien-4")
    assert rs.roles["forehand"] == 1 and rs.roles["rearhand"] == -1      # as with three
    assert rs.roles["hold_heir"] == 2                                    # forehand's left, reading (a)
    assert load("wien").roles["hold_heir"] == 0                          # with three: the dealer


@pytest.mark.rules("WIEN-SESS-12", "WIEN-AUC-11", "WIEN-AMB-04")
def test_sess_12_hold_right_passes_to_forehands_left():
    rs = load("wien-4")
    state = new_game(rs, seed=1, dealer=0)
    assert state.current_player() == 1
    act(state, "pass")                                   # forehand passes
    assert state.current_player() == 2
    act(state, "bid one")                                # the heir, on forehand's left
    assert state.current_player() == 3
    act(state, "bid two")                                # rearhand
    assert state.current_player() == 2
    assert "hold" in legal_texts(state)


@pytest.mark.rules("WIEN-SESS-13", "WIEN-PLAY-02", "WIEN-AUC-07")
def test_sess_13_forehand_leads_ausfechten():
    assert load("wien-4").contract("ausfechten")["lead"] == "forehand"
    assert load("wien").contract("ausfechten")["lead"] == "dealer"
    state = new_game(load("wien-4"), seed=3, dealer=2)
    for _ in range(3):
        act(state, "pass")
    assert state.phase == "play" and state.current_player() == 3


@pytest.mark.rules("WIEN-SESS-10", "WIEN-AMB-15")
def test_sess_10_variant_changes_only_seating_and_ausfechten_lead(base):
    d = doc("wien-4")
    assert without(d, "title", "description", "seating.seats", "seating.sit_out", "seating.roles.hold_heir",
                   "contract.ausfechten.lead") == \
        without(thaw(base.doc), "title", "description", "seating.roles.hold_heir", "contract.ausfechten.lead")
    # the sitting-out dealer still pays the stake
    assert d["session"]["before_deal"] == thaw(base.doc)["session"]["before_deal"]
    assert d["session"]["before_deal"][0]["from"] == "dealer"


@pytest.mark.rules("WIEN-AMB-15")
def test_amb_15_sitting_out_dealer_takes_no_part_in_the_deals_payments():
    rs = load("wien-4")
    for seed in range(40):
        dealer = seed % 4
        state = new_game(rs, seed=seed, dealer=dealer)
        rng = random.Random(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        assert state.result()["payments"][dealer] == 0


# ---- variants ------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-VAR-01", "WIEN-VAR-02")
def test_var_01_hearts_only_premium(base):
    rs = load("wien-hearts")
    assert "hearts" in rs.contracts and "hearts" in rs.calls
    for name in PREMIUM_BEYOND_HEARTS:
        assert name not in rs.contracts and name not in rs.calls
        assert name in base.contracts                    # the base, "illustrated préférence", keeps them
    assert set(base.contracts) - set(rs.contracts) == set(PREMIUM_BEYOND_HEARTS)
    assert set(base.calls) - set(rs.calls) == set(PREMIUM_BEYOND_HEARTS)
    premium = [c for c in rs.contracts if rs.contract(c).get("category") == "c"]
    assert premium == ["hearts"]


@pytest.mark.rules("WIEN-VAR-01", "WIEN-AMB-17")
def test_var_01_no_after_purchase(base):
    d = doc("wien-hearts")
    assert "after_purchase" not in d and "after_purchase" not in d["procedure"]
    assert d["procedure"] == [p for p in base.doc["procedure"] if p != "after_purchase"]
    removed = ["call." + n for n in PREMIUM_BEYOND_HEARTS] + ["contract." + n for n in PREMIUM_BEYOND_HEARTS]
    assert without(d, "title", "description", "procedure") == \
        without(thaw(base.doc), "title", "description", "procedure", "after_purchase", *removed)


@pytest.mark.rules("WIEN-VAR-03", "WIEN-AMB-17")
def test_var_03_five_and_six_only(base):
    rs = load("wien-five-six")
    assert set(base.contracts) - set(rs.contracts) == set(SEVEN_EIGHT)
    assert set(base.calls) - set(rs.calls) == set(SEVEN_EIGHT)
    for name in ("hearts", "five", "five_wp", "six", "six_wp"):
        assert name in rs.contracts and name in rs.calls
    assert list(rs.call("five")["contracts"]) == ["five", "six"]
    assert list(rs.call("six")["contracts"]) == ["six"]
    assert list(rs.doc["after_purchase"]["contracts"]) == ["five", "six"]
    d = doc("wien-five-six")
    removed = ["call." + n for n in SEVEN_EIGHT] + ["contract." + n for n in SEVEN_EIGHT]
    assert without(d, "title", "description", "call.five.contracts", "call.six.contracts", "after_purchase.contracts") == \
        without(thaw(base.doc), "title", "description", "call.five.contracts", "call.six.contracts",
                "after_purchase.contracts", *removed)


@pytest.mark.rules("WIEN-VAR-04", "WIEN-VAR-05", "WIEN-VAR-06", "WIEN-VAR-07")
def test_var_04_07_trumpftvang_chain(base):
    d = doc("wien-trumpf")
    chain = d["play"]["obligations"]
    assert chain[:3] == ["follow_suit", "must_trump", "must_beat"]
    assert chain[3] == thaw(base.doc)["play"]["obligations"][2]          # maskningsplikt kept
    assert len(chain) == 4
    assert list(base.doc["play"]["obligations"][:2]) == ["follow_suit", "must_beat"]
    assert without(d, "title", "description", "play.obligations") == \
        without(thaw(base.doc), "title", "description", "play.obligations")


# A position for the trumpftvång tests: B (forehand) plays four (hearts) with purchase; both defenders go along
# (the pot holds one stake, WIEN-DEF-02). B leads a spade; C, void in spades, trumps with the only trump it has.
# A, void in spades too, holds only lower trumps.
TRUMPF_DEAL = {
    "hands": [
        ["7H", "8H", "9H", "JC", "QC", "KC", "AC", "QD", "KD", "AD"],     # A, dealer, right defender
        ["7S", "8S", "9S", "10S", "JS", "AS", "KH", "QH", "JH", "10H"],   # B, forehand, declarer
        ["AH", "7C", "8C", "9C", "10C", "7D", "8D", "9D", "10D", "JD"],   # C, left defender
    ],
    "talon": ["QS", "KS"],
}


def _trumpf_position(name, swap=None):
    deal = {"hands": [list(h) for h in TRUMPF_DEAL["hands"]], "talon": list(TRUMPF_DEAL["talon"])}
    if swap:
        for seat, old, new in swap:
            deal["hands"][seat][deal["hands"][seat].index(old)] = new
    state = new_game(load(name), deal=deal, dealer=0)
    act(state, "bid four")
    act(state, "pass")
    act(state, "pass")
    act(state, "discard 7S 8S")
    while state.phase != "play":
        texts = legal_texts(state)
        act(state, "go along" if "go along" in texts else "decline" if "decline" in texts else sorted(texts)[0])
    assert state.current_player() == 1
    act(state, "play 9S")
    return state


@pytest.mark.rules("WIEN-VAR-05", "WIEN-VAR-06", "WIEN-AMB-13", "WIEN-PLAY-05")
def test_var_05_void_player_must_undertrump_only_under_trumpftvang():
    for name in ("wien", "wien-trumpf"):
        state = _trumpf_position(name)
        act(state, "play AH")                                            # C trumps
        legal = {t.split()[1] for t in legal_texts(state)}
        if name == "wien":
            assert legal == set(TRUMPF_DEAL["hands"][0])                 # cannot overtrump: any card
        else:
            assert legal == {"7H", "8H", "9H"}                           # must still play a trump


@pytest.mark.rules("WIEN-VAR-07", "WIEN-PLAY-04")
def test_var_07_void_player_must_overtrump_when_able():
    # C holds 8H instead of AH; A holds 7H, 9H and AH: it must overtrump with 9H or AH, not play 7H.
    swap = [(2, "AH", "8H"), (0, "8H", "AH")]
    state = _trumpf_position("wien-trumpf", swap)
    act(state, "play 8H")
    assert {t.split()[1] for t in legal_texts(state)} == {"9H", "AH"}


# ---- every file validates --------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SESS-10", "WIEN-VAR-01", "WIEN-VAR-03", "WIEN-VAR-04")
@pytest.mark.parametrize("name", ["wien"] + VARIANTS)
def test_stichwort_validate_accepts(name):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["validate", name])
    assert code == 0, out.getvalue()
    assert "ok" in out.getvalue()


@pytest.mark.rules("WIEN-VAR-01", "WIEN-VAR-03", "WIEN-VAR-04", "WIEN-SESS-10")
@pytest.mark.parametrize("name", VARIANTS)
def test_variants_extend_the_base(name):
    rs = load(name)
    assert len(rs.chain) == 2 and rs.chain[0].endswith("wien.stw") and rs.chain[1].endswith(name + ".stw")
    assert rs.title != load("wien").title
