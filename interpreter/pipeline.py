"""The front half of the pipeline, stage by stage:

    text ─parser─▶ tree ─document─▶ rules document + source map ─loader─▶ merged document
         ─schema─▶ schema-valid ─checks─▶ checked ─ruleset─▶ immutable Ruleset

`check()` collects every diagnostic it can (schema errors, then all semantic passes) instead of
stopping at the first; `load()` returns a Ruleset or raises DiagnosticError.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from interpreter import checks
from interpreter.checks import schema
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
    diags = schema.check(loaded.doc, loaded.origins)
    if diags:
        report.diagnostics = diags
        return report
    ctx = checks.run(loaded.doc, loaded.origins, loaded.sources)
    report.diagnostics = ctx.diagnostics
    if report.ok:
        report.ruleset = compile_ruleset(loaded, getattr(ctx, "expressions", {}))
    return report


def load(target: str) -> Ruleset:
    report = check(target)
    if not report.ok or report.ruleset is None:
        raise DiagnosticError(report.diagnostics)
    return report.ruleset
