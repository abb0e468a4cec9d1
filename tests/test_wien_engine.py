"""Engine-level rule tests for Préférence as played in Vienna (games/wien/wien.stw against the catalog
../shared/rules/wien-preference.md), part one: the auction (WIEN-AUC), the contract chosen after it
(WIEN-CON) and the talon and the after-purchase (WIEN-TAL), each checked by driving the engine: new_game
with a seed or explicit hands, actions as text, and the legal actions, the result, the payments and the
observations read back. Going along or staying home, the play, the payments and the session are in
test_wien_engine_play.py; the shared deals and helpers in wien_support.py.

Seats are numbered in the order of play. With dealer 0, seat 1 is forehand (speaks first), seat 2 is
rearhand and the dealer speaks last. Accounts start as given (pot before this deal's stake); the dealer's
stake is paid when the deal starts (WIEN-SESS-06), so a pot of 0 becomes one stake (compulsory, WIEN-DEF-02)
and a pot of 10 becomes two stakes (the defenders are asked)."""
from __future__ import annotations

from itertools import combinations

import pytest
from wien_support import (
    ALL_CALLS,
    ALL_TRICKS,
    CAT_A,
    LOW_DEAL,
    RS,
    SPEL,
    TOP_DEAL,
    ZERO_TRICKS,
    bids,
    codes,
    contract_by_bidding,
    do,
    first_discard,
    game,
    higher_than,
    highest,
    legal,
    lowest,
    n_cards,
    pays,
    play_by,
    played_contract,
    three_bidders,
    to_play,
)

from interpreter.engine import actions as A
from interpreter.engine.text import parse

# ---- AUCTION ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-AUC-02", "WIEN-AUC-03", "WIEN-CON-05")
def test_auc_02_bids_rank_as_the_contract_ladder():
    for call in ALL_CALLS:
        st = do(game(), (1, "bid " + call))
        assert st.current_player() == 2
        expected = higher_than(call) | ({"spel"} if call == "spel" else set())
        assert bids(st) == expected, call            # rearhand, still uncommitted, may bid exactly the higher ones


@pytest.mark.rules("WIEN-AUC-25", "WIEN-CON-06")
def test_auc_25_hearts_and_five_rank_equal():
    st = do(game(), (1, "bid hearts"))
    assert "five" not in bids(st) and "hearts" not in bids(st)
    assert "five_wp" in bids(st) and "six" in bids(st)
    st = do(game(), (1, "bid five"))
    assert "hearts" not in bids(st) and "five" not in bids(st)
    assert min(bids(st), key=ALL_CALLS.index) == "five_wp"


@pytest.mark.rules("WIEN-AUC-04")
def test_auc_04_a_player_who_passed_never_speaks_again():
    st = do(game(), (1, "pass"), (2, "bid one"), (0, "bid two"))
    turns = []
    for text in ("bid three", "bid four", "pass"):
        turns.append(st.current_player())
        do(st, text)
    assert 1 not in turns                            # forehand is skipped for the rest of the auction
    assert st.phase != "auction" and st.declarer in (0, 2)
    # and a pass stays final even when bids are held at level one to four (the dealer holds here)
    st = do(game(), (1, "pass"), (2, "bid one"), (0, "hold"), (2, "bid two"))
    assert st.current_player() == 0 and "hold" in legal(st)


@pytest.mark.rules("WIEN-AUC-05")
def test_auc_05_auction_ends_when_two_have_passed():
    st = do(game(), (1, "bid one"), (2, "pass"))
    assert st.phase == "auction" and st.current_player() == 0          # one pass is not enough
    do(st, (0, "pass"))
    assert st.phase == "talon"
    # the two passes may come first: the dealer's bid then ends the auction at once
    st = do(game(), (1, "pass"), (2, "pass"), (0, "bid two"))
    assert st.phase == "talon" and st.declarer == 0
    # and after a long exchange the second pass ends it too
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "bid three"), (1, "bid four"), (2, "pass"))
    assert st.phase == "auction"
    do(st, (0, "pass"))
    assert st.phase == "talon" and st.declarer == 1


