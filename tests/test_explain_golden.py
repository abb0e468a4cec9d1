"""Golden tests of `stichwort explain`: the Markdown booklet of every built-in playable game must equal
tests/explain/NAME.md. Rewrite them after an intended change with `pytest --update-goldens` (or
STICHWORT_UPDATE_GOLDENS=1) and review the diff. Also checks the wording fixes of issue 10 on the real
booklets: no "when no"/"when: no", no `not (x)` around a single name, brackets kept where `and` and
`or` mix, the equal-rank note only where two calls share a rank, and the table's words used."""
from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from interpreter import cli, pipeline
from interpreter.resources import builtin_games

GOLDEN_DIR = Path(__file__).resolve().parent / "explain"
# The built-in games playable end to end, Königrufen and Priffe included (their base files; the variants
# differ in a few rows, which `stichwort diff` shows).
GOLDEN = ["croatian", "koenigrufen", "oh-hell", "priffe", "serbian", "serbian-preferans", "simple", "simple-4",
          "slovenian", "slovenian-hidden", "wien", "wien-4", "wien-five-six", "wien-hearts", "wien-trumpf",
          "skat", "schafkopf", "euchre", "bridge"]
EVERY = sorted(builtin_games())


def booklet(name: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["explain", name, "--format", "markdown"])
    return code, out.getvalue()


def test_golden_games_are_playable_built_ins():
    for name in GOLDEN:
        assert name in EVERY and pipeline.check(name).ok, name


@pytest.mark.parametrize("name", GOLDEN)
def test_explain_matches_golden(name: str, update_goldens):
    code, text = booklet(name)
    assert code == 0, text
    golden = GOLDEN_DIR / f"{name}.md"
    if update_goldens:
        golden.write_text(text, encoding="utf-8")
        return
    assert golden.is_file(), f"no golden for {name}: run pytest --update-goldens"
    assert text == golden.read_text(encoding="utf-8")


def test_no_stale_goldens():
    assert {p.stem for p in GOLDEN_DIR.glob("*.md")} == set(GOLDEN)


@pytest.mark.parametrize("name", EVERY)
def test_wording(name: str):
    _, text = booklet(name)
    assert not re.search(r"when:? (no|yes)\b", text), re.search(r".*when:? (no|yes)\b.*", text)
    assert "not (made)" not in text and "not (no_quota)" not in text


def test_wording_in_particular():
    wien = booklet("wien")[1]
    # the hold rule keeps its brackets: (A and B) or (C and D)
    assert "Hold right ('hold'): (me == forehand and first_call(forehand) != pass) or (me == hold_heir" in wien
    assert "| not made and contract.category != ausfechten |" in wien
    assert "'go along' is compulsory when pot == stake" in wien
    assert "| five without purchase |" in wien                       # the call's word from `words`
    assert "Calls of equal rank are equivalent" in wien              # hearts and five share rank 8
    simple = booklet("simple")[1]
    assert "'go along' is always voluntary" in simple                 # compulsory = false
    assert "Calls of equal rank" not in simple                        # every call has its own rank
    croatian = booklet("croatian")[1]
    assert "Hold right ('same')" in croatian and "'play' or 'drop out'" in croatian
    assert "not spoke(me)" in croatian and "not (spoke(me))" not in croatian


def test_number_bids_and_the_hand_by_deal_in_words():
    text = booklet("oh-hell")[1]
    # the hand of each deal by its expression, the largest deal the packets give, the turned-up card
    assert "Cards in each hand, deal by deal: top - abs(round - (top - 1)) (at most 13)" in text
    assert "The largest deal gives each player 13 cards and the talon 0." in text
    assert "Each player holds 13 cards" not in text
    assert "Its first card is turned face up for everyone to see." in text
    # the number bids: who states first, the range, the hook, the contract and its trump
    assert "## Number bids" in text
    assert "forehand states first, then each player in turn: one number from 0 to tricks_total." in text
    assert "The last to state may not say tricks_total - number_bid_total." in text
    assert "Then Round is played, trumps being suit_of(turned_up)" in text
    wien = booklet("wien")[1]
    assert "## Number bids" not in wien and "deal by deal" not in wien
    assert "Each player holds 10 cards; the talon holds 2." in wien


def test_the_payee_others_in_words():
    text = booklet("koenigrufen")[1]
    assert "| no_jungfrau | losers | s | each other player | trischaken_rate(s) |" in text
