"""Engine-level rule tests for Préférence as played in Vienna (games/wien/wien.stw against the catalog
../shared/rules/wien-preference.md): the auction (WIEN-AUC), the contract chosen after it (WIEN-CON), the
talon and the after-purchase (WIEN-TAL), going along or staying home (WIEN-DEF), the play of the cards
(WIEN-PLAY), the payments (WIEN-SCORE) and the session (WIEN-SESS), each checked by driving the engine:
new_game with a seed or explicit hands, actions as text, and the legal actions, the result, the payments
and the observations read back.

Seats are numbered in the order of play. With dealer 0, seat 1 is forehand (speaks first), seat 2 is
rearhand and the dealer speaks last. Accounts start as given (pot before this deal's stake); the dealer's
stake is paid when the deal starts (WIEN-SESS-06), so a pot of 0 becomes one stake (compulsory, WIEN-DEF-02)
and a pot of 10 becomes two stakes (the defenders are asked)."""
from __future__ import annotations

import random
from itertools import combinations

import pytest

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.session import Session
from interpreter.engine.text import parse

RS = load("wien")

# The ladder of bids as the catalog states it (WIEN-AUC-02, WIEN-CON-05), lowest first; hearts and five share
# a step (WIEN-AUC-25, WIEN-CON-06).
LADDER = [["one"], ["two"], ["three"], ["four"], ["spel"], ["hearts", "five"], ["five_wp"], ["six"], ["six_wp"],
          ["seven"], ["seven_wp"], ["eight"], ["eight_wp"]]
ALL_CALLS = [c for step in LADDER for c in step]
CAT_A = ["one", "two", "three", "four"]
SPEL = ["one_wp", "two_wp", "three_wp"]
PREMIUM = {"hearts": 1, "five": 1, "five_wp": 2, "six": 2, "six_wp": 3, "seven": 3, "seven_wp": 4,
           "eight": 4, "eight_wp": 5}                                       # stakes, WIEN-SCORE-14, WIEN-SCORE-19
ZERO_TRICKS = ["five", "five_wp", "seven", "seven_wp"]                      # WIEN-CON-09
ALL_TRICKS = ["six", "six_wp", "eight", "eight_wp"]                         # WIEN-CON-10


# ---- helpers ------------------------------------------------------------------------------------------

def game(seed=1, pot=0, dealer=0, deal=None, options=None, money=None):
    return new_game(RS, seed=None if deal else seed, deal=deal, dealer=dealer, options=options,
                    accounts={"pot": pot, "money": list(money or [0, 0, 0])})


def do(st, *steps):
    """Apply actions given as text, or as (seat, text) to check whose turn it is first."""
    for step in steps:
        if isinstance(step, tuple):
            seat, text = step
            assert st.current_player() == seat, f"expected seat {seat} to act for {text!r}, not {st.current_player()}"
        else:
            text = step
        st.apply(parse(st, text))
    return st


def legal(st) -> set[str]:
    return {st.action_text(a) for a in st.legal_actions()}


def bids(st) -> set[str]:
    """The calls that may be bid now, by name (their texts use the calls' words)."""
    return {st.R.calls[A.arg_of(a)].name for a in st.legal_actions() if A.kind_of(a) == A.BID}


def higher_than(call: str) -> set[str]:
    i = next(k for k, step in enumerate(LADDER) if call in step)
    return {c for step in LADDER[i + 1:] for c in step}


def n_cards(mask: int) -> int:
    return bin(mask).count("1")


def codes(mask: int) -> set[str]:
    return set(RS.codes(mask))


def first_discard(st):
    """Discard the first legal pair (talon or after-purchase)."""
    acts = [a for a in st.legal_actions() if A.kind_of(a) == A.DISCARD]
    st.apply(acts[0])


