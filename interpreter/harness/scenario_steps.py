"""The checks a scenario file may write between its actions, and how it reads an action and compares an
expectation (harness/scenario.py runs the file).

Steps besides `SEAT: action`:

    - legal: [bid 0, bid 1]          exactly these actions are legal now
    - legal: {D: [bid 1]}            … and it is D's turn
    - turn: D                        it is D's turn (`turn: nobody` once the deal is over)
    - sees: {A: {hand: [AS], turned_up: 5H}}   what seat A's view of the table holds (only the keys named)
    - trick: {winner: C, points: "12 1/3"}     the trick just completed: its number, cards, winner, points

An action names its cards in any order: `discard 8S 7H` is `discard 7H 8S`. Seats are named by the file's
names everywhere, in an action's text too (`rekontra bettler @C`, where the engine writes the seat's number).

Expectations state only what they name. A number 0 also matches an entry nobody has written yet (an
account entry that was never paid into), and an empty mapping `{}` means "every entry is zero or
empty" — never "whatever the columns hold". Numbers compare exactly in any spelling: `125/3`,
`"41 2/3"` and `41 2/3`'s value as a Fraction are one number.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

STEP_CHECKS = ("legal", "turn", "sees", "trick")
NOBODY = "nobody"

# every key a seat's view may hold, and what it holds (docs/scenarios.md lists them; tests keep both equal)
VIEW_KEYS = {
    "seat": "the seat whose view it is",
    "dealer": "the dealer",
    "phase": "the phase the deal is in (auction, talon, announce, play, …)",
    "to_act": "the seat to act",
    "hand": "the seat's own cards (any order)",
    "calls": "the auction's calls so far, `\"A: bid one\"`",
    "declarer": "the declarer, once there is one",
    "contract": "the contract, once the auction is over",
    "trick": "the cards on the table, `\"A: AS\"`, in the order played",
    "tricks": "tricks taken per seat",
    "talon": "the talon cards shown to all (any order)",
    "discards": "the declarer's own discards, seen by him alone (any order)",
    "open_hands": "the hands laid open, per seat (each in any order)",
    "number_bids": "the number bids per seat",
    "turned_up": "the card turned up for trumps",
    "called_card": "the called card (`null` while the seat may not know it)",
    "called_by_count": "`true` when the card was called by count (\"the fourth king\")",
    "declarers": "the declaring side as far as the seat knows it (any order)",
    "partner_revealed": "`true` once the called partner is known to all",
    "packets": "an exposed talon's packets, in order (the cards of each in any order)",
    "packet_taken": "the number of the packet the declarer took (from 1)",
    "face_up_discards": "discards laid face up, seen by all (any order)",
    "talon_in_tricks": "talon cards dealt face up into tricks: trick number → card",
    "declared": "the figures declared aloud so far: figure → the seat that declared it",
    "passed": "the cards the seat passed before the play, seen by him alone (any order)",
    "passed_to": "the seat he passed them to",
    "received": "the cards passed to the seat, once every seat has passed (any order)",
}
TRICK_KEYS = ("number", "cards", "winner", "points")
_CARD_SETS = ("hand", "talon", "discards", "face_up_discards", "declarers", "passed", "received")    # lists compared in any order


class StepError(ValueError):
    """A step written wrongly (an unknown seat or view key): the file is at fault, exit 2."""

    def __init__(self, message: str, suggestions=()):
        super().__init__(message)
        self.suggestions = list(suggestions)


# ---- seats by name in an action's text --------------------------------------------------------------

_AT_NUMBER = re.compile(r"@([0-9]{1,9})\b")
_AT_NAME = re.compile(r"@(\S+)")


def named_text(text: str, seats: list[str] | None) -> str:
    """The engine's spelling of an action with a seat's number (`@2`) given as the file's seat name."""
    if not seats or "@" not in text:
        return text
    return _AT_NUMBER.sub(lambda m: "@" + seats[int(m.group(1))] if int(m.group(1)) < len(seats) else m.group(0), text)


