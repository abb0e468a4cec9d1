"""The terminal table in words, through the play loop's own input: the `status` command (contract with
its trump, declarer, bidding, tricks, score), the trick's winner, the state shown again after
`--resume`, another seat's discard as a count, and the end of a deal in words with the rule file's
names, never Python's reprs."""
from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from interpreter import load
from interpreter.harness import logs
from interpreter.present.terminal import play


class Asks:
    """A player who types `status` at every question, then the first choice; `q` after `stop` choices."""

    def __init__(self, stop: int | None = None):
        self.calls, self.stop = 0, stop

    def readline(self, _size: int = -1) -> str:
        self.calls += 1
        if self.stop is not None and self.calls > 2 * self.stop:
            return "q\n"
        return "status\n" if self.calls % 2 else "1\n"


def _replayed(rs, save):
    """The deal of a save file played again by the engine alone."""
    rec = json.loads(save.read_text(encoding="utf-8").splitlines()[1])
    where = logs.Where(str(save), 2)
    state = logs.start(rs, rec, where)
    logs.play(state, logs.actions_of(rec, where), where)
    return state, rec


def _trump(doc, con, suit_names) -> str:
    return f"trumps: {doc['deck']['names']['en'][suit_names[con.trump]]}" if con.trump >= 0 else "no trumps"


def test_status_and_the_end_of_a_preference_deal_in_words(tmp_path):
    rs = load("wien")
    out, save = io.StringIO(), tmp_path / "deal.save"
    play(rs, {}, seat=0, seed=5, deals=1, inp=Asks(), out=out, save=str(save))
    text = out.getvalue()
    state, _ = _replayed(rs, save)
    assert state.is_over() and state.declarer is not None and state.con.trump >= 0
    doc, con, R = rs.doc, state.con, state.R
    title = doc["contract"][con.name]["title"]
    trump = _trump(doc, con, R.suit_names)
    lines = [" ".join(x.split()) for x in text.splitlines()]
    assert "bidding: none yet" in lines or any(x.startswith("bidding: seat") for x in lines)
    assert f"contract: {title} ({trump})" in lines                     # status once the contract is known
    assert any(x.startswith(f"declarer: seat {state.declarer}") for x in lines)
    tricks = state.result()["tricks"]
    verdict = "made" if state.made else "lost"
    assert f"{title} ({trump}), declarer seat {state.declarer}: {verdict}." in lines
    assert "Tricks: " + ", ".join(f"seat {s} {n}" for s, n in tricks.items()) + "." in lines
    assert sum(1 for x in lines if " takes the trick (" in x) == sum(tricks.values())
    assert "{0:" not in text and "None" not in text and "_" not in text


class Passes(Asks):
    """A player who passes wherever he may (else takes the first choice)."""

    def readline(self, _size: int = -1) -> str:
        self.calls += 1
        return "pass\n" if self.calls % 2 else "1\n"


def test_a_defender_hears_the_declarers_discard_as_a_count(tmp_path):
    rs = load("wien")
    out, save = io.StringIO(), tmp_path / "deal.save"
    play(rs, {}, seat=0, seed=3, deals=1, inp=Passes(), out=out, save=str(save))
    state, rec = _replayed(rs, save)
    discards = [(s, t) for s, t in rec["actions"] if t.startswith("discard ")]
    assert discards and all(s != 0 for s, _ in discards), "a bot declarer bought the talon"
    text = out.getvalue()
    for s, _ in discards:
        said = [x for x in text.splitlines() if f"seat {s}: discard" in x]
        assert said and all(x.endswith(f"seat {s}: discard (2 cards)") for x in said), said


@pytest.mark.rules("KR-DECK-11", "KR-SCORE-07")
def test_the_end_of_a_koenigrufen_deal_names_the_contract_partner_and_card_points(tmp_path):
    rs = load("koenigrufen")
    out, save = io.StringIO(), tmp_path / "deal.save"
    play(rs, {}, seat=3, seed=2, deals=1, inp=Asks(), out=out, save=str(save))
    flat = " ".join(out.getvalue().split())             # the console wraps long lines
    state, _ = _replayed(rs, save)
    partners = [s for s in state.declarers if s != state.declarer]
    assert partners, "a positive game with a called partner"
    title = rs.doc["contract"][state.con.name]["title"]
    verdict = "made" if state.made else "lost"
    assert f"{title} (trumps: taroks), declarer seat {state.declarer} with seat {partners[0]}: {verdict}." in flat
    points = flat.split("Card points: ")[1].split(".")[0] + "."
    sides = points.split("; declaring side ")[1].rstrip(".").split(", defenders ")
    a, b = (sum(Fraction(t) for t in side.split()) for side in sides)
    assert a + b == 70                                                  # the deck's 70 points, exact in thirds
    assert a == state.points(tuple(state.declarers))


def test_resume_shows_where_the_table_stands(tmp_path):
    rs = load("wien")
    save = tmp_path / "deal.save"
    play(rs, {}, seat=0, seed=3, deals=1, inp=Asks(stop=3), out=io.StringIO(), save=str(save))
    out = io.StringIO()
    play(rs, {}, resume=str(save), inp=Asks(stop=0), out=out)
    lines = out.getvalue().splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("resumed deal 1 after "))
    assert lines[at + 1].startswith("deal 1, dealer seat 0, you are seat 0")
    assert lines[at + 2].startswith("bidding: ") and any(x.startswith("tricks: seat 0 ") for x in lines[at:at + 6])