def contract_by_bidding(name: str, seed=1, pot=0, options=None, deal=None, discard=None):
    """Forehand (seat 1) becomes declarer of `name` by the shortest auction; returns the state after the
    contract is fixed (after-purchase and defence phases not yet answered)."""
    st = game(seed, pot=pot, options=options, deal=deal)
    if name in CAT_A or name in ("five", "six", "seven", "eight"):
        do(st, (1, "bid one" if name in CAT_A else "bid five"), "pass", "pass")
        if discard:
            do(st, (1, discard))
        else:
            first_discard(st)
        do(st, (1, "declare " + name))
    elif name in SPEL:
        do(st, (1, "bid spel"), "pass", "pass", (1, "declare " + name))
    else:                                         # hearts and the premium contracts without purchase
        do(st, (1, "bid " + name), "pass", "pass")
    assert st.con.name == name and st.declarer == 1
    return st


def to_play(st, go=True):
    """Decline every after-purchase and let both defenders go along (or stay home)."""
    while st.phase in ("after_purchase", "defence"):
        texts = legal(st)
        if "decline" in texts:
            do(st, "decline")
        elif "go along" in texts:
            do(st, "go along" if go else "stay home")
        elif "no invite" in texts:
            do(st, "no invite")
        else:
            raise AssertionError(texts)
    return st


def play_random(st, rng):
    """Random legal cards (no negotiation offers) until the deal is over."""
    while not st.is_over():
        assert st.phase == "play", st.phase
        cards = [a for a in st.legal_actions() if A.kind_of(a) == A.PLAY]
        st.apply(rng.choice(cards))
    return st


def _who(x):
    return "pot" if x == ("pot",) else x


def pays(st, src, dst, note="") -> list:
    """The amounts paid from `src` to `dst` (a seat or "pot") at the settlement, by rows whose note
    contains `note`."""
    return [amount for s, d, amount, n in st.payments if _who(s) == src and _who(d) == dst and note in n]


def played_contract(name, seed, pot=0, options=None):
    st = to_play(contract_by_bidding(name, seed, pot=pot, options=options))
    return play_random(st, random.Random(seed))


# A deal where forehand B (seat 1) plays four (hearts trump) and the left defender C (seat 2) is void in
# spades with three trumps; A (seat 0, the dealer) is the right defender, void in spades with three trumps.
MASK_DEAL = {
    "hands": [
        ["8H", "10H", "JH", "JC", "QC", "KC", "AC", "10D", "JD", "QD"],      # A, dealer, right defender
        ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "KH", "QH"],       # B, forehand, declarer
        ["7H", "9H", "AH", "7C", "8C", "9C", "10C", "7D", "8D", "9D"],       # C, rearhand, left defender
    ],
    "talon": ["KD", "AD"],
}

# B (forehand) holds the low cards; in a no-trick contract his 7C loses the first trick.
LOW_DEAL = {
    "hands": [
        ["AC", "AS", "JD", "QD", "KD", "AD", "9H", "10H", "JH", "QH"],       # A, dealer
        ["7C", "7S", "7D", "7H", "8C", "8S", "8D", "8H", "9C", "9S"],         # B, forehand
        ["10C", "JC", "QC", "KC", "10S", "JS", "QS", "KS", "9D", "10D"],     # C, rearhand
    ],
    "talon": ["KH", "AH"],
}

# B (forehand) holds all eight spades and the two top hearts: he takes every trick.
TOP_DEAL = {
    "hands": [
        ["8H", "10H", "JH", "JC", "QC", "KC", "AC", "10D", "JD", "QD"],      # A, dealer
        ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "AH", "KH"],       # B, forehand
        ["QH", "9H", "7H", "7C", "8C", "9C", "10C", "7D", "8D", "9D"],       # C, rearhand
    ],
    "talon": ["KD", "AD"],
}


def four_in_mask_deal(pot=0):
    st = game(deal=MASK_DEAL, pot=pot)
    do(st, (1, "bid four"), (2, "pass"), (0, "pass"), (1, "discard KD AD"))
    assert st.con.name == "four" and st.trump == "H"             # "four" leaves no choice: hearts
    return st


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
            t = st.tricks_won[1]
            assert st.result()["made"] == (t >= 6), (name, seed, t)
            A_ = 10
            assert pays(st, "pot", 1) == ([A_] if t >= 6 else [])      # takes A when made (WIEN-SCORE-09)
            assert pays(st, 1, "pot") == ([] if t >= 6 else [A_])      # pays A when not (WIEN-SCORE-11)
            seen.add(t)
    assert {5, 6} <= seen                                            # the boundary was exercised


