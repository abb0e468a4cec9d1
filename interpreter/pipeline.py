"""The front half of the pipeline, stage by stage:

    text ─parser─▶ tree ─document─▶ rules document + source map ─loader─▶ merged document
         ─schema─▶ schema-valid ─checks─▶ checked ─ruleset─▶ immutable Ruleset

`check()` collects every diagnostic it can instead of stopping at the first: the schema errors,
then those of all semantic passes. When the schema rejects parts of the file, the passes check a
copy without them (checks/pruning.py) and report only what those parts cannot have caused; no
Ruleset is built. `load()` returns a Ruleset or raises DiagnosticError.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from interpreter import checks
from interpreter.checks import pruning, schema
from interpreter.diagnostics import Diagnostic, DiagnosticError
from interpreter.language.loader import Loaded, sources_for
from interpreter.language.loader import load as load_document
from interpreter.model.ruleset import Ruleset, compile_ruleset


@dataclass
class Report:
    target: str
    loaded: Loaded | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ruleset: Ruleset | None = None
    sources: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)

    @property
    def only_pending(self) -> bool:
        """Well formed, but it uses mechanisms the engine does not implement yet (every error is E410)."""
        errors = [d for d in self.diagnostics if d.severity == "error"]
        return bool(errors) and all(d.code == PENDING for d in errors)

    def pending_brief(self, shown: int = 4) -> str:
        """A short form for listings: how many mechanisms are missing, and the first few."""
        names: list[str] = []
        for d in self.diagnostics:
            m = re.search(r"'([^']+)'", d.message) if d.code == PENDING else None
            if m and m.group(1) not in names:
                names.append(m.group(1))
        more = ", …" if len(names) > shown else ""
        return (f"not playable yet: the engine lacks {len(names)} mechanism{'s' if len(names) != 1 else ''} "
                f"({', '.join(names[:shown])}{more}); 'stichwort validate {self.target}' shows each use")

    def pending_summary(self) -> str:
        """One line: what the engine lacks for this file, and the rule ids written beside each use."""
        names: list[str] = []
        ids: list[str] = []
        for d in self.diagnostics:
            if d.code != PENDING:
                continue
            m = re.search(r"'([^']+)'", d.message)
            kind = "phase " if d.message.startswith("phase") else "obligation " if d.message.startswith("play") else ""
            if m and kind + m.group(1) not in names:
                names.append(kind + m.group(1))
            line = _source_line(self.sources.get(d.file or ""), d.span.line if d.span else 0)
            ids += [i for i in _RULE_ID.findall(line) if i not in ids]
        shown = ", ".join(names)
        why = f" (rule ids: {', '.join(ids)})" if ids else ""
        return f"{self.target} is not playable yet: the engine does not implement {shown}{why}"


PENDING = "E410"
_RULE_ID = re.compile(r"\b[A-Z]{2,}-[A-Z]{2,}-\d{2,}\b")


def _source_line(text: str | None, line: int) -> str:
    if not text or line < 1:
        return ""
    lines = text.splitlines()
    return lines[line - 1] if line <= len(lines) else ""


class NotPlayable(DiagnosticError):
    """A rule file that is well formed but needs mechanisms the engine does not implement yet."""

    def __init__(self, report: Report):
        super().__init__(report.diagnostics)
        self.report = report
        self.summary = report.pending_summary()


def check(target: str, positions: bool = False) -> Report:
    """Validate `target`. The first pass keeps no source positions (parsing is much faster); if it
    finds anything to report, the file is read again with positions so that every diagnostic is
    located. The document is the same either way."""
    report = _check(target, positions)
    if not positions and report.diagnostics:
        return _check(target, True)
    return report


def _check(target: str, positions: bool) -> Report:
    report = Report(target)
    try:
        loaded = load_document(target, positions)
    except DiagnosticError as err:
        report.diagnostics = err.diagnostics
        report.sources = sources_for(err.diagnostics)
        return report
    report.loaded = loaded
    report.sources = dict(loaded.sources)
    diags = schema.too_long(loaded.doc, loaded.origins)   # cheap, before the schema walks such a list
    if diags:
        report.diagnostics = diags
        return report
    diags = schema.check(loaded.doc, loaded.origins)
    if diags:  # no Ruleset; the semantic passes check what the schema errors leave standing
        report.diagnostics = diags + pruning.semantic_diagnostics(loaded.doc, loaded.origins, loaded.sources, diags)
        return report
    ctx = checks.run(loaded.doc, loaded.origins, loaded.sources)
    report.diagnostics = ctx.diagnostics
    if report.ok or report.only_pending:
        report.ruleset = compile_ruleset(loaded)
    return report


def load(target: str, playable: bool = True, warnings: list[Diagnostic] | None = None) -> Ruleset:
    """The Ruleset of `target`. A file that needs mechanisms the engine lacks raises NotPlayable,
    unless `playable` is False (the booklet and conversions need only a well-formed file). The
    warnings of a valid file are appended to `warnings`, if given."""
    report = check(target)
    if warnings is not None and report.ok:
        warnings += [d for d in report.diagnostics if d.severity == "warning"]
    if report.only_pending and report.ruleset is not None:
        if not playable:
            return report.ruleset
        raise NotPlayable(report)
    if not report.ok or report.ruleset is None:
        raise DiagnosticError(report.diagnostics)
    return report.ruleset
