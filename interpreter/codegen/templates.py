"""What generated expressions are written with: the templates of built-in values and functions the
generator inlines (each checked against the engine's implementation before use, expr._same), the loops
of the comprehension forms, and the names the generated module calls at run time."""
from __future__ import annotations

import operator
from fractions import Fraction
from typing import Any

import interpreter.engine.builtins as B
from interpreter.engine import compile as X
from interpreter.engine import deals, figures, sides
from interpreter.registry import reads

# Built-in values the generator writes inline, as source over `st` (the state) and `c` (the activation),
# with what kind of value they give ("int": always a whole number, never none). They mirror the
# lambdas of engine/builtins.VALUES; a name missing here calls that table's function instead.
VALUE_SOURCE: dict[str, tuple[str, str]] = {
    "dealer": ("st.dealer", "int"),
    "declarer": ("st.declarer", "any"),
    "me": ("c.me", "any"),
    "this": ("c.this", "any"),
    "holder": ("st.auction.holder", "any"),
    "leader": ("st.play.leader", "any"),
    "host": ("st.defence.host", "any"),
    "guest": ("st.defence.guest", "any"),
    "active": ("st.active", "any"),
    "defenders": ("st.defenders", "any"),
    "declarers": ("st.declarers", "any"),
    "playing": ("st.playing", "any"),
    "pot": ("st.accounts.get('pot', 0)", "any"),
    "tricks_played": ("len(st.play.history)", "int"),
    "trick_number": ("(len(st.play.history) + 1)", "int"),
    "turn": ("len(st.auction.calls)", "int"),
    "passes": ("st.auction.passes", "any"),
    "double_level": ("st.auction.doubled", "int"),
    "invited": ("st.defence.invited", "any"),
    "compulsory": ("st.defence.compulsory", "any"),
    "all_passed": ("st.all_passed", "any"),
    "high": ("st.high", "any"),
    "final": ("st.final", "any"),
    "contract": ("st.contract", "any"),
    "trump": ("st.trump", "any"),
    "made": ("st.made_in(c)", "any"),
    "deal_number": ("st.deal_number", "any"),
    "side": ("c.vars.get('side', ())", "any"),
    "item": ("c.vars.get('item')", "any"),
    "tricks_total": ("deals.tricks_total(st)", "int"),
    "called_card": ("_card_or_none(st.called_card)", "any"),
    "base_bidder": ("st.base_bidder", "any"),
    "base_contract": ("(st.base_con.ref if st.base_con is not None else None)", "any"),
    "given_up": ("st.given_up", "any"),
    "honours": ("(st.con.honours if st.con is not None else 0)", "any"),
}

# Built-in functions written inline: a format over the arguments' source, and the result's kind.
FUNCTION_SOURCE: dict[str, tuple[str, str]] = {
    "next": ("st.next({0})", "any"),
    "prev": ("st.prev({0})", "any"),
    "tricks": ("st.tricks({0})", "int"),
    "first_call": ("st.first_call({0})", "any"),
    "first_bid": ("st.first_bid({0})", "any"),
    "latest": ("st.latest({0})", "any"),
    "has_bid": ("st.has_bid({0})", "any"),
    "spoke": ("st.spoke({0})", "any"),
    "went_along": ("({0} in st.playing)", "any"),
    "size": ("size({0})", "int"),
    "holds": ("st.holds({0}, as_mask({1}))", "any"),
    "count_in": ("st.count_in(as_mask({0}), {1})", "int"),
    "holder_of": ("holder_of(st, {0})", "any"),
    "order": ("st.order_of({0})", "int"),
    "points": ("_points(c, {0})", "any"),
    "captured": ("st.captured({0}, as_mask({1}))", "any"),
    "dealt": ("st.dealt({0}, as_mask({1}))", "int"),
    "played_card": ("played_card(st, {0}, {1})", "any"),
    "winning_card": ("winning_card(st, {0})", "any"),
    "trick_winner": ("st.trick_winner({0})", "any"),
    "won_trick": ("st.won_trick({0}, {1})", "any"),
    "partner_of": ("sides.partner_of(st, {0})", "any"),
    "declared": ("figures.declared(st, {0})", "any"),
    "declared_by": ("figures.declared_by(st, {0}, {1})", "any"),
    "declarations": ("figures.declarations(st, {0})", "int"),
    "kontras": ("figures.kontras(st, {0})", "int"),
    "kontras_between": ("figures.kontras_between(st, {0}, {1})", "int"),
    "kontras_by": ("figures.kontras_by(st, {0})", "int"),
    "passed": ("figures.passed(st, {0})", "any"),
}

