"""Generated code for the hot paths of one rule set: a Python module built from the compiled rules.

    rules = compile_rules(load(NAME), engine="generated")   # interpreter/backends.py registers it
    print(rules.generated.source)                    # what runs; `stichwort compile NAME --show`

Every expression the compiler handed out (engine/compile.Compiler.text/party) becomes a function
`E…` of the activation with the expression inlined as Python source and constants folded; each let a
function `L…` (memoised as the reference memoises it), each let function an `F…` taking its
parameters as arguments, each comprehension a loop `C…`; each contract's play obligations a function
`P…` over card masks (codegen/play.py); each list of payment rows a function `S…` giving the
transfers (codegen/settle.py).

`Generated` is the backend (engine/backend.py) that runs them: it compiles the game once with the
reference closures, generates the module from that, and assembles the game again with the module's
function for each expression tree the module holds (engine/backend.Functions), so every phase — also one
this generator has never heard of — runs them without knowing; what the generator does not translate
keeps the reference closure. `STICHWORT_ENGINE=interpreter` (or `compile_rules(..., engine="interpreter")`)
runs the reference interpreter alone.
"""
from __future__ import annotations

import re
from typing import Any

from interpreter.codegen import cache
from interpreter.codegen.expr import ExprGen, runtime_namespace
from interpreter.codegen.play import ends_never, playable_source
from interpreter.codegen.reads import reads as activation_reads
from interpreter.codegen.settle import rows_source, rows_under
from interpreter.codegen.source import function
from interpreter.codegen.templates import VALUE_SOURCE
from interpreter.engine import rules as engine_rules
from interpreter.engine.backend import REFERENCE_FUNCTIONS
from interpreter.engine.context import Ctx
from interpreter.engine.readings import point_tables
from interpreter.model.expression import as_tuple, text_of


class Module:
    """The generated module of one rule set: its source, and its functions once executed."""

    def __init__(self, source: str, namespace: dict[str, Any], expressions: dict[tuple, str],
                 playables: dict[str, str], settlers: dict[str, str]):
        self.source = source
        self.namespace = namespace
        self.expressions = expressions        # (kind, tree) → function name
        self.playables = playables            # contract → function name
        # a part of the rules' payment rows ("settle", a part of the session) → the function giving its
        # transfers (phases/settle.py)
        self.rows = {part: namespace[fname] for part, fname in settlers.items()}
        self.let_names: dict[str, str] = {}   # let → its function in the module
        self.never_end: list[str] = []        # contracts whose early end is never asked (always false)
        self.gen: Any = None                  # the generator, kept for the rows made per contract later

    def function(self, name: str) -> Any:
        return self.namespace[name]

    def complete(self) -> str:
        """The source with the payment rows of every contract generated as well (they are otherwise made
        at a contract's first settlement): what `stichwort compile --show` prints."""
        gen = self.gen
        if gen is None:
            return self.source
        for name in gen.later_rows:
            table = self.namespace[f"{name}_BY"]
            for con_name in gen.contracts:
                if con_name not in table:
                    self.namespace["ROWS_UNDER"](name, con_name)
        return self.source + "".join("\n\n" + src for src in gen.later_source)


# An expression whose source names no `c` reads nothing of its activation but the state (`st = c.st`):
# its function gets `on_state`, the same expression as a function of the state, which a phase calls
# instead of making an activation for it (`f.on_state(st)` for `f(Ctx(st))`). A `c` in a string literal
# only keeps a function from having it.
_READS_ACTIVATION = re.compile(r"\bc\b")


def _describe(node: Any) -> str:
    try:
        return repr(text_of(node))
    except Exception:  # a tree the printer does not know: the comment is only for readers
        return repr(as_tuple(node)[0])


