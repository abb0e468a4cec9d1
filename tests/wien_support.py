"""Shared deals and helpers of the Vienna engine tests (test_wien_engine.py, test_wien_engine_play.py):
the rule set, the ladder of bids, a game started by seed or explicit hands, actions as text, the shortest
auction to a contract, random play to the end and the payments read back.

Seats are numbered in the order of play. With dealer 0, seat 1 is forehand (speaks first), seat 2 is
rearhand and the dealer speaks last. Accounts start as given (pot before this deal's stake); the dealer's
stake is paid when the deal starts (WIEN-SESS-06), so a pot of 0 becomes one stake (compulsory, WIEN-DEF-02)
and a pot of 10 becomes two stakes (the defenders are asked)."""
from __future__ import annotations

import random

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game
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


def three_bidders():
    """All three bid; the dealer (seat 0) is declarer of three and has named it."""
    st = do(game(pot=10), (1, "bid one"), (2, "bid two"), (0, "bid three"), (1, "pass"), (2, "pass"))
    first_discard(st)
    do(st, (0, "declare three"))
    return st
