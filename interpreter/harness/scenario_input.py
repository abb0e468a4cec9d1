"""The shape of a scenario file, checked before anything runs: every field of the expected type and
size, every name known, with the line of whatever is wrong (E501, exit 2).

YAML aliases are limited as in rule files (language.loader: MAX_ALIASES, MAX_NODES), so a 1.7 KB
alias bomb in `hands:` is refused instead of taking gigabytes.
"""
from __future__ import annotations

from fractions import Fraction

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from interpreter.harness.inputs import MAX_MAGNITUDE, BadInput, check_options, seed

MAX_DEALS = 10_000
MAX_ACTIONS = 2_000


def span_of(node, key=None, index=None) -> Span | None:
    lc = getattr(node, "lc", None)
    try:
        if key is not None and lc is not None:
            line, col = lc.key(key)
            return Span(line + 1, col + 1, line + 1, col + 1 + len(str(key)))
        if index is not None and lc is not None:
            line, col = lc.item(index)
            return Span(line + 1, col + 1, line + 1, col + 2)
    except (KeyError, IndexError, TypeError, AttributeError):
        pass
    return None


class Checker:
    def __init__(self, shown: str):
        self.shown = shown

    def fail(self, message: str, span: Span | None = None, help: str | None = None, suggestions=()) -> DiagnosticError:
        return DiagnosticError([Diagnostic("E501", message, self.shown, span or Span(1, 1, 1, 2), help=help,
                                           suggestions=list(suggestions))])

    def mapping(self, parent, key, required: bool = False) -> dict | None:
        v = parent.get(key)
        if v is None and not required:
            return None
        if not isinstance(v, dict):
            raise self.fail(f"'{key}' must be a mapping (name: value, …)", span_of(parent, key))
        return v

    def sequence(self, parent, key, limit: int) -> list | None:
        v = parent.get(key)
        if v is None:
            return None
        if not isinstance(v, list):
            raise self.fail(f"'{key}' must be a list [ … ]", span_of(parent, key))
        if len(v) > limit:
            raise self.fail(f"'{key}' has more than {limit} entries", span_of(parent, key))
        return v

    def scalar(self, v, what: str, span) -> str:
        if isinstance(v, (dict, list)) or v is None:
            raise self.fail(f"{what} must be a name, not {type(v).__name__ if v is not None else 'empty'}", span)
        return str(v)

    def number(self, v, what: str, span) -> Fraction:
        """A whole number or an exact fraction written 'a/b'."""
        if isinstance(v, bool):
            raise self.fail(f"{what} must be a number, not {v}", span)
        if isinstance(v, int):
            x = Fraction(v)
        elif isinstance(v, str) and len(v) <= 40:
            try:
                x = Fraction(v.strip())
            except (ValueError, ZeroDivisionError):
                raise self.fail(f"{what} must be a number (whole, or a fraction such as 1/2), not {v!r}", span) from None
        else:
            raise self.fail(f"{what} must be a number (whole, or a fraction such as 1/2)", span)
        if abs(x) > MAX_MAGNITUDE:
            raise self.fail(f"{what} is out of range", span)
        return x

    def whole(self, v, what: str, span, low: int, high: int) -> int:
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise self.fail(f"{what} must be a whole number from {low} to {high}", span)
        return v


def check_expansion(data, c: Checker) -> None:
    """Refuse a document that, aliases followed, has more than MAX_NODES values, or a huge number."""
    from interpreter.language.loader import expansion_problem

    problem = expansion_problem(data)
    if problem:
        raise c.fail(problem[1], _huge_number(data) if problem[0] == "E104" else None, help=problem[2])


