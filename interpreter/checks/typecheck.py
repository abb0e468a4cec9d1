"""Type checking of expressions: every name must be known and every operator must get the types it
needs. Runs once per expression at load time; errors come back as (code, message, suggestions).
"""
from __future__ import annotations

from interpreter.diagnostics import best_matches
from interpreter.model.vocabulary import COMPREHENSIONS, FUNCTIONS, VALUES, is_pending


class ExprError(Exception):
    """A type error; `node` is the part of the expression at fault (for the caret), if known."""

    def __init__(self, code: str, message: str, suggestions=(), node=None, help=None):
        super().__init__(message)
        self.code = code
        self.suggestions = list(suggestions)
        self.node = node
        self.help = help
        self.more: list[ExprError] = []   # further unknown names of the same expression, in order


def _compatible(a: str, b: str) -> bool:
    return (a == b or "any" in (a, b) or "none" in (a, b)
            or "word" in (a, b) and not {a, b} & {"num", "bool"})


def fits(got: str, want: str) -> bool:
    """A value of type `got` may stand where `want` is asked: the same, `any`, or a `word` (a name the
    file gives to things of several kinds, none of them a number) where no number or truth is asked."""
    return got in (want, "any") or got == "word" and want not in ("num", "bool")


def _set_of(t: str) -> str:
    return {"seats": "seat", "cards": "card"}.get(t, "any")


