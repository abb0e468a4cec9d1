"""The generator's templates (interpreter/codegen/templates.py) are in step with the engine's implementations
(engine/builtins.py, readings, figures, compile's operators).

Each implementation declares, beside it, what it reads and which templates mirror it (interpreter/registry.Reads);
the generator writes a template only where that declaration names what the template was written against
(codegen/source.mirrors), else it calls the implementation, which is right but slow, and nothing else would
tell. The runtime never looks at an implementation's code: here it is looked at, in two ways. A declaration
must name what the implementation's code reads (a changed implementation fails here until its declaration,
and then its template, are brought in step), and each template must give what its implementation gives, on
the states of a few deals of several games and on sample arguments."""
from __future__ import annotations

import importlib
import pkgutil
import random
import types
from fractions import Fraction
from itertools import islice
from typing import Any

import pytest

import interpreter.engine
from interpreter.codegen import templates as T
from interpreter.codegen.source import _names, _same, mirrors
from interpreter.engine import builtins as B
from interpreter.engine import compile as X
from interpreter.registry import Reads, declared

# ---- the declarations against the code ---------------------------------------------------------------------


def _code_names(code: types.CodeType) -> set[str]:
    """The names a function's code reads (attributes, globals, Python's built-ins), its nested code's included."""
    out = set(code.co_names)
    for k in code.co_consts:
        if isinstance(k, types.CodeType):
            out |= _code_names(k)
    return out


def _declared_everywhere() -> dict[str, Any]:
    """Every implementation that declares what it reads: the built-ins' tables, and the functions, methods and
    properties of the engine's modules and of the templates' module."""
    found: dict[str, Any] = {}
    for table, entries in (("VALUES", B.VALUES), ("FUNCTIONS", B.FUNCTIONS), ("COMPREHENSIONS", B.COMPREHENSIONS)):
        for name, fn in entries.items():
            found[f"{table}[{name!r}]"] = fn
    for op in ("<", "<=", ">", ">="):
        found[f"compile._cmp({op!r})"] = X._cmp(op)
    modules = [T] + [importlib.import_module(m.name)
                     for m in pkgutil.walk_packages(interpreter.engine.__path__, "interpreter.engine.")]
    for mod in modules:
        for name, obj in vars(mod).items():
            if isinstance(obj, types.FunctionType) and declared(obj) is not None:
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
            if isinstance(obj, type) and obj.__module__ == mod.__name__:
                for attr, member in vars(obj).items():
                    fn = member.fget if isinstance(member, property) else member
                    if isinstance(fn, types.FunctionType) and declared(fn) is not None:
                        found[f"{mod.__name__}.{name}.{attr}"] = fn
    return found


DECLARED = _declared_everywhere()


def test_every_built_in_value_function_and_reduction_declares_what_it_reads():
    for table in (B.VALUES, B.FUNCTIONS, B.COMPREHENSIONS):
        undeclared = sorted(name for name, fn in table.items() if declared(fn) is None)
        assert not undeclared


@pytest.mark.parametrize("where", sorted(DECLARED))
def test_each_declaration_names_what_its_implementation_reads(where):
    fn = DECLARED[where]
    got = declared(fn)
    assert isinstance(got, Reads)
    assert set(got.names) == _code_names(fn.__code__), (sorted(got.names), sorted(_code_names(fn.__code__)))


def test_each_template_a_declaration_names_is_one_of_the_generators():
    from interpreter.codegen import expr, known, settle, source

    homes = (T, source, known, settle, expr.ExprGen)
    named = {m for fn in DECLARED.values() for m in declared(fn).mirrors}
    assert named
    assert not sorted(m for m in named if not any(hasattr(h, m) for h in homes))


# ---- the generator uses each template (the declaration and the template agree) ------------------------------


@pytest.mark.parametrize("name", sorted(T.FUNCTION_SOURCE))
def test_each_function_template_reads_what_its_implementation_reads(name):
    template = T.FUNCTION_SOURCE[name][0]
    assert _same(template, B.FUNCTIONS[name]), (template, sorted(_names(B.FUNCTIONS[name])))


@pytest.mark.parametrize("name", sorted(n for n in T.VALUE_SOURCE if B.VALUES.get(n) is not None))
def test_each_value_template_reads_what_its_implementation_reads(name):
    template = T.VALUE_SOURCE[name][0]
    assert _same(template, B.VALUES[name]), (template, sorted(_names(B.VALUES[name])))


def test_count_in_of_a_suit_is_written_as_the_states_reading():
    """Hearts' `broken` counts the hearts left in every hand: the generated code reads each hand's count
    (st.count_in with the suit's mask), not through the built-in's function."""
    from interpreter.engine.rules import compile_rules
    from interpreter.pipeline import load
    from interpreter.resources import games_dir

    source = compile_rules(load(games_dir() / "hearts" / "hearts-openspiel.stw"), engine="generated").generated.source
    assert "st.count_in(" in source and "built-in function 'count_in'" not in source


