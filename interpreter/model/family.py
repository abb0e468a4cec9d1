"""The names the newer collections of a rules document declare — card orders (`ranking`), decisions
(`choice`) and call ladders (`ladder`) — worked out once, the same way for the checks and, later, the engine.

A ladder `ladder bid { levels = [18, 20]  strains = [C, NT] }` declares one call per level (and strain):
`bid_18` (spoken `18`) without strains, `bid_1C`, `bid_1NT` (spoken `1C`, `1NT`) with them, ranked in the
order written — level first, then strain — from the ladder's `rank` (default 1) upwards.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One call a ladder generates."""
    name: str
    ladder: str
    level: int
    strain: str | None
    rank: int
    word: str


def _items(doc: dict, key: str) -> dict:
    part = doc.get(key)
    return {str(k): v for k, v in part.items() if isinstance(v, dict)} if isinstance(part, dict) else {}


def rankings(doc: dict) -> dict:
    return _items(doc, "ranking")


def choices(doc: dict) -> dict:
    return _items(doc, "choice")


def ladders(doc: dict) -> dict:
    return _items(doc, "ladder")


def choice_options(doc: dict) -> dict[str, list[str]]:
    """choice name → its options, as written."""
    out = {}
    for name, c in choices(doc).items():
        opts = c.get("options")
        out[name] = [str(o) for o in opts] if isinstance(opts, list) else []
    return out


def step_name(ladder: str, level, strain: str | None) -> str:
    return f"{ladder}_{level}{strain or ''}"


def ladder_steps(doc: dict) -> dict[str, Step]:
    """Every call the ladders generate, by name, in rank order."""
    out: dict[str, Step] = {}
    for name, lad in ladders(doc).items():
        levels = lad.get("levels") if isinstance(lad.get("levels"), list) else []
        strains = lad.get("strains") if isinstance(lad.get("strains"), list) else None
        rank = lad.get("rank", 1) if isinstance(lad.get("rank"), int) and not isinstance(lad.get("rank"), bool) else 1
        for level in levels:
            for strain in (strains or [None]):
                s = None if strain is None else str(strain)
                step = Step(step_name(name, level, s), name, level, s, rank, f"{level}{s or ''}")
                out.setdefault(step.name, step)
                rank += 1
    return out


def strain_names(doc: dict) -> set[str]:
    """The strains the ladders name (suits and other names alike)."""
    out: set[str] = set()
    for lad in ladders(doc).values():
        if isinstance(lad.get("strains"), list):
            out.update(map(str, lad["strains"]))
    return out


# the fields of a ladder that every step carries as a call's own (the others say how the steps are made)
STEP_FIELDS = ("contracts", "talon", "allowed", "category", "title", "doc", "rule")


def with_ladder_calls(doc: dict) -> dict:
    """The document with every ladder's steps written out as calls (`call bid_18 { rank  word  level … }`),
    so that the engine plays them as declared calls: a step reads its number as `this.level` (and
    `high.level`, `final.level`) and its strain as `this.strain`. A file without ladders is returned as it is."""
    steps = ladder_steps(doc)
    if not steps:
        return doc
    lads = ladders(doc)
    calls = dict(doc.get("call") or {})
    for step in steps.values():
        if step.name in calls:          # a clash is E319 (checks/ladders.py); the declared call stands
            continue
        lad = lads[step.ladder]
        rec = {k: lad[k] for k in STEP_FIELDS if k in lad}
        rec.update(rank=step.rank, word=step.word, level=step.level, ladder=step.ladder)
        if step.strain is not None:
            rec["strain"] = step.strain
        calls[step.name] = rec
    return {**doc, "call": calls}
