"""A deal in two parts (`deal.pause` and the phase `deal_rest`, engine/phases/deal_rest.py), as Schafkopf's
knocking uses it (schafkopf-klopfen.stw, SCHAF-VAR-04): the decisions before `deal_rest` are taken on the first
packets only, on both backends; a knock doubles the value; misuse is refused at validate. The payment of a
knocked deal is worked by hand in games/schafkopf/scenarios/var-04-klopfen.yaml."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.bots import make_bot
from interpreter.diagnostics import DiagnosticError
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.resources import games_dir

KLOPFEN = games_dir() / "schafkopf" / "schafkopf-klopfen.stw"
SCHAFKOPF = games_dir() / "schafkopf" / "schafkopf.stw"


def _start(seed: int) -> State:
    R = compile_rules(load(str(KLOPFEN)))
    hands, talon = deal_cards(R, random.Random(seed), 3, seed)
    return State(R, 3, hands, talon)


def _say(st: State, text: str) -> None:
    st.apply(next(a for a in st.legal_actions() if st.action_text(a) == text))


@pytest.mark.usefixtures("engine")
@pytest.mark.rules("SCHAF-VAR-04", "SCHAF-AMB-08", "SCHAF-DEAL-01")
def test_each_player_knocks_having_seen_only_his_first_four_cards():
    lowest = 0
    for seed in range(20):
        st = _start(seed)
        for k in range(4):
            me = st.current_player()
            assert st.phase == f"knock_{k + 1}" and me == (st.dealer + 1 + k) % 4      # in turn from forehand
            hand = st.hands[me]
            assert hand.bit_count() == 4 and hand & st.dealt_hands[me] == hand
            assert st.observation(me)["hand"] == st.R.rs.codes(hand)
            assert all(h.bit_count() == 4 for h in st.hands)
            lowest += hand == sum(sorted(1 << c for c in range(32) if st.dealt_hands[me] >> c & 1)[:4])
            _say(st, "weiter")
        assert st.phase == "auction" and list(st.hands) == list(st.dealt_hands)    # the second four dealt
    assert lowest < 20        # the first packet is drawn from the deal, not the lowest cards of the hand


def test_the_first_packets_are_the_same_in_every_replay_of_a_deal():
    a, b = _start(5), _start(5)
    assert a.hands == b.hands and a.held == b.held and a.held != ()
    assert a.clone().held == a.held


@pytest.mark.usefixtures("engine")
@pytest.mark.rules("SCHAF-VAR-04", "SCHAF-SCORE-12")
def test_every_knock_doubles_the_value_of_the_game_played():
    """The same deal played the same way after 0 to 4 knocks: the payments double with each knock; with none they
    are the plain game's (schafkopf.stw on the same cards)."""
    played = 0
    for seed in range(30):
        first = _start(seed)
        for _ in range(4):
            _say(first, "weiter")
        bots = [make_bot("rule", f"{seed}:{s}") for s in range(4)]
        while not first.is_over():
            first.apply(bots[first.current_player()].choose(first))
        base = first.result()["payments"]
        if not any(base.values()):
            continue                   # thrown in: nothing to double
        rest = [first.action_text(a) for _, a in first.log[4:]]
        plain = State(compile_rules(load(str(SCHAFKOPF))), 3, list(first.dealt_hands), [])
        for text in rest:
            _say(plain, text)
        assert plain.result()["payments"] == base
        for knocks in range(1, 5):
            st = _start(seed)
            for k in range(4):
                _say(st, "klopfen" if k < knocks else "weiter")
            for text in rest:
                _say(st, text)
            assert st.result()["payments"] == {s: v * 2 ** knocks for s, v in base.items()}
        played += 1
    assert played >= 5


@pytest.mark.parametrize(("edit", "code", "words"), [
    ("deal { pause = fourth }", "E301", "no packet"),
    ("deal { pause = second }", "E303", "hold nothing back"),
    ("procedure = [knock_1, knock_2, knock_3, knock_4, auction, contract, partner, kontra, play, settle]", "E306", "never deals the rest"),
    ("procedure = [knock_1, knock_2, knock_3, knock_4, auction, contract, partner, kontra, play, deal_rest, settle]", "E308", "before the rest"),
])
def test_a_pause_that_cannot_work_is_refused_at_validate(tmp_path: Path, edit: str, code: str, words: str):
    path = tmp_path / "bad.stw"
    path.write_text(f'extends "{KLOPFEN.resolve()}"\n{edit}\n', encoding="utf-8")
    with pytest.raises(DiagnosticError) as err:
        load(str(path))
    assert code in [d.code for d in err.value.diagnostics] and words in str(err.value)


def test_deal_rest_without_a_pause_is_refused(tmp_path: Path):
    path = tmp_path / "bad.stw"
    path.write_text(f'extends "{SCHAFKOPF.resolve()}"\nprocedure = [deal_rest, auction, contract, partner, kontra, play, settle]\n',
                    encoding="utf-8")
    with pytest.raises(DiagnosticError) as err:
        load(str(path))
    assert [d.code for d in err.value.diagnostics] == ["E306"] and "no pause" in str(err.value)


def test_the_booklet_says_where_the_deal_pauses(capsys):
    from interpreter.cli import main

    assert main(["explain", str(KLOPFEN)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "The deal pauses after the packet 'first'" in text and "knock_4 → deal_rest → auction" in text