def numbered_text(text: str, seats: list[str] | None) -> str:
    """A file's spelling of an action with a seat named (`@C`) given as the engine's seat number."""
    if not seats or "@" not in text:
        return text
    return _AT_NAME.sub(lambda m: f"@{seats.index(m.group(1))}" if m.group(1) in seats else m.group(0), text)


def parse_action(state, text: str, seats: list[str] | None = None) -> int:
    """The legal action `text` names; the cards of an action with several may come in any order, and a
    seat in it may be named by the file's `seats`."""
    from interpreter.engine.text import parse

    text = numbered_text(str(text), seats)
    try:
        return parse(state, text)
    except ValueError as err:
        words = str(text).split()
        if len(words) > 2:
            want = (words[0].lower(), sorted(w.upper() for w in words[1:]))
            found = [a for a in state.legal_actions()
                     if _as_set(state.action_text(a)) == want]
            if len(found) == 1:
                return found[0]
        raise ValueError(named_text(str(err), seats)) from None


def _canonical(state, text: str, seats: list[str]) -> str:
    """The printed spelling of the legal action `text` names (a call's name for its word), else `text`."""
    try:
        return named_text(state.action_text(parse_action(state, text, seats)), seats)
    except ValueError:
        return text


def _as_set(text: str) -> tuple:
    words = text.split()
    return (words[0].lower(), sorted(w.upper() for w in words[1:])) if words else ("", [])


# ---- the steps -------------------------------------------------------------------------------------

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
        return _legal(state, value, seats)
    if who == "sees":
        return _sees(state, value, seats)
    if who == "trick":
        return _trick(state, value, seats)
    raise StepError(f"unknown check '{who}'")


def _legal(state, value: Any, seats: list[str]) -> list[str]:
    failures = []
    if isinstance(value, dict):
        if len(value) != 1:
            raise StepError("'legal: {SEAT: [actions]}' names one seat")
        (seat, value), = value.items()
        failures += check_step(state, "turn", str(seat), seats)
    items = value if isinstance(value, list) else [value]
    want = sorted(_canonical(state, " ".join(str(t).split()), seats) for t in items)
    got = sorted(named_text(state.action_text(a), seats) for a in state.legal_actions())
    if sorted(map(_as_set, want)) != sorted(map(_as_set, got)):
        failures.append(f"legal actions are {got}, expected {want}")
    return failures


def _sees(state, value: Any, seats: list[str]) -> list[str]:
    if not isinstance(value, dict) or not value:
        raise StepError("'sees' maps a seat to what it sees: {A: {hand: [AS, KS], turned_up: 5H}}")
    failures = []
    for seat, want in value.items():
        if str(seat) not in seats:
            raise StepError(f"unknown seat '{seat}' in 'sees'", _close(str(seat), seats))
        if not isinstance(want, dict) or not want:
            raise StepError(f"'sees: {{{seat}: …}}' maps view keys to values, e.g. {{hand: [AS, KS]}}")
        view = named_view(state, seats.index(str(seat)), seats)
        for key in want:
            if str(key) not in VIEW_KEYS:
                raise StepError(f"'{key}' is not part of a seat's view", _close(str(key), VIEW_KEYS))
        for key, expected in want.items():
            if str(key) not in view:        # not shown: `null`, empty or `false` says so
                if not _absent(expected):
                    failures.append(f"{seat} sees {key}: expected {plain(expected)!r}, it is not in the view")
                continue
            failures += [f"{seat} sees {d}" for d in compare(expected, view[str(key)], str(key))]
    return failures


def _absent(v: Any) -> bool:
    return v is None or v is False or v == "" or v == [] or v == {}


