"""Issue 34, the silent mistakes: `explain` dropped a call's `doc`, a talon procedure's `doc` and a
contract's `trump_choices` (shown only as a list, and only without `trump`). The booklet of a small file
with all of them must equal its golden (tests/explain/cases/docs_and_choices.md; rewrite with
`pytest --update-goldens` after an intended change); Königrufen's `talon solo` doc is in its own golden."""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

from interpreter import cli

CASE = Path(__file__).resolve().parent / "explain" / "cases" / "docs_and_choices.stw"


def booklet(target: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["explain", target, "--format", "markdown"]) == 0
    return out.getvalue()


def test_docs_and_trump_choices_are_in_the_booklet(update_goldens):
    text = booklet(str(CASE))
    golden = CASE.with_suffix(".md")
    if update_goldens:
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")
    assert "- two: Two: the declarer takes the talon and names trumps among spades and hearts." in text
    assert "| swap | take 3 and discard 3. The three cards are taken up before trumps are named. |" in text
    assert "| choice of S, H |" in text
    assert "choice of the suits given by: if open_choice then [S, D, H] else [H]" in text


def test_a_talon_doc_of_a_built_in_game():
    assert "goes unseen to the defenders (KR-TAL-09, KR-CON-17, KR-CON-18, KR-CON-23, KR-AMB-08). All six cards" \
        in booklet("koenigrufen")