# Built-in functions written above whose implementation first reads one part of the state and, when it
# is empty (most deals: nothing declared, no kontra), gives a value at once: the template is then written
# as that check, with the call only when the part is not empty (checked by expr._early_holds). Name →
# (the implementation, the check over `st`, the value, arguments to probe it with).
EARLY: dict[str, tuple[Any, str, Any, tuple]] = {
    "declared_by": (figures.declared_by, "st.announce.declared", False, ("x", 0)),
    "kontras": (figures.kontras, "st.announce.chains", 0, ("x",)),
}

# Built-in functions written out in full where every argument is a plain name or a constant (each is read
# more than once): the source over the arguments, the kind of value it gives, and the implementation it
# mirrors with the names that implementation's code uses, as when the source was written (expr._call
# checks them: a changed implementation is called through its template above until this is brought in
# step). `declared_by`: the seat that declared the figure, looked up as the figure itself (a name or a
# Ref: a string), among the side's when the side is a tuple; the call for anything else.
INLINE: dict[str, tuple[str, str, Any, tuple[str, ...]]] = {
    "declared_by": ("(((_dv in {1} if type({1}) is tuple else figures.declared_by(st, {0}, {1}))"
                    " if (_dv := _dd.get({0})) is not None"
                    " else (not isinstance({0}, str) and figures.declared_by(st, {0}, {1})))"
                    " if (_dd := st.announce.declared) else False)",
                    "bool", figures.declared_by,
                    ("announce", "declared", "get", "isinstance", "str", "type", "tuple", "int", "_seats_of")),
}
# The same where the first argument is a constant string (a figure's name or Ref): looked up as itself, so
# not found it is not declared (no call to look it up as its text).
INLINE_STR: dict[str, str] = {
    "declared_by": ("(((_dv in {1} if type({1}) is tuple else figures.declared_by(st, {0}, {1}))"
                    " if (_dv := _dd.get({0})) is not None else False)"
                    " if (_dd := st.announce.declared) else False)"),
}

# The state's readings written out in full where the argument is a plain name or the declarer's attribute
# (it is read more than once): the source over the argument, and the names the state's method (the
# template's name, engine/readings.py) used when the source was written (expr._call checks them: a changed
# method is called through its template above until this is brought in step). `next`/`prev` of a seat: its
# entry in the ring of the active seats when the ring is the one kept for them; anything else the call.
RING_READ = ("(_sr[{1}][{0}] if type({0}) is int and 0 <= {0} < st.n and (_sr := st._seat_ring)[0] is st.active"
             " else st.{2}({0}))")
READING_INLINE: dict[str, tuple[str, tuple[str, ...]]] = {
    "next": (RING_READ.replace("{1}", "1").replace("{2}", "next"), ("_seat_ring", "active", "_ring", "n", "_step")),
    "prev": (RING_READ.replace("{1}", "2").replace("{2}", "prev"), ("_seat_ring", "active", "_ring", "n", "_step")),
    # `tricks` of a seat: its entry in the tricks won; anything else (a side, none) the call (SEAT_READS)
    "tricks": ("(st.play.tricks_won[{0}] if type({0}) is int else st.tricks({0}))",
               ("play", "tricks_won", "type", "int", "tuple", "isinstance")),
}
# the readings above for a seat: written out only where the argument is a plain name but a figure's side
# (always a tuple: the check would only add to the call), by the names the generator gives it
# (codegen/known.py, _of_side)
SEAT_READS = frozenset({"tricks"})
SIDE_NAMES = frozenset({"_sd", "side"})
# `size` of one of the state's sides (always a tuple, expr._SEAT_TUPLES): its length, as size gives it for a
# tuple, with the names size used when this was written
SIZE_OF_TUPLE = ("len({0})", B.size, ("isinstance", "int", "bool", "bin", "count", "len"))
# `size` of anything else: a tuple's length where it is one (no call), else the call
SIZE_ANY = "(len(_sz) if type(_sz := {0}) is tuple else size(_sz))"

# What the templates below mirror, with the names its code used when they were written (expr.py checks
# them: a changed implementation is called as it is until its template is brought in step).
# `attr(x, name)` of a Ref: its record's entry when it has one (no call); anything else through attr.
ATTR_SOURCE = ("(_ra[{1}] if type({0}) is Ref and {1} in (_ra := {0}.rec) else attr({0}, {1}))",
               X.attr, ("isinstance", "Ref", "str", "rec", "get", "dict", "getattr"))
# `call_attr(call, name)` (below) of a name other than `name`: the entry of the call's Ref's record when it
# has one (no call); anything else (none, no such entry) through call_attr
CALL_ATTR_SOURCE = ("(_ca[{1}] if (_cc := {0}) is not None and type(_cr := _cc.ref) is Ref and {1} in (_ca := _cr.rec)"
                    " else call_attr({0}, {1}))", ("ref", "type", "X", "Ref", "attr", "rec", "get"))
