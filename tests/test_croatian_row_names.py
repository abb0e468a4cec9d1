"""The Croatian base names every payment and session row (issue 34's silent mistakes), so that a variant can
edit one row by its name and `stichwort new --extends croatian` lists them. The results did not change:
tools/fingerprint.py gives the same lines for the whole family before and after (see the commit)."""
from __future__ import annotations

import pytest

from interpreter.engine import new_game
from interpreter.language.loader import load as load_document
from interpreter.pipeline import check, load

FAMILY = ["croatian", "serbian", "serbian-preferans", "slovenian", "slovenian-hidden"]


def _row_tables(doc: dict):
    yield "settle.pay", (doc.get("settle") or {}).get("pay") or []
    for part, rows in (doc.get("session") or {}).items():
        if isinstance(rows, list) and all(isinstance(r, dict) and "amount" in r for r in rows):
            yield f"session.{part}", rows


@pytest.mark.rules("CRO-SCORE-07", "CRO-SESS-12")
@pytest.mark.parametrize("game", FAMILY)
def test_every_row_of_the_family_has_a_unique_name(game):
    doc = load_document(game).doc
    for where, rows in _row_tables(doc):
        names = [r.get("name") for r in rows]
        assert all(names), f"{game}: a row of {where} has no name"
        assert len(set(names)) == len(names), f"{game}: two rows of {where} share a name"


@pytest.mark.rules("CRO-SCORE-07", "CRO-SCORE-08")
def test_a_variant_edits_one_row_by_its_name(tmp_path):
    variant = tmp_path / "double-declarer.stw"
    variant.write_text('extends "croatian"\ntitle = "x"\n'
                       "settle.pay[declarer_column].amount = 2 * declarer_entry\n", encoding="utf-8")
    report = check(str(variant))
    assert report.ok, [d.message for d in report.diagnostics]
    # the same deal under both files: only the declarer's column differs, by a factor of two
    deltas = []
    for target in ("croatian", str(variant)):
        st = new_game(load(target), seed=3)
        before = list(st.accounts["score"])
        while not st.is_over():
            st.apply(st.legal_actions()[0])
        declarer = st.result()["declarer"]
        assert declarer is not None          # seed 3 is a deal with a declarer
        deltas.append([x - y for x, y in zip(st.accounts["score"], before)])
    a, b = deltas
    assert b[declarer] == 2 * a[declarer] and b[declarer] != 0
    assert [x for s, x in enumerate(a) if s != declarer] == [x for s, x in enumerate(b) if s != declarer]
