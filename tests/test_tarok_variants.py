"""Slovenian tarok's table variants (games/tarok/): announcements and kontra (tarok-announce.stw, SLT-VAR-01) and
radli (table option radli, SLT-SCORE-06). The scores are worked by hand in games/tarok/scenarios/radli.yaml and
announcements-kontra.yaml; here the round itself: who may say what, and that the base game has no such round."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.bots import make_bot
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.resources import games_dir

TAROK = games_dir() / "tarok"


def _deals(name: str, count: int, options: dict | None = None):
    R = compile_rules(load(str(TAROK / name)), options or {})
    for i in range(count):
        hands, talon = deal_cards(R, random.Random(i), 3, i)
        yield State(R, 3, hands, talon), [make_bot("rule", f"{i}:{s}") for s in range(R.n_seats)]


def _words(st: State) -> set[str]:
    return {st.action_text(a).split()[0] for a in st.legal_actions()}


@pytest.mark.rules("SLT-VAR-01", "SLT-AMB-04")
def test_the_declaring_side_announces_and_the_opponents_may_only_double_or_pass():
    rounds = 0
    for st, bots in _deals("tarok-announce.stw", 12):
        while not st.is_over():
            if st.phase == "announce":
                words = _words(st)
                if st.current_player() in st.declarers:
                    assert "declare" in words and "kontra" not in words
                else:
                    assert "declare" not in words and words <= {"kontra", "rekontra", "subkontra", "mordkontra", "pass", "done"}
                    assert "kontra" in words            # the game at least may be doubled
                rounds += 1
            st.apply(bots[st.current_player()].choose(st))
    assert rounds >= 12 * 3


def _finish(base: State, announce: bool) -> tuple[int, State]:
    """The deal from the announcement round on: the declarer announces pagat ultimo or not, everyone else
    passes, and every seat plays the first card it may, the pagat last; (the declarer's score, the state at the end)."""
    st = base.clone()

    def say(*words: str) -> None:
        texts = {st.action_text(a): a for a in st.legal_actions()}
        st.apply(next(texts[w] for w in words if w in texts))
    if announce:
        say("declare pagat_ultimo")
    say("ready")
    while st.phase == "announce":
        say("pass", "done")
    while not st.is_over():             # the pagat kept back as long as it may be, as its announcement keeps it
        legal = st.legal_actions()
        st.apply(next((a for a in legal if st.action_text(a) != "play T1"), legal[0]))
    return st.accounts["score"][st.declarer], st


@pytest.mark.rules("SLT-VAR-01", "SLT-SCORE-02")
def test_an_announced_pagat_ultimo_counts_double_won_or_lost():
    """The same deal with the pagat ultimo announced or not, played the same way: made, the announced bonus is
    50 where the silent one was 25; failed, it costs 50 where the silent pagat cost 25 (lost in the last trick)
    or nothing (played earlier)."""
    R = compile_rules(load(str(TAROK / "tarok-announce.stw")))
    pagat = R.rs.card_index["T1"]
    checked = set()
    for i in range(60):
        hands, talon = deal_cards(R, random.Random(i), 3, i)
        base = State(R, 3, hands, talon)
        bots = [make_bot("rule", f"{i}:{s}") for s in range(4)]
        while base.phase != "announce" and not base.is_over():
            base.apply(bots[base.current_player()].choose(base))
        if base.is_over() or base.con.name not in ("three", "two", "one") or not base.hands[base.declarer] >> pagat & 1:
            continue
        (with_, a), (without, b) = _finish(base, True), _finish(base, False)
        if a.play.history != b.play.history:          # the announced pagat was kept back: another play
            continue
        cards, winner = a.play.history[-1]
        last = dict(cards)
        won = last.get(winner) == pagat and winner in a.declarers
        in_last = pagat in last.values()
        silent = (25 if won else -25) if in_last else 0
        assert with_ - without == (50 if won else -50) - silent
        checked.add(won)
    assert checked == {True, False}, checked        # made in some deals, failed in others


@pytest.mark.rules("SLT-SCORE-06")
def test_radli_are_off_by_default_and_the_base_game_has_no_announcement_round():
    for options in ({}, {"radli": False}):
        for st, bots in _deals("tarok.stw", 6, options):
            while not st.is_over():
                assert st.phase != "announce"
                st.apply(bots[st.current_player()].choose(st))
            assert not any(st.result().get("accounts", {}).get("radli", {}).values())


@pytest.mark.parametrize(("figure", "word"), [("kings", "group"), ("valat", "contract")])
def test_a_figure_named_like_a_group_or_a_contract_is_refused(tmp_path, figure: str, word: str):
    """In an expression the name would read as the group or the contract, so the figure could never be named
    (tarok-announce.stw names its figures all_kings, all_trula and all_tricks for this reason)."""
    from interpreter.diagnostics import DiagnosticError

    path = tmp_path / "bad.stw"
    path.write_text(f'extends "{(TAROK / "tarok-announce.stw").resolve()}"\n'
                    f'table figure {{\n  | figure | title | silent | declared | goal |\n'
                    f'  | {figure} | "X" | 10 | 20 | tricks(side) > 0 |\n}}\n'
                    f'contract three {{ figures = [{figure}] }}\n', encoding="utf-8")
    with pytest.raises(DiagnosticError) as err:
        load(str(path))
    assert "E411" in [d.code for d in err.value.diagnostics] and f"the {word} '{figure}'" in str(err.value)
