"""Write a rules document as .stw text, YAML (ruamel.yaml) or JSON. Reading any of them back gives
the same document."""
from __future__ import annotations

import io
import json
import re

from interpreter.diagnostics import DiagnosticError
from interpreter.language.expressions import parse_text, quote, to_text

_NAME = re.compile(r"(?!\d+$)\w+")
_KEYWORDS = {"if", "then", "else", "and", "or", "not", "in", "for", "none", "true", "false",
             "table", "extends", "remove", "let"}
_PATH = re.compile(r'^\w+(\.\w+)*(\[(\w+|"([^"\\]|\\.)*")\](\.\w+)*)?$')
_ORDER = ["extends", "remove", "title", "catalog", "family", "description", "source", "players", "customs", "option",
          "seating", "deck", "deal", "procedure", "category", "auction", "call", "contract", "partner", "talon",
          "after_purchase", "defence", "kontra", "announce", "figure", "play", "account", "let", "settle",
          "session", "words", "names", "edit"]


class NotWritable(Exception):
    pass


def is_name(text: str) -> bool:
    """`text` can be written bare, as the grammar's NAME (no keyword, not all digits)."""
    return bool(_NAME.fullmatch(text)) and text not in _KEYWORDS


_is_name = is_name


def scalar(value) -> str:
    if value is None:
        return "none"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if _is_name(value):
            return value
        try:
            node = parse_text(value)
        except DiagnosticError:
            return quote(value)
        if node[0] not in ("num", "str", "const", "name", "list") and to_text(node) == value:
            return value
        return quote(value)
    raise NotWritable(f"cannot write {type(value).__name__} values")


def expression(value) -> str:
    """A `let` body: expression text is written as it is (scalar() would quote '3' or 'x')."""
    if isinstance(value, str):
        try:
            if to_text(parse_text(value)) == value:
                return value
        except DiagnosticError:
            pass
    return scalar(value)


def _key(k: str) -> str:
    if not _is_name(k):
        raise NotWritable(f"'{k}' is not a name, so it cannot be written in .stw")
    return k


def value(v, indent: int) -> str:
    pad = "  " * indent
    if isinstance(v, dict):
        if not v:
            return "{ }"
        body = "\n".join(statements(v, indent + 1))
        return "{\n" + body + "\n" + pad + "}"
    if isinstance(v, list):
        if v and all(isinstance(x, dict) for x in v) and any(v) and all(
                not isinstance(y, (dict, list)) for x in v for y in x.values()):
            return table(v, indent)
        items = [value(x, indent + 1) for x in v]
        flat = "[" + ", ".join(items) + "]"
        if len(flat) < 90 and "\n" not in flat:
            return flat
        return "[\n" + ",\n".join(pad + "  " + i for i in items) + ",\n" + pad + "]"
    return scalar(v)


def table(rows: list[dict], indent: int) -> str:
    pad = "  " * indent
    headers: list[str] = []
    for r in rows:
        for k in r:
            if k not in headers:
                headers.append(_key(k))
    grid = [headers] + [[scalar(r[h]) if h in r else "-" for h in headers] for r in rows]
    widths = [max(len(row[i]) for row in grid) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(row, widths)) + " |" for row in grid]
    return "table {\n" + "\n".join(pad + "  " + ln for ln in lines) + "\n" + pad + "}"


def statements(doc: dict, indent: int) -> list[str]:
    pad = "  " * indent
    out: list[str] = []
    keys = sorted(doc, key=lambda k: (_ORDER.index(k) if k in _ORDER and indent == 0 else len(_ORDER), 0))
    for k in keys:
        v = doc[k]
        if k == "extends" and isinstance(v, str):
            out.append(f"{pad}extends {quote(v)}")
        elif k == "remove" and isinstance(v, list) and all(isinstance(p, str) for p in v):
            out.extend(f"{pad}remove {_path(p)}" for p in v)
        elif k == "edit" and indent == 0 and isinstance(v, list) and all(isinstance(e, dict) for e in v):
            out.extend(_edit(e, indent) for e in v)
        elif k == "let" and isinstance(v, dict):
            for name, body in v.items():
                if isinstance(body, dict) and "params" in body:
                    out.append(f"{pad}let {_key(name)}({', '.join(map(_key, body['params']))}) = {expression(body['body'])}")
                else:
                    out.append(f"{pad}let {_key(name)} = {expression(body)}")
        elif isinstance(v, dict) and v and all(isinstance(x, dict) for x in v.values()):
            for name, item in v.items():
                out.append(f"{pad}{_key(k)} {_key(name)} {value(item, indent)}")
        elif isinstance(v, dict):
            out.append(f"{pad}{_key(k)} {value(v, indent)}")
        else:
            out.append(f"{pad}{_key(k)} = {value(v, indent)}")
    return out


def _path(p: str) -> str:
    parts = re.findall(r"\w+", p.split("[")[0])
    if parts[:1] == ["let"]:            # `remove let.NAME`: the parser takes the keyword as a path's first part
        parts = parts[1:]
    if not _PATH.match(p) or any(part in _KEYWORDS for part in parts):
        raise NotWritable(f"'{p}' is not a path that .stw can spell")
    return p


def _edit(e: dict, indent: int) -> str:
    """One list edit of a variant as a statement."""
    pad = "  " * indent
    v = e.get("value")
    if "insert" in e:
        where = ""
        for side in ("after", "before"):
            if side in e:
                key = str(e[side])
                where = f" {side} " + (key if _is_name(key) or key.isdigit() else quote(key))
        return f"{pad}insert {value(v, indent)} into {_path(str(e['insert']))}{where}"
    if "replace" in e:
        return f"{pad}replace {_path(str(e['replace']))} {value(v, indent)}"
    if "set" in e:
        return f"{pad}{_path(str(e['set']))} = {value(v, indent)}"
    condition = e.get("where")
    if "each" in e and isinstance(condition, dict) and len(condition) == 1 and isinstance(v, dict):
        (field, wanted), = condition.items()
        return f"{pad}{_path(str(e['each']))} [{_key(field)} = {value(wanted, indent)}] {value(v, indent)}"
    raise NotWritable("an edit must be an insert, a replace or a set")


def to_stw(doc: dict) -> str:
    return "# written by 'stichwort convert'\n" + "\n".join(statements(doc, 0)) + "\n"


def to_yaml(doc: dict) -> str:
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.default_flow_style = False
    yaml.width = 4096
    yaml.allow_unicode = True
    buf = io.StringIO()
    yaml.dump(doc, buf)
    return buf.getvalue()


def to_json(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
