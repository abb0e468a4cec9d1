"""The checks a scenario file may write between its actions, and how it reads an action and compares an
expectation (harness/scenario.py runs the file).

Steps besides `SEAT: action`:

    - legal: [bid 0, bid 1]          exactly these actions are legal now
    - legal: {D: [bid 1]}            … and it is D's turn
    - turn: D                        it is D's turn (`turn: nobody` once the deal is over)
    - sees: {A: {hand: [AS], turned_up: 5H}}   what seat A's view of the table holds (only the keys named)

An action names its cards in any order: `discard 8S 7H` is `discard 7H 8S`.

Expectations state only what they name. A number 0 also matches an entry nobody has written yet (an
account entry that was never paid into), and an empty mapping `{}` means "every entry is zero or
empty" — never "whatever the columns hold".
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

STEP_CHECKS = ("legal", "turn", "sees")
NOBODY = "nobody"


class StepError(ValueError):
    """A step written wrongly (an unknown seat or view key): the file is at fault, exit 2."""

    def __init__(self, message: str, suggestions=()):
        super().__init__(message)
        self.suggestions = list(suggestions)


def parse_action(state, text: str) -> int:
    """The legal action `text` names; the cards of an action with several may come in any order."""
    from interpreter.engine.text import parse

    try:
        return parse(state, text)
    except ValueError:
        words = str(text).split()
        if len(words) > 2:
            want = (words[0].lower(), sorted(w.upper() for w in words[1:]))
            found = [a for a in state.legal_actions()
                     if _as_set(state.action_text(a)) == want]
            if len(found) == 1:
                return found[0]
        raise


def _canonical(state, text: str) -> str:
    """The printed spelling of the legal action `text` names (a call's name for its word), else `text`."""
    try:
        return state.action_text(parse_action(state, text))
    except ValueError:
        return text


def _as_set(text: str) -> tuple:
    words = text.split()
    return (words[0].lower(), sorted(w.upper() for w in words[1:])) if words else ("", [])


def check_step(state, who: str, value: Any, seats: list[str]) -> list[str]:
    """Run one check step; the failures it finds (empty when it holds). Raises StepError when the step
    itself is malformed."""
    if who == "turn":
        seat = str(value)
        if seat != NOBODY and seat not in seats:
            raise StepError(f"unknown seat '{seat}' in 'turn'", _close(seat, seats + [NOBODY]))
        now = NOBODY if state.is_over() else seats[state.current_player()]
        return [] if now == seat else [f"it is {now}'s turn, expected {seat}'s"]
    if who == "legal":
        failures = []
        if isinstance(value, dict):
            if len(value) != 1:
                raise StepError("'legal: {SEAT: [actions]}' names one seat")
            (seat, value), = value.items()
            failures += check_step(state, "turn", str(seat), seats)
        want = sorted(_canonical(state, " ".join(str(t).split())) for t in (value if isinstance(value, list) else [value]))
        got = sorted(state.action_text(a) for a in state.legal_actions())
        if sorted(map(_as_set, want)) != sorted(map(_as_set, got)):
            failures.append(f"legal actions are {got}, expected {want}")
        return failures
    if who == "sees":
        if not isinstance(value, dict) or not value:
            raise StepError("'sees' maps a seat to what it sees: {A: {hand: [AS, KS], turned_up: 5H}}")
        failures = []
        for seat, want in value.items():
            if str(seat) not in seats:
                raise StepError(f"unknown seat '{seat}' in 'sees'", _close(str(seat), seats))
            if not isinstance(want, dict):
                raise StepError(f"'sees: {{{seat}: …}}' maps view keys to values, e.g. {{hand: [AS, KS]}}")
            view = named_view(state, seats.index(str(seat)), seats)
            for key in want:
                if str(key) not in view and str(key) not in VIEW_KEYS:
                    raise StepError(f"'{key}' is not part of a seat's view", _close(str(key), VIEW_KEYS))
            failures += [f"{seat} sees {d}" for d in compare(want, view)]
        return failures
    raise StepError(f"unknown check '{who}'")


VIEW_KEYS = ["seat", "dealer", "phase", "to_act", "hand", "calls", "declarer", "contract", "trick", "tricks",
             "talon", "discards", "open_hands", "number_bids", "turned_up"]


def named_view(state, seat: int, seats: list[str]) -> dict:
    """A seat's observation with seat numbers as the file's seat names; cards as codes."""
    obs = state.observation(seat)
    name = lambda s: seats[s] if isinstance(s, int) and 0 <= s < len(seats) else None
    out: dict[str, Any] = {}
    for key, v in obs.items():
        if key in ("seat", "dealer", "to_act", "declarer"):
            out[key] = name(v)
        elif key in ("tricks", "open_hands"):
            out[key] = {name(s): x for s, x in v.items()}
        elif key == "number_bids":
            out[key] = {name(s): x for s, x in enumerate(v) if x is not None}
        elif key in ("calls", "trick"):
            out[key] = [f"{name(s)}: {x}" for s, x in v]
        else:
            out[key] = v
    return out


def _close(word: str, pool) -> list[str]:
    from interpreter.diagnostics import best_matches

    return best_matches(word, list(pool))


# ---- comparing an expectation ---------------------------------------------------------------------------

def plain(v):
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, bool) or v is None or isinstance(v, (int, str, float)):
        return v
    return str(v)


def _nothing(v) -> bool:
    """Zero, none, empty, or a mapping of such."""
    if isinstance(v, dict):
        return all(_nothing(x) for x in v.values())
    return v is None or v == "" or v == [] or (not isinstance(v, bool) and as_number(v) == 0)


def compare(expected, actual, path: str = "") -> list[str]:
    """Differences between the expected values (only the keys the file states) and the actual ones."""
    if isinstance(expected, dict):
        if not expected:                     # `{}`: every entry zero or empty
            if actual is None or (isinstance(actual, dict) and _nothing(actual)):
                return []
            return [f"{path or 'outcome'}: expected every entry zero, got {plain(actual)}"]
        if actual is None and _nothing(expected):
            return []
        if not isinstance(actual, dict):
            return [f"{path or 'outcome'}: expected {plain(expected)}, got {plain(actual)}"]
        diffs = []
        for k, v in expected.items():
            diffs += compare(v, actual.get(str(k)), f"{path}.{k}" if path else str(k))
        return diffs
    e, a = plain(expected), plain(actual)
    if e == a:
        return []
    if isinstance(e, list) and isinstance(a, list) and sorted(map(str, e)) == sorted(map(str, a)) \
            and path.split(".")[-1] in ("hand", "talon", "discards"):
        return []                            # cards in any order
    ne = as_number(e)
    if ne is not None and (ne == as_number(a) or (ne == 0 and a is None)):
        return []
    return [f"{path}: expected {e!r}, got {a!r}"]


def as_number(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, str) and "/" in v:
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            return None
    return None