def test_tricks_total_of_a_rule_set_dealing_whole_hands_is_a_constant_of_the_generated_code():
    """Königrufen deals every hand in full (no `deal.hand`): its generated code has the number of tricks as a
    constant, never the call (codegen/expr.py folds it while deals.tricks_total reads what it mirrors)."""
    from interpreter.engine.rules import compile_rules
    from interpreter.pipeline import load
    from interpreter.resources import games_dir

    source = compile_rules(load(games_dir() / "koenigrufen" / "koenigrufen.stw"), engine="generated").generated.source
    assert "tricks_total" in source and "deals.tricks_total(st)" not in source


@pytest.mark.parametrize("text", ["(-2) ^ 2", "(-1) ^ 3", "(0 - 2) ^ 3", "(-1) ^ deal_number", "2 ^ 3", "-2 ^ 2"])
def test_a_power_of_a_negative_whole_number_is_the_references(text):
    """The generator writes a power of a small whole number with `**`: a negative one in brackets (`-2 ** 2` is
    -(2 ** 2) in Python), so that `(-2) ^ 2` is 4 as the reference interpreter has it."""
    from interpreter.codegen.expr import ExprGen
    from interpreter.engine import new_game
    from interpreter.engine.context import Ctx
    from interpreter.model.expression import node_of
    from interpreter.pipeline import load
    from interpreter.resources import games_dir

    st = new_game(load(games_dir() / "skat" / "skat.stw"), seed=1)
    gen = ExprGen(st.R.compiler, {}, {}, {}, 3, 10)
    src = gen.expr(node_of(text)).src
    got = eval(src, {**T.runtime_namespace(), **gen.constants, "st": st, "c": Ctx(st)})
    assert got == st.R.compiler.text(text)(Ctx(st)), src


def test_the_written_out_templates_are_used():
    """The templates written out in full (a Ref's entry, a call's, a power, a tuple's membership and size, the
    state's readings, the inline and early ones, the comparisons, min and max, the reductions, the figures'
    questions, the hoisted `made`, the declarer's attribute) are used only while the implementation declares
    it reads the names recorded with them: here a change that needs its template brought in step shows."""
    from interpreter.codegen import expr, known, settle
    from interpreter.codegen.source import _CALLS, _early_holds, _of_nums, _reading_holds, declarer_source
    from interpreter.engine import deals, figures
    from interpreter.engine.readings import Readings

    assert mirrors(T.ATTR_SOURCE[1], "ATTR_SOURCE", T.ATTR_SOURCE[2])
    assert mirrors(T.call_attr, "CALL_ATTR_SOURCE", T.CALL_ATTR_SOURCE[1])
    assert mirrors(T.POWER_SOURCE[1], "POWER_SOURCE", T.POWER_SOURCE[2])
    assert mirrors(T.CONTAINS_SOURCE[1], "CONTAINS_SOURCE", T.CONTAINS_SOURCE[2])
    assert mirrors(T.SIZE_OF_TUPLE[1], "SIZE_OF_TUPLE", T.SIZE_OF_TUPLE[2])
    assert mirrors(T.SIZE_OF_TUPLE[1], "SIZE_ANY", T.SIZE_OF_TUPLE[2])
    assert all(mirrors(impl, "INLINE", names) for _, _, impl, names in T.INLINE.values())
    assert all(_reading_holds(name) for name in T.READING_INLINE)
    assert all(_early_holds(name) for name in T.EARLY)
    assert all(mirrors(X._cmp(op), "_cmp", ()) for op in ("<", "<=", ">", ">="))
    assert _of_nums(B._min, "min") and _of_nums(B._max, "max")
    assert all(mirrors(B.COMPREHENSIONS[f], "REDUCTIONS", T.REDUCTIONS[f][0]) for f in T.REDUCTIONS)
    assert all(mirrors(getattr(figures, n), "figure_question", names) for n, names in known._QUESTIONS.items())
    assert mirrors(Readings.made_in, "HOISTED", ("_con", "_declarer", "cache", "bool", "goal", "get"))
    assert _CALLS == {"st.final": "st.final_call", "st.high": "st.auction.high_call"}
    assert declarer_source() == "st._declarer"
    assert _names(deals.tricks_total) == expr._TRICKS_TOTAL
    assert _names(B.VALUES["players"]) == {"st", "R", "players"}
    assert settle._NEW_CTX == "Ctx(st, None, None, {})"