@pytest.mark.rules("WIEN-AUC-06")
def test_auc_06_last_bid_is_final_and_its_bidder_declares():
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "bid three"), (1, "pass"), (2, "pass"))
    assert st.final_call.name == "three" and st.declarer == 0
    assert set(st.defenders) == {1, 2}
    # a held bid counts as the holder's: forehand holds two and is declarer of two
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "pass"), (1, "hold"), (2, "pass"))
    assert st.final_call.name == "two" and st.declarer == 1 and set(st.defenders) == {0, 2}


@pytest.mark.rules("WIEN-AUC-12", "WIEN-CON-01")
def test_auc_12_first_bid_of_one_to_four_caps_later_bids_at_four():
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "pass"))
    assert bids(st) == {"three", "four"}                          # no spel, no premium contract
    assert "hold" in legal(st) and "pass" in legal(st)
    st = do(game(), (1, "bid one"), (2, "bid hearts"), (0, "pass"))
    assert legal(st) == {"pass"}                                   # pushed above four: only pass
    st = do(game(), (1, "bid two"), (2, "bid spel"), (0, "pass"))
    assert legal(st) == {"pass"}


@pytest.mark.rules("WIEN-AUC-13", "WIEN-EX-02", "WIEN-AMB-02")
def test_auc_13_lowest_bid_is_a_custom_so_jump_bids_are_legal():
    customs = " ".join(RS.doc["customs"])
    assert "WIEN-AUC-13" in customs and "WIEN-AMB-02" in customs
    st = game()
    assert "four" in bids(st)                                      # a jump straight to four
    do(st, (1, "bid one"))
    assert {"two", "three", "four"} <= bids(st)                    # rearhand may jump over two


@pytest.mark.rules("WIEN-EX-02", "WIEN-AUC-13", "WIEN-CON-13")
def test_ex_02_forehand_opens_one_raises_when_overbid_and_plays_diamonds():
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "pass"), (1, "bid three"), (2, "pass"))
    assert st.declarer == 1 and st.final_call.name == "three"
    first_discard(st)
    assert legal(st) == {"declare three", "declare four"}
    do(st, (1, "declare three"))
    assert st.trump == "D"
    # the same with the lowest opening and nobody overbidding: one, then raised to diamonds after buying
    st = do(game(), (1, "bid one"), (2, "pass"), (0, "pass"))
    first_discard(st)
    do(st, (1, "declare three"))
    assert st.con.name == "three" and st.trump == "D"


@pytest.mark.rules("WIEN-AUC-14", "WIEN-AUC-15", "WIEN-CON-01")
def test_auc_15_spel_bidder_goes_no_higher_than_three_without_purchase():
    st = do(game(), (1, "bid spel"), (2, "bid hearts"), (0, "pass"))
    assert legal(st) == {"pass"}
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"))
    assert legal(st) == {"declare one without purchase", "declare two without purchase", "declare three without purchase"}     # never hearts


@pytest.mark.rules("WIEN-AUC-16")
def test_auc_16_a_second_spel_is_allowed_though_not_higher():
    st = do(game(), (1, "bid spel"))
    assert "spel" in bids(st)
    assert not {"one", "two", "three", "four"} & bids(st)
    do(st, (2, "bid spel"))
    assert "spel" in bids(st)                                      # and a third
    # a second "one" over "one" is not allowed (only holding is, for forehand)
    st = do(game(), (1, "bid one"))
    assert "one" not in bids(st)


@pytest.mark.rules("WIEN-AUC-17", "WIEN-AMB-05")
def test_auc_17_first_spel_bidder_must_name_his_suit():
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"))
    assert st.current_player() == 1
    assert legal(st) == {"declare one without purchase", "declare two without purchase", "declare three without purchase"}     # no pass
    # not so when the third player has bid higher meanwhile: then he can only pass
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "bid hearts"))
    assert st.current_player() == 1 and legal(st) == {"pass"}


