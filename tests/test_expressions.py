"""Unit tests of the expression language: canonical printing and precedence (expressions.py),
free names (names_in), and the type checker (typecheck.py): unknown names with suggestions,
type errors and arity errors."""
from __future__ import annotations

from fractions import Fraction

import pytest

from interpreter.checks.typecheck import Checker, ExprError
from interpreter.diagnostics import DiagnosticError
from interpreter.language.expressions import canonical, names_in, parse_text, to_text


def N(name):
    return ("name", name)


def num(text):
    return ("num", Fraction(text), text)


# ---- canonical printing ------------------------------------------------------------------------

@pytest.mark.parametrize("written, printed", [
    ("a+b*c", "a + b * c"),
    ("(a+b)*c", "(a + b) * c"),
    ("a*(b+c)", "a * (b + c)"),
    ("((a))", "a"),
    ("a-(b-c)", "a - (b - c)"),
    ("(a-b)-c", "a - b - c"),
    ("a/(b*c)", "a / (b * c)"),
    ("a % b * c", "a % b * c"),
    ("2^3^4", "2 ^ 3 ^ 4"),
    ("(2^3)^4", "(2 ^ 3) ^ 4"),
    ("-x^2", "-x ^ 2"),
    ("(-x)^2", "(-x) ^ 2"),
    ("- 3", "-3"),
    ("-(a+b)", "-(a + b)"),
    ("not a and b", "not a and b"),
    ("not (a and b)", "not (a and b)"),
    ("a or b and c", "a or b and c"),
    ("(a or b) and c", "(a or b) and c"),
    ("a == (b == c)", "a == (b == c)"),
    ("(a<b)==c", "(a < b) == c"),
    ("a not in b", "a not in b"),
    ("not a in b", "not a in b"),
    ("x . y . z", "x.y.z"),
    ("(a+b).c", "(a + b).c"),
    ("f( a ,b )", "f(a, b)"),
    ("f()", "f()"),
    ("[1,\"x\",none,true,false]", '[1, "x", none, true, false]'),
    ("if a then b else c", "if a then b else c"),
    ("(if a then b else c) + 1", "(if a then b else c) + 1"),
    ("1 + (if a then b else c)", "1 + (if a then b else c)"),
    ("[if a then b else c]", "[if a then b else c]"),
    ("sum( x for x in a if x>1 )", "sum(x for x in a if x > 1)"),
    ('"a\\"b\\\\c\\nd"', '"a\\"b\\\\c\\nd"'),
    ("1.50", "1.50"),
    ("10H", "10H"),
])
def test_canonical_text_of_expressions(written, printed):
    assert canonical(written) == printed
    assert canonical(printed) == printed            # canonical text is a fixed point


def test_precedence_builds_the_expected_trees():
    assert parse_text("a + b * c") == ("bin", "+", N("a"), ("bin", "*", N("b"), N("c")))
    assert parse_text("a - b - c") == ("bin", "-", ("bin", "-", N("a"), N("b")), N("c"))
    assert parse_text("2 ^ 3 ^ 4") == ("bin", "^", num("2"), ("bin", "^", num("3"), num("4")))
    assert parse_text("-x ^ 2") == ("neg", ("bin", "^", N("x"), num("2")))
    assert parse_text("not a and b") == ("bin", "and", ("not", N("a")), N("b"))
    assert parse_text("a or b and c") == ("bin", "or", N("a"), ("bin", "and", N("b"), N("c")))
    assert parse_text("not a == b") == ("not", ("bin", "==", N("a"), N("b")))
    assert parse_text("a + 1 < b * 2") == ("bin", "<", ("bin", "+", N("a"), num("1")),
                                           ("bin", "*", N("b"), num("2")))
    assert parse_text("if a then b else c or d") == ("if", N("a"), N("b"), ("bin", "or", N("c"), N("d")))
    assert parse_text("x.y.z") == ("attr", ("attr", N("x"), "y"), "z")
    assert parse_text("a not in b") == ("bin", "not in", N("a"), N("b"))


def test_negative_numbers_fold_into_the_literal():
    assert parse_text("-3") == ("num", Fraction(-3), "-3")
    assert parse_text("--3") == ("num", Fraction(3), "--3")
    assert parse_text("-1.5") == ("num", Fraction(-3, 2), "-1.5")
    assert parse_text("-x") == ("neg", N("x"))
    # a negative literal is parenthesised where a bare '-' would bind differently
    assert to_text(("bin", "^", ("num", Fraction(-2), "-2"), num("2"))) == "(-2) ^ 2"
    assert to_text(("bin", "-", N("a"), ("num", Fraction(-2), "-2"))) == "a - -2"


def test_comparisons_do_not_chain():
    with pytest.raises(DiagnosticError):
        parse_text("a < b < c")
    assert to_text(("bin", "<", ("bin", "<", N("a"), N("b")), N("c"))) == "(a < b) < c"


def test_comprehension_tree_and_text():
    node = parse_text("max(tricks(t) for t in active if t != declarer)")
    assert node == ("comp", "max", ("call", "tricks", (N("t"),)), "t", N("active"),
                    ("bin", "!=", N("t"), N("declarer")))
    assert to_text(node) == "max(tricks(t) for t in active if t != declarer)"
    plain = parse_text("count(s for s in seats)")
    assert plain == ("comp", "count", N("s"), "s", N("seats"), None)
    # a conditional body and a conditional iterable stay distinguishable
    tricky = ("comp", "sum", ("if", N("a"), num("1"), num("0")), "v", ("if", N("b"), N("x"), N("y")), N("c"))
    assert parse_text(to_text(tricky)) == tricky


