"""Every rule id of the catalog sections DECK to SESS, plus VAR, is named in its family's rule files, next
to where the file expresses it (a comment or a `rule` field; a range such as WIEN-AUC-09..11 names each id)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = ROOT.parent / "shared" / "rules"
FAMILIES = {"wien-preference": "wien", "simple-preference": "simple", "croatian-preference": "croatian",
            "koenigrufen": "koenigrufen", "priffe": "priffe"}
APART = {"EX", "AMB", "CONV"}


def named_in(text: str) -> set[str]:
    named = set(re.findall(r"[A-Z]+-[A-Z]+-\d{2}", text))
    for m in re.finditer(r"([A-Z]+-[A-Z]+-)(\d{2})\.\.(?:[A-Z]+-[A-Z]+-)?(\d{2})", text):
        for k in range(int(m.group(2)), int(m.group(3)) + 1):
            named.add(f"{m.group(1)}{k:02d}")
    return named


@pytest.mark.parametrize("catalog", sorted(FAMILIES))
def test_every_rule_id_is_named_in_the_rule_files(catalog):
    md = CATALOGS / f"{catalog}.md"
    if not md.is_file():
        pytest.skip("the rule catalogs are not beside the repository (../shared/rules)")
    ids = re.findall(r"^\s*- \*\*([A-Z]+-([A-Z]+)-\d{2})\*\*", md.read_text(encoding="utf-8"), re.M)
    wanted = [i for i, section in ids if section not in APART]
    text = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "games" / FAMILIES[catalog]).glob("*.stw"))
    missing = [i for i in wanted if i not in named_in(text)]
    assert wanted and not missing, f"not named in games/{FAMILIES[catalog]}/*.stw: {missing}"