@pytest.mark.rules("WIEN-AUC-18", "WIEN-AMB-05", "WIEN-CON-02")
def test_auc_18_second_spel_bidder_names_a_higher_suit_never_hearts_or_passes():
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"), (1, "declare one_wp"))
    assert st.current_player() == 2
    assert legal(st) == {"declare two without purchase", "declare three without purchase", "pass"}
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"), (1, "declare three_wp"))
    assert legal(st) == {"pass"}                                   # nothing higher, and hearts never
    # strictly higher: the first bidder cannot take a named suit over by naming it again (WIEN-AUC-19)
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"), (1, "declare two_wp"), (2, "declare three_wp"))
    assert st.current_player() == 1 and legal(st) == {"pass"}
    do(st, (1, "pass"))
    assert st.declarer == 2 and st.con.name == "three_wp"
    # an outbid first bidder may name a higher suit again (AMB-05)
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"), (1, "declare one_wp"), (2, "declare two_wp"))
    assert legal(st) == {"declare three without purchase", "pass"}


@pytest.mark.rules("WIEN-AUC-19", "WIEN-AUC-09")
def test_auc_19_no_hold_at_spel_level():
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "pass"))
    assert "hold" in legal(st)                                     # forehand can hold a level-two bid ...
    st = do(game(), (1, "bid one"), (2, "bid spel"), (0, "pass"))
    assert st.current_player() == 1 and "hold" not in legal(st)   # ... but not a spel
    st = do(game(), (1, "pass"), (2, "bid one"))
    assert "hold" in legal(st)                                     # the dealer, heir of the right, holds one
    st = do(game(), (1, "pass"), (2, "bid spel"))
    assert st.current_player() == 0 and "hold" not in legal(st)   # but not a spel
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "pass"))
    assert "hold" not in legal(st)


@pytest.mark.rules("WIEN-AUC-20")
def test_auc_20_three_spels_the_first_names_first():
    st = do(game(), (1, "bid spel"), (2, "bid spel"), (0, "bid spel"))
    assert st.current_player() == 1 and "pass" not in legal(st)
    do(st, (1, "declare one_wp"))
    assert st.current_player() == 2
    do(st, (2, "pass"))
    assert st.current_player() == 0 and legal(st) == {"declare two without purchase", "declare three without purchase", "pass"}
    # forehand passed: rearhand said spel first and names first
    st = do(game(), (1, "pass"), (2, "bid spel"), (0, "bid spel"))
    assert st.current_player() == 2 and "pass" not in legal(st)


@pytest.mark.rules("WIEN-AUC-21", "WIEN-AUC-04", "WIEN-AUC-12", "WIEN-AUC-15")
def test_auc_21_premium_only_as_first_call():
    premium = set(ALL_CALLS) - set(CAT_A) - {"spel"}
    # first bid one: later no premium, though it would be higher
    st = do(game(), (1, "bid one"), (2, "bid two"), (0, "pass"))
    assert bids(st) == {"three", "four"} and not bids(st) & premium
    st = do(game(), (1, "bid one"), (2, "bid spel"), (0, "pass"))
    assert legal(st) == {"pass"}
    # first bid spel: no premium, though it would be higher
    st = do(game(), (1, "bid spel"), (2, "bid five_wp"), (0, "pass"))
    assert st.current_player() == 1 and legal(st) == {"pass"}
    # passed: nothing at all
    st = do(game(), (1, "pass"), (2, "bid one"), (0, "bid two"))
    assert st.current_player() == 2
    # first call premium: the premium is open to him, and stays open later (WIEN-AUC-23)
    st = do(game(), (1, "bid hearts"))
    assert bids(st) == higher_than("hearts")


@pytest.mark.rules("WIEN-AUC-22", "WIEN-EX-03", "WIEN-CON-11", "WIEN-CON-18")
def test_auc_22_without_purchase_is_said_in_the_bid():
    st = game()
    a = parse(st, "bid five without purchase")
    assert st.action_text(a) == "bid five without purchase" and parse(st, "bid five_wp") == a
    do(st, (1, "bid five without purchase"), (2, "pass"), (0, "pass"))
    assert st.con.name == "five_wp"
    assert st.phase == "play" and n_cards(st.hands[1]) == 10 and len(st.talon) == 2      # no purchase
    # "five" alone means with purchase: the declarer buys and the without-purchase form is gone
    st = do(game(), (1, "bid five"), (2, "pass"), (0, "pass"))
    assert st.phase == "talon" and n_cards(st.hands[1]) == 12
    first_discard(st)
    assert "declare five_wp" not in legal(st)


