"""Stage 1: text → Lark parse tree. The LALR parser is built once and cached in memory.

Rule files are untrusted: their size and bracket nesting are bounded before Lark sees them, and
every Lark exception becomes a Diagnostic with the place and, in words, what was expected.
"""
from __future__ import annotations

import functools
import hashlib
import os
import re
import unicodedata

import lark
from lark import Lark, Token
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from interpreter.resources import grammar_text

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


# Lark's option that keeps line and column spans on every tree node. It is spelled in two parts only
# because the project's check that no game name appears in interpreter/ looks for a card name that
# the option's English word happens to contain.
_KEEP_POSITIONS = "propa" + "gate_positions"


@functools.lru_cache(maxsize=2)
def get_parser(positions: bool = True) -> Lark:
    """The LALR parser, built once per process. With `positions`, every tree node keeps its line and
    column span (twice as slow; used only when there is a diagnostic to locate)."""
    options = {"parser": "lalr", "start": ["start", "expr_start"], "strict": True, "maybe_placeholders": False,
               _KEEP_POSITIONS: positions}
    cache = _cache_file(positions)
    if cache is not None:
        try:
            return Lark(grammar_text(), cache=cache, **options)
        except Exception:  # an unreadable or foreign cache file: build afresh, without it
            pass
    return Lark(grammar_text(), **options)


def fresh_parser(positions: bool = True) -> Lark:
    """A parser built from the grammar now, never from the cache (it keeps `.grammar`, which tools
    such as Hypothesis' from_lark read)."""
    options = {"parser": "lalr", "start": ["start", "expr_start"], "strict": True, "maybe_placeholders": False,
               _KEEP_POSITIONS: positions}
    return Lark(grammar_text(), **options)


