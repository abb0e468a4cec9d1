"""`stichwort diff A B`: what B changes relative to A, rule by rule — the house rules at a glance.

Both files are compared as merged rules documents, so it does not matter how a change was written
(a list edit, a removal, a whole new table). Collections (contracts, calls, options, …) are compared
item by item and field by field; lists of names by what they gain and lose; payment rows row by row
(matched by name, else by their text).
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.language.loader import Loaded, load, read_layer, resolve

# (document key, heading), in the order a booklet reads
SECTIONS = [
    ("title", "Title"), ("description", "Description"), ("players", "Players"), ("option", "Table options"),
    ("seating", "Seating"), ("deck", "Deck"), ("deal", "Deal"), ("procedure", "Procedure"),
    ("category", "Categories"), ("auction", "Auction"), ("call", "Calls"), ("contract", "Contracts"),
    ("partner", "Partner"), ("talon", "Talon"), ("after_purchase", "After-purchase"), ("defence", "Defence"),
    ("kontra", "Kontra"), ("announce", "Announcements"), ("figure", "Figures"), ("play", "Play"),
    ("account", "Accounts"), ("let", "Definitions (let)"), ("settle", "Payments"), ("session", "Session"),
    ("words", "Words"), ("names", "Names"), ("customs", "Customs"),
]
COLLECTIONS = {"option", "category", "call", "contract", "talon", "figure", "account", "let"}
SKIP = {"catalog", "family", "source"}
MAX_VALUE = 90


@dataclass
class Section:
    heading: str
    lines: list[str] = field(default_factory=list)


def show(value) -> str:
    """A value as a reader writes it: names bare, lists in brackets, maps in braces; long ones cut."""
    if value is None:
        text = "none"
    elif value is True or value is False:
        text = str(value).lower()
    elif isinstance(value, (int, str)):
        text = str(value)
    elif isinstance(value, list):
        text = "[" + ", ".join(show(v) for v in value) + "]"
    elif isinstance(value, dict):
        text = "{ " + "  ".join(f"{k} = {show(v)}" for k, v in value.items()) + " }"
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def _list_change(a: list, b: list) -> str | None:
    """A list of names: what it gains and loses (or that only the order changed)."""
    if a == b:
        return None
    if all(isinstance(x, (str, int)) for x in a + b):
        gained = [x for x in b if x not in a]
        lost = [x for x in a if x not in b]
        parts = []
        if gained:
            parts.append("+ " + ", ".join(map(str, gained)))
        if lost:
            parts.append("− " + ", ".join(map(str, lost)))
        if not parts:
            parts.append("order " + show(a) + " → " + show(b))
        return "; ".join(parts) + ("" if not (gained or lost) else f"  (now {show(b)})")
    return None


def field_changes(a, b, prefix: str = "") -> list[str]:
    """`path: old → new` for every field that differs between two maps; a map that is new or gone
    as a whole is one line, lists of names say what they gain and lose, lists of rows row by row."""
    out: list[str] = []
    for key in list(a) + [k for k in b if k not in a]:
        va, vb = a.get(key, _MISSING), b.get(key, _MISSING)
        if va == vb:
            continue
        name = f"{prefix}.{key}" if prefix else str(key)
        if va is _MISSING:
            out.append(f"{name}: + {show(vb)}")
        elif vb is _MISSING:
            out.append(f"{name}: − {show(va)}  (removed)")
        elif isinstance(va, dict) and isinstance(vb, dict):
            out.extend(field_changes(va, vb, name))
        elif isinstance(va, list) and isinstance(vb, list):
            simple = _list_change(va, vb)
            out.extend([f"{name}: {simple}"] if simple else [f"{name}: {line}" for line in row_changes(va, vb)])
        else:
            out.append(f"{name}: {show(va)} → {show(vb)}")
    return out


_MISSING = object()


def _row_text(row) -> str:
    if isinstance(row, dict):
        return " | ".join(f"{k} {show(v)}" for k, v in row.items() if k not in ("note", "rule", "name"))
    return show(row)


def _row_label(row) -> str:
    if isinstance(row, dict):
        if row.get("name"):
            return f"row '{row['name']}'"
        if row.get("note"):
            return f"row \"{show(row['note'])}\""
        if row.get("rule") and isinstance(row["rule"], str):
            return str(row["rule"])
    return "row " + _row_text(row)


def row_changes(a: list, b: list) -> list[str]:
    """Rows of a table (payment rows, packets, obligations) added, removed and changed."""
    out: list[str] = []
    named_a = {r["name"]: r for r in a if isinstance(r, dict) and r.get("name")}
    named_b = {r["name"]: r for r in b if isinstance(r, dict) and r.get("name")}
    for name in named_a.keys() & named_b.keys():
        if named_a[name] != named_b[name]:
            out.append(f"~ row '{name}': " + "; ".join(field_changes(named_a[name], named_b[name])))
    rest_a = [r for r in a if not (isinstance(r, dict) and r.get("name") in named_b and r.get("name") in named_a)]
    rest_b = [r for r in b if not (isinstance(r, dict) and r.get("name") in named_a and r.get("name") in named_b)]
    matcher = difflib.SequenceMatcher(a=[json.dumps(r, sort_keys=True) for r in rest_a],
                                      b=[json.dumps(r, sort_keys=True) for r in rest_b], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        olds, news = rest_a[i1:i2], rest_b[j1:j2]
        if op == "replace" and len(olds) == len(news) and all(
                isinstance(o, dict) and isinstance(n, dict) and o.get("name") == n.get("name") for o, n in zip(olds, news)):
            out.extend(f"~ {_row_label(o)}: " + "; ".join(field_changes(o, n)) for o, n in zip(olds, news))
            continue
        out.extend(f"− {_row_label(r)}: {_row_text(r)}" if isinstance(r, dict) else f"− {show(r)}" for r in olds)
        out.extend(f"+ {_row_label(r)}: {_row_text(r)}" if isinstance(r, dict) else f"+ {show(r)}" for r in news)
    return out


def _item_label(kind: str, name: str, item) -> str:
    title = item.get("title") if isinstance(item, dict) else None
    return f"{name} ({title})" if isinstance(title, str) and title != name else name


def collection_changes(kind: str, a: dict, b: dict) -> list[str]:
    out = []
    added = [k for k in b if k not in a]
    removed = [k for k in a if k not in b]
    if removed:
        out.append("− " + ", ".join(_item_label(kind, k, a[k]) for k in removed))
    for k in added:
        item = b[k]
        if kind == "let":
            out.append(f"+ {k} = {show(item)}")
        else:
            fields = "  ".join(f"{f} = {show(v)}" for f, v in (item.items() if isinstance(item, dict) else []) if f not in ("doc", "rule", "aka"))
            out.append(f"+ {_item_label(kind, k, item)}: {fields}" if fields else f"+ {k}")
    for k in a:
        if k in b and a[k] != b[k]:
            if isinstance(a[k], dict) and isinstance(b[k], dict) and kind != "let":
                out.append(f"~ {k}: " + "; ".join(field_changes(a[k], b[k])))
            else:
                out.append(f"~ {k}: {show(a[k])} → {show(b[k])}")
    return out


def changes(a: dict, b: dict) -> list[Section]:
    """The differences of two merged rules documents, section by section."""
    out: list[Section] = []
    known = {k for k, _ in SECTIONS}
    for key, heading in SECTIONS + [(k, k) for k in sorted(set(a) | set(b)) if k not in known and k not in SKIP]:
        va, vb = a.get(key, _MISSING), b.get(key, _MISSING)
        if va == vb:
            continue
        sec = Section(heading)
        if va is _MISSING:
            sec.lines.append("+ added: " + show(vb))
        elif vb is _MISSING:
            sec.lines.append("− removed" + ("" if isinstance(va, (dict, list)) else f": {show(va)}"))
        elif key in COLLECTIONS and isinstance(va, dict) and isinstance(vb, dict):
            sec.lines = collection_changes(key, va, vb)
        elif isinstance(va, dict) and isinstance(vb, dict):
            sec.lines = field_changes(va, vb)
        elif isinstance(va, list) and isinstance(vb, list):
            sec.lines = [_list_change(va, vb) or ""] if _list_change(va, vb) else row_changes(va, vb)
        else:
            sec.lines.append(f"{show(va)} → {show(vb)}")
        out.append(sec)
    return out


class NoBase(Exception):
    """`stichwort diff B` for a B that extends nothing."""


def base_of(target: str) -> str:
    """The base a variant extends, as a path, for `stichwort diff VARIANT`."""
    path = resolve(target)
    layer = read_layer(path, positions=False)
    base = layer.doc.get("extends")
    if not isinstance(base, str):
        raise NoBase(f"{layer.path} extends no base, so there is nothing to compare it with; give two rule files: stichwort diff A B")
    return str(resolve(base, relative_to=path))


def render(a: Loaded, b: Loaded, sections: list[Section], markdown: bool = False) -> str:
    name_a, name_b = a.name, b.name
    if not sections:
        return f"{name_b} makes no change to the rules of {name_a}.\n"
    count = sum(len(s.lines) for s in sections)
    lines = []
    if markdown:
        lines.append(f"# What {name_b} changes relative to {name_a}\n")
        lines.append(f"{count} change{'s' if count != 1 else ''} in {len(sections)} section{'s' if len(sections) != 1 else ''}.\n")
        for s in sections:
            lines.append(f"## {s.heading}\n")
            lines.extend(f"- {_md(line)}" for line in s.lines)
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"
    lines.append(f"{name_a} → {name_b}: {count} change{'s' if count != 1 else ''} in {len(sections)} section{'s' if len(sections) != 1 else ''}")
    for s in sections:
        lines.append("")
        lines.append(s.heading)
        lines.extend(f"  {line}" for line in s.lines)
    return "\n".join(lines) + "\n"


def _md(line: str) -> str:
    for sign, word in (("+ ", "**added** "), ("− ", "**removed** "), ("~ ", "**changed** ")):
        if line.startswith(sign):
            return word + line[len(sign):].replace("|", "\\|")
    return line.replace("|", "\\|")


def diff(target_a: str | None, target_b: str, markdown: bool = False) -> str:
    a_path = target_a if target_a is not None else base_of(target_b)
    a, b = load(a_path, positions=False), load(target_b, positions=False)
    if target_a is None:
        a.name = Path(a_path).stem
    return render(a, b, changes(a.doc, b.doc), markdown)
