"""A payment row's note as a player reads it: the rule file may end a note with the catalog ids it cites
("the game (KR-SCORE-09, KR-SCORE-10)"), which are for the booklet, not for the table. The web table,
the terminal and a scenario's `rows` all name a row by this text."""
from __future__ import annotations

import re

# a parenthesis of catalog rule ids at the end of a note ("(KR-SCORE-09, KR-SCORE-10)")
RULE_IDS = re.compile(r"\s*\((?:[A-Z]+(?:-[A-Z]+)+-\d+(?:\.\.|–|-)?\d*[a-z]?(?:\s*\([a-z]\))?[,;]?\s*)+\)\s*$")


def readable(note: str) -> str:
    """The note without the catalog ids it cites at its end (the note itself if that leaves nothing)."""
    return RULE_IDS.sub("", note).strip() or note