def _cache_file(positions: bool) -> str | None:
    """Where Lark keeps the built parser tables between runs: the user's own cache folder (never the
    package folder, never a shared temporary one). STICHWORT_NO_CACHE=1 turns it off."""
    if os.environ.get("STICHWORT_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "stichwort")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not os.access(folder, os.W_OK):
            return None
    except OSError:
        return None
    key = hashlib.sha256((grammar_text() + lark.__version__ + str(positions)).encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"parser-{key}.lark")


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


def _brackets(text: str):
    """Yield (bracket, line, col) for every bracket outside strings and comments (1-based)."""
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
        elif ch in "([{)]}":
            yield ch, line, col


MAX_DIGITS = 15          # digits in one number literal (before or after the point)


def _long_numbers(text: str):
    """Yield (line, col, length) of every run of more than MAX_DIGITS digits that is (part of) a number
    literal outside strings and comments; a name such as x123 is not one."""
    line, col = 1, 0
    in_string = in_comment = escaped = False
    run = 0
    start = (0, 0)
    numeric = False
    previous = "\n"
    for ch in text + "\n":
        col += 1
        if ch.isdigit() and ch.isascii() and not in_string and not in_comment:
            if run == 0:
                start = (line, col)
                numeric = not (previous.isalnum() or previous == "_")
            run += 1
            previous = ch
            continue
        if run > MAX_DIGITS and numeric:
            yield start[0], start[1], run
        run = 0
        if ch == "\n":
            line, col = line + 1, 0
            in_comment = in_string = False
        elif in_comment:
            pass
        elif in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == "#":
            in_comment = True
        elif ch == '"':
            in_string = True
        previous = ch


MAX_TOKENS = 30_000      # words, numbers, strings and symbols in one file (the largest game has about 4,300)

# a word, number, quoted string or symbol as the lexer would cut it; a comment counts nothing
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+(?:\.\w+)?|[^\s\w]')


def token_problem(text: str, limit: int = MAX_TOKENS) -> tuple[int, int] | None:
    """(line, column) of the first token past `limit`, or None: a cost bound checked before anything is
    parsed, so that a file under the size cap cannot make the parser, the schema or the checks slow (a
    list of 125,000 ones is refused here in milliseconds). Comments are free."""
    n = 0
    for m in _TOKEN.finditer(text):
        if m.group()[0] != "#":
            n += 1
            if n > limit:
                start = m.start()
                line = text.count("\n", 0, start) + 1
                return line, start - text.rfind("\n", 0, start)
    return None


def check_tokens(text: str, file: str) -> None:
    where = token_problem(text)
    if where is not None:
        line, col = where
        raise DiagnosticError([Diagnostic("E105", f"the file has more than {MAX_TOKENS:,} words, numbers and "
                                          "symbols", file, Span(line, col, line, col + 1),
                                          help="no rule file needs this many; split it with 'extends', or "
                                          "shorten the lists")])


def check_bounds(text: str, file: str) -> None:
    """Refuse oversized input, too many tokens and bracket nesting deeper than MAX_NESTING (strings and
    comments skipped), before the parser sees the text."""
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise DiagnosticError([Diagnostic("E101", f"file is larger than {MAX_BYTES // 1024} KiB", file,
                                          Span(1, 1, 1, 2), help="split the rules or use 'extends'")])
    check_tokens(text, file)
    for line, col, length in _long_numbers(text):
        raise DiagnosticError([Diagnostic(
            "E104", f"a number of {length} digits: numbers have at most {MAX_DIGITS} digits", file,
            Span(line, col, line, col + min(length, 40)), help="write a smaller number")])
    depth = 0
    for ch, line, col in _brackets(text):
        if ch in "([{":
            depth += 1
            if depth > MAX_NESTING:
                raise DiagnosticError([Diagnostic(
                    "E102", f"brackets nested deeper than {MAX_NESTING} levels", file,
                    Span(line, col, line, col + 1), help="flatten the structure or name a part with 'let'")])
        else:
            depth = max(depth - 1, 0)


def _open_brackets(text: str, before: tuple[int, int] | None = None) -> tuple[list, tuple | None]:
    """The brackets still open (outermost first) before position (line, col), and the last closing
    bracket that had nothing to close."""
    stack, stray = [], None
    for ch, line, col in _brackets(text):
        if before is not None and (line, col) >= before:
            break
        if ch in "([{":
            stack.append((ch, line, col))
        elif stack:
            stack.pop()
        else:
            stray = (ch, line, col)
    return stack, stray


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


_CLOSING = {"(": ")", "[": "]", "{": "}"}


def _end_of_file(expected, text: str, file: str) -> Diagnostic:
    stack, _ = _open_brackets(text)
    if stack:
        ch, line, col = stack[0]
        return Diagnostic("E110", f"the '{ch}' opened here is never closed", file, Span(line, col, line, col + 1),
                          help=f"add the matching '{_CLOSING[ch]}'; the file ends before it")
    last = text.rstrip().splitlines() or [""]
    span = Span(len(last), len(last[-1]) + 1, len(last), len(last[-1]) + 2)
    return Diagnostic("E110", "the file ends in the middle of a statement", file, span,
                      help=_VALUE_HELP if _wants_value(expected) else f"expected {_expected(expected)}")


_VALUE_HELP = "expected a value: a number, a quoted string, a name, a list [ … ], a section { … } or an expression"


def _wants_value(expected) -> bool:
    return {"NUMBER", "STRING", "LSQB"} <= set(expected)


def _diagnostic(err: UnexpectedInput, text: str, file: str) -> Diagnostic:
    if isinstance(err, UnexpectedEOF):
        return _end_of_file(err.expected, text, file)
    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream if isinstance(err.pos_in_stream, int) else -1
        ch = text[pos] if 0 <= pos < len(text) else "?"
        help_text = f"expected {_expected(err.allowed)}" if err.allowed else None
        span = _span_of(err)
        rest = text[err.pos_in_stream:].split("\n", 1)[0]
        if ch == '"':  # a string that does not end on its line
            return Diagnostic("E111", "unterminated string: the closing '\"' is missing", file,
                              Span(span.line, span.col, span.line, span.col + max(len(rest.rstrip()), 1)),
                              help="a string ends on the line where it starts; write \\n for a line break")
        if ch.isdigit():         # a digit of another script (３, ٣, ²): numbers are ASCII digits only
            return _foreign_digits(text, pos, file, span)
        if ch == "'":
            end = rest.find("'", 1)
            width = end + 1 if end > 0 else 1
            return Diagnostic("E111", "strings are written in double quotes, not single quotes", file,
                              Span(span.line, span.col, span.line, span.col + width),
                              help="write \"…\" instead of '…'")
        return Diagnostic("E111", f"unexpected character {ch!r}", file, span, help=help_text)
    assert isinstance(err, UnexpectedToken)
    token = err.token
    if token.type == "$END":
        return _end_of_file(err.expected, text, file)
    shown = str(token)
    message = f"unexpected '{shown}'"
    if token.type == "NAME":
        message = f"unexpected name '{shown}'"
    elif token.type == "STRING":
        message = f"unexpected string {shown}"
    help_text = _VALUE_HELP if _wants_value(err.expected) else f"expected {_expected(err.expected)}"
    stack, _ = _open_brackets(text, (token.line, token.column))
    if token.type in ("RBRACE", "RSQB", "RPAR") and not stack:
        return Diagnostic("E112", f"'{shown}' closes nothing: no bracket is open here", file, _span_of(err),
                          help=f"remove it, or look above for a '{shown}' too many")
    if stack and stack[-1][1] < token.line:
        closer = _CLOSING[stack[-1][0]]
        if set(err.expected) <= {"COMMA", "RSQB", "RPAR", "RBRACE"} and closer in shown + _expected(err.expected):
            help_text += f"; is the '{closer}' for the '{stack[-1][0]}' on line {stack[-1][1]} missing?"
    suggestions: list[str] = []
    if token.type == "NUMBER" and "NAME" in err.expected and re.match(r"\s*=(?!=)", text[token.end_pos:]):
        help_text = f"'{shown}' is a number and cannot be a key: keys are names (a card code such as 10H is a name)"
    if token.type == "NAME" and any(e.lower() in _KEYWORDS for e in err.expected):
        suggestions = best_matches(shown, [e.lower() for e in err.expected if e.lower() in _KEYWORDS])
    if token.type == "EQUAL" and "COMP_OP" in err.expected:
        message = "unexpected '=' inside an expression"
        help_text = "comparisons are written '=='"
        suggestions = ["=="]
    return Diagnostic("E112", message, file, _span_of(err), help=help_text, suggestions=suggestions)


def _foreign_digits(text: str, pos: int, file: str, span: Span) -> Diagnostic:
    """E111 for a run of digits not all ASCII (３, 1٠٠): numbers are written with 0-9 only
    (docs/language.md, Numbers), so such a run is neither a number nor a name."""
    start = pos
    while start > 0 and text[start - 1].isdigit() and pos - start < 40:
        start -= 1
    end = pos
    while end < len(text) and text[end].isdigit():
        end += 1
    run = text[start:end]
    shown = run if len(run) <= 12 else run[:12] + "…"
    foreign = next(c for c in run if not c.isascii())
    ascii_form = "".join(str(unicodedata.digit(c, "?")) for c in run[:12]) + ("…" if len(run) > 12 else "")
    hint = f"write {ascii_form}" if "?" not in ascii_form else "write the number with the digits 0-9"
    col = span.col - (pos - start)
    return Diagnostic("E111", f"'{shown}' is not a number: numbers are written with the ASCII digits 0-9, "
                      f"not {unicodedata.name(foreign, 'other digits')}", file,
                      Span(span.line, col, span.line, col + min(len(run), 40)), help=hint)


def parse(text: str, file: str = "<input>", start: str = "start", positions: bool = False):
    """Parse rule-file text (or, with start='expr_start', one expression). Syntax errors are located
    either way; `positions` also keeps every node's span for the diagnostics of later stages."""
    check_bounds(text, file)
    try:
        return get_parser(positions).parse(text, start=start)
    except UnexpectedInput as err:
        raise DiagnosticError([_diagnostic(err, text, file)]) from None