def play_by(st, pick):
    """Every player plays the card `pick` chooses among his legal cards, until the deal is over."""
    while not st.is_over():
        cards = [a for a in st.legal_actions() if A.kind_of(a) == A.PLAY]
        st.apply(pick(cards))
    return st


def lowest(cards):
    return min(cards, key=lambda a: RS.cards[a].order)


def highest(cards):
    return max(cards, key=lambda a: RS.cards[a].order)


@pytest.mark.rules("WIEN-CON-09", "WIEN-AMB-10")
def test_con_09_five_and_seven_are_made_only_without_a_trick():
    for name in ZERO_TRICKS:
        for seed in range(10):
            st = played_contract(name, seed)
            t = st.tricks_won[1]
            assert st.result()["made"] == (t == 0)
            assert t in (0, 1)                                       # play stops at his first trick
            assert t == 1 or len(st.history) == 10
    # B's low cards never win a trick: made
    for name in ZERO_TRICKS:
        st = to_play(contract_by_bidding(name, deal=LOW_DEAL, discard="discard KH AH"))
        play_by(st, lowest)
        assert st.tricks_won[1] == 0 and len(st.history) == 10 and st.result()["made"], name
    # with the bought KH AH kept, B cannot avoid a trick: one trick is a fall
    st = to_play(contract_by_bidding("five", deal=LOW_DEAL, discard="discard 9C 9S"))
    play_by(st, highest)
    assert st.tricks_won[1] == 1 and not st.result()["made"]


@pytest.mark.rules("WIEN-CON-10", "WIEN-AMB-10")
def test_con_10_six_and_eight_are_made_only_with_all_ten_tricks():
    for name in ALL_TRICKS:
        for seed in range(10):
            st = played_contract(name, seed)
            t = st.tricks_won[1]
            assert st.result()["made"] == (t == 10)
            if t < 10:
                assert sum(st.tricks_won) - t == 1                   # play stops at the first lost trick
    for name in ALL_TRICKS:                                          # B holds all spades and AH KH
        st = to_play(contract_by_bidding(name, deal=TOP_DEAL, discard="discard KD AD"))
        play_by(st, highest)
        assert st.tricks_won[1] == 10 and st.result()["made"], name
    # B's low cards lose the first trick: the contract is lost and play stops there
    st = to_play(contract_by_bidding("six", deal=LOW_DEAL, discard="discard 7C 7S"))
    play_by(st, highest)
    assert st.tricks_won[1] < 10 and not st.result()["made"]


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


def three_bidders():
    """All three bid; the dealer (seat 0) is declarer of three and has named it."""
    st = do(game(pot=10), (1, "bid one"), (2, "bid two"), (0, "bid three"), (1, "pass"), (2, "pass"))
    first_discard(st)
    do(st, (0, "declare three"))
    return st


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


# ---- DEFENCE ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-DEF-01", "WIEN-DEF-16", "WIEN-AMB-14")
def test_def_01_defenders_are_asked_only_in_basic_contracts_and_hearts():
    for name in CAT_A + SPEL + ["hearts"]:
        st = contract_by_bidding(name, pot=10)
        assert st.phase == "defence", name
        assert legal(st) == {"go along", "stay home"}
    for name in PREMIUM:
        if name == "hearts":
            continue
        st = contract_by_bidding(name, pot=10)
        assert st.phase == "play" and st.playing == (0, 1, 2), name


@pytest.mark.rules("WIEN-DEF-04", "WIEN-DEF-16", "WIEN-AMB-06")
def test_def_04_no_defence_after_an_after_purchase():
    st = three_bidders()
    assert st.phase == "after_purchase"                         # declared and bought, defence comes after
    do(st, (1, "after-purchase"))
    first_discard(st)
    do(st, (1, "declare five"), (2, "decline"), (0, "decline"))
    assert st.phase == "play" and st.playing == (0, 1, 2) and not st.compulsory
    # without an after-purchase the same position asks the defenders (the pot is not compulsory)
    st = three_bidders()
    do(st, (1, "decline"), (2, "decline"))
    assert st.phase == "defence"


