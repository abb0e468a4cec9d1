"""Expression trees → Python expression source, mirroring engine/compile.py node by node.

The source is built only from the checked tree: names are resolved here (to a state attribute, a
let function of the generated module or a constant), literals go through `repr`, and every other
value (a call or contract reference, a card mask table, a built-in function the generator has no
template for) is bound in the module's namespace under a numbered name `K…`. What the generator
does not translate (comprehensions) is evaluated by the reference closure, bound the same way, so
the generated code and the interpreter agree by construction on what they share.

Semantics are the reference's: `and`/`or` give booleans, arithmetic reads `none` as 0 (skipped
where both sides are known to be whole numbers), comparisons with `none` are false, division is
exact, attributes of `none` are `none`.
"""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import interpreter.engine.builtins as B
from interpreter.codegen.known import comprehension, figure_question, given, known_let, let_units, loop_helper
from interpreter.codegen.reads import TOP, reads
from interpreter.codegen.source import (
    _CALLS,
    _CMP_NAME,
    _READ_TWICE,
    G,
    _as_num,
    _early_holds,
    _fold,
    _names,
    _of_nums,
    _reading_holds,
    _same,
    _truth,
    declarer_source,
    let_call,
    let_function,
    mirrors,
    units_of,
)
from interpreter.codegen.templates import (
    _CMP,
    ATTR_SOURCE,
    CALL_ATTR_SOURCE,
    CONTAINS_SOURCE,
    EARLY,
    FUNCTION_SOURCE,
    INLINE,
    INLINE_STR,
    POWER_SOURCE,
    READING_INLINE,
    REDUCTIONS,
    SEAT_READS,
    SIDE_NAMES,
    SIZE_ANY,
    SIZE_OF_TUPLE,
    STATE_ONLY_HELPERS,
    VALUE_SOURCE,
    call_attr,
    runtime_namespace,
)
from interpreter.engine import compile as X
from interpreter.engine import deals
from interpreter.engine.card_values import gives_cards
from interpreter.model import nodes as N

# what deals.tricks_total reads when it gives the hand size of the rule set (no `deal.hand`)
_TRICKS_TOTAL = {"R", "active", "bit_count", "deal_hand", "dealt_hands", "hand_size", "int", "max", "rs"}

_PRIMITIVE = (int, str, bool, type(None))
_IDENT = re.compile(r"[A-Za-z_]\w*")     # a plain name, read as often as it is written
_CARD_OF = re.compile(r"_card_or_none\((st\.\w+)\)")   # a card read off the state (none for none)
# the state's sides as VALUE_SOURCE reads them: always tuples of seats (engine/state.py's blank, sides.form),
# never none or a card mask, so `contains` comes to plain membership
_SEAT_TUPLES = frozenset({"st.active", "st.defenders", "st.declarers", "st.playing"})


