"""Shared deal and helpers of the Königrufen engine tests (test_koenigrufen_play.py,
test_koenigrufen_play_tricks.py): the rule set, a game from explicit hands (dealer seat 0, so forehand is
seat 1 and the order of play is 1, 2, 3, 0), actions as text checked against the seat to act, bids and
contract choices by name, and the short auction where forehand bids alone."""
from __future__ import annotations

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.phases.announce import end_of_turn
from interpreter.engine.text import parse

RS = load("koenigrufen")

# a deal where forehand (1) is strong in taroks; seat 2 holds the king of hearts
DEAL_A = {
    1: "SK T21 T20 T19 T18 T17 T16 KS KC 7S 8C 9C",
    2: "KH QH CH JH 1H 2H T1 T2 T3 T4 T5 7C",
    3: "KD QD CD JD 1D 2D 3D T6 T7 T8 T9 10C",
    0: "QS CS JS 10S 9S 8S QC CC JC T10 T11 T12",
    "talon": "4D 3H 4H T13 T14 T15",
}


def game(deal: dict, rs=RS, dealer: int = 0):
    seats = rs.seats
    hands = [deal.get(s, "").split() for s in range(seats)]
    return new_game(rs, deal={"hands": hands, "talon": deal["talon"].split()}, dealer=dealer)


def act(st, seat: int, *texts: str) -> None:
    for text in texts:
        assert st.current_player() == seat, (st.phase, st.current_player(), seat, text)
        st.apply(parse(st, text))


def bids(st) -> set[str]:
    """The calls the seat to act may make, by name."""
    return {st.R.calls[A.arg_of(a)].name for a in st.legal_actions() if A.kind_of(a) == A.BID}


def bid(st, seat: int, call: str) -> None:
    assert st.current_player() == seat
    st.apply(st.R.call_by_name[call].action)


def choose_contract(st, seat: int, name: str) -> None:
    assert st.current_player() == seat
    st.apply(A.make(A.DECLARE, st.R.contract_index[name]))


def contract_choices(st) -> set[str]:
    return {st.R.contract_names[A.arg_of(a)] for a in st.legal_actions() if A.kind_of(a) == A.DECLARE}


def legal_texts(st) -> list[str]:
    return [st.action_text(a) for a in st.legal_actions()]


def cards(st, seat: int) -> set[str]:
    return set(st.R.rs.codes(st.hands[seat]))


def quiet_round(st) -> None:
    """The declaration round with nothing declared: every turn ends at once."""
    while st.phase == "announce":
        st.apply(end_of_turn(st))


def bid_alone(st, call: str) -> None:
    """The knock is declined, forehand bids `call`, the others pass."""
    act(st, 3, "cut")
    bid(st, 1, call)
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