def test_strings_and_constants():
    assert parse_text('"go along"') == ("str", "go along")
    assert parse_text('"tab\\there"') == ("str", "tab\there")
    assert parse_text("none") == ("const", None)
    assert parse_text("true") == ("const", True)
    assert parse_text("[]") == ("list", ())


def test_syntax_errors_in_expressions_become_diagnostics():
    with pytest.raises(DiagnosticError) as err:
        parse_text("a +", "rules.stw")
    assert err.value.diagnostics[0].file == "rules.stw"
    assert "in expression 'a +'" in err.value.diagnostics[0].message
    with pytest.raises(DiagnosticError) as err:
        parse_text("a = b")
    assert err.value.diagnostics[0].help == "comparisons are written '=='"


# ---- names_in ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, names", [
    ("a + b * a", {"a", "b"}),
    ("f(x, g(y))", {"x", "y"}),                               # function names are not free names
    ("x.y", {"x"}),                                           # attributes are not names
    ("sum(t for t in active)", {"active"}),                    # the bound variable is excluded
    ("sum(t + u for t in active if t != v)", {"u", "active", "v"}),
    ("t + sum(t for t in seats)", {"t", "seats"}),             # bound only inside the comprehension
    ("sum(t for t in t)", {"t"}),                               # the iterable sees the outer t
    ("if a then [b, c] else -d", {"a", "b", "c", "d"}),
    ("not a in b", {"a", "b"}),
    ('1 + "x"', set()),
])
def test_names_in(text, names):
    assert names_in(parse_text(text)) == names


# ---- the type checker ----------------------------------------------------------------------------

ENV = {"forehand": "seat", "hold": "call", "stake": "num", "C": "suit"}


def check(text):
    return Checker(ENV).check(parse_text(text))


def error(text) -> ExprError:
    with pytest.raises(ExprError) as err:
        check(text)
    return err.value


@pytest.mark.parametrize("text, result", [
    ("tricks(declarer) >= 6", "bool"),
    ("next(forehand)", "seat"),
    ("stake * 2 + pot", "num"),
    ("sum(tricks(s) for s in defenders)", "num"),
    ("set(s for s in seats if s != dealer)", "seats"),
    ("any(passed(s) for s in seats)", "bool"),
    ("[forehand, dealer]", "seats"),
    ("dealer in [forehand, next(dealer)]", "bool"),
    ("if made then stake else 0", "num"),
    ("if made then stake else none", "num"),
    ("final.category", "any"),
    ("max(1, 2, stake)", "num"),
    ("partner_of(declarer) == none", "bool"),
])
def test_well_typed_expressions(text, result):
    assert check(text) == result


def test_unknown_name_suggests_close_spellings():
    err = error("tricks(decalrer) >= 6")
    assert err.code == "E401"
    assert "decalrer" in str(err)
    assert err.suggestions and err.suggestions[0] == "declarer"
    err = error("forehnd == dealer")
    assert err.code == "E401" and "forehand" in err.suggestions


def test_unknown_function_and_comprehension_form():
    err = error("trics(declarer)")
    assert err.code == "E401" and "tricks" in err.suggestions
    err = error("summ(s for s in seats)")
    assert err.code == "E401" and "sum" in err.suggestions


def test_comprehension_variable_is_scoped():
    assert check("count(x for x in seats if x != dealer)") == "num"
    assert error("x == dealer").code == "E401"           # x is not known outside the comprehension


@pytest.mark.parametrize("text, words", [
    ("tricks(declarer) + true", "'+' needs a number"),
    ("not stake", "'not' needs true or false"),
    ("-made", "'-' needs a number"),
    ("made and stake", "'and' needs true or false"),
    ("dealer < 3", "'<' compares numbers"),
    ("1 in 2", "'in' needs a set on its right"),
    ("dealer == 1", "compares seat with num"),
    ("hold == forehand", "compares call with seat"),
    ("if stake then 1 else 2", "the condition of 'if' needs true or false"),
    ("if made then 1 else dealer", "the two branches of 'if' give num and seat"),
    ("next(1)", "argument 1 of next(…) must be a seat"),
    ("sum(s for s in seats)", "adds up numbers"),
    ("any(1 for s in seats)", "needs a condition"),
    ("count(s for s in 3)", "needs a set to go through"),
    ("count(s for s in seats if 1)", "the 'if' of a comprehension needs true or false"),
])
def test_type_errors(text, words):
    err = error(text)
    assert err.code == "E402"
    assert words in str(err)


@pytest.mark.parametrize("text, words", [
    ("next(dealer, dealer)", "takes 1 argument(s), not 2"),
    ("tricks()", "takes 1 argument(s), not 0"),
    ("captured(dealer)", "takes 2 argument(s), not 1"),
    ("min()", "needs at least 1 argument(s)"),
    ("next", "is a function and needs arguments"),
    ("dealer(1)", "'dealer' is not a function"),
])
def test_arity_errors(text, words):
    err = error(text)
    assert err.code == "E403"
    assert words in str(err)


def test_rule_file_functions_are_checked_with_their_arity():
    checker = Checker(ENV, {"quota": (("any",), "bool", "defined in the rule file")})
    assert checker.check(parse_text("quota(dealer) or made")) == "bool"
    with pytest.raises(ExprError) as err:
        checker.check(parse_text("quota(dealer, forehand)"))
    assert err.value.code == "E403"
    with pytest.raises(ExprError) as err:
        checker.check(parse_text("quota(dealer) + 1"))
    assert err.value.code == "E402"
