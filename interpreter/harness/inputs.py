"""Untrusted values at the boundary, turned into typed ones: table options (from `--set`, scenario
files, logs and saves), counts and seeds, JSON lines, and the deal a file states.

Every function raises `BadInput` with a message a player can act on; the caller adds the place
(file and line, or the command-line flag).
"""
from __future__ import annotations

import json
import math
import re

MAX_MAGNITUDE = 10**12           # the largest table option, count or account value accepted
MAX_SEED_DIGITS = 40
MAX_JSON_DEPTH = 64

_INT = re.compile(r"[+-]?[0-9]{1,15}")
_TRUE = {"true", "yes", "on"}
_FALSE = {"false", "no", "off"}


class BadInput(ValueError):
    """A value that does not fit where it was given."""


def _kind(default) -> str:
    if isinstance(default, bool):
        return "boolean"
    if isinstance(default, int):
        return "number"
    if isinstance(default, str):
        return "text"
    return "any"


def _specs(rs) -> dict:
    return dict(rs.doc.get("option") or {})


def option_from_text(rs, name: str, text: str):
    """A `--set name=value` value, typed by the option's declared default."""
    specs = _specs(rs)
    if name not in rs.options:
        raise BadInput(f"unknown table option '{name}'")
    kind = _kind(specs.get(name, {}).get("default", rs.options.get(name)))
    raw = text.strip()
    low = raw.lower()
    if kind == "number" or (kind == "any" and _INT.fullmatch(raw)):
        if not _INT.fullmatch(raw):
            raise BadInput(f"table option {name} takes a whole number, not '{text}'")
        value: object = int(raw)
    elif kind == "boolean" or (kind == "any" and low in _TRUE | _FALSE):
        if low not in _TRUE | _FALSE:
            raise BadInput(f"table option {name} takes true or false, not '{text}'")
        value = low in _TRUE
    else:
        if len(raw) > 200 or any(not ch.isprintable() for ch in raw):
            raise BadInput(f"table option {name} takes a short printable text")
        value = raw
    return check_option(rs, name, value)


def check_option(rs, name, value):
    """A table option value from a file: the declared type, min, max, multiple_of and choices."""
    if not isinstance(name, str) or name not in rs.options:
        raise BadInput(f"unknown table option '{name}'" + (f" (options: {', '.join(rs.options)})" if rs.options
                                                            else f" ({rs.name} has none)"))
    spec = _specs(rs).get(name, {})
    kind = _kind(spec.get("default", rs.options.get(name)))
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, int)):
        raise BadInput(f"table option {name} takes a whole number, not {_show(value)}")
    if kind == "boolean" and not isinstance(value, bool):
        raise BadInput(f"table option {name} takes true or false, not {_show(value)}")
    if kind == "text" and not isinstance(value, str):
        raise BadInput(f"table option {name} takes a text, not {_show(value)}")
    if kind == "any" and not (value is None or isinstance(value, (bool, int, str))):
        raise BadInput(f"table option {name} takes a number, true/false or a text, not {_show(value)}")
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) > MAX_MAGNITUDE:
            raise BadInput(f"table option {name} = {_show(value)} is out of range")
        if spec.get("min") is not None and value < spec["min"]:
            raise BadInput(f"table option {name} = {value} is below its minimum {spec['min']}")
        if spec.get("max") is not None and value > spec["max"]:
            raise BadInput(f"table option {name} = {value} is above its maximum {spec['max']}")
        step = spec.get("multiple_of")
        if step and value % step:
            raise BadInput(f"table option {name} = {value} is not a multiple of {step}")
    if isinstance(value, str) and len(value) > 200:
        raise BadInput(f"table option {name} is too long")
    if spec.get("choices") and value not in spec["choices"]:
        raise BadInput(f"table option {name} = {_show(value)} is not one of {list(spec['choices'])}")
    return value


def check_options(rs, options) -> dict:
    """A whole mapping of table options from a file."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise BadInput(f"'options' must map option names to values, not {_show(options)}")
    return {str(k): check_option(rs, str(k), v) for k, v in options.items()}


def whole(value, what: str, low: int = 0, high: int = MAX_MAGNITUDE) -> int:
    """A whole number in [low, high] (booleans, floats and texts refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"{what} must be a whole number, not {_show(value)}")
    if not low <= value <= high:
        raise BadInput(f"{what} must be between {low} and {high}, not {_show(value)}")
    return value


def seed(value, what: str = "seed"):
    """A seed: a whole number or a short text (random.Random accepts both)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadInput(f"{what} must be a whole number or a text, not {_show(value)}")
    if isinstance(value, int) and abs(value) >= 10**MAX_SEED_DIGITS:
        raise BadInput(f"{what} has more than {MAX_SEED_DIGITS} digits")
    if isinstance(value, str) and len(value) > 200:
        raise BadInput(f"{what} is longer than 200 characters")
    return value


def _refuse_constant(name: str):
    raise BadInput(f"{name} is not a JSON number")


def _depth(text: str) -> int:
    depth = best = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
            if best > MAX_JSON_DEPTH:
                return best
        elif ch in "]}":
            depth -= 1
    return best


def json_record(line: str) -> dict:
    """One JSON line as a mapping: nesting bounded, NaN/Infinity and huge numbers refused."""
    if _depth(line) > MAX_JSON_DEPTH:
        raise BadInput(f"the JSON nests deeper than {MAX_JSON_DEPTH} levels")
    try:
        rec = json.loads(line, parse_constant=_refuse_constant, parse_float=_float)
    except json.JSONDecodeError as err:
        raise BadInput(f"not valid JSON: {err.msg} (column {err.colno})") from None
    except (RecursionError, ValueError) as err:
        raise BadInput(f"not valid JSON: {err}") from None
    if not isinstance(rec, dict):
        raise BadInput("a line must be a JSON object { … }")
    return rec


def _float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise BadInput(f"the number {text[:30]} is out of range")
    return v


def _show(value) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "…"
