"""`stichwort fmt`: the canonical layout of a .stw file, comments kept.

The layout is decided line by line, never by rewriting the document, so every comment stays where
the author put it:

- a statement, a table row, a list entry or a closing bracket is indented two spaces per open
  bracket; a line that continues an expression keeps its offset from the line it continues;
- the cells of each table are padded to one width per column, rule lines redrawn to match;
- a comment on a line of its own takes the indentation of the code around it, unless it is lined
  up under the end-of-line comment of the line above, which it then follows;
- trailing blanks go, tabs become spaces, runs of blank lines shrink to one, and the file ends
  with exactly one newline.

The result must parse to the same rules document as the input (checked on every call), and
formatting a formatted file changes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lark import Tree

from interpreter.diagnostics import Diagnostic, DiagnosticError
from interpreter.files import special_file
from interpreter.language.document import build
from interpreter.language.parser import parse

OPEN, CLOSE = "{[(", "}])"
_STATEMENTS = {"attribute", "section", "item", "items", "keyed_table", "extends", "remove", "let_value",
               "let_function", "insert", "replace", "set_path"}


@dataclass
class Line:
    text: str            # the line without its indentation and trailing blanks
    indent: int          # the original indentation
    depth: int = 0       # brackets open at its start
    inner: str = ""      # the innermost open bracket at its start
    closers: int = 0     # closing brackets the line starts with
    comment: int = -1    # column (in `text`) where an end-of-line comment starts, -1: none
    code: str = ""       # the text before that comment, right-stripped
    ends_open: bool = False   # the line's code ends with an opening bracket or a comma


def _scan(lines: list[Line]) -> None:
    """Bracket depth at the start of every line, and where comments start (strings respected)."""
    stack: list[str] = []
    for ln in lines:
        ln.depth, ln.inner = len(stack), (stack[-1] if stack else "")
        i, text, in_string, leading = 0, ln.text, False, True
        while i < len(text):
            ch = text[i]
            if in_string:
                if ch == "\\":
                    i += 2
                    continue
                if ch == '"':
                    in_string = False
            elif ch == '"':
                in_string = True
            elif ch == "#":
                ln.comment = i
                break
            elif ch in OPEN:
                stack.append(ch)
            elif ch in CLOSE:
                if stack:
                    stack.pop()
                if leading:
                    ln.closers += 1
            if not ch.isspace() and ch not in CLOSE:
                leading = False
            i += 1
        ln.code = (text[: ln.comment] if ln.comment >= 0 else text).rstrip()
        ln.ends_open = ln.code.endswith(("{", "[", "(", ","))


def _starts(tree) -> set[int]:
    """Lines on which a statement or a table row begins."""
    out: set[int] = set()
    for node in tree.iter_subtrees():
        if isinstance(node, Tree) and node.data in _STATEMENTS | {"row"} and not node.meta.empty:
            out.add(node.meta.line)
    return out


def _split_cells(code: str) -> list[str] | None:
    """`| a | b |` → ['a', 'b']; None if the line is not one whole row."""
    if not (code.startswith("|") and code.endswith("|")) or len(code) < 2:
        return None
    cells, cur, depth, in_string, i = [], "", 0, False, 1
    while i < len(code):
        ch = code[i]
        if in_string:
            cur += ch
            if ch == "\\" and i + 1 < len(code):
                cur += code[i + 1]
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string, cur = True, cur + ch
        elif ch in OPEN:
            depth, cur = depth + 1, cur + ch
        elif ch in CLOSE:
            depth, cur = depth - 1, cur + ch
        elif ch == "|" and depth == 0:
            cells.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    return cells if not cur.strip() else None


def _is_rule(cells: list[str]) -> bool:
    return all(c and set(c) <= set(":-") and c.count("-") >= 3 for c in cells)


def _align(rows: list[list[str]]) -> list[str]:
    width = max(len(r) for r in rows)
    widths = [max((len(r[i]) for r in rows if i < len(r) and not _is_rule(r)), default=3) for i in range(width)]
    widths = [max(w, 3) for w in widths]
    out = []
    for r in rows:
        if _is_rule(r):
            cells = [(":" if c.startswith(":") else "-") + "-" * (w - 2) + (":" if c.endswith(":") else "-")
                     for c, w in zip(r, widths)]
        else:
            cells = [c.ljust(w) for c, w in zip(r, widths)]
        out.append("| " + " | ".join(cells) + " |")
    return out


def format_text(text: str, file: str = "<input>") -> str:
    """The canonical layout of `text`; raises DiagnosticError if it does not parse."""
    tree = parse(text, file)
    starts = _starts(tree)
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = []
    for r in raw:
        r = r.expandtabs(2).rstrip()
        stripped = r.lstrip(" ")
        lines.append(Line(stripped, len(r) - len(stripped)))
    _scan(lines)
    new_indent: list[int] = [0] * len(lines)
    anchor = -1
    for n, ln in enumerate(lines):
        if not ln.text:
            continue
        if not ln.code:   # a comment on its own line
            prev = next((m for m in range(n - 1, -1, -1) if lines[m].text), -1)
            if prev >= 0 and lines[prev].comment >= 0 and lines[prev].indent + lines[prev].comment == ln.indent \
                    and lines[prev].code:
                new_indent[n] = new_indent[prev] + lines[prev].comment
            elif prev >= 0 and not lines[prev].code and lines[prev].indent == ln.indent:
                new_indent[n] = new_indent[prev]
            else:
                new_indent[n] = 2 * ln.depth
            continue
        previous_code = next((lines[m] for m in range(n - 1, -1, -1) if lines[m].code), None)
        structural = (n + 1 in starts or ln.closers > 0 or ln.code.startswith("|")
                      or (ln.inner in "[{" and ln.depth > 0 and (previous_code is None or previous_code.ends_open)))
        if structural or anchor < 0:
            new_indent[n] = 2 * max(ln.depth - ln.closers, 0)
            anchor = n
        else:
            new_indent[n] = max(ln.indent - lines[anchor].indent + new_indent[anchor], 0)
    # tables: consecutive whole rows at one depth are aligned together
    n = 0
    while n < len(lines):
        if _split_cells(lines[n].code) is None:
            n += 1
            continue
        group = [n]
        m = n + 1
        while m < len(lines) and lines[m].depth == lines[n].depth and _split_cells(lines[m].code) is not None:
            group.append(m)
            m += 1
        aligned = _align([_split_cells(lines[k].code) or [] for k in group])
        for k, row in zip(group, aligned):
            ln = lines[k]
            if ln.comment >= 0:   # an end-of-line comment keeps its column if the row leaves room
                column = max(ln.comment, len(row) + 2)
                ln.text = row + " " * (column - len(row)) + ln.text[ln.comment:]
            else:
                ln.text = row
        n = m
    out: list[str] = []
    for ln, ind in zip(lines, new_indent):
        if not ln.text:
            if out and out[-1] != "":
                out.append("")
            continue
        out.append(" " * ind + ln.text)
    while out and out[-1] == "":
        out.pop()
    result = "\n".join(out) + "\n" if out else ""
    before, _ = build(tree, file)
    try:
        after, _ = build(parse(result, file), file)
    except DiagnosticError:
        after = None
    if after != before:
        raise DiagnosticError([Diagnostic("E150", "the file cannot be formatted without changing its meaning", file,
                                          help="please report this file; it was left as it was")])
    return result


def rule_files(paths: list[str]) -> list[Path]:
    """The .stw files named, or found under the folders named (sorted)."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*.stw") if q.is_file()))
        elif path.is_file() or special_file(path) is not None:   # a named pipe: refused when read, never opened
            out.append(path)
        else:
            raise DiagnosticError([Diagnostic("E100", "no such file or folder", p)])
    return out


def format_paths(paths: list[str], check: bool, out=None) -> tuple[int, list[Diagnostic]]:
    """Format the files in place (or, with `check`, only report which would change).
    Returns (exit code, diagnostics of files that could not be formatted)."""
    import sys

    from interpreter.files import read_text, write_atomic

    out = out or sys.stdout
    changed, diagnostics = [], []
    files = rule_files(paths)
    for path in files:
        shown = str(path)
        try:
            text = read_text(path, "rule file", limit=256 * 1024)
            result = format_text(text, shown)
        except DiagnosticError as err:
            diagnostics.extend(err.diagnostics)
            continue
        if result != text:
            changed.append(shown)
            if check:
                print(f"would reformat {shown}", file=out)
            else:
                write_atomic(path, result, "rule file")
                print(f"reformatted {shown}", file=out)
    verb = "would be reformatted" if check else "reformatted"
    print(f"{len(changed)} file{'s' if len(changed) != 1 else ''} {verb}, "
          f"{len(files) - len(changed) - len(diagnostics)} unchanged"
          + (f", {len(diagnostics)} not formatted (errors)" if diagnostics else ""), file=out)
    if diagnostics:
        return 1, diagnostics
    return (1 if check and changed else 0), diagnostics