def _trick(state, value: Any, seats: list[str]) -> list[str]:
    """`trick: {number: 5, cards: [A: KH, …], winner: D, points: "8 1/3"}`: the trick just completed."""
    if not isinstance(value, dict) or not value:
        raise StepError("'trick' states the trick just completed: {winner: C, points: \"12 1/3\"} "
                        f"(any of {', '.join(TRICK_KEYS)})")
    for key in value:
        if str(key) not in TRICK_KEYS:
            raise StepError(f"'{key}' is not said of a trick; a 'trick' step states {', '.join(TRICK_KEYS)}",
                            _close(str(key), TRICK_KEYS))
    if "winner" in value and str(value["winner"]) not in seats:
        raise StepError(f"unknown seat '{value['winner']}' in 'trick'", _close(str(value["winner"]), seats))
    history = state.play.history
    if state.trick or not history:
        on_table = len(state.trick)
        return [f"trick: no trick has just been completed ({on_table} card{'s' if on_table != 1 else ''} "
                f"of trick {len(history) + 1} on the table)"]
    cards, winner = history[-1]
    number = len(history)
    R = state.R
    mask = 0
    for _, c in cards:
        mask |= 1 << c
    for n, c in state.play.talon_cards:     # a talon card dealt into this trick goes with it
        if n == number:
            mask |= 1 << c
    from interpreter.engine.readings import mask_points

    actual = {"number": number, "cards": [f"{seats[s]}: {R.codes[c]}" for s, c in cards],
              "winner": seats[winner], "points": plain(mask_points(R, mask))}
    return compare({k: value[k] for k in value}, actual, "trick")


def named_view(state, seat: int, seats: list[str]) -> dict:
    """A seat's observation with seat numbers as the file's seat names; cards as codes."""
    obs = state.observation(seat)
    name = lambda s: seats[s] if isinstance(s, int) and 0 <= s < len(seats) else None
    out: dict[str, Any] = {}
    for key, v in obs.items():
        if key in ("seat", "dealer", "to_act", "declarer", "passed_to"):
            out[key] = name(v)
        elif key in ("tricks", "open_hands"):
            out[key] = {name(s): x for s, x in v.items()}
        elif key == "number_bids":
            out[key] = {name(s): x for s, x in enumerate(v) if x is not None}
        elif key in ("calls", "trick"):
            out[key] = [f"{name(s)}: {x}" for s, x in v]
        elif key == "declarers":
            out[key] = [name(s) for s in v]
        elif key == "declared":
            out[key] = {f: name(s) for f, s in v.items()}
        elif key == "talon_in_tricks":
            out[key] = dict(v)
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


def _card_set(path: str, v: Any) -> Any:
    """A list of cards (or seats) that compares in any order, by where it stands: the named keys, each hand
    of `open_hands`, each packet of `packets` (the packets themselves in order)."""
    parts = path.split(".")
    if not isinstance(v, list):
        return v
    if parts[-1] in _CARD_SETS or (len(parts) > 1 and parts[-2] == "open_hands"):
        return sorted(map(str, v))
    if parts[-1] == "packets":
        return [sorted(map(str, p)) if isinstance(p, list) else p for p in v]
    return v


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
    if e == a and isinstance(e, bool) == isinstance(a, bool):     # (true is no 1)
        return []
    if isinstance(e, list) and isinstance(a, list) and _card_set(path, e) == _card_set(path, a):
        return []                            # cards in any order
    ne = as_number(e)
    if ne is not None and (ne == as_number(a) or (ne == 0 and a is None)):
        return []
    return [f"{path}: expected {e!r}, got {a!r}"]


_MIXED = re.compile(r"\s*(-?)\s*([0-9]{1,15})\s+([0-9]{1,15})\s*/\s*([0-9]{1,15})\s*")
_WHOLE = re.compile(r"\s*-?[0-9]{1,15}\s*")


def as_number(v):
    """An exact number: a whole number, a Fraction, or text spelling one as `20`, `125/3` or `41 2/3` (whole
    and fraction, as card points are written); None for anything else (a decimal is never exact)."""
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    if isinstance(v, str):
        m = _MIXED.fullmatch(v)
        if m:
            sign, whole, num, den = m.groups()
            if int(den) == 0:
                return None
            x = int(whole) + Fraction(int(num), int(den))
            return -x if sign else x
        if "/" in v or _WHOLE.fullmatch(v):
            try:
                return Fraction(v.strip())
            except (ValueError, ZeroDivisionError):
                return None
    return None
