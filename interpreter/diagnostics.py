"""Diagnostics: one error or warning, with its place in a source file, rendered like ruff or mypy.

    games/x.stw:3:9: E201 unknown key 'rnak' in contract 'one'
      |
    3 |   rnak = 1
      |   ^^^^
      = help: did you mean 'rank'?
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field

MAX_SHOWN = 160   # longest part of a source line shown under a diagnostic


@dataclass(frozen=True)
class Span:
    line: int
    col: int
    end_line: int
    end_col: int

    @staticmethod
    def of(meta) -> Span | None:
        """Span of a Lark tree meta or token (1-based lines and columns, end exclusive)."""
        line = getattr(meta, "line", None)
        if line is None:
            return None
        return Span(line, meta.column, meta.end_line or line, meta.end_column or meta.column + 1)


@dataclass
class Diagnostic:
    code: str
    message: str
    file: str = "<input>"
    span: Span | None = None
    help: str | None = None
    suggestions: list[str] = field(default_factory=list)
    severity: str = "error"
    notes: list[str] = field(default_factory=list)   # further places that explain it ("file:line:col: what")

    def location(self) -> str:
        if self.span is None:
            return self.file
        return f"{self.file}:{self.span.line}:{self.span.col}"

    def render(self, source: str | None = None) -> str:
        """The diagnostic as text: header, the source line with carets, help and suggestions."""
        lines = [f"{self.location()}: {self.code} {self.message}"]
        if source is not None and self.span is not None:
            src_lines = source.splitlines()
            if 1 <= self.span.line <= len(src_lines):
                text = src_lines[self.span.line - 1].expandtabs(1)
                number = str(self.span.line)
                pad = " " * len(number)
                start = max(self.span.col - 1, 0)
                if self.span.end_line == self.span.line:
                    width = max(self.span.end_col - self.span.col, 1)
                else:
                    width = max(len(text) - start, 1)
                if len(text) > MAX_SHOWN:  # show a window of a very long line around the carets
                    left = max(start - 20, 0)
                    width = min(width, MAX_SHOWN - (start - left))
                    text = ("…" if left else "") + text[left: left + MAX_SHOWN] + "…"
                    start = start - left + (1 if left else 0)
                lines.append(f"{pad} |")
                lines.append(f"{number} | {text}")
                lines.append(f"{pad} | {' ' * start}{'^' * width}")
        lines.extend(f"  = note: {n}" for n in self.notes)
        if self.help:
            lines.append(f"  = help: {self.help}")
        if self.suggestions:
            quoted = " or ".join(f"'{s}'" for s in self.suggestions)
            lines.append(f"  = did you mean {quoted}?")
        return "\n".join(lines)

    def to_json(self) -> dict:
        out: dict[str, object] = {"code": self.code, "severity": self.severity, "message": self.message, "file": self.file}
        if self.span:
            out.update(line=self.span.line, column=self.span.col,
                       end_line=self.span.end_line, end_column=self.span.end_col)
        if self.help:
            out["help"] = self.help
        if self.suggestions:
            out["suggestions"] = list(self.suggestions)
        if self.notes:
            out["notes"] = list(self.notes)
        return out


class DiagnosticError(Exception):
    """Raised when a stage cannot go on; carries every diagnostic collected so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.location() + ": " + d.message for d in self.diagnostics))


def best_matches(word: str, candidates, n: int = 3) -> list[str]:
    """Close spellings of `word` among `candidates`, best first (difflib, as mypy does)."""
    pool = sorted({str(c) for c in candidates})
    lowered = {c.lower(): c for c in pool}
    hits = difflib.get_close_matches(word.lower(), list(lowered), n=n, cutoff=0.6)
    return [lowered[h] for h in hits]


def render_all(diagnostics: list[Diagnostic], sources: dict[str, str]) -> str:
    return "\n\n".join(d.render(sources.get(d.file)) for d in diagnostics)


def to_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2, ensure_ascii=False)
