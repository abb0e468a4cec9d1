"""Shared deals and helpers of the Croatian Preference engine tests (test_croatian_engine.py,
test_croatian_engine_play.py): the seats, dealing explicit hands, acting through the action text, playing a
trick card by card, the worked deals (six and five hearts, nine sure tricks, Bettel) and the short ways to
a game hand. Positions are the catalog's: A = 0 (forehand, the dealer's left), B = 1, C = 2 (the dealer)."""
from __future__ import annotations

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.text import parse

A, B, C = 0, 1, 2          # in the order of play; C deals, so A is forehand (CRO-AUC-01)


def act(state, *texts: str) -> None:
    for text in texts:
        state.apply(parse(state, text))


def legal(state) -> set[str]:
    return {state.action_text(a) for a in state.legal_actions()}


def playable(state) -> set[str]:
    return {t.split()[1] for t in legal(state) if t.startswith("play ")}


def discard(state, *codes: str) -> None:
    for a in state.legal_actions():
        text = state.action_text(a)
        if text.startswith("discard ") and set(text.split()[1:]) == set(codes):
            state.apply(a)
            return
    raise AssertionError(f"discarding {codes} is not legal")


def trick(state, *codes: str) -> int:
    """Play one trick, card by card, and return its winner."""
    n = len(state.play.history)
    for code in codes:
        act(state, "play " + code)
    assert len(state.play.history) == n + 1
    return state.play.history[-1][1]


def deal(hands, talon, dealer=C, accounts=None, options=None, game=None):
    return new_game(game or load("croatian"), deal={"hands": hands, "talon": talon}, dealer=dealer,
                    accounts=accounts, options=options)


# A holds six top hearts and four losers; B holds the losers' masters (a hearts game makes exactly six).
SIX_HEARTS = [
    ["AH", "KH", "QH", "JH", "10H", "9H", "7S", "7D", "7C", "8C"],
    ["8H", "AS", "KS", "QS", "JS", "AD", "KD", "QD", "AC", "KC"],
    ["7H", "10S", "9S", "8S", "JD", "10D", "9D", "8D", "QC", "JC"],
]
SIX_TALON = ["10C", "9C"]

# A holds all eight hearts, the ace of spades and the seven of clubs: nine sure tricks.
NINE_TRICKS = [
    ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "AS", "7C"],
    ["KS", "QS", "JS", "10S", "AD", "KD", "QD", "AC", "KC", "QC"],
    ["9S", "8S", "7S", "JD", "10D", "9D", "8D", "7D", "JC", "10C"],
]
NINE_TALON = ["9C", "8C"]

# A holds five top hearts and five losers in the other suits.
FIVE_HEARTS = [
    ["AH", "KH", "QH", "JH", "10H", "7S", "8S", "7D", "7C", "8C"],
    ["9H", "8H", "AS", "KS", "QS", "AD", "KD", "QD", "AC", "KC"],
    ["7H", "JS", "10S", "9S", "JD", "10D", "9D", "8D", "QC", "JC"],
]
FIVE_TALON = ["10C", "9C"]


def game_hand(hands, talon, contract="four_g", accounts=None, options=None):
    """A bids game, B and C pass, A announces `contract` (no talon)."""
    state = deal(hands, talon, accounts=accounts, options=options)
    act(state, "bid game", "pass", "pass", "declare " + contract)
    return state


def run_trumps(state, n, defender_cards):
    """A leads his top hearts n times; the defenders play the given cards (None = a seat not playing)."""
    tops = ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H"]
    for i in range(n):
        cards = [tops[i]] + [c for c in defender_cards[i] if c is not None]
        assert trick(state, *cards) == A


# A can lose every trick in no-trumps: his cards are the lowest of each suit.
BETTEL = [
    ["7S", "8S", "9S", "7D", "8D", "9D", "7C", "8C", "7H", "8H"],
    ["AS", "KS", "QS", "JS", "10S", "AD", "KD", "QD", "AC", "KC"],
    ["JD", "10D", "QC", "JC", "10C", "9C", "AH", "KH", "QH", "JH"],
]
# The same, but A's ten of spades can win the first trick if B plays under it.
BETTEL_LOST = [
    ["10S", "8S", "9S", "7D", "8D", "9D", "7C", "8C", "7H", "8H"],
    ["AS", "KS", "QS", "JS", "7S", "AD", "KD", "QD", "AC", "KC"],
    BETTEL[2],
]
BETTEL_TALON = ["10H", "9H"]


def six_hearts_played(state):
    """Play SIX_HEARTS out: A takes his six trumps, B the four others."""
    run_trumps(state, 6, [("8H", "7H"), ("AS", "9S"), ("KS", "8S"), ("QS", "10D"), ("AD", "9D"), ("KD", "8D")])
    for cards in (("7S", "JS", "10S"), ("QD", "JD", "7D"), ("AC", "QC", "7C"), ("KC", "JC", "8C")):
        trick(state, *cards)
    assert state.is_over() and state.play.tricks_won == [6, 4, 0]
