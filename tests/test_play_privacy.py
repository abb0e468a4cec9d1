"""`play` shows the player only what the player's seat may see (issue 37, security 6): a bot
declarer's discards are laid away face down, so the terminal says how many cards, never which."""
from __future__ import annotations

import io
import json
import re

import pytest

from interpreter import load
from interpreter.present.terminal import play


@pytest.mark.rules("WIEN-TAL-02")
def test_a_bot_declarers_discards_are_not_shown_to_the_human_defender(tmp_path):
    """Seed 3: the human at seat 0 passes; the rule bot at seat 1 declares, takes the talon and lays
    away 8C 9H (the save file, which is the player's own record of the deal, has them). The terminal
    said "seat 1: discard 8C 9H"; it now says "seat 1: discard (2 cards)", and neither card is named
    anywhere in what the player was shown."""
    save = tmp_path / "deal.save"
    out = io.StringIO()
    assert play(load("wien"), {}, seat=0, seed=3, inp=io.StringIO("pass\n" + "1\n" * 300), out=out, save=str(save)) == 0
    deal = json.loads(save.read_text().splitlines()[1])
    (who, text), = [(s, t) for s, t in deal["actions"] if t.startswith("discard ")]
    laid = text.split()[1:]
    assert (who, laid) == (1, ["8C", "9H"])
    shown = out.getvalue()
    assert re.findall(r"seat 1: discard([^\n]*)", shown) == [" (2 cards)"]     # in whatever notation cards are shown
    assert not set(re.findall(r"[0-9A-Z]+", shown)) & set(laid), "the player was shown a bot's discard"