# ---- the templates against the implementations, on states ---------------------------------------------------

GAMES = ("skat/skat.stw", "koenigrufen/koenigrufen.stw", "bridge/bridge.stw", "tarok/tarok.stw",
         "schafkopf/schafkopf.stw", "croatian/croatian.stw", "wien/wien.stw", "priffe/priffe.stw")


def _states():
    """The states along one deal of each game (random legal actions, seeded), every third step and the last."""
    from interpreter.engine import new_game
    from interpreter.pipeline import load
    from interpreter.resources import games_dir

    for path in GAMES:
        st = new_game(load(games_dir() / path), seed=3)
        rng = random.Random(3)
        step = 0
        while True:
            actions = st.legal_actions()
            if step % 3 == 0 or not actions:
                yield path, st
            if not actions:
                break
            st.apply(rng.choice(actions))
            step += 1


def _outcome(fn: Any) -> tuple:
    try:
        v = fn()
    except Exception as e:          # the same error either way counts as the same
        return ("raises", type(e).__name__)
    return ("gives", type(v).__name__, v)


class _Eval:
    """Templates evaluated with the generated code's names, each compiled once."""

    def __init__(self) -> None:
        self.ns = T.runtime_namespace()
        self.code: dict[str, types.CodeType] = {}

    def __call__(self, src: str, **names: Any) -> tuple:
        code = self.code.get(src)
        if code is None:
            code = self.code[src] = compile(src, "<template>", "eval")
        return _outcome(lambda: eval(code, {**self.ns, **names}))     # (the generator's own templates)


def _seat_args(st: Any) -> list:
    return [None, 0, st.n - 1, st.n, -1, tuple(st.active), st.declarers, "x"]


def _any_args(st: Any) -> list:
    from interpreter.engine.builtins import card_value
    return [*_seat_args(st)[:4], tuple(st.active), st.hands[0], card_value(st.hands[1].bit_length() - 1 if st.hands[1] else 0),
            st.final, "x", True]


def _activation(st: Any) -> Any:
    from interpreter.engine.context import Ctx
    c = Ctx(st, st.to_act if st.to_act >= 0 else None, st.final)
    c.vars.update(side=tuple(st.declarers), item=st.contract)
    return c


def _values_differ(ev: _Eval, st: Any, c: Any) -> list:
    out = []
    for name, (src, _) in T.VALUE_SOURCE.items():
        if (got := ev(src, st=st, c=c)) != (want := _outcome(lambda n=name, c=c: B.VALUES[n](c))):
            out.append((name, got, want))
    return out


def _forms(name: str, src: str, args: tuple) -> list[tuple[str, str]]:
    """The function's template over the arguments `a0`, `a1`, and the other templates written for it."""
    forms = [("FUNCTION_SOURCE", src)]
    if name in T.EARLY:
        forms.append(("EARLY", f"({src} if {T.EARLY[name][1]} else {T.EARLY[name][2]!r})"))
    if name in T.INLINE:
        forms.append(("INLINE", T.INLINE[name][0].format("a0", "a1")))
        if isinstance(args[0], str) and name in T.INLINE_STR:     # (written so for a constant string only)
            forms.append(("INLINE_STR", T.INLINE_STR[name].format("a0", "a1")))
    if name in T.READING_INLINE:
        forms.append(("READING_INLINE", T.READING_INLINE[name][0].format("a0")))
    return forms


def _functions_differ(ev: _Eval, st: Any, c: Any) -> list:
    out = []
    pool = _any_args(st)
    for name, (fmt, _) in T.FUNCTION_SOURCE.items():
        arity = fmt.count("{")
        for args in ([(a,) for a in pool] if arity == 1 else [(a, b) for a in pool[:8] for b in pool[:8]]):
            names = {f"a{i}": a for i, a in enumerate(args)}
            want = _outcome(lambda n=name, a=args, c=c: B.FUNCTIONS[n](c, *a))
            for form, src in _forms(name, fmt.format(*names), args):
                if (got := ev(src, st=st, c=c, **names)) != want:
                    out.append((form, name, args, got, want))
    return out


def test_the_value_and_function_templates_give_what_their_implementations_give():
    ev = _Eval()
    differ: list = []
    for path, st in _states():
        c = _activation(st)
        differ += [(path, *d) for d in _values_differ(ev, st, c) + _functions_differ(ev, st, c)]
    assert not differ[:5], len(differ)