# `a ^ b` of a whole number a from -2 to 2 (a power of it up to the largest exponent stays within the
# largest power) and a whole-number exponent up to that: `**` (no call); anything else through power.
POWER_SOURCE = ("({0} ** _pe if type(_pe := {1}) is int and 0 <= _pe <= {2} else power({0}, _pe))",
                X.power, ("type", "int", "MAX_EXPONENT", "MAX_POWER", "_num", "isinstance", "Fraction",
                          "denominator", "bool", "RuleRuntimeError", "abs"))
# `x in coll` of a tuple: Python's `in` (no call); anything else (none, a card mask) through contains.
CONTAINS_SOURCE = ("({1} {2} {0} if type({0}) is tuple else {3}contains({0}, {1}))",
                   X.contains, ("isinstance", "int", "bool"))
# Parts of the state a comprehension's loop reads at every step as the templates write them (`(name :=
# source)`), read once before the loop instead: nothing changes the state while an expression is judged.
LOOP_INVARIANT = ("(_dd := st.announce.declared)", "(_fl := figures.listed(st))",
                  "(_fj := st.announce.given is None)")

_CMP = {"<", "<=", ">", ">="}

# comprehension → (the names its reference reduction uses, start, loop step over `v` and `m`, result);
# mirrors engine/builtins.COMPREHENSIONS, including where any/all stop early
REDUCTIONS: dict[str, tuple[set[str], str, tuple[str, ...], str]] = {
    "sum": ({"sum", "num"}, "0", ("acc = acc + num(v)",), "acc"),
    "count": ({"sum"}, "0", ("if v:", "    acc += 1"), "acc"),
    "any": ({"any"}, "False", ("if v:", "    acc = True", "    break"), "acc"),
    "all": ({"all"}, "True", ("if not v:", "    acc = False", "    break"), "acc"),
    "min": ({"min", "num"}, "[]", ("acc.append(num(v))",), "min(acc, default=0)"),
    "max": ({"max", "num"}, "[]", ("acc.append(num(v))",), "max(acc, default=0)"),
    "set": ({"tuple", "isinstance", "bool"}, "[]", ("if v is m or v is True or (not isinstance(v, bool) and v):", "    acc.append(m)"),
            "tuple(acc)"),
}


# The functions of runtime_namespace() that, handed an activation, read nothing of it but the state (and
# its cache): as declared by their implementations in engine/builtins.py. Every other one is taken to read
# what compiled code outside any scope reads (reads.TOP).
STATE_ONLY_HELPERS = frozenset({"_min", "_max", "_points", "_punits"})


def runtime_namespace() -> dict[str, Any]:
    """What generated expressions call, besides their own constants."""
    return {
        "Fraction": Fraction, "Party": X.Party, "attr": X.attr, "num": X._num, "div": X.div, "mod": X.mod,
        "power": X.power, "contains": X.contains, "Ref": X.Ref, "size": B.size, "_min": B._min, "_max": B._max,
        "qcmp_lt": _qcmp(operator.lt), "qcmp_le": _qcmp(operator.le), "qcmp_gt": _qcmp(operator.gt),
        "qcmp_ge": _qcmp(operator.ge),
        "cmp_lt": X._cmp("<"), "cmp_le": X._cmp("<="), "cmp_gt": X._cmp(">"),
        "cmp_ge": X._cmp(">="), "members": members, "MISSING": _MISSING, "call_attr": call_attr,
        "deals": deals, "figures": figures, "sides": sides, "as_mask": B.as_mask, "played_card": B.played_card,
        "holder_of": B.holder_of,
        "winning_card": B.winning_card, "_card_or_none": B._card_or_none, "_points": B._points,
        "_punits": B._punits,
    }


def _qcmp(op: Any) -> Any:
    """A comparison of a value with a fraction constant `q` (engine/compile._cmp: false for none), in whole
    numbers for a whole number or a fraction: what Fraction's own comparison works out, without its calls."""
    def cmp(a: Any, q: Fraction) -> bool:
        t = type(a)
        if t is int:
            return op(a * q.denominator, q.numerator)
        if t is Fraction:
            return op(a.numerator * q.denominator, q.numerator * a.denominator)
        return a is not None and op(a, q)
    return cmp


@reads("ref", "type", "X.Ref", "X.attr", "rec.get", mirrors=("CALL_ATTR_SOURCE",))
def call_attr(call: Any, name: str) -> Any:
    """attr(st.contract, name), attr(st.final, name) or attr(st.high, name), given what the property reads
    (st._con, st.final_call, st.auction.high_call): its attribute, none while there is none, without the
    property (readings.contract, .final, .high)."""
    if call is None:
        return None
    ref = call.ref
    if type(ref) is not X.Ref or name == "name":
        return X.attr(ref, name)
    return ref.rec.get(name)          # X.attr of a Ref, without the call


def members(it: Any) -> Any:
    """What a comprehension runs over: a card mask's cards, nothing for none, else the value itself."""
    if isinstance(it, int) and not isinstance(it, bool):
        return B.mask_bits(it)
    return () if it is None else it


_MISSING = object()