@pytest.mark.rules("WIEN-AUC-23", "WIEN-AUC-24")
def test_auc_23_overbid_premium_bidder_may_raise_but_not_hold():
    st = do(game(), (1, "bid hearts"), (2, "bid five_wp"), (0, "pass"))
    assert st.current_player() == 1
    assert bids(st) == higher_than("five_wp")
    assert "hold" not in legal(st)                                 # WIEN-AUC-24
    do(st, (1, "bid six"))
    assert st.current_player() == 2 and bids(st) == higher_than("six")
    do(st, (2, "pass"))
    assert st.declarer == 1 and st.final_call.name == "six"
    # the dealer, heir of the hold right, cannot hold a premium bid either
    st = do(game(), (1, "pass"), (2, "bid hearts"))
    assert st.current_player() == 0 and "hold" not in legal(st)


@pytest.mark.rules("WIEN-AUC-24")
def test_auc_24_no_hold_at_premium_level():
    for opening, call in (("one", "hearts"), ("one", "five"), ("hearts", "six_wp"), ("five_wp", "eight")):
        st = do(game(), (1, "bid " + opening), (2, "bid " + call), (0, "pass"))
        assert st.current_player() == 1 and "hold" not in legal(st), call     # forehand has the right ...
    for call in ("hearts", "five", "eight_wp"):
        st = do(game(), (1, "pass"), (2, "bid " + call))
        assert st.current_player() == 0 and "hold" not in legal(st), call     # ... and the dealer after a pass


# ---- CONTRACT ---------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-CON-01", "WIEN-CON-12", "WIEN-CON-14")
def test_con_01_three_categories_and_the_contract_after_each():
    cats = {}
    for opening in ("one", "spel", "hearts", "five"):
        st = do(game(), (1, "bid " + opening), "pass", "pass")
        if st.phase == "talon":
            first_discard(st)
        if st.phase == "contract":
            names = [st.R.contract_names[A.arg_of(a)] for a in st.legal_actions() if A.kind_of(a) == A.DECLARE]
        else:
            names = [st.con.name]
        cats[opening] = {RS.contract(n)["category"] for n in names}
    assert cats == {"one": {"a"}, "spel": {"b"}, "hearts": {"c"}, "five": {"c"}}


@pytest.mark.rules("WIEN-CON-12", "WIEN-CON-13", "WIEN-CON-14", "WIEN-CON-02", "WIEN-TAL-03")
def test_con_12_declarer_states_the_contract_after_one_to_four():
    for final, choices in (("one", CAT_A), ("two", CAT_A[1:]), ("three", CAT_A[2:]), ("four", CAT_A[3:])):
        st = do(game(), (1, "bid " + final), "pass", "pass")
        assert st.phase == "talon"
        assert not any(t.startswith("declare") for t in legal(st))  # buy and discard first (WIEN-TAL-03)
        first_discard(st)
        if len(choices) == 1:                                        # four: hearts, the only choice
            assert st.phase != "contract" and st.con.name == "four"
            continue
        assert st.phase == "contract" and st.current_player() == 1
        assert legal(st) == {"declare " + c for c in choices}       # own suit or higher, never another category
        trumps = [RS.contract(c)["trump"] for c in choices]
        assert trumps == ["C", "S", "D", "H"][4 - len(choices):]


@pytest.mark.rules("WIEN-CON-15", "WIEN-CON-16")
def test_con_15_with_purchase_premium_declarer_buys_and_may_only_raise_with_purchase():
    for final, choices in (("five", ["five", "six", "seven", "eight"]), ("six", ["six", "seven", "eight"]),
                           ("seven", ["seven", "eight"]), ("eight", ["eight"])):
        st = do(game(), (1, "bid " + final), "pass", "pass")
        assert st.phase == "talon" and n_cards(st.hands[1]) == 12 and not st.talon      # he buys
        first_discard(st)
        if len(choices) > 1:
            assert legal(st) == {"declare " + c for c in choices}
            assert not any(t.endswith("_wp") for t in legal(st))       # WIEN-CON-16
            do(st, "declare " + choices[-1])
        assert st.con.name == choices[-1]


@pytest.mark.rules("WIEN-CON-17", "WIEN-TAL-04")
def test_con_17_spel_without_contest_declarer_names_the_suit_after_the_auction():
    st = do(game(), (1, "bid spel"), (2, "pass"), (0, "pass"))
    assert st.phase == "contract" and st.current_player() == 1
    assert legal(st) == {"declare one without purchase", "declare two without purchase", "declare three without purchase"}       # no hearts
    assert n_cards(st.hands[1]) == 10 and len(st.talon) == 2                         # nothing bought
    do(st, "declare two_wp")
    assert st.trump == "S"


