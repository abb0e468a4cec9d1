"""A figure's card by expression: Königrufen's kung ultimo is made with the called king
(`card = called_card`), so a declared kung ultimo keeps that king back for the last trick unless
following suit forces it out, as a declared bird does. The engine plays real deals here."""
from __future__ import annotations

import pytest

from interpreter import load, pipeline
from interpreter.bots.rule import RuleBot
from interpreter.engine import new_game
from interpreter.engine.figures import card_of


def _declare_kung_ultimo(rs, seeds=range(400)):
    """A deal in its declaration round where the seat to act holds the called king and may declare
    kung ultimo: the state after it has declared it and said it is ready."""
    for seed in seeds:
        st = new_game(rs, seed=seed)
        bots = [RuleBot(f"{seed}:{s}") for s in range(st.n)]
        while not st.is_over() and st.phase != "announce":
            st.apply(bots[st.current_player()].choose(st))
        if st.is_over() or st.called_card is None:
            continue
        texts = {st.action_text(a): a for a in st.legal_actions()}
        if "declare kung_ultimo" in texts:
            me = st.current_player()
            st.apply(texts["declare kung_ultimo"])
            return seed, me, st, bots
    raise AssertionError("no deal in which kung ultimo could be declared")


def _play_out(st, me, bots):
    """Play to the end; for each of `me`'s turns before the last trick with the king in hand: (legal
    cards, whether the king was among them)."""
    king = st.called_card
    turns = []
    while not st.is_over():
        seat = st.current_player()
        legal = st.legal_actions()
        if st.phase == "play" and seat == me and st.hands[me] >> king & 1 and bin(st.hands[me]).count("1") > 1:
            texts = [st.action_text(a) for a in legal]
            turns.append((texts, f"play {st.R.codes[king]}" in texts))
        st.apply(bots[seat].choose(st))
    return turns


@pytest.mark.rules("KR-ANN-08", "KR-SCORE-43", "KR-AMB-10")
def test_a_declared_kung_ultimo_keeps_the_called_king_for_the_last_trick():
    rs = load("koenigrufen")
    assert pipeline.check("koenigrufen").ok
    _seed, me, st, bots = _declare_kung_ultimo(rs)
    fig = st.R.figures["kung_ultimo"]
    assert fig.card == -1 and card_of(st, fig) == st.called_card      # the card is worked out in the deal
    turns = _play_out(st, me, bots)
    assert turns
    for texts, king_legal in turns:
        if king_legal:                                  # only when following suit leaves nothing else
            assert len(texts) == 1, texts
    assert any(not king_legal and texts for texts, king_legal in turns)


@pytest.mark.rules("KR-ANN-08")
def test_without_the_card_the_king_is_not_held_back(tmp_path):
    variant = tmp_path / "no-card.stw"
    variant.write_text('extends "koenigrufen"\nremove figure.kung_ultimo.card\n')
    assert pipeline.check(str(variant)).ok
    rs = load(str(variant))
    _seed, me, st, bots = _declare_kung_ultimo(rs)
    turns = _play_out(st, me, bots)
    # the same deal as above: now the king may go with other cards before the last trick
    assert any(king_legal and len(texts) > 1 for texts, king_legal in turns)


def test_a_figure_card_expression_must_give_a_card(tmp_path, capsys):
    from interpreter.cli import main

    bad = tmp_path / "bad.stw"
    bad.write_text('extends "koenigrufen"\nfigure kung_ultimo { card = tricks_total }\n')
    assert main(["validate", str(bad)]) == 1
    assert "E402 figure.card must give a card" in capsys.readouterr().out