def _huge_number(data) -> Span | None:
    """Where the first number beyond the cap is written (the value's own line and column)."""
    from interpreter.language.loader import MAX_NUMBER

    def huge(v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_NUMBER

    stack = [data]
    while stack:
        node = stack.pop()
        lc = getattr(node, "lc", None)
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            if huge(v) and lc is not None:
                try:
                    line, col = lc.value(k) if isinstance(node, dict) else lc.item(k)
                except (KeyError, IndexError, TypeError, AttributeError):
                    return None
                return Span(line + 1, col + 1, line + 1, col + 1 + min(len(str(v)), 40))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return None


def count_aliases(text: str, c: Checker) -> None:
    """At most MAX_ALIASES '*name' references (counted on the YAML events, before anything is built)."""
    from interpreter.language.loader import alias_problem

    problem = alias_problem(text)
    if problem:
        raise c.fail(problem[0], problem[1])


def options(rs, data, c: Checker) -> dict:
    opts = c.mapping(data, "options")
    try:
        return check_options(rs, dict(opts) if opts else {})
    except BadInput as err:
        bad = next((k for k in (opts or {}) if str(k) in str(err)), None)
        raise c.fail(str(err), span_of(opts, bad) if bad is not None else span_of(data, "options"),
                     suggestions=best_matches(str(bad), rs.options) if bad is not None and bad not in rs.options else ()) from None


def seats(rs, data, c: Checker) -> list[str]:
    raw = data.get("seats")
    if not isinstance(raw, list) or len(raw) != rs.seats:
        raise c.fail(f"'seats' must name {rs.seats} seats for {rs.name}, in order of play, e.g. "
                     f"[{', '.join('ABCDEFG'[:rs.seats])}]", span_of(data, "seats"))
    names = [c.scalar(v, "a seat", span_of(raw, index=i)) for i, v in enumerate(raw)]
    if len(set(names)) != len(names):
        raise c.fail("'seats' names a seat twice", span_of(data, "seats"))
    return names


def accounts(R, data, names: list[str], c: Checker) -> dict:
    raw = c.mapping(data, "accounts")
    out: dict = {}
    for k, v in (raw or {}).items():
        span = span_of(raw, k)
        if str(k) not in R.accounts and str(k) not in ("pot", "money"):
            raise c.fail(f"unknown account '{k}'", span, suggestions=best_matches(str(k), R.accounts))
        per = R.accounts[str(k)].per if str(k) in R.accounts else ("game" if str(k) == "pot" else "seat")
        if per == "game" and (isinstance(v, bool) or not isinstance(v, (int, str))):
            raise c.fail(f"account {k} is the table's: give one number", span)
        if per not in ("game", "seat", "team", "player"):
            raise c.fail(f"account {k} is kept per {per}; a scenario cannot set it", span)
        if per != "game" and not isinstance(v, dict):
            raise c.fail(f"account {k} is kept per {per}: give a number for each seat ({{A: 10, B: -5, …}})", span)
        if isinstance(v, dict):
            for seat in v:
                if str(seat) not in names:
                    raise c.fail(f"unknown seat '{seat}'", span_of(v, seat), suggestions=best_matches(str(seat), names))
            out[str(k)] = [c.number(v.get(s, 0), f"account {k} of {s}", span_of(v, s) or span) for s in names]
        else:
            out[str(k)] = c.number(v, f"account {k}", span)
    return {k: (_plain_number(v) if not isinstance(v, list) else [_plain_number(x) for x in v]) for k, v in out.items()}


def _plain_number(x: Fraction):
    return int(x) if x.denominator == 1 else x


def deal(rs, d, di: int, names: list[str], c: Checker, deals) -> None:
    """One entry of 'deals': types and sizes of its fields (cards and actions are checked as they run)."""
    if not isinstance(d, dict):
        raise c.fail(f"deal {di + 1} must be a mapping", span_of(deals, index=di))
    if "seed" in d:
        try:
            seed(d["seed"], "the seed")
        except BadInput as err:
            raise c.fail(str(err), span_of(d, "seed")) from None
    hands = c.mapping(d, "hands")
    for s, lst in (hands or {}).items():
        if str(s) not in names:
            raise c.fail(f"unknown seat '{s}'", span_of(hands, s), suggestions=best_matches(str(s), names))
        if lst is not None and not isinstance(lst, list):
            raise c.fail(f"the hand of {s} must be a list of cards [ … ]", span_of(hands, s))
        for i, code in enumerate(lst or []):
            c.scalar(code, "a card", span_of(lst, index=i))
    talon = c.sequence(d, "talon", 1000)
    for i, code in enumerate(talon or []):
        c.scalar(code, "a card", span_of(talon, index=i))
    acts = c.sequence(d, "actions", MAX_ACTIONS)
    for ai, entry in enumerate(acts or []):
        if not isinstance(entry, dict) or len(entry) != 1:
            raise c.fail("each action is written 'SEAT: action'", span_of(acts, index=ai))
        (who, text), = entry.items()
        where = span_of(acts, index=ai)
        if str(who) == "legal":
            if isinstance(text, dict) and len(text) == 1:      # legal: {SEAT: [actions]}
                (seat, text), = text.items()
                c.scalar(seat, "the seat whose turn it is", where)
            items = text if isinstance(text, list) else [text]
            for t in items:
                c.scalar(t, "a legal action", where)
        elif str(who) == "sees":
            if not isinstance(text, dict):
                raise c.fail("'sees' maps a seat to what it sees: {A: {hand: [AS, KS]}}", where)
        elif str(who) == "trick":
            if not isinstance(text, dict):
                raise c.fail("'trick' states the trick just completed: {winner: C, points: \"12 1/3\"}", where)
        else:
            c.scalar(text, "an action" if str(who) != "turn" else "the seat whose turn it is", where)
    if "rest" in d and d["rest"] not in ("bots", "unplayed"):
        raise c.fail("'rest' is 'bots' (the rule bots play the deal to its end) or 'unplayed' (the deal stops "
                     "after its last step)", span_of(d, "rest"))
    for key in ("expect", "outcome"):
        c.mapping(d, key)
    out = d.get("outcome")
    if isinstance(out, dict):
        tricks = c.mapping(out, "tricks")
        for s, n in (tricks or {}).items():
            if str(s) not in names:
                raise c.fail(f"unknown seat '{s}'", span_of(tricks, s), suggestions=best_matches(str(s), names))
            c.whole(n, f"the tricks of {s}", span_of(tricks, s), 0, rs.hand_size)
        playing = c.sequence(out, "playing", rs.seats)
        for i, p in enumerate(playing or []):
            c.scalar(p, "a playing seat", span_of(playing, index=i))
        if "kontra" in out:
            c.whole(out["kontra"], "'kontra'", span_of(out, "kontra"), 0, 64)
        for key in ("contract", "declarer", "host"):
            if key in out and out[key] is not None:
                c.scalar(out[key], f"'{key}'", span_of(out, key))


def draw(data, c: Checker) -> None:
    drawn = data.get("draw")
    if not isinstance(drawn, dict) or not drawn:
        raise c.fail("'draw' maps players to the cards they drew", span_of(data, "draw"))
    for p, code in drawn.items():
        c.scalar(p, "a player", span_of(drawn, p))
        c.scalar(code, "a card", span_of(drawn, p))
    want = c.mapping(data, "expect_draw")
    if want:
        if "dealer" in want:
            c.scalar(want["dealer"], "'dealer'", span_of(want, "dealer"))
        for key in ("order", "seats"):
            names = c.sequence(want, key, 64)
            for i, p in enumerate(names or []):
                c.scalar(p, "a player", span_of(names, index=i))