class ExprGen:
    """Translates trees against one rule set's compiler (its symbols, roles, lets and accounts)."""

    def __init__(self, comp: X.Compiler, constants: dict[str, Any], notes: dict[str, str],
                 let_names: dict[str, str], n_players: int, tricks_total: int | None):
        self.comp = comp
        self.constants = constants          # name in the module → value (shared with the module builder)
        self.notes = notes                  # name → a one-line description for the printed module
        self.let_names = let_names          # let → the generated function computing it
        self.n_players = n_players
        self.tricks_total = tricks_total
        self.helpers: list[str] = []        # extra functions (let-function bodies) to add to the module
        # a helper (F…, C…) or a bound reference closure → the names of the activation it may read
        # (codegen/reads.py; None: any), so that its callers bind there only what is read
        self.reads: dict[str, frozenset[str] | None] = {
            n: frozenset() if n in STATE_ONLY_HELPERS else TOP for n, fn in runtime_namespace().items() if callable(fn)}
        self._helper_ids: dict[str, str] = {}   # a helper's text (under a placeholder name) → its name
        self._const_ids: dict[Any, str] = {}
        self._parties: dict[str, X.Party] = {}
        self._words_of: dict[int, tuple[Any, frozenset[str]]] = {}
        self._seen: dict[tuple[str, frozenset, tuple, tuple], G] = {}
        self._reprs: dict[int, tuple[N.Node, str]] = {}      # a tree's repr, by the tree's id
        # built-in values known to be constant where the code being generated runs (a contract's play
        # obligations run only under that contract): name → value, folded like a literal
        self.known: dict[str, Any] = {}
        self.local_names: dict[str, str] = {}   # a comprehension's variable or a let function's parameter →
        #                                         the Python local holding it, in the function being generated
        self.let_trees: dict[str, Any] = {}     # let → its tree (set by the module builder), to fold it where
        #                                         the contract is known
        # the payment rows generated per contract at its first settlement (codegen/settle.rows_under): a
        # list's title, rows, trees and generic body by its function's name; the bodies made so far; the
        # helpers already in the module; the source made since
        self.later_rows: dict[str, tuple] = {}
        self.later_variants: dict[str, dict[str, str]] = {}
        self.helpers_done = 0
        self.later_source: list[str] = []
        self.temps = 0                          # the temporaries named so far (a comparison's operands, _cmp)
        self.contracts: dict[str, Any] = {}     # contract → its ContractRT (set by the module builder), for
        #                                         code generated once per contract
        # the call of each let that does not depend on the seat (`L0(c)`, or its own memo under a known
        # contract) → the let, for the payment rows, which read it through a local (codegen/settle._with_lets)
        self.let_of_call: dict[str, str] = {}
        # a figure's goal or attempt as the rules hold it (by id) → its generated function given the side
        self.side_functions: dict[int, str] = {}
        # the denominator of the rule set's point units (readings.point_tables), set by the module builder:
        # comparisons of card points are then written in those units (exact whole numbers), None: never
        self.point_den: int | None = None
        self.unit_calls: set[str] = set()      # the calls of the lets' values in point units (_let_units)

    # ---- constants ---------------------------------------------------------------------------------
    def bind(self, value: Any, note: str) -> str:
        """A name in the module's namespace for a value that has no literal spelling."""
        primitive = (type(value) is tuple and all(type(x) in _PRIMITIVE for x in value)) or type(value) is Fraction
        key = ("value", repr(value)) if primitive else (type(value).__name__, id(value))
        name = self._const_ids.get(key)
        if name is None:
            name = f"K{len(self.constants)}"
            self.constants[name] = value
            self.notes[name] = note
            self._const_ids[key] = name
        return name

    def builtin(self, builtin: str, fn: Any, note: str) -> str:
        """A built-in's implementation bound by name, with what it may read of the activation (as the
        built-in declares it, engine/builtins.READS)."""
        name = self.bind(fn, note)
        self.reads[name] = frozenset() if B.reads_state_only(builtin) else TOP
        return name

    def lit(self, v: Any) -> G:
        if type(v) in _PRIMITIVE:
            return G(repr(v), "int" if type(v) is int else "bool" if type(v) is bool else "any", v)
        if type(v) is Fraction:             # made once, in the module's namespace
            return G(self.bind(v, f"the number {v}"), "any", v)
        if type(v) is tuple and all(type(x) in _PRIMITIVE for x in v):
            return G(repr(v), "any", v)
        desc = f"{v.kind} {str(v)!r}" if isinstance(v, X.Ref) else f"{type(v).__name__} {v!r}"[:80]
        return G(self.bind(v, desc), "any", v)

    def fallback(self, node: N.Node, scope: frozenset) -> G:
        """The reference closure of a node the generator does not translate."""
        fn = self.comp.node(node, scope)
        name = self.bind(fn, f"reference closure for a {N.TAG[type(node)]} node")
        self.reads[name] = frozenset(scope) | TOP      # compiled in this scope: it reads the names there
        return G(name + "(c)")

    # ---- nodes -------------------------------------------------------------------------------------
    def expr(self, node: N.Node, scope: frozenset = frozenset()) -> G:
        """The source of a tree; a tree met again in the same place reads the same (and shares its helpers)."""
        if self.known and not self._words(node) & self.known.keys():
            # a tree that names none of the known values, nor do the lets and let functions it uses:
            # written as where nothing is known (made once, shared by every contract)
            known, self.known = self.known, {}
            try:
                return self.expr(node, scope)
            finally:
                self.known = known
        # keyed by repr: a tree holding True and one holding 1 are equal nodes but different rules
        r = self._reprs.get(id(node))
        if r is None or r[0] is not node:
            r = self._reprs[id(node)] = (node, repr(node))     # the node kept: its id is not reused
        key = (r[1], scope, tuple(self.local_names.items()), tuple((k, id(v)) for k, v in self.known.items()))
        g = self._seen.get(key)
        if g is None:
            g = self._seen[key] = getattr(self, "_" + N.TAG[type(node)])(node, scope)
        return g

    def party(self, node: N.Node) -> G:
        """A payment's `from`/`to` (engine/compile.Compiler.party)."""
        if isinstance(node, N.Name) and node.ident in self.comp.accounts:    # one constant per account
            party = self._parties.setdefault(node.ident, X.Party((node.ident,)))
            return self.lit(party)
        acct = X.account_named(node)
        if acct is not None:
            rest = [self.expr(x) for x in node.args[1:]]     # type: ignore[union-attr]
            items = "".join(f"{r.src}, " for r in rest)
            return G(f"Party(({acct!r}, {items}))")
        return self.expr(node)

    def _num(self, node: N.Num, scope: frozenset) -> G:
        v = node.value
        return self.lit(int(v) if v.denominator == 1 else v)

    def _str(self, node: N.Str, scope: frozenset) -> G:
        return self.lit(node.value)

    def _const(self, node: N.Const, scope: frozenset) -> G:
        return self.lit(node.value)

    def _name(self, node: N.Name, scope: frozenset) -> G:
        n = node.ident
        comp = self.comp
        if n in self.local_names:
            return G(self.local_names[n])
        if n in scope or n in ("s", "t"):
            return G(f"c.vars.get({n!r})")
        if n in comp.lets:
            if self.known and n in self.let_trees and n not in comp.seat_dependent:
                g = known_let(self, n)
                if g is not None:
                    if not g.const:
                        self.let_of_call[g.src] = n
                        g = G(g.src, g.kind, units=let_units(self, n))
                    return g
            fname = self.let_names.get(n) or self.bind(comp.lets[n], f"let {n!r}")
            if fname not in self.reads:     # a let is compiled outside any scope; one that does not depend on
                from interpreter.engine.prepare import SEAT_NAMES  # the seat reads none of the seat's names
                self.reads[fname] = TOP if n in comp.seat_dependent else TOP - SEAT_NAMES
            if n not in comp.seat_dependent:
                self.let_of_call[f"{fname}(c)"] = n
            return G(f"{fname}(c)", units=let_units(self, n))
        if n not in comp.symbols:
            if n in self.known and n in VALUE_SOURCE and _same(VALUE_SOURCE[n][0], B.VALUES.get(n)):
                return self.lit(self.known[n])
            if n in comp.roles:
                return G(f"((st.dealer + {comp.roles[n]!r}) % st.n)", "int")
            if n in comp.game_accounts:
                return G(f"st.accounts.get({n!r}, 0)")
            if n in B.VALUES:
                if n == "players" and _names(B.VALUES[n]) == {"st", "R", "players"}:
                    return self.lit(self.n_players)     # a constant of the rule set, folded
                if (n == "tricks_total" and self.tricks_total is not None
                        and _same(VALUE_SOURCE[n][0], B.VALUES[n]) and _names(deals.tricks_total) == _TRICKS_TOTAL):
                    return self.lit(self.tricks_total)  # every hand dealt in full: a constant of the rule set
                if n in VALUE_SOURCE and _same(VALUE_SOURCE[n][0], B.VALUES[n]):
                    src, kind = VALUE_SOURCE[n]
                    if src == "st.declarer":    # the attribute behind the property, where that is all it reads
                        src = declarer_source()
                    return G(src, kind)
                return G(self.builtin(n, B.VALUES[n], f"built-in value {n!r}") + "(c)")
        if n in comp.symbols:
            return self.lit(comp.symbols[n])
        return self.lit(n)  # an enum word

    def _words(self, node: Any) -> frozenset[str]:
        """Every string in the tree (names among them), with those of the lets and let functions it names:
        more than the names it reads, never fewer."""
        got = self._words_of.get(id(node))
        if got is not None:
            return got[1]
        out: set[str] = set()
        stack = [node]
        while stack:
            x = stack.pop()
            out.update(N.words_of(x))
            stack.extend(N.sub_nodes(x))
        for n in list(out):
            tree = self.let_trees.get(n)
            if tree is None and n in self.comp.let_functions:
                tree = self.comp.let_functions[n][1]
            if tree is not None and tree is not node:
                self._words_of[id(node)] = (node, frozenset(out))    # a let met again while its words are read
                out |= self._words(tree)
        if "achieved" in out or "attempted" in out:
            out.add("contract")             # a figure question reads the figures the contract lists
        words = frozenset(out)
        self._words_of[id(node)] = (node, words)    # the tree kept, so that its id stays its own
        return words

    def let_source(self, call: str) -> str | None:
        """The own source of the let that `call` calls (let_of_call), as it reads here (the contract known
        or not); None when the generator does not hold its tree."""
        n = self.let_of_call.get(call)
        if n is None or n not in self.let_trees:
            return None
        outer, self.local_names = self.local_names, {}      # a let is compiled outside any scope
        try:
            return self.expr(self.let_trees[n]).src
        finally:
            self.local_names = outer

    def _list(self, node: N.ListOf, scope: frozenset) -> G:
        items = [self.expr(x, scope) for x in node.items]
        if all(i.const for i in items):
            return self.lit(tuple(i.value for i in items))
        return G("(" + "".join(f"{i.src}, " for i in items) + ")")

    def _attr(self, node: N.Attr, scope: frozenset) -> G:
        obj = self.expr(node.obj, scope)
        if obj.const:
            return self.lit(X.attr(obj.value, node.name))
        # the contract's attribute, without the property chain; a call's, without the property (readings.final,
        # .high); its record's entry without the call where call_attr is as its template mirrors it
        call = "st._con" if obj.src == "st.contract" else _CALLS.get(obj.src)
        if call is not None:
            if node.name != "name" and mirrors(call_attr, "CALL_ATTR_SOURCE", CALL_ATTR_SOURCE[1]):
                return G(CALL_ATTR_SOURCE[0].format(call, repr(node.name)))
            return G(f"call_attr({call}, {node.name!r})")
        if node.name != "name" and mirrors(ATTR_SOURCE[1], "ATTR_SOURCE", ATTR_SOURCE[2]):
            if _IDENT.fullmatch(obj.src):
                return G(ATTR_SOURCE[0].format(obj.src, repr(node.name)))   # a Ref's entry without the call
            if obj.src == "c.this":     # the call or contract judged (an auction's `allowed`): read once
                return G(ATTR_SOURCE[0].replace("type({0})", "type(_to := {0})").replace("{0}.rec", "_to.rec")
                         .replace("attr({0}", "attr(_to").format(obj.src, repr(node.name)))
        return G(f"attr({obj.src}, {node.name!r})")

    def _not(self, node: N.Not, scope: frozenset) -> G:
        a = self.expr(node.a, scope)
        if a.const:
            return self.lit(not a.value)
        return G(f"(not {a.src})", "bool")

    def _neg(self, node: N.Neg, scope: frozenset) -> G:
        a = self.expr(node.a, scope)
        if a.const:
            return self.lit(-X._num(a.value))
        return G(f"(-{a.src})", "int") if a.kind == "int" else G(f"(-{_as_num(a)})")

    def _if(self, node: N.If, scope: frozenset) -> G:
        cond, then, other = (self.expr(x, scope) for x in (node.cond, node.then, node.other))
        if cond.const:
            return then if cond.value else other
        kind = "int" if then.kind == other.kind == "int" else "any"
        return G(f"({then.src} if {cond.src} else {other.src})", kind)

    def _bin(self, node: N.Bin, scope: frozenset) -> G:
        op = node.op
        a = self.expr(node.a, scope)
        if op in ("and", "or") and a.const and bool(a.value) == (op == "or"):
            return self.lit(bool(a.value))      # decided by the left side: the right one is not generated
        b = self.expr(node.b, scope)
        if op in ("and", "or"):
            if a.const:
                return self.lit(bool(b.value)) if b.const else G(_truth(b), "bool")
            if b.const:
                # `a and true` is a's truth; `a and false` is false whatever a is (the language's
                # expressions have no effects, and a checked one does not fail); `or` the same way round
                if bool(b.value) == (op == "or"):
                    return self.lit(bool(b.value))
                return G(_truth(a), "bool")
            return G(f"({_truth(a)} {op} {_truth(b)})", "bool")
        if op == "+" and (gives_cards(self.comp, node.a, scope) or gives_cards(self.comp, node.b, scope)):
            return G(f"(as_mask({a.src}) | as_mask({b.src}))")       # two sets of cards: their union
        if a.const and b.const and op != "^":
            return self.lit(_fold(op, a.value, b.value))
        both_int = a.kind == "int" and b.kind == "int"
        if op in ("+", "-", "*"):
            if both_int:
                return G(f"({a.src} {op} {b.src})", "int")
            na, nb = _as_num(a), _as_num(b)
            return G(f"({na} {op} {nb})")
        if op == "/":
            return G(f"div({a.src}, {b.src})")
        if op == "%":
            return G(f"mod({a.src}, {b.src})", "int" if both_int else "any")
        if op == "^":     # of whole numbers a whole number (or an error)
            if (a.const and type(a.value) is int and -2 <= a.value <= 2
                    and mirrors(POWER_SOURCE[1], "POWER_SOURCE", POWER_SOURCE[2])):
                base = a.src if a.value >= 0 else f"({a.src})"     # (`-2 ** n` is -(2 ** n))
                return G(POWER_SOURCE[0].format(base, b.src, X.MAX_EXPONENT), "int" if both_int else "any")
            return G(f"power({a.src}, {b.src})", "int" if both_int else "any")
        if op in _CMP or op in ("==", "!="):
            ua, ub = units_of(a, self.point_den), units_of(b, self.point_den)
            if ua is not None and ub is not None:   # card points against points or a number: in whole units
                return G(f"({ua} {op} {ub})", "bool")
        if op in ("==", "!="):
            for x, y in ((a, b), (b, a)):
                call = _CALLS.get(x.src)
                if call is not None and y.const and y.value is None:
                    # a call against none: whether there is one (a call's ref is a name, never none, and a
                    # name equals none only when it is none)
                    return G(f"({call} {'is' if op == '==' else 'is not'} None)", "bool")
                card = _CARD_OF.fullmatch(x.src)
                if card is not None and y.const and y.value is None:    # a card is none where its index is
                    return G(f"({card[1]} {'is' if op == '==' else 'is not'} None)", "bool")
            return G(f"({a.src} {op} {b.src})", "bool")
        if op in ("in", "not in"):
            neg = "not " if op == "not in" else ""
            if isinstance(node.b, N.ListOf) or b.src in _SEAT_TUPLES:     # a tuple: plain membership
                return G(f"({a.src} {op} {b.src})", "bool")
            if _IDENT.fullmatch(b.src) and mirrors(CONTAINS_SOURCE[1], "CONTAINS_SOURCE", CONTAINS_SOURCE[2]):
                return G(CONTAINS_SOURCE[0].format(b.src, a.src, op, neg), "bool")   # a tuple's, without the call
            return G(f"({neg}contains({b.src}, {a.src}))", "bool")
        if op in _CMP:
            if both_int:
                return G(f"({a.src} {op} {b.src})", "bool")
            if b.const and type(b.value) is Fraction:    # against a fraction: in whole numbers where it can
                return G(f"qcmp_{_CMP_NAME[op]}({a.src}, {b.src})", "bool")
            return self._cmp(op, a, b)
        raise ValueError(op)

    def _cmp(self, op: str, a: G, b: G) -> G:
        """`a op b` of values that may be none (false then), as compile._cmp's function judges it, written out
        where that function is as this mirrors it: both operands evaluated, in order, once each, into
        temporaries of their own (an operand may hold another comparison)."""
        if not mirrors(X._cmp(op), "_cmp", ()):
            return G(f"cmp_{_CMP_NAME[op]}({a.src}, {b.src})", "bool")
        self.temps += 1
        x, y = f"_l{self.temps}", f"_r{self.temps}"
        if b.const and b.value is not None:
            return G(f"(({x} := {a.src}) is not None and {x} {op} {b.src})", "bool")
        if a.const and a.value is not None:
            return G(f"(({y} := {b.src}) is not None and {a.src} {op} {y})", "bool")
        return G(f"(False if (({x} := {a.src}) is None) | (({y} := {b.src}) is None) else {x} {op} {y})", "bool")

    def _call(self, node: N.Call, scope: frozenset) -> G:
        name, argn = node.fname, node.args
        comp = self.comp
        acct = X.account_named(node)
        if acct is not None:
            rest = "".join(f", {self.expr(x, scope).src}" for x in argn[1:])
            return G(f"st.account({acct!r}{rest})")
        args = [self.expr(x, scope) for x in argn]
        if name in comp.let_functions:
            params, body_node = comp.let_functions[name]
            local = {p: f"p{i}" for i, p in enumerate(params)}
            outer, self.local_names = self.local_names, local
            try:
                body = self.expr(body_node, frozenset(scope) | set(params))
                body_src = body.src
            finally:
                self.local_names = outer
            body_reads = reads(body_src, self.reads)
            bound = params if body_reads is None else tuple(p for p in params if p in body_reads)
            # written out at the call, or a call of a helper named after its body (which may add helpers of its own)
            src = let_call(body_src, bound, args, lambda: self._helper(
                "F", let_function("{name}", name, params, body_src, bound),
                None if body_reads is None else body_reads - set(params)))
            return G(src, body.kind)
        impl = B.FUNCTIONS.get(name)
        if impl is None:
            return self.fallback(node, scope)
        if (name in FUNCTION_SOURCE and len(args) == FUNCTION_SOURCE[name][0].count("{")
                and _same(FUNCTION_SOURCE[name][0], impl)):
            fmt, kind = FUNCTION_SOURCE[name]
            if name == "size" and args[0].src in _SEAT_TUPLES and mirrors(SIZE_OF_TUPLE[1], "SIZE_OF_TUPLE", SIZE_OF_TUPLE[2]):
                return G(SIZE_OF_TUPLE[0].format(args[0].src), "int")     # a side is a tuple: its length
            if name == "size" and mirrors(SIZE_OF_TUPLE[1], "SIZE_ANY", SIZE_OF_TUPLE[2]):
                return G(SIZE_ANY.format(args[0].src), "int")
            if (name in READING_INLINE and (args[0].const or _READ_TWICE.fullmatch(args[0].src))
                    and (name not in SEAT_READS or (_IDENT.fullmatch(args[0].src) and args[0].src not in SIDE_NAMES)) and _reading_holds(name)):
                return G(READING_INLINE[name][0].format(args[0].src), kind)
            inline = INLINE.get(name)
            if (inline is not None and mirrors(inline[2], "INLINE", inline[3])
                    and all(a.const or _IDENT.fullmatch(a.src) for a in args)):
                fmt = INLINE_STR[name] if name in INLINE_STR and args[0].const and isinstance(args[0].value, str) else inline[0]
                return G(fmt.format(*(a.src for a in args)), inline[1])
            for i, a in enumerate(args):      # a constant card mask is its own mask
                if a.const and type(a.value) is int:
                    fmt = fmt.replace(f"as_mask({{{i}}})", f"{{{i}}}")
            src = fmt.format(*(a.src for a in args))
            if name == "points" and self.point_den is not None:     # the same count in point units
                return G(src, kind, units=f"_punits(c, {args[0].src})")
            early = EARLY.get(name)
            if early is not None and _early_holds(name):   # the call only when its first check lets it on
                return G(f"({src} if {early[1]} else {early[2]!r})", kind)
            return G(src, kind)
        if name in ("min", "max"):
            if all(a.const for a in args):
                return self.lit(impl(None, *(a.value for a in args)))
            if _of_nums(impl, name):        # min/max of the values as numbers, without the generator
                kind = "int" if all(a.kind == "int" for a in args) else "any"
                if len(args) == 1:
                    return G(_as_num(args[0]), kind)
                return G(f"{name}(" + ", ".join(_as_num(a) for a in args) + ")", kind)
            return G(f"_{name}(c" + "".join(f", {a.src}" for a in args) + ")")
        asked = figure_question(self, name, args)    # of a figure known here, the contract known
        if asked is not None:
            return asked
        fn = self.builtin(name, impl, f"built-in function {name!r}")
        return G(f"{fn}(c" + "".join(f", {a.src}" for a in args) + ")")

    def _helper(self, prefix: str, text: str, helper_reads: frozenset[str] | None) -> str:
        """The name of a helper function whose text (its name spelt `{name}`) is `text`: one already made
        with the same text, else a new one."""
        fname = self._helper_ids.get(text)
        if fname is None:
            fname = self._helper_ids[text] = f"{prefix}{len(self.helpers)}"
            self.helpers.append(text.replace("{name}", fname, 1))
            self.reads[fname] = helper_reads
        return fname

    def _comp(self, node: N.Comp, scope: frozenset) -> G:
        """A comprehension as a loop in a helper function. The collection is worked out by the caller and
        passed in, as are the caller's locals the loop reads; the variable is bound in the activation as
        the reference binds it only when something called in the loop may read it there."""
        fname, body, var, iterable, cond = node.fname, node.body, node.var, node.iterable, node.cond
        reduce = B.COMPREHENSIONS.get(fname)
        if fname not in REDUCTIONS or reduce is None or not mirrors(reduce, "REDUCTIONS", REDUCTIONS[fname][0]):
            return self.fallback(node, scope)
        unrolled = comprehension(self, node, scope)     # over a constant collection: member by member
        if unrolled is not None:
            return unrolled
        inner = frozenset(scope) | {var}
        it = self.expr(iterable, scope).src
        outer = self.local_names
        args = {n: f"a{i}" for i, n in enumerate(outer) if n != var}
        self.local_names = {**args, var: "m"}
        try:
            fcond = self.expr(cond, inner).src if cond is not None else None
            gbody = self.expr(given(body, cond), inner)   # what the condition holds, known in the body
            fbody = gbody.src
        finally:
            self.local_names = outer
        name, call_args = loop_helper(self, fname, var, args, outer, fcond, fbody, gbody.kind)
        kind = "int" if fname == "count" else "bool" if fname in ("any", "all") else "any"
        units = None
        if fname in ("max", "min") and gbody.units is not None:
            # the greatest or least count of card points: the same in point units (never none: no num())
            uname, uargs = loop_helper(self, fname, var, args, outer, fcond, gbody.units, "int")
            units = f"{uname}(c, {it}{uargs})"
        return G(f"{name}(c, {it}{call_args})", kind, units=units)

