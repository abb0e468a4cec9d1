"""The talon's cards a player took up are named while the exchange goes on, never in the play (the
terminal said "from the talon into your hand: 9♣ A♣" before every card of a skat deal, and listed a
card the player had laid away or played as if it were still in the hand)."""
from __future__ import annotations

import io

import pytest

from interpreter import load
from interpreter.present.terminal import play


def _shown(game: str, seed: int, seat: int = 0) -> str:
    out = io.StringIO()
    assert play(load(game), {}, seat=seat, seed=seed, inp=io.StringIO("1\n" * 300), out=out) == 0
    return out.getvalue()


def _talon_lines(text: str) -> list[tuple[int, list[str], list[str]]]:
    """(line number, the cards of the talon line, the cards of the hand line that follows it)."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if "from the talon" in line and "your hand" in line:
            hand = next(h for h in lines[i + 1:] if h.startswith("your hand: "))
            out.append((i, line.split(": ")[-1].split(), hand.split(": ", 1)[1].split()))
    return out


@pytest.mark.rules("SKAT-CON-03", "EUC-BID-02")
@pytest.mark.parametrize(("game", "seed"), [("skat", 3), ("euchre", 2)])
def test_the_talon_line_is_shown_in_the_exchange_and_not_in_the_play(game, seed):
    """Skat seed 3: the human at seat 0 picks up the skat (9♣ A♣) and lays away two other cards;
    euchre seed 2: the human deals and the turned-up Q♥ is ordered up into his hand. The line names
    those cards while he discards, and no line after the first trick's lead mentions the talon."""
    text = _shown(game, seed)
    talon = _talon_lines(text)
    assert talon, "the exchange shows no talon line"
    first_trick = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("on the table: ")))
    assert all(i < first_trick for i, _, _ in talon), [i for i, _, _ in talon]
    for _, cards, hand in talon:
        assert set(cards) <= set(hand)


@pytest.mark.rules("EUC-BID-02")
def test_the_web_table_names_the_talon_cards_in_hand_only_before_the_play():
    """Euchre seed 2, the person deals: the ordered-up Q♥ is named for the exchange (`talon_in_hand`),
    and in the play only the card marks remain (`from_talon`), not the line."""
    pytest.importorskip("starlette", reason="the web table needs the [web] extra")
    from interpreter.web import load_games
    from interpreter.web.hub import Hub
    from interpreter.web.views import view

    table = Hub(load_games(["euchre"]), delay=0).open("euchre", ["person", "rule", "rule", "rule"], seed=2)
    seen = []
    while not table.state.is_over():
        v = view(table, 0)
        seen.append((v["phase"], v.get("talon_in_hand"), v.get("from_talon")))
        table.bot_step() or table.act(0, v["legal"][0], table.version)
    exchange = [t for phase, t, _ in seen if phase != "play" and t]
    assert exchange and all(t == ["QH"] for t in exchange), seen
    assert all(t is None for phase, t, _ in seen if phase == "play")
    assert any(marks == ["QH"] for phase, _, marks in seen if phase == "play")
