"""Each bid of the Königrufen auction has its own words: the bei calls that join a piccolo and those that
join a bettler are spoken apart, so that with a piccolo and a bettler both open (KR-AUC-13, KR-AUC-15,
KR-AMB-05) the text of each legal bid names one bid, on the web table's buttons and at the terminal alike.
E314 checks this in every file, with or without a `words` section (tests/diagnostics/cases/
words_joining_calls_alike.stw)."""
from __future__ import annotations

import random

import pytest

from interpreter.engine import new_game
from interpreter.engine.text import parse
from interpreter.pipeline import load


def _auction(rs, seed: int = 1):
    st = new_game(rs, seed=seed)
    while st.phase != "auction":
        st.apply(st.legal_actions()[0])
    return st


@pytest.mark.rules("KR-AUC-13", "KR-AUC-15", "KR-AMB-05")
def test_with_a_piccolo_and_a_bettler_open_each_bei_has_its_own_words():
    st = _auction(load("koenigrufen"))
    st.apply(parse(st, "bid piccolo"))
    st.apply(parse(st, "bid bettler"))
    texts = [st.action_text(a) for a in st.legal_actions()]
    assert len(texts) == len(set(texts)), texts
    calls = st.R.call_by_name
    for text, call in (("bid piccolo bei", "piccolo_bei_p"), ("bid piccolo bei after bettler", "piccolo_bei_b"),
                       ("bid bettler bei", "bettler_bei_p"), ("bid bettler bei after bettler", "bettler_bei_b")):
        assert texts.count(text) == 1 and parse(st, text) == calls[call].action, (text, texts)


@pytest.mark.parametrize("game", ["koenigrufen", "koenigrufen-5"])
def test_no_two_legal_actions_share_a_text(game):
    rs = load(game)
    for seed in range(150):
        st = new_game(rs, seed=seed)
        rng = random.Random(seed)
        while not st.is_over() and st.phase in ("knock", "auction", "contract"):
            texts = [st.action_text(a) for a in st.legal_actions()]
            assert len(texts) == len(set(texts)), (seed, st.phase, texts)
            st.apply(rng.choice(st.legal_actions()))