@pytest.mark.rules("WIEN-CON-18", "WIEN-CON-11")
def test_con_18_without_purchase_and_named_spel_are_fixed_by_the_auction():
    for call in ("hearts", "five_wp", "six_wp", "seven_wp", "eight_wp"):
        st = do(game(pot=10), (1, "bid " + call), "pass", "pass")
        assert st.phase in ("defence", "play"), call                 # no contract to choose, no purchase
        assert st.con.name == call and n_cards(st.hands[1]) == 10
    st = do(game(pot=10), (1, "bid spel"), (2, "bid spel"), (0, "pass"), (1, "declare one_wp"),
            (2, "declare three_wp"), (1, "pass"))
    assert st.con.name == "three_wp" and st.declarer == 2
    assert st.phase == "defence"                                     # straight on, nothing to state


@pytest.mark.rules("WIEN-CON-08", "WIEN-SCORE-09", "WIEN-SCORE-11")
def test_con_08_six_tricks_make_the_basic_contracts():
    seen = set()
    for name in CAT_A + SPEL + ["hearts"]:
        for seed in range(12):
            st = played_contract(name, seed)
            t = st.play.tricks_won[1]
            assert st.result()["made"] == (t >= 6), (name, seed, t)
            A_ = 10
            assert pays(st, "pot", 1) == ([A_] if t >= 6 else [])      # takes A when made (WIEN-SCORE-09)
            assert pays(st, 1, "pot") == ([] if t >= 6 else [A_])      # pays A when not (WIEN-SCORE-11)
            seen.add(t)
    assert {5, 6} <= seen                                            # the boundary was exercised


@pytest.mark.rules("WIEN-CON-09", "WIEN-AMB-10")
def test_con_09_five_and_seven_are_made_only_without_a_trick():
    for name in ZERO_TRICKS:
        for seed in range(10):
            st = played_contract(name, seed)
            t = st.play.tricks_won[1]
            assert st.result()["made"] == (t == 0)
            assert t in (0, 1)                                       # play stops at his first trick
            assert t == 1 or len(st.play.history) == 10
    # B's low cards never win a trick: made
    for name in ZERO_TRICKS:
        st = to_play(contract_by_bidding(name, deal=LOW_DEAL, discard="discard KH AH"))
        play_by(st, lowest)
        assert st.play.tricks_won[1] == 0 and len(st.play.history) == 10 and st.result()["made"], name
    # with the bought KH AH kept, B cannot avoid a trick: one trick is a fall
    st = to_play(contract_by_bidding("five", deal=LOW_DEAL, discard="discard 9C 9S"))
    play_by(st, highest)
    assert st.play.tricks_won[1] == 1 and not st.result()["made"]


@pytest.mark.rules("WIEN-CON-10", "WIEN-AMB-10")
def test_con_10_six_and_eight_are_made_only_with_all_ten_tricks():
    for name in ALL_TRICKS:
        for seed in range(10):
            st = played_contract(name, seed)
            t = st.play.tricks_won[1]
            assert st.result()["made"] == (t == 10)
            if t < 10:
                assert sum(st.play.tricks_won) - t == 1                   # play stops at the first lost trick
    for name in ALL_TRICKS:                                          # B holds all spades and AH KH
        st = to_play(contract_by_bidding(name, deal=TOP_DEAL, discard="discard KD AD"))
        play_by(st, highest)
        assert st.play.tricks_won[1] == 10 and st.result()["made"], name
    # B's low cards lose the first trick: the contract is lost and play stops there
    st = to_play(contract_by_bidding("six", deal=LOW_DEAL, discard="discard 7C 7S"))
    play_by(st, highest)
    assert st.play.tricks_won[1] < 10 and not st.result()["made"]


