"""Deal records from logs and save files, checked as untrusted input: every field typed, the deal one
the rules could have dealt, every action legal for the seat whose turn it is, and every card in
exactly one place after every step. Errors name the file and line. The record a deal is logged as
(`deal_record`, written by `simulate --log` and harness/sessionlog.py) is made here too.

Codes: E502 a line that cannot be read as a record (exit 2); E503 a record that fails its checks —
a tampered deal, an action out of turn, a result that does not match (exit 1).
"""
from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.harness.inputs import BadInput, check_options, json_record, seed, whole

MAX_ACTIONS = 10_000           # steps in one deal record
MAX_ACTION_TEXT = 200


class Where:
    """A file and line, for diagnostics."""

    def __init__(self, file: str, line: int, unreadable: str = "E502", failed: str = "E503"):
        self.file, self.line, self.unreadable, self.failed = file, line, unreadable, failed

    def error(self, message: str, failed: bool = True, help: str | None = None) -> DiagnosticError:
        code = self.failed if failed else self.unreadable
        span = Span(self.line, 1, self.line, 2) if self.line else None
        return DiagnosticError([Diagnostic(code, message, self.file, span, help=help)])


def lines_of(path, what: str) -> list[str]:
    from interpreter.files import read_text

    return read_text(path, what).splitlines()


def record(line: str, where: Where) -> dict:
    try:
        return json_record(line)
    except BadInput as err:
        raise where.error(str(err), failed=False) from None


def card_places(state) -> list[int]:
    """Where every card is: hands, discards, won cards, talon, the trick on the table, the cards passed and
    not yet exchanged, the cards dealt after a pause and not yet given (`deal.pause`) (card masks)."""
    from interpreter.engine.phases.pass_cards import aside

    out = list(state.hands) + list(state.held) + [state.discards] + list(state.play.won_cards) + [aside(state)]
    talon = 0
    for c in state.talon:
        talon |= 1 << c
    trick = 0
    for _, c in state.trick:
        trick |= 1 << c
    return out + [talon, trick]


def conservation(state) -> str | None:
    """None if every card of the deck is in exactly one place, else what is wrong."""
    seen = 0
    for m in card_places(state):
        if seen & m:
            codes = state.R.rs.codes(seen & m)
            return f"a card is in two places ({', '.join(codes[:4])})"
        seen |= m
    if seen != state.R.full_mask:
        codes = state.R.rs.codes(state.R.full_mask & ~seen)
        return f"cards went missing ({', '.join(codes[:4])})"
    return None


def start(rs, rec: dict, where: Where, options=None, accounts=None, deal_number: int = 0, seating=None):
    """The deal a record states, checked: options, dealer, hands and talon. `seating`: who sits where in a
    session of sits ({"seat_player": …, "table": …}, engine/reseating.py)."""
    from interpreter.engine import new_game
    from interpreter.engine.deals import DealError
    from interpreter.engine.rules import compile_rules

    if options is None:
        try:
            options = check_options(rs, rec.get("options"))
        except BadInput as err:
            raise where.error(str(err)) from None
    R = compile_rules(rs, options)
    try:
        dealer = whole(rec.get("dealer"), "the dealer", 0, R.n_seats - 1)
        if "seed" in rec:
            seed(rec["seed"])
        if "deal" in rec:
            whole(rec["deal"], "the deal number", 0, 10**15)
    except BadInput as err:
        raise where.error(str(err)) from None
    try:
        return new_game(rs, deal={"hands": rec.get("hands"), "talon": rec.get("talon")}, options=options,
                        dealer=dealer, accounts=accounts, deal_number=deal_number, **(seating or {}))
    except DealError as err:
        raise where.error(f"the deal is not one the rules could deal: {err}") from None


def actions_of(rec: dict, where: Where) -> list[tuple[int, str]]:
    items = rec.get("actions")
    if not isinstance(items, list):
        raise where.error("'actions' must be a list of [seat, action] pairs", failed=False)
    if len(items) > MAX_ACTIONS:
        raise where.error(f"more than {MAX_ACTIONS} actions in one deal")
    out = []
    for step, item in enumerate(items, 1):
        if (not isinstance(item, list) or len(item) != 2 or isinstance(item[0], bool)
                or not isinstance(item[0], int) or not isinstance(item[1], str) or len(item[1]) > MAX_ACTION_TEXT):
            raise where.error(f"step {step}: not a [seat, action] pair", failed=False)
        out.append((item[0], item[1]))
    return out


def play(state, actions: list[tuple[int, str]], where: Where, on_step: Callable | None = None) -> None:
    """Apply the recorded actions, each checked: the right seat, a legal action, every card in place."""
    from interpreter.engine.text import parse

    problem = conservation(state)
    if problem:
        raise where.error(f"before the first step: {problem}")
    for step, (seat, text) in enumerate(actions, 1):
        if state.is_over():
            raise where.error(f"step {step}: the deal is already over, but the log goes on with seat {seat}: {text!r}")
        if seat != state.current_player() and seat != state.to_act:    # (a dummy's card: his seat, or who played it)
            raise where.error(f"step {step}: the log says seat {seat} acts, the rules say {state.current_player()}")
        try:
            state.apply(parse(state, text))
        except ValueError as err:
            raise where.error(f"step {step}: {err}") from None
        problem = conservation(state)
        if problem:
            raise where.error(f"step {step}: {problem}")
        if on_step:
            on_step(state, seat, text)


# ---- writing a deal record (simulate --log, harness/sessionlog.py) ----------------------------------------

def jsonable(v):
    """`v` as JSON writes it: keys as text, tuples as lists, a Fraction as text (a whole one as an int)."""
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, Fraction):
        return str(v) if v.denominator != 1 else int(v)
    return v


def deal_record(state, start, rules_name, options, seed, index, result=None) -> dict:
    """The log line of a deal; `result`: the deal's result if not `state.result()` (a deal of a session:
    what `Session.finish` returned, harness/sessionlog.py)."""
    R = state.R
    hands, talon = start
    return {
        "rules": rules_name, "options": options, "seed": seed, "deal": index, "dealer": state.dealer,
        "hands": [R.rs.codes(h) for h in hands], "talon": [R.codes[c] for c in talon],
        "actions": [[s, state.action_text(a)] for s, a in state.log],
        "result": jsonable(state.result() if result is None else result),
    }