def test_the_operator_templates_give_what_the_reference_gives():
    """A Ref's entry, a call's, a power, membership, size and the comparisons, as the generator writes them."""
    from interpreter.codegen.expr import ExprGen
    from interpreter.codegen.source import G

    ev = _Eval()
    differ: list = []
    calls: list = [None]
    for _, st in islice(_states(), 0, None, 7):
        calls += [st.final_call, st.auction.high_call]
        if st._con is not None:
            calls.append(st._con)
    refs = [call.ref for call in calls if call is not None] + [None, {"a": 1}, "x", 3]
    keys = sorted({k for r in refs if isinstance(r, X.Ref) for k in r.rec} | {"name", "nowhere"})
    for ref in refs:
        for key in keys:
            want = _outcome(lambda r=ref, k=key: X.attr(r, k))
            if key != "name" and (got := ev(T.ATTR_SOURCE[0].format("a0", repr(key)), a0=ref)) != want:
                differ.append(("ATTR", ref, key, got, want))
    for call in calls:
        for key in keys:
            want = _outcome(lambda v=call, k=key: T.call_attr(v, k))
            if key != "name" and (got := ev(T.CALL_ATTR_SOURCE[0].format("a0", repr(key)), a0=call)) != want:
                differ.append(("CALL_ATTR", call, key, got, want))
            if call is not None and want != _outcome(lambda v=call, k=key: X.attr(v.ref, k)):
                differ.append(("call_attr", call, key))
    for a in (-2, -1, 0, 1, 2):
        for b in (0, 1, 5, X.MAX_EXPONENT, X.MAX_EXPONENT + 1, -1, None, Fraction(1, 2), Fraction(4, 2), True):
            src = T.POWER_SOURCE[0].format(f"({a})", "a1", X.MAX_EXPONENT)     # (a negative base in brackets)
            if (got := ev(src, a1=b)) != (want := _outcome(lambda a=a, b=b: X.power(a, b))):
                differ.append(("POWER", a, b, got, want))
    values = [None, 0, 1, 3, True, "x", (0, 1), (), 0b1010, B.card_value(1), -1]
    for coll in values:
        for item in values:
            for op, neg in (("in", ""), ("not in", "not ")):
                want = _outcome(lambda c=coll, i=item, n=neg: (not X.contains(c, i)) if n else X.contains(c, i))
                if (got := ev(T.CONTAINS_SOURCE[0].format("a0", "a1", op, neg), a0=coll, a1=item)) != want:
                    differ.append(("CONTAINS", coll, op, item, got, want))
        want = _outcome(lambda c=coll: B.size(c))
        if (got := ev(T.SIZE_ANY.format("a0"), a0=coll)) != want:
            differ.append(("SIZE_ANY", coll, got, want))
        if type(coll) is tuple and (got := ev(T.SIZE_OF_TUPLE[0].format("a0"), a0=coll)) != want:
            differ.append(("SIZE_OF_TUPLE", coll, got, want))
    numbers = [None, 0, 1, -1, Fraction(1, 2), 2, True, False]
    for op in ("<", "<=", ">", ">="):
        for a in numbers:
            for b in numbers:
                gen = types.SimpleNamespace(temps=0)
                forms = [ExprGen._cmp(gen, op, G("a0"), G("a1"))]      # type: ignore[arg-type]
                forms += [ExprGen._cmp(gen, op, G("a0"), G(repr(b), value=b))] if b is not None and type(b) is not Fraction else []
                want = _outcome(lambda a=a, b=b, op=op: X._cmp(op)(a, b))
                for g in forms:
                    if (got := ev(g.src, a0=a, a1=b)) != want:
                        differ.append(("CMP", op, a, b, g.src, got, want))
    assert not differ[:5], len(differ)


def test_a_built_in_declared_to_read_only_the_state_me_and_this_gives_the_same_whatever_else_is_bound():
    """builtins.READS names each built-in that reads names bound in the activation (or hands it on to what may):
    every other one gives the same with names bound there as without (codegen binds them only where read)."""
    from interpreter.engine.context import Ctx

    differ = []
    for path, st in islice(_states(), 0, None, 2):
        bare = Ctx(st, st.to_act if st.to_act >= 0 else None, st.final)
        bound = Ctx(st, bare.me, bare.this)
        bound.vars.update(s=0, t=1, side=(0,), item="x", p0=1)
        pool = _any_args(st)
        for name, fn, value in [*((n, f, True) for n, f in B.VALUES.items()),
                                *((n, f, False) for n, f in B.FUNCTIONS.items())]:
            if not B.reads_state_only(name):
                continue
            arity = fn.__code__.co_argcount - 1
            for args in ([()] if value else [(a,) for a in pool] if arity == 1 else
                         [(a, b) for a in pool[:6] for b in pool[:6]]):
                if (_outcome(lambda f=fn, a=args, c=bare: f(c, *a))
                        != _outcome(lambda f=fn, a=args, c=bound: f(c, *a))):
                    differ.append((path, name, args))
    assert not differ[:5], len(differ)