@pytest.mark.rules("WIEN-DEF-05")
def test_def_05_left_defender_declares_first():
    for dealer in range(3):
        st = game(pot=10, dealer=dealer)
        fh = (dealer + 1) % 3
        do(st, (fh, "bid one"), "pass", "pass")
        first_discard(st)
        do(st, "declare one")
        assert st.phase == "defence" and st.current_player() == (fh + 1) % 3      # the declarer's left
        do(st, "go along")
        assert st.current_player() == dealer                                      # then his right


@pytest.mark.rules("WIEN-DEF-08", "WIEN-DEF-06", "WIEN-SCORE-08")
def test_def_08_stay_home_defender_is_out_of_the_play():
    st = four_in_mask_deal(pot=10)
    do(st, (2, "go along"), (0, "stay home"), (2, "no invite"))
    home = st.hands[0]
    assert st.playing == (1, 2)
    play_random(st, random.Random(3))
    assert st.hands[0] == home                                   # his cards stay down
    assert all(len(trick) == 2 for trick, _ in st.history)       # tricks of two cards
    assert st.tricks_won[0] == 0 and st.tricks_won[1] + st.tricks_won[2] == 10
    assert st.result()["payments"][0] == 0                       # not paid, pays nothing (WIEN-SCORE-08)
    assert all(0 not in (s, d) for s, d, _, _ in st.payments)


@pytest.mark.rules("WIEN-DEF-15", "WIEN-AMB-12", "WIEN-SCORE-11", "WIEN-SCORE-12")
def test_def_15_falling_declarer_and_falling_defender_pay_the_same_a():
    found = 0
    for seed in range(80):
        st = played_contract("one", seed, pot=10)               # pot 20, A = 20: both defenders went along
        r = st.result()
        d_fell = not r["made"]
        fallen = [s for s in (0, 2) if st.tricks_won[s] < 2]
        if not (d_fell and fallen):
            continue
        found += 1
        for s in fallen:
            assert pays(st, s, "pot") == pays(st, 1, "pot") == [20]
        # the declarer's swing is larger: he pays A and the defenders' tricks
        assert r["payments"][1] < min(r["payments"][s] for s in fallen)
    assert found


# ---- PLAY -------------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-PLAY-01")
def test_play_01_declarer_leads_the_first_trick():
    st = do(game(), (1, "pass"), (2, "bid one"), (0, "pass"))
    first_discard(st)
    do(st, (2, "declare one"))
    to_play(st)
    assert st.phase == "play" and st.current_player() == 2
    st = do(game(), (1, "pass"), (2, "pass"), (0, "bid five_wp"))
    assert st.phase == "play" and st.current_player() == 0


def check_trick_rules(st):
    """Every trick of a finished deal: followed suit when able, won by the highest trump else the highest
    card of the led suit, and the winner led the next one."""
    trump = st.con.trump
    prev_winner = None
    for trick, winner in st.history:
        if prev_winner is not None:
            assert trick[0][0] == prev_winner                                    # WIEN-PLAY-10
        led = RS.cards[trick[0][1]].suit
        trumps = [(s, c) for s, c in trick if trump >= 0 and RS.cards[c].suit == RS.suits[trump]]
        pool = trumps or [(s, c) for s, c in trick if RS.cards[c].suit == led]
        assert winner == max(pool, key=lambda sc: RS.cards[sc[1]].order)[0]      # WIEN-PLAY-08, -09
        prev_winner = winner


@pytest.mark.rules("WIEN-PLAY-03", "WIEN-PLAY-08", "WIEN-PLAY-09", "WIEN-PLAY-10")
def test_play_03_10_follow_suit_and_trick_winners_in_random_deals():
    for seed in range(30):
        name = (CAT_A + SPEL + ["hearts", "five_wp", "six"])[seed % 10]
        st = to_play(contract_by_bidding(name, seed))
        rng = random.Random(seed)
        while not st.is_over():
            me = st.current_player()
            cards = [a for a in st.legal_actions() if A.kind_of(a) == A.PLAY]
            if st.trick:
                led = RS.cards[st.trick[0][1]].suit
                held = [c for c in RS.codes(st.hands[me]) if c.endswith(led)]
                if held:
                    assert all(RS.cards[c].suit == led for c in cards)           # WIEN-PLAY-03
            st.apply(rng.choice(cards))
        check_trick_rules(st)