def build(rules: Any) -> Module:
    """Generate, compile (through the cache) and execute the module of `rules`."""
    comp = rules.compiler
    constants: dict[str, Any] = {}
    notes: dict[str, str] = {}
    lets_doc = rules.rs.game.lets
    let_names = {n: f"L{i}" for i, n in enumerate(n for n in lets_doc if n in comp.lets)}
    gen = ExprGen(comp, constants, notes, let_names, rules.players, _tricks_total(rules))
    gen.contracts = dict(rules.contracts)
    gen.point_den = point_tables(rules)[1]    # card points compared in whole units (readings.point_units)
    for name in let_names:
        gen.let_trees[name] = comp.let_bodies[name]
    # the rule expressions first: the lets' figure questions call the generated goals given the side
    # (gen.side_functions, codegen/known.py)
    expressions, parts, on_state, of_side = _expression_parts(gen, comp)
    let_parts: list[str] = []
    for name, fname in let_names.items():
        src = gen.expr(gen.let_trees[name]).src
        doc = f"let {name!r}"
        if name in comp.seat_dependent:
            let_parts.append(function(fname, src, doc))
        else:
            k = repr("let:" + name)
            let_parts.append(f"def {fname}(c):\n    # {doc}, computed once per settlement\n    st = c.st\n"
                             f"    cache = c.cache\n    if cache is None:\n        return {src}\n"
                             f"    if {k} not in cache:\n        cache[{k}] = {src}\n    return cache[{k}]\n")
    parts = let_parts + parts
    trees = {id(fn): node for fn, kind, node in comp.trees.values() if kind == "expr"}
    playables: dict[str, str] = {}
    never_end: list[str] = []           # contracts whose early end folds to false (codegen/play.ends_never)
    for i, (name, con) in enumerate(rules.contracts.items()):
        play_src = playable_source(f"P{i}", f"contract {name!r}", con, rules, gen, lambda f: trees.get(id(f)))
        if play_src is not None:
            playables[name] = f"P{i}"
            parts.append(play_src)
        if ends_never(con, rules, gen, lambda f: trees.get(id(f))):
            never_end.append(name)
    settlers: dict[str, str] = {}
    tree_of = lambda f: comp.trees[id(f)][1:] if id(f) in comp.trees else None
    lists = [("the settlement", rules.settle_rows)]
    lists += [(f"the session's {k}", v) for k, v in rules.session_rows.parts()]
    for title, rows in lists:
        rows_src = rows_source(f"S{len(settlers)}", title, list(rows), gen, tree_of)
        if rows_src is not None:
            settlers[rows.part] = f"S{len(settlers)}"
            parts.append(rows_src)
    header = [f'"""Generated from the rule set {rules.rs.name!r} by interpreter/codegen; do not edit."""',
              "# Names bound by the engine, not spelled here:"]
    header += [f"#   {k}: {notes[k]}" for k in constants]
    source = "\n".join(header) + "\n\n\n" + "\n\n".join(gen.helpers + parts)
    gen.helpers_done = len(gen.helpers)
    namespace = runtime_namespace()
    namespace["Ctx"] = Ctx
    namespace.update(constants)
    later = f"<stichwort generated: {rules.rs.name}, per contract>"
    namespace["ROWS_UNDER"] = lambda name, con_name: rows_under(
        gen, namespace, name, con_name, lambda src: cache.compiled(src, later))
    exec(cache.compiled(source, f"<stichwort generated: {rules.rs.name}>"), namespace)
    for fname in on_state:
        namespace[fname].on_state = namespace[fname + "_st"]
    for fname in of_side:
        namespace[fname].of_side = namespace[fname + "_side"]
    mod = Module(source, namespace, expressions, playables, settlers)
    mod.gen = gen
    mod.let_names = let_names
    mod.never_end = never_end
    return mod


