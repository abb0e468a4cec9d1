"""Pass: an expression may not read a value that is not known yet when its field is worked out (E402).

The seating and the deal are worked out before anyone calls, the auction's fields (and a call's
`allowed`) while the calls are made: none of them can read the declarer, the contract, the sides or
anything else the end of the auction decides (there it would always be none, false or empty), and the
seating and the deal cannot read the auction's own state either. `auction { first = next(declarer) }`
is refused here, at its line, instead of starting every auction from no seat. A `let` read by such a
field is followed, so a let over the declarer is refused there too.
"""
from __future__ import annotations

from interpreter.checks.context import Context, already
from interpreter.checks.typecheck import ExprError
from interpreter.language.expressions import children, names_in, parse_text

# decided when the auction ends (or later: the talon, the defence, the play)
AFTER_THE_AUCTION = frozenset({
    "declarer", "declarers", "defenders", "final", "contract", "trump", "honours", "called_card", "base_bidder",
    "base_contract", "given_up", "made", "host", "guest", "invited", "compulsory", "leader", "team_tricks",
    "playing", "all_passed"})
# the auction's own state, there from its first call
IN_THE_AUCTION = frozenset({"holder", "high", "last_call", "turn", "passes", "bids", "double_level"})

# (path prefix, where it is worked out, names it cannot read); '*' matches any name the file chooses
_STAGES: tuple[tuple[tuple[str, ...], str, frozenset[str]], ...] = (
    (("seating",), "before the deal", AFTER_THE_AUCTION | IN_THE_AUCTION),
    (("deal",), "when the cards are dealt, before the auction", AFTER_THE_AUCTION | IN_THE_AUCTION),
    (("auction",), "in the auction, before it ends", AFTER_THE_AUCTION),
    (("call", "*", "allowed"), "in the auction, before it ends", AFTER_THE_AUCTION),
)


def _stage(path: tuple[str, ...]) -> tuple[str, frozenset[str]] | None:
    for prefix, when, names in _STAGES:
        if len(path) >= len(prefix) and all(p == "*" or p == q for p, q in zip(prefix, path)):
            return when, names
    return None


def _let_reads(ctx: Context) -> dict[str, set[str]]:
    """Each let's name → the built-in names it reads, through the lets it reads in turn."""
    lets = ctx.lets if isinstance(ctx.lets, dict) else {}
    direct: dict[str, set[str]] = {}
    for name, value in lets.items():
        text = value.get("body") if isinstance(value, dict) else value
        params = set(value.get("params", []) or []) if isinstance(value, dict) else set()
        try:
            node = parse_text(text) if isinstance(text, str) else None
        except Exception:           # the expression pass reports it
            node = None
        direct[name] = (_reads(node) - params) if node is not None else set()
    out: dict[str, set[str]] = {}
    for name in direct:
        seen, todo, names = {name}, [name], set()
        while todo:
            for read in direct.get(todo.pop(), ()):
                if read in direct:
                    if read not in seen:
                        seen.add(read)
                        todo.append(read)
                else:
                    names.add(read)
        out[name] = names
    return out


def _reads(node) -> set[str]:
    """The names an expression reads and the functions it calls (a let with parameters is called)."""
    out = set(names_in(node))
    stack = [node]
    while stack:
        n = stack.pop()
        if n[0] == "call":
            out.add(n[1])
        stack.extend(children(n))
    return out


def _first_node(root, names: set[str]):
    """The first part of the expression (as written) that reads one of `names`, for the caret."""
    stack = [root]
    while stack:
        n = stack.pop()
        if (n[0] == "name" and n[1] in names) or (n[0] == "call" and n[1] in names):
            return n
        stack.extend(reversed(children(n)))
    return None


def check(ctx: Context) -> None:
    from interpreter.checks.expressions import _field, _report

    paths = {ptr: tuple(map(str, path)) for ptr, _, _, path in ctx.fields}
    lets = _let_reads(ctx)
    for ptr, node in ctx.expressions.items():
        path = paths.get(ptr)
        stage = _stage(path) if path else None
        if stage is None or already(ctx, ptr):
            continue
        when, banned = stage
        reads = _reads(node)
        direct = sorted((reads - set(lets)) & banned)      # (a let named like a built-in: E411 says so)
        via = {name: sorted(lets[name] & banned) for name in reads if name in lets and lets[name] & banned}
        if not direct and not via:
            continue
        if direct:
            bad, culprit = direct[0], {direct[0]}
            what = f"'{bad}'"
        else:
            let = sorted(via)[0]
            bad, culprit = via[let][0], {let}
            what = f"'{bad}' (through 'let {let}')"
        err = ExprError("E402", f"{_field(path)} is worked out {when}, so it cannot read {what}: it is not known yet",
                        node=_first_node(node, culprit), help=_HELP_AFTER if bad in AFTER_THE_AUCTION else _HELP_AUCTION)
        _report(ctx, err, str(err), ptr, node)


_HELP_AFTER = ("the declarer, the contract and the sides are known once the auction is over; a seat to start from "
               "is e.g. `forehand` or `next(dealer)`")
_HELP_AUCTION = "the auction's state (`holder`, `high`, `passes`, …) is known once the auction has begun"