@pytest.mark.rules("WIEN-PLAY-08", "WIEN-PLAY-09", "WIEN-PLAY-10", "WIEN-PLAY-13", "WIEN-PLAY-11")
def test_play_13_left_defender_void_must_play_his_lowest_trump():
    st = four_in_mask_deal(pot=0)                       # compulsory: both defenders go along
    assert st.phase == "play" and st.playing == (0, 1, 2)
    do(st, (1, "play 7S"))
    assert legal(st) == {"play 7H"}                     # lowest trump, not 9H or AH
    do(st, (2, "play 7H"))
    assert legal(st) == {"play 8H", "play 10H", "play JH"}   # the right defender: any trump that beats it
    do(st, (0, "play 8H"))
    assert st.history[-1][1] == 0                       # the highest trump wins a spade lead (WIEN-PLAY-08)
    assert st.current_player() == 0                     # and leads next (WIEN-PLAY-10)
    do(st, (0, "play JC"))
    assert legal(st) == {"play KH", "play QH"}                          # B, void in clubs, must trump
    do(st, (1, "play QH"))
    assert legal(st) == {"play 7C", "play 8C", "play 9C", "play 10C"}   # C follows, cannot beat: any club
    do(st, (2, "play 9C"))
    assert st.history[-1][1] == 1 and st.current_player() == 1


@pytest.mark.rules("WIEN-PLAY-13", "WIEN-PLAY-11")
def test_play_13_no_maskningsplikt_when_one_defender_stays_home():
    st = four_in_mask_deal(pot=10)
    do(st, (2, "go along"), (0, "stay home"), (2, "no invite"))
    do(st, (1, "play 7S"))
    assert legal(st) == {"play 7H", "play 9H", "play AH"}


@pytest.mark.rules("WIEN-PLAY-09")
def test_play_09_off_suit_card_does_not_win_without_trumps():
    # five without purchase is sans: the highest card of the led suit wins, and a high card of another
    # suit, played by a player void in the led suit, never does
    st = do(game(deal=LOW_DEAL), (1, "bid five_wp"), "pass", "pass")
    do(st, (1, "play 9S"), (2, "play 10S"))
    assert legal(st) == {"play AS"}                     # A must follow and beat
    do(st, (0, "play AS"))
    assert st.history[-1][1] == 0
    do(st, (0, "play QH"))
    assert legal(st) == {"play 7H", "play 8H"}          # B follows hearts (his are all lower)
    do(st, (1, "play 8H"))
    # C is void in hearts: any card; his KC does not win
    assert legal(st) == {"play " + c for c in ["10C", "JC", "QC", "KC", "JS", "QS", "KS", "9D", "10D"]}
    do(st, (2, "play KC"))
    assert st.history[-1][1] == 0


@pytest.mark.rules("WIEN-PLAY-06", "WIEN-PLAY-07")
def test_play_06_07_defenders_hands_open_after_the_first_trick_in_seven_and_eight():
    cases = [("seven", LOW_DEAL, "7C"), ("seven_wp", LOW_DEAL, "7C"), ("five", LOW_DEAL, "7C"),
             ("eight", TOP_DEAL, "AS"), ("eight_wp", TOP_DEAL, "AS"), ("six_wp", TOP_DEAL, "AS")]
    for name, deal, lead in cases:
        discard = "discard KH AH" if deal is LOW_DEAL else "discard KD AD"
        st = to_play(contract_by_bidding(name, deal=deal, discard=discard))
        assert "open_hands" not in st.observation(0)
        do(st, (1, "play " + lead))
        st.apply(st.legal_actions()[0])
        assert "open_hands" not in st.observation(1)       # not while the first trick is on the table
        st.apply(st.legal_actions()[0])
        assert len(st.history) == 1 and st.phase == "play", name
        obs = {s: st.observation(s) for s in range(3)}
        if name.startswith(("seven", "eight")):
            assert set(obs[1]["open_hands"]) == {0, 2}       # the declarer sees both defenders' cards
            assert set(obs[1]["open_hands"][2]) == codes(st.hands[2])
            assert set(obs[0]["open_hands"]) == {2}          # each defender sees the other's (WIEN-PLAY-07)
            assert set(obs[2]["open_hands"]) == {0}
            assert set(obs[0]["open_hands"][2]) == codes(st.hands[2])
            assert 1 not in obs[0]["open_hands"]             # the declarer's hand stays hidden
        else:
            assert all("open_hands" not in o for o in obs.values()), name


