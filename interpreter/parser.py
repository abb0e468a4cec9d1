"""Stage 1: text → Lark parse tree. The LALR parser is built once and cached in memory.

Rule files are untrusted: their size and bracket nesting are bounded before Lark sees them, and
every Lark exception becomes a Diagnostic with the place and, in words, what was expected.
"""
from __future__ import annotations

import functools

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from .resources import grammar_text

MAX_BYTES = 256 * 1024
MAX_NESTING = 40

_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a quoted string", "COMP_OP": "a comparison",
    "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'",
    "EQUAL": "'='", "COMMA": "','", "SEMICOLON": "';'", "DOT": "'.'", "VBAR": "'|'", "COLON": "':'",
    "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'", "PERCENT": "'%'", "CIRCUMFLEX": "'^'",
    "RULE_LINE": "a table rule line", "$END": "the end of the file",
}
_KEYWORDS = {"if", "then", "else", "and", "or", "not", "in", "for", "none", "true", "false",
             "table", "extends", "remove", "let"}


@functools.lru_cache(maxsize=1)
def get_parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", start=["start", "expr_start"], strict=True,
                propagate_positions=True, maybe_placeholders=False)


def _word(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    if terminal.lower() in _KEYWORDS:
        return f"'{terminal.lower()}'"
    return terminal.lower()


def _expected(names) -> str:
    words = sorted({_word(n) for n in names if not n.startswith("__")})
    if len(words) > 8:
        words = words[:8] + ["…"]
    return ", ".join(words)


def check_bounds(text: str, file: str) -> None:
    """Refuse oversized input and bracket nesting deeper than MAX_NESTING (strings and comments skipped)."""
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise DiagnosticError([Diagnostic("E101", f"file is larger than {MAX_BYTES // 1024} KiB", file,
                                          Span(1, 1, 1, 2), help="split the rules or use 'extends'")])
    depth = 0
    line, col = 1, 0
    in_string = in_comment = False
    escaped = False
    for ch in text:
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            in_comment = False
            in_string = False
            continue
        if in_comment:
            continue
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        elif ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise DiagnosticError([Diagnostic(
                    "E102", f"brackets nested deeper than {MAX_NESTING} levels", file,
                    Span(line, col, line, col + 1), help="flatten the structure or name a part with 'let'")])
        elif ch in ")]}":
            depth = max(depth - 1, 0)


def _span_of(err: UnexpectedInput) -> Span:
    line = getattr(err, "line", None) or 1
    col = getattr(err, "column", None) or 1
    if line < 1:
        line = 1
    if col < 1:
        col = 1
    width = 1
    token = getattr(err, "token", None)
    if isinstance(token, Token) and token.type != "$END":
        width = max(len(str(token)), 1)
    return Span(line, col, line, col + width)


def _diagnostic(err: UnexpectedInput, text: str, file: str) -> Diagnostic:
    if isinstance(err, UnexpectedEOF):
        last = text.rstrip().splitlines() or [""]
        span = Span(len(last), len(last[-1]) + 1, len(last), len(last[-1]) + 2)
        return Diagnostic("E110", "the file ends in the middle of a statement", file, span,
                          help=f"expected {_expected(err.expected)}")
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if 0 <= err.pos_in_stream < len(text) else "?"
        help_text = f"expected {_expected(err.allowed)}" if err.allowed else None
        if ch == "'":
            help_text = "strings are written in double quotes: \"…\""
        return Diagnostic("E111", f"unexpected character {ch!r}", file, _span_of(err), help=help_text)
    assert isinstance(err, UnexpectedToken)
    token = err.token
    if token.type == "$END":
        return Diagnostic("E110", "the file ends in the middle of a statement", file, _span_of(err),
                          help=f"expected {_expected(err.expected)}")
    shown = str(token)
    message = f"unexpected {_word(token.type) if token.type not in ('NAME', 'NUMBER', 'STRING') else repr(shown)}"
    if token.type == "NAME":
        message = f"unexpected name '{shown}'"
    help_text = f"expected {_expected(err.expected)}"
    suggestions: list[str] = []
    if token.type == "NAME" and any(e.lower() in _KEYWORDS for e in err.expected):
        suggestions = best_matches(shown, [e.lower() for e in err.expected if e.lower() in _KEYWORDS])
    if token.type == "EQUAL" and "COMP_OP" in err.expected:
        help_text = "comparisons are written '=='"
    return Diagnostic("E112", message, file, _span_of(err), help=help_text, suggestions=suggestions)


def parse(text: str, file: str = "<input>", start: str = "start"):
    """Parse rule-file text (or, with start='expr_start', one expression)."""
    check_bounds(text, file)
    try:
        return get_parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise DiagnosticError([_diagnostic(err, text, file)]) from None
