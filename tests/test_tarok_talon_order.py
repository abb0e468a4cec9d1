"""Slovenian tarok: the talon's order as dealt (`talon_place`), which OpenSpiel's ultimo reads when the called
king brings the talon left after the last trick (SLT-OS-07; the deals are in
games/tarok/scenarios/openspiel-ultimo-talon-order*.yaml), and the seating: forehand on the dealer's right, play
counter-clockwise (SLT-SEAT-02)."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.context import Ctx
from interpreter.present.explain import build
from interpreter.resources import games_dir
from tests.helpers import act

TAROK = games_dir() / "tarok"
HANDS = [
    ["T3", "T5", "T14", "T16", "T17", "4D", "1D", "9S", "CS", "QS", "KS", "CC"],
    ["T2", "T8", "T9", "T13", "T20", "SK", "3H", "2D", "JD", "KD", "7S", "JS"],
    ["T12", "T15", "T19", "T21", "2H", "3D", "QD", "9C", "10C", "JC", "QC", "KC"],
    ["T6", "T7", "T10", "T18", "1H", "CH", "QH", "CD", "8S", "10S", "7C", "8C"],
]


def _value(st, text: str):
    return st.R.compiler.text(text)(Ctx(st, None))


def _one_with_the_king_of_hearts(talon: list[str]):
    """Seat 1 plays one, calls the king of hearts (in the talon), takes it and discards JD."""
    st = new_game(load(str(TAROK / "tarok-openspiel.stw")), deal={"hands": HANDS, "talon": talon}, dealer=3)
    for text in ["bid two", "pass", "pass", "pass", "bid one", "call KH"]:
        act(st, text)
    act(st, f"take {talon.index('KH') + 1}")
    act(st, "discard JD")
    assert st.phase == "play"
    return st


@pytest.mark.rules("SLT-OS-05", "SLT-OS-07")
def test_talon_place_reads_the_talon_as_dealt_wherever_its_cards_went():
    st = _one_with_the_king_of_hearts(["T4", "KH", "T1", "T11", "JH", "4H"])
    assert [_value(st, f"talon_place({c})") for c in ["T4", "KH", "T1", "T11", "JH", "4H"]] == [1, 2, 3, 4, 5, 6]
    assert _value(st, "talon_place(T3)") == 0           # dealt to a hand
    assert _value(st, "talon_place(called_card)") == 2  # the king, taken into the hand: its place as dealt
    # the rule file's place in the talon left (from 0): the packet taken, before the pagat, is left out
    assert [_value(st, f"rest_place({c})") for c in ["T4", "T1", "T11", "JH", "4H"]] == [0, 1, 2, 3, 4]


@pytest.mark.rules("SLT-OS-07")
def test_talon_place_is_0_for_a_card_not_dealt_to_the_talon_and_for_none():
    talon = ["T1", "T4", "T11", "JH", "KH", "4H"]
    st = new_game(load(str(TAROK / "tarok-openspiel.stw")), deal={"hands": HANDS, "talon": talon}, dealer=3)
    assert _value(st, "called_card") is None
    assert _value(st, "talon_place(called_card)") == 0
    assert _value(st, "talon_place(SK)") == 0 and _value(st, "talon_place(4H)") == 6


@pytest.mark.rules("SLT-SEAT-02")
def test_forehand_sits_on_the_dealers_right_and_play_goes_counterclockwise():
    rs = load(str(TAROK / "tarok.stw"))
    for dealer in range(4):
        st = new_game(rs, deal={"hands": HANDS, "talon": ["T1", "T4", "T11", "JH", "KH", "4H"]}, dealer=dealer)
        forehand = (dealer + 1) % 4          # seats are numbered in the order of play: the next is on the right
        assert _value(st, "forehand") == forehand == _value(st, "next(dealer)")
        assert st.to_act == (forehand + 1) % 4      # the bidding begins on forehand's right (SLT-BID-02)
    booklet = build(rs)
    assert any("play goes counterclockwise" in str(block) for block in booklet.blocks)