def _expression_parts(gen: ExprGen, comp: Any) -> tuple[dict[tuple, str], list[str], list[str], list[str]]:
    """Every expression the compiler handed out as a function `E…` (with `E…_st` where it reads the state
    alone, `E…_side` where it reads the activation only for `side`): (kind, tree) → its name, the source,
    the names with `_st`, those with `_side`; the figures' goals and attempts given the side recorded in
    gen.side_functions, by the closure the rules hold."""
    expressions: dict[tuple, str] = {}
    parts: list[str] = []
    on_state: list[str] = []            # expressions that read the state alone (_READS_ACTIVATION)
    of_side: list[str] = []             # expressions that read the activation only for `side` (_of_side)
    for _fn, kind, node in list(comp.trees.values()):
        key = (kind, node)
        if key in expressions:
            continue
        g = gen.party(node) if kind == "party" else gen.expr(node)
        fname = f"E{len(expressions)}"
        expressions[key] = fname
        parts.append(function(fname, g.src, ("party " if kind == "party" else "") + _describe(node)))
        if not _READS_ACTIVATION.search(g.src):
            on_state.append(fname)
            parts.append(f"def {fname}_st(st):\n    # {fname} of the state itself (no activation to make)\n"
                         f"    return {g.src}\n")
        side_src = _of_side(gen, kind, node, g.src)
        if side_src is not None:
            of_side.append(fname)
            parts.append(f"def {fname}_side(c, side):\n    # {fname} of the side given (none bound in the activation)\n"
                         f"    st = c.st\n    return {side_src}\n")
    sided = set(of_side)
    gen.side_functions = {id(fn): f"{expressions[(kind, node)]}_side" for fn, kind, node in comp.trees.values()
                          if expressions[(kind, node)] in sided}
    return expressions, parts, on_state, of_side


# `side` read from the activation, as the generator writes the built-in value (templates.VALUE_SOURCE)
_SIDE = VALUE_SOURCE["side"][0]


def _of_side(gen: ExprGen, kind: str, node: Any, src: str) -> str | None:
    """The expression with `side` a parameter, where it reads that (a figure's goal or attempt) and, so
    written, no name of the activation: its function gets `of_side`, called as `f.of_side(c, side)` for
    `f` judged with `side` alone bound in the activation (engine/figures.py); else None."""
    if kind != "expr" or _SIDE not in src or "side" in gen.comp.lets or "side" in gen.comp.symbols:
        return None
    outer, gen.local_names = gen.local_names, {"side": "side"}
    try:
        g = gen.expr(node)
    finally:
        gen.local_names = outer
    return g.src if activation_reads(g.src, gen.reads) == frozenset() else None


class Generated:
    """The backend of generated code (engine/backend.py): the game compiled with the reference closures,
    its module generated from them, then the game assembled with the module's functions."""

    name = "generated"

    def compile(self, rs: Any, options_items: tuple) -> Any:
        prepared = engine_rules.prepare(rs, options_items)
        reference = engine_rules.assemble(prepared, REFERENCE_FUNCTIONS)
        return engine_rules.assemble(prepared, GeneratedFunctions(build(reference)))


class GeneratedFunctions:
    """What the generated module gives a game being assembled (engine/backend.Functions): for each
    expression tree it holds, its function; each contract's play obligations; the payment rows."""

    def __init__(self, module: Module):
        self.module = module

    def expression(self, kind: str, node: Any, reference: Any) -> Any:
        fname = self.module.expressions.get((kind, node))
        return reference if fname is None else self.module.function(fname)

    def playable(self, rules: Any, con: Any, chosen_trump: bool) -> Any:
        if chosen_trump:                # a contract the module was not made for
            return _playable_later(rules, con)
        fname = self.module.playables.get(con.name)
        return None if fname is None else self.module.function(fname)

    def ends_never(self, contract: str) -> bool:
        return contract in self.module.never_end

    def rows(self, part: str) -> Any:
        return self.module.rows.get(part)


def _playable_later(rules: Any, con: Any) -> Any:
    """The play obligations of a contract made after the module (a chosen trump), generated on their own;
    None where they are not the kind the generator writes."""
    mod = rules.generated
    comp = rules.compiler
    constants: dict[str, Any] = {}
    gen = ExprGen(comp, constants, {}, mod.let_names, rules.players, _tricks_total(rules))
    trees = {id(fn): node for fn, kind, node in comp.trees.values() if kind == "expr"}
    src = playable_source("V", f"contract {con.name!r} with trump {con.trump!r}", con, rules, gen,
                          lambda f: trees.get(id(f)))
    if src is None:
        return None
    namespace = dict(mod.namespace)
    namespace.update(constants)
    exec(cache.compiled(src, f"<stichwort generated: {rules.rs.name}, chosen trump>"), namespace)
    return namespace["V"]


def _tricks_total(rules: Any) -> int | None:
    """The tricks of every deal when it is a constant of the rule set (deals.tricks_total: no `deal.hand`)."""
    return int(rules.rs.hand_size) if rules.deal_hand is None else None