# ---- SCORE ------------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SCORE-01")
def test_score_01_payment_after_the_play():
    st = to_play(contract_by_bidding("two", seed=2, pot=10))
    money = list(st.accounts["money"])
    rng = random.Random(2)
    while not st.is_over():
        assert st.payments == [] and st.accounts["money"] == money and st.accounts["pot"] == 20
        st.apply(rng.choice([a for a in st.legal_actions() if A.kind_of(a) == A.PLAY]))
    assert st.payments and st.accounts["money"] != money


@pytest.mark.rules("WIEN-SCORE-10", "WIEN-SCORE-09", "WIEN-SCORE-05", "WIEN-SCORE-06")
def test_score_10_a_made_declarer_nets_the_value_of_his_own_tricks():
    checked = 0
    for seed in range(60):
        for name in ("one", "two_wp"):
            st = played_contract(name, seed, pot=20)           # pot 30 = the maximum: A = 30, 3 units a trick
            r = st.result()
            if not r["made"] or any(st.tricks_won[s] < 2 for s in (0, 2)):
                continue
            checked += 1
            assert r["payments"][1] == 3 * st.tricks_won[1]
            assert r["payments"][0] == 3 * st.tricks_won[0] and r["payments"][2] == 3 * st.tricks_won[2]
            assert r["pot"] == 0
    assert checked


@pytest.mark.rules("WIEN-SCORE-17", "WIEN-SCORE-16", "WIEN-SCORE-18", "WIEN-SCORE-19", "WIEN-CON-03")
@pytest.mark.parametrize("name", [n for n in PREMIUM if n != "hearts"])
def test_score_17_19_premium_contracts_pay_only_pot_and_premium(name):
    stake = 20
    for seed in range(6):
        st = played_contract(name, seed, options={"stake": stake, "maximum": 60})
        r = st.result()
        assert r["pot"] in (0, 2 * stake)
        premium = PREMIUM[name] * stake
        for s in (0, 2):
            # no trick money, no defender falls: each defender only exchanges the premium
            assert r["payments"][s] == (-premium if r["made"] else premium), (name, seed, st.tricks_won)
            assert pays(st, s, "pot") == []
        assert r["payments"][1] == (2 * premium + stake if r["made"] else -2 * premium - stake)
        assert pays(st, "pot", 1) == ([stake] if r["made"] else [])
        assert pays(st, 1, "pot") == ([] if r["made"] else [stake])


@pytest.mark.rules("WIEN-SCORE-19", "WIEN-SCORE-14", "WIEN-SCORE-15")
def test_score_19_hearts_premium_one_stake_even_to_a_stay_home_defender():
    for seed in range(10):
        st = contract_by_bidding("hearts", seed, pot=10, options={"stake": 20, "maximum": 60})
        do(st, (2, "go along"), (0, "stay home"), (2, "no invite"))
        play_random(st, random.Random(seed))
        made = st.result()["made"]
        for s in (0, 2):                                             # A stayed home and pays all the same
            assert (pays(st, s, 1, "premium") if made else pays(st, 1, s, "premium")) == [20], (seed, s)
        assert st.result()["payments"][0] == (-20 if made else 20)   # A: the premium and nothing else


