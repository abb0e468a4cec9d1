"""The payee form "each other player" (`to = others` / `from = others`, issue 10 item 3): one payment row
that pays, or collects from, every other active seat; both engines agree; a wrong use is located."""
from __future__ import annotations

import contextlib
import io

import pytest

from interpreter import cli
from interpreter.engine import new_game
from interpreter.pipeline import load

ROWS = """extends "wien"
settle {
  pay = table {
    | when     | from     | to       | amount    | note |
    | made     | declarer | others   | stake     | "the declarer pays each other player" |
    | made     | others   | declarer | 1         | "each other player pays the declarer" |
    | not made | others   | pot      | 2         | "each other player pays the pot" |
  }
}
"""

THREE_ROWS = """extends "wien"
settle {
  pay = table {
    | when     | from     | to               | amount | note |
    | made     | declarer | next(declarer)   | stake  | "a" |
    | made     | declarer | prev(declarer)   | stake  | "b" |
  }
}
"""


def finished(path, seed, monkeypatch, engine):
    monkeypatch.setenv("STICHWORT_ENGINE", engine)
    st = new_game(load(str(path)), seed=seed)
    while not st.is_over():
        legal = st.legal_actions()
        st.apply(legal[0] if st.phase == "auction" else legal[-1])
    return st


@pytest.mark.parametrize("engine", ["generated", "interpreter"])
def test_one_row_pays_every_other_seat(tmp_path, monkeypatch, engine):
    one, three = tmp_path / "one.stw", tmp_path / "three.stw"
    one.write_text(ROWS, encoding="utf-8")
    three.write_text(THREE_ROWS, encoding="utf-8")
    seen_made = seen_lost = False
    for seed in range(8):
        st = finished(one, seed, monkeypatch, engine)
        d = st.declarer
        others = [t for t in st.active if t != d]
        pays = [(src, dst, amount) for src, dst, amount, _ in st.payments]
        if st.result()["made"]:
            seen_made = True
            assert [(d, t, 10) for t in others] == pays[:2]          # the declarer pays each other player
            assert [(t, d, 1) for t in others] == pays[2:]          # each other player pays him
            assert all(type(a) is int for _, _, a in pays)
            # the same as the two rows spelled seat by seat
            old = finished(three, seed, monkeypatch, engine)
            assert sorted(p[:3] for p in old.payments) == sorted(pays[:2])
        else:
            seen_lost = True
            assert [(t, ("pot",), 2) for t in st.active] == pays   # the pot is no seat: every seat pays
    assert seen_made and seen_lost


def test_wrong_uses_are_located(tmp_path):
    bad = tmp_path / "bad.stw"
    bad.write_text('extends "wien"\nsettle {\n  pay = table {\n    | when | from   | to     | amount |\n'
                   '    | made | others | others | 1      |\n    | made | -      | others | 1      |\n  }\n}\n', encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main(["validate", str(bad)])
    text = out.getvalue()
    assert code == 1
    assert "bad.stw:5:14: E402 a payment row cannot spread both `from` and `to` over the other players" in text
    assert "bad.stw:6:23: E402 `to = others` needs the row's other party" in text


def test_explain_says_each_other_player(tmp_path):
    one = tmp_path / "one.stw"
    one.write_text(ROWS, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["explain", str(one), "--format", "markdown"]) == 0
    assert "| made |  | declarer | each other player | stake |" in out.getvalue()
