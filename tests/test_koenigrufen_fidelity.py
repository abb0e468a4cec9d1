"""Königrufen's `made` and the bid bird, as every reader sees them. A deal's `made` is one reading (the rule
file's goal, unless a declared valat decides it) that the result, the log, the tallies of `simulate` and
`compare`, the session (which the web table shows) and the terminal all read; a bid bird's declaration is the
declarer's own action, in the log, in a seat's view, in the web table's announcements and on the terminal.
The deals are those of the scenarios under games/koenigrufen/scenarios/, whose numbers are worked by hand."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from interpreter import load
from interpreter.harness.batch import made_or_none
from interpreter.harness.logs import deal_record
from interpreter.harness.scenario import load_yaml, run_file
from interpreter.resources import games_dir

RS = load("koenigrufen")
SCENARIOS = games_dir() / "koenigrufen" / "scenarios"
SEATS = ["A", "B", "C", "D"]


def _finished(name: str) -> list:
    """The finished states of a scenario file's deals, run by `stichwort test`'s runner."""
    states: list = []
    outcome = run_file(SCENARIOS / name, on_deal=lambda i, state, actual: states.append(state.clone()))
    assert outcome.ok, outcome.failures
    return states


def _record(name: str, deal: int = 0, upto: int | None = None) -> dict:
    """A deal of a scenario file as a save/log record: dealer, hands, talon and the first `upto` actions."""
    _, data, _ = load_yaml(SCENARIOS / name)
    d = data["deals"][deal]
    actions = [[SEATS.index(str(who)), str(text)] for step in d["actions"] for who, text in step.items()
               if str(who) in SEATS]
    return {"dealer": SEATS.index(str(data["dealer"])), "hands": [list(map(str, d["hands"][s])) for s in SEATS],
            "talon": list(map(str, d["talon"])), "actions": actions[:upto]}


@pytest.mark.rules("KR-SCORE-26", "KR-SCORE-28", "KR-AMB-16")
def test_a_declared_valat_decides_made_for_every_reader():
    lost, won = _finished("declared-valat-decides-the-game.yaml")
    from interpreter.engine.session import Session

    for state, made in ((lost, False), (won, True)):
        r = state.result()
        assert r["made"] is made
        assert made_or_none(state, r) is made                                   # simulate's and compare's tallies
        rec = deal_record(state, (state.dealt_hands, ()), "koenigrufen", {}, 1, 0)
        assert rec["result"]["made"] is made                                     # the log line
        sess = Session(RS, {}, dealer=state.dealer)
        sess.finish(state)
        assert sess.deals[-1]["made"] is made                                    # what the web table shows
    # the settlement reads the same `made`: the lost valat pays 8 × the loss, the beaten one 8 × the win
    assert lost.result()["payments"][0] == -7 and won.result()["payments"][1] == 87


@pytest.mark.rules("KR-SCORE-26")
def test_the_terminal_says_lost_for_a_lost_declared_valat(tmp_path):
    from interpreter.present.terminal import FORMAT, VERSION, play

    rec = _record("declared-valat-decides-the-game.yaml", 0, upto=-1)      # all but D's last card
    save = tmp_path / "valat.save"
    header = {"format": FORMAT, "version": VERSION, "rules": "koenigrufen", "options": {}, "seat": 3, "seed": 1,
              "bots": "rule", "deals": 1}
    save.write_text(json.dumps(header) + "\n" + json.dumps(rec) + "\n")
    out = io.StringIO()
    assert play(RS, {}, seat=3, resume=str(save), inp=io.StringIO("play QH\n"), out=out) == 0
    text = " ".join(out.getvalue().split())              # the deal's end in words, the rule file's names
    assert "Rufer (trumps: taroks), declarer seat 0 with seat 1: lost." in text, text
    assert "Valat: declaring side, declared, lost." in text


# ---- the bid bird: the declarer's own statement -----------------------------------------------------------

def _to_the_round():
    """Deal (a) of KR-EX-03 up to the declaration round: A (seat 0) has bid pagatrufer and bought his half."""
    rec = _record("ex-03-kontra-per-item.yaml", 0)
    texts = [t for _, t in rec["actions"]]
    rec["actions"] = rec["actions"][:texts.index("declare pagat_ultimo")]
    return rec


@pytest.mark.rules("KR-CON-19", "KR-CON-21", "KR-CON-03")
def test_the_bid_bird_is_in_the_log_and_the_view_as_the_declarers_own():
    (state, *_) = _finished("ex-03-kontra-per-item.yaml")
    actions = deal_record(state, (state.dealt_hands, ()), "koenigrufen", {}, 1, 0)["actions"]
    i = actions.index([0, "declare pagat_ultimo"])
    assert actions[i - 1][1].startswith("discard") and actions[i + 1] == [0, "I am ready"]
    for seat in range(4):
        assert state.observation(seat)["declared"] == {"pagat_ultimo": 0}


@pytest.mark.rules("KR-CON-19")
def test_the_bid_bird_is_announced_at_the_web_table():
    pytest.importorskip("starlette", reason="the web table needs the [web] extra")
    from interpreter.web.table import Game, Table
    from interpreter.web.views import view

    table = Table(Game("koenigrufen", RS), ["rule", "person", "person", "person"], records=[_to_the_round()])
    assert table.to_act() == 0 and table.bot_step()
    event = view(table, 2)["events"][-1]
    assert (event["seat"], event["text"], event["announce"]) == (0, "declare pagat_ultimo", True)
    assert view(table, 2)["more"]["declared"] == {"pagat_ultimo": 0}


@pytest.mark.rules("KR-CON-19")
def test_the_bid_bird_is_announced_on_the_terminal(tmp_path: Path):
    from interpreter.present.terminal import FORMAT, VERSION, play

    save = tmp_path / "bird.save"
    header = {"format": FORMAT, "version": VERSION, "rules": "koenigrufen", "options": {}, "seat": 1, "seed": 1,
              "bots": "rule", "deals": 1}
    save.write_text(json.dumps(header) + "\n" + json.dumps(_to_the_round()) + "\n")
    out = io.StringIO()
    assert play(RS, {}, seat=1, resume=str(save), inp=io.StringIO(""), out=out) == 0
    text = out.getvalue()
    assert "seat 0: declare Pagat ultimo" in text and "declared: Pagat ultimo (seat 0)" in text, text   # its title
    assert text.index("seat 0: declare Pagat ultimo") < text.index("seat 0: I am ready")
