"""Issue 34, the silent mistakes: `words { kontra = … }` was refused (E301) with a card-code-like call as
the suggestion ("did you mean 'k7NT'?"), and the author had no right answer: the words of a kontra chain
are the names of its levels. Now each level is a word key: the table says the word given (`kontra =
"double"`), in a kontra phase and in a declaration round alike, and the level's name stays accepted as
typed. The diagnostics are goldens (tests/diagnostics/cases/words_kontra_*.stw). Run with both engines."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.text import parse
from tests.helpers import legal_texts

BASE = Path(__file__).resolve().parent / "diagnostics" / "cases" / "helpers" / "kontra_base.stw"


pytestmark = pytest.mark.usefixtures("engine")     # every test under both backends (tests/conftest.py)


def variant(tmp_path: Path, base: str, body: str):
    path = tmp_path / "words.stw"
    path.write_text(f'extends "{base}"\n{body}\n', encoding="utf-8")
    return load(str(path))


def until(st, phase: str, rng: random.Random):
    while st.phase != phase and not st.is_over():
        st.apply(rng.choice(st.legal_actions()))
    return st


def test_the_kontra_levels_are_said_in_the_words_given(tmp_path):
    rs = variant(tmp_path, BASE.as_posix(), 'words { kontra = "double"  rekontra = "redouble" }')
    for seed in range(20):
        st = until(new_game(rs, seed=seed), "kontra", random.Random(seed))
        if st.phase == "kontra":
            break
    assert legal_texts(st) == {"double", "pass"}
    st.apply(parse(st, "kontra"))                     # the level's name is still understood
    assert legal_texts(st) == {"redouble", "pass"}
    st.apply(parse(st, "redouble"))
    assert [st.action_text(a) for _, a in st.log[-2:]] == ["double", "redouble"]


def test_without_words_the_levels_are_their_names(tmp_path):
    rs = load(str(BASE))
    for seed in range(20):
        st = until(new_game(rs, seed=seed), "kontra", random.Random(seed))
        if st.phase == "kontra":
            break
    assert legal_texts(st) == {"kontra", "pass"}


def test_a_declaration_rounds_levels_take_the_words_too(tmp_path):
    rs = variant(tmp_path, "koenigrufen", 'words { kontra = "contra" }')
    seen = set()
    for seed in range(30):
        st = until(new_game(rs, seed=seed), "announce", random.Random(seed))
        while st.phase == "announce":
            texts = legal_texts(st)
            seen |= {t.split()[0] for t in texts}
            st.apply(random.Random(seed).choice(st.legal_actions()))
        if "contra" in seen:
            break
    assert "contra" in seen and "kontra" not in seen
    assert "rekontra" in load("koenigrufen").doc["announce"]["kontra"]["levels"]