@pytest.mark.rules("WIEN-SCORE-20", "WIEN-AMB-14", "WIEN-DEF-16")
def test_score_20_nobody_stays_home_in_five_to_eight_so_both_exchange_the_premium():
    for name in ("five", "five_wp", "six", "seven_wp", "eight"):
        st = contract_by_bidding(name, pot=30)                   # pot 40: going along is not compulsory
        assert st.phase == "play" and st.playing == (0, 1, 2)
        assert not any(t in ("go along", "stay home") for t in legal(st))
        play_random(st, random.Random(1))
        made = st.result()["made"]
        for s in (0, 2):
            assert (pays(st, s, 1) if made else pays(st, 1, s)) == [PREMIUM[name] * 10]


def ausfechten(seed, pot):
    st = do(game(seed, pot=pot), (1, "pass"), (2, "pass"), (0, "pass"))
    assert st.con.name == "ausfechten" and st.declarer is None
    return play_random(st, random.Random(seed))


@pytest.mark.rules("WIEN-SCORE-22", "WIEN-SCORE-21", "WIEN-SCORE-23", "WIEN-SCORE-04")
def test_score_22_23_ausfechten_ties_each_pay_one_stake_whatever_the_pot():
    ties = 0
    for seed in range(60):
        st = ausfechten(seed, pot=40)                            # the pot holds 5 stakes, the maximum 3
        top = max(st.tricks_won)
        payers = [s for s in range(3) if st.tricks_won[s] == top]
        ties += len(payers) == 2
        r = st.result()
        for s in range(3):
            assert r["payments"][s] == (-10 if s in payers else 0), (seed, st.tricks_won)
        assert r["pot"] == 50 + 10 * len(payers)
    assert ties


# ---- SESSION ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SESS-01", "WIEN-SESS-05")
def test_sess_01_05_chips_and_bowl_are_customs_the_pot_is_an_account():
    customs = " ".join(RS.doc["customs"])
    assert "WIEN-SESS-01" in customs and "WIEN-SESS-05" in customs
    assert RS.doc["account"]["pot"]["per"] == "game"             # the bowl's content: one shared pot
    st = game(pot=0)
    assert st.accounts["pot"] == 10 and st.accounts["money"] == [-10, 0, 0]


@pytest.mark.rules("WIEN-SESS-02", "WIEN-SESS-03", "WIEN-EX-05")
@pytest.mark.parametrize("stake", [10, 20, 30])
def test_sess_02_03_stake_is_ten_units_and_a_trick_one_tenth(stake):
    spec = RS.doc["option"]["stake"]
    assert spec["default"] == 10 and spec["min"] == 10 and "divisible by ten" in spec["doc"]
    with pytest.raises(ValueError, match="minimum"):
        game(options={"stake": 5})                  # less than ten units is no stake (WIEN-SESS-02)
    st = played_contract("one", 5, options={"stake": stake, "maximum": stake})
    assert st.after_stake_accounts["pot"] == stake
    for s in (0, 2):
        assert pays(st, 1, s) == ([st.tricks_won[s] * stake // 10] if st.tricks_won[s] else [])


@pytest.mark.rules("WIEN-SESS-08", "WIEN-SESS-09", "WIEN-SESS-06", "WIEN-SESS-07")
def test_sess_08_dealer_rotates_and_the_pot_is_carried():
    sess = Session(RS, dealer=0, accounts={"pot": 0, "money": [0, 0, 0]})
    rng = random.Random(9)
    pots = []
    for k in range(4):
        st = sess.start(rng=rng)
        assert st.dealer == k % 3
        before = pots[-1] if pots else 0
        assert st.accounts["pot"] == before + 10                       # the new dealer's stake on top
        assert st.start_accounts["money"][st.dealer] - st.after_stake_accounts["money"][st.dealer] == 10
        while not st.is_over():
            st.apply(rng.choice(st.legal_actions()))
        sess.finish(st)
        pots.append(st.accounts["pot"])
        assert sess.dealer == (k + 1) % 3


@pytest.mark.rules("WIEN-SESS-02", "WIEN-SESS-03")
def test_sess_02_the_stake_must_be_divisible_by_ten():
    from interpreter.engine.rules import compile_rules

    rs = load("wien")
    assert rs.doc["option"]["stake"]["multiple_of"] == 10
    assert compile_rules(rs, {"stake": 20}).options["stake"] == 20
    with pytest.raises(ValueError, match="multiple of 10"):
        compile_rules(rs, {"stake": 25})