# ---- TALON ------------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-TAL-02", "WIEN-TAL-01")
def test_tal_02_any_two_of_twelve_may_be_discarded():
    st = do(game(seed=4), (1, "bid one"), "pass", "pass")
    hand = st.hands[1]
    assert n_cards(hand) == 12
    discards = [a for a in st.legal_actions() if A.kind_of(a) == A.DISCARD]
    assert len(discards) == len(list(combinations(range(12), 2))) == 66
    assert {A.arg_of(a) for a in discards} == {(1 << x) | (1 << y) for x, y in combinations(
        [i for i in range(32) if hand >> i & 1], 2)}
    talon = codes(hand & ~st.dealt_hands[1])
    assert len(talon) == 2
    do(st, "discard " + " ".join(sorted(talon)))                   # the bought cards themselves may go
    assert n_cards(st.hands[1]) == 10 and codes(st.discards) == talon


@pytest.mark.rules("WIEN-TAL-06", "WIEN-TAL-07")
def test_tal_07_only_players_who_bid_may_after_purchase():
    # forehand bid one, rearhand passed, the dealer bid two and won it
    st = do(game(pot=10), (1, "bid one"), (2, "pass"), (0, "bid two"), (1, "pass"))
    assert st.declarer == 0
    first_discard(st)
    do(st, (0, "declare two"))
    assert st.phase == "after_purchase" and st.current_player() == 1
    do(st, (1, "decline"))
    assert st.phase == "defence"                                   # rearhand, who only passed, is not asked
    # nobody else bid: no after-purchase at all
    st = do(game(pot=10), (1, "bid one"), (2, "pass"), (0, "pass"))
    first_discard(st)
    do(st, (1, "declare one"))
    assert st.phase == "defence"


@pytest.mark.rules("WIEN-TAL-08", "WIEN-TAL-09", "WIEN-TAL-10")
def test_tal_08_10_left_player_first_takes_the_discards_and_announces_five_or_more():
    st = three_bidders()
    discards = codes(st.discards)
    assert st.phase == "after_purchase" and st.current_player() == 1           # the declarer's left
    assert legal(st) == {"after-purchase", "decline"}
    do(st, (1, "decline"))
    assert st.current_player() == 2                                              # then clockwise
    before = codes(st.hands[2])
    do(st, (2, "after-purchase"))
    assert codes(st.hands[2]) == before | discards and n_cards(st.hands[2]) == 12  # WIEN-TAL-09
    assert len(st.legal_actions()) == 66                                         # any two
    do(st, "discard " + " ".join(sorted(before)[:2]))
    assert codes(st.discards) == set(sorted(before)[:2])
    assert legal(st) == {"declare five", "declare six", "declare seven", "declare eight"}   # WIEN-TAL-10


@pytest.mark.rules("WIEN-TAL-11", "WIEN-TAL-12", "WIEN-AMB-06")
def test_tal_11_12_later_after_purchases_must_be_higher_and_return_to_the_declarer():
    st = three_bidders()
    do(st, (1, "after-purchase"))
    first_discard(st)
    do(st, (1, "declare six"))
    assert st.declarer == 1 and st.current_player() == 2
    do(st, (2, "after-purchase"))
    first_discard(st)
    assert legal(st) == {"declare seven", "declare eight"}               # higher than the left player
    do(st, (2, "declare seven"))
    assert st.current_player() == 0                                       # back to the first declarer
    do(st, (0, "after-purchase"))
    first_discard(st)
    assert legal(st) == {"declare eight"}
    do(st, (0, "declare eight"))                                         # nothing is higher: the chain ends
    assert st.phase == "play" and st.declarer == 0 and st.con.name == "eight"
    assert st.playing == (0, 1, 2)


@pytest.mark.rules("WIEN-TAL-13", "WIEN-AMB-07")
def test_tal_13_chain_runs_clockwise_until_all_decline_and_declining_keeps_the_right():
    st = three_bidders()
    do(st, (1, "decline"), (2, "after-purchase"))
    first_discard(st)
    do(st, (2, "declare five"))
    do(st, (0, "decline"))
    assert st.current_player() == 1                                      # declined once, still entitled
    do(st, (1, "after-purchase"))
    first_discard(st)
    assert "declare five" not in legal(st)
    do(st, (1, "declare six"), (2, "decline"))
    assert st.phase == "after_purchase" and st.current_player() == 0
    do(st, (0, "decline"))
    assert st.phase == "play" and st.declarer == 1 and st.con.name == "six"