class Checker:
    """Infers the type of an expression node within an environment of named types."""

    def __init__(self, names: dict[str, str], functions: dict[str, tuple] | None = None):
        self.names = dict(VALUES_TYPES)
        self.names.update(names)
        self.functions = dict(FUNCTIONS)
        if functions:
            self.functions.update(functions)
        self._own = set(names) | set(functions or ())
        self.pending: list[tuple[str, str, tuple]] = []   # (kind, name, node) of built-ins not implemented yet
        self._unknowns: list[ExprError] = []              # every unknown name of the expression being checked

    def _note_pending(self, kind: str, name: str, node) -> None:
        if name not in self._own and is_pending(kind, name):
            self.pending.append((kind, name, node))

    def check(self, node, scope: dict[str, str] | None = None) -> str:
        """The type of `node`. Raises the first error; when names are unknown, the first unknown name,
        with every further one in `more` (an unknown name counts as any type, so that checking goes on
        and each of them is reported, not only the first)."""
        self._unknowns = []
        try:
            t = self._t(node, scope or {})
        except ExprError:
            if not self._unknowns:
                raise
        if self._unknowns:
            first, *rest = self._unknowns
            first.more = rest
            raise first
        return t

    def _unknown(self, name: str, scope, node=None) -> ExprError:
        pool = list(self.names) + list(scope) + list(self.functions)
        return ExprError("E401", f"unknown name '{name}'", best_matches(name, pool), node=node)

    def signature(self, fname: str) -> str:
        params, result, doc = self.functions[fname]
        words = ", ".join(("…" + _WORD.get(p[1:], p[1:])) if p.startswith("*") else _WORD.get(p, p) for p in params)
        return f"{fname}({words}) gives {_WORD.get(result, result)}: {doc}"

    def _t(self, node, scope) -> str:
        kind = node[0]
        if kind == "num":
            return "num"
        if kind == "str":
            return "name"
        if kind == "const":
            return "bool" if isinstance(node[1], bool) else "none"
        if kind == "name":
            n = node[1]
            if n in scope:
                return scope[n]
            if n in self.names:
                self._note_pending("value", n, node)
                return self.names[n]
            if n in self.functions:
                raise ExprError("E403", f"'{n}' is a function and needs arguments: {n}(…)", node=node,
                                help=self.signature(n))
            self._unknowns.append(self._unknown(n, scope, node))
            return "any"
        if kind == "list":
            types = {self._t(x, scope) for x in node[1]}
            if types <= {"seat"} and types:
                return "seats"
            if types <= {"card"} and types:
                return "cards"
            return "list"
        if kind == "attr":
            self._t(node[1], scope)
            return "any"
        if kind == "call":
            return self._call(node, scope)
        if kind == "comp":
            _, fname, body, var, iterable, cond = node
            if fname not in COMPREHENSIONS:
                raise ExprError("E401", f"'{fname}(… for …)' is not a known form",
                                best_matches(fname, COMPREHENSIONS), node=node,
                                help="known forms: " + ", ".join(f"{c}(… for x in …)" for c in COMPREHENSIONS))
            it = self._t(iterable, scope)
            if it not in ("seats", "cards", "list", "any"):
                raise ExprError("E402", f"'{fname}(… for {var} in …)' needs a set to go through, not {it}", node=iterable)
            inner = dict(scope)
            inner[var] = _set_of(it)
            body_t = self._t(body, inner)
            if cond is not None:
                self._want(cond, inner, "bool", "the 'if' of a comprehension")
            if fname in ("sum", "min", "max") and body_t not in ("num", "any"):
                raise ExprError("E402", f"{fname}(…) adds up numbers, but the body is {body_t}", node=body)
            if fname in ("any", "all") and body_t not in ("bool", "any"):
                raise ExprError("E402", f"{fname}(…) needs a condition, but the body is {body_t}", node=body)
            return COMPREHENSIONS[fname][0]
        if kind == "not":
            self._want(node[1], scope, "bool", "'not'")
            return "bool"
        if kind == "neg":
            self._want(node[1], scope, "num", "'-'")
            return "num"
        if kind == "if":
            self._want(node[1], scope, "bool", "the condition of 'if'")
            a, b = self._t(node[2], scope), self._t(node[3], scope)
            if a == b or b in ("any", "none") or b == "word" and a not in ("num", "bool"):
                return a
            if a in ("any", "none") or a == "word" and b not in ("num", "bool"):
                return b
            raise ExprError("E402", f"the two branches of 'if' give {a} and {b}", node=node,
                            help="both branches must give the same kind of value")
        if kind == "bin":
            op, a, b = node[1], node[2], node[3]
            if op in ("and", "or"):
                self._want(a, scope, "bool", f"'{op}'")
                self._want(b, scope, "bool", f"'{op}'")
                return "bool"
            if op == "+":
                return self._plus(node, a, b, scope)
            if op in ("-", "*", "/", "%", "^"):
                self._want(a, scope, "num", f"'{op}'")
                self._want(b, scope, "num", f"'{op}'")
                return "num"
            ta, tb = self._t(a, scope), self._t(b, scope)
            if op in ("in", "not in"):
                if tb not in ("seats", "cards", "list", "any"):
                    raise ExprError("E402", f"'{op}' needs a set on its right, not {_WORD.get(tb, tb)}", node=b)
                return "bool"
            if op in ("<", "<=", ">", ">="):
                for t, side in ((ta, a), (tb, b)):
                    if t not in ("num", "any"):
                        raise ExprError("E402", f"'{op}' compares numbers, not {_WORD.get(t, t)}", node=side)
                return "bool"
            if not _compatible(ta, tb):
                raise ExprError("E402", f"'{op}' compares {ta} with {tb}; they can never be equal",
                                node=node)
            return "bool"
        raise ExprError("E402", f"unknown expression form {kind}", node=node)

    def _plus(self, node, a, b, scope) -> str:
        """`+` adds numbers, or joins two sets of cards (a card counts as a set of one)."""
        ta, tb = self._t(a, scope), self._t(b, scope)
        cardish = {"card", "cards", "any"}
        if "cards" in (ta, tb) and {ta, tb} <= cardish or {ta, tb} == {"card"}:
            if is_pending("operator", "+"):
                self.pending.append(("operator", "+", node))
            return "cards"
        for got, side in ((ta, a), (tb, b)):
            if got not in ("num", "any"):
                raise ExprError("E402", f"'+' needs a number, not {_WORD.get(got, got)}", node=side,
                                help="`+` adds numbers, or joins two sets of cards (`dealt_cards(declarer) + talon_cards`)")
        return "num"

    def _want(self, node, scope, want: str, where: str) -> None:
        got = self._t(node, scope)
        if not fits(got, want):
            raise ExprError("E402", f"{where} needs {_WORD[want]}, not {_WORD.get(got, got)}", node=node)

    def _call(self, node, scope) -> str:
        _, fname, args = node
        if fname not in self.functions:
            if fname in self.names or fname in scope:
                raise ExprError("E403", f"'{fname}' is not a function", node=node)
            self._unknowns.append(ExprError("E401", f"unknown function '{fname}'", best_matches(fname, self.functions),
                                            node=node))
            for arg in args:
                self._t(arg, scope)
            return "any"
        self._note_pending("function", fname, node)
        params, result, _ = self.functions[fname]
        if params and params[-1].startswith("*"):
            fixed = params[:-1]
            if len(args) < len(fixed) or (not fixed and not args):
                raise ExprError("E403", f"{fname}(…) needs at least {max(len(fixed), 1)} argument(s)", node=node,
                                help=self.signature(fname))
            expected = list(fixed) + [params[-1][1:]] * (len(args) - len(fixed))
        else:
            if len(args) != len(params):
                raise ExprError("E403", f"{fname}(…) takes {len(params)} argument(s), not {len(args)}", node=node,
                                help=self.signature(fname))
            expected = list(params)
        for i, (arg, want) in enumerate(zip(args, expected)):
            got = self._t(arg, scope)
            if want != "any" and not fits(got, want) and not (want == "seat" and got == "none"):
                raise ExprError("E402", f"argument {i + 1} of {fname}(…) must be {_WORD.get(want, want)}, not {_WORD.get(got, got)}",
                                node=arg, help=self.signature(fname))
        return result


def describe(t: str) -> str:
    """A type in words: 'seat' → 'a seat'."""
    return _WORD.get(t, t)


_WORD = {"num": "a number", "bool": "true or false", "seat": "a seat", "seats": "a set of seats",
         "card": "a card", "cards": "a set of cards", "suit": "a suit", "call": "a call",
         "contract": "a contract", "name": "a name", "none": "none", "any": "a value",
         "account": "an account", "figure": "a figure", "list": "a list", "word": "a name, not a number",
         "ranking": "a card order (a `ranking`)", "choice": "a decision (a `choice`)"}

VALUES_TYPES = {k: v[0] for k, v in VALUES.items()}
