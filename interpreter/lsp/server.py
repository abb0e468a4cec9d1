"""`stichwort lsp`: a language server over stdio for .stw rule files (pygls, the optional extra
`[lsp]`).

- diagnostics: the same as `stichwort validate`, published on open, change and save; those located
  in a base file are shown on the first line of the open file, with their place;
- hover: the vocabulary's docs for built-in names, the schema's for keys, a summary of declared items;
- completion: keys, built-in names, and the contracts, calls, options, … the file and its bases declare;
- go to definition: a declared name (across `extends`), or the base file from an `extends` line;
- quick fixes: a "did you mean" suggestion put in place of the misspelt word;
- formatting: the canonical layout of `stichwort fmt`, comments kept;
- outline: the file's sections, and the contracts, calls, lets, options, … each declares;
- references: every place a declared name is written, in the file and its bases;
- rename: a declared name written only in the open file, everywhere at once.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

from interpreter.diagnostics import Diagnostic, Span
from interpreter.lsp import analysis

try:
    from lsprotocol import types
    from pygls.exceptions import JsonRpcInvalidParams
    from pygls.lsp.server import LanguageServer
except ImportError:  # pragma: no cover - reported by main()
    types = None  # type: ignore[assignment]
    LanguageServer = None  # type: ignore[assignment,misc]
    JsonRpcInvalidParams = None  # type: ignore[assignment,misc]

NAME = "stichwort"


def uri_to_path(uri: str) -> Path:
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)) if parsed.scheme in ("file", "") else Path(uri)


def _utf16(line: str, col: int) -> int:
    """A column in characters (0-based) as LSP counts it, in UTF-16 code units."""
    return len(line[:col].encode("utf-16-le")) // 2


def _from_utf16(line: str, units: int) -> int:
    count = 0
    for i, ch in enumerate(line):
        if count >= units:
            return i
        count += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def to_range(span: Span | None, text: str):
    lines = text.splitlines() or [""]
    if span is None:
        return types.Range(types.Position(0, 0), types.Position(0, 0))

    def pos(line: int, col: int):
        ln = max(min(line - 1, len(lines) - 1), 0)
        return types.Position(ln, _utf16(lines[ln], max(col - 1, 0)))
    return types.Range(pos(span.line, span.col), pos(span.end_line, span.end_col))


def to_lsp(d: Diagnostic, here: str, text: str):
    """One diagnostic for the open file `here` (shown path); one in another file is put on line 1."""
    message = d.message
    if d.file != here:
        message = f"{d.location()}: {message}"
    extra = [f"note: {n}" for n in d.notes]
    if d.help:
        extra.append(f"help: {d.help}")
    if d.suggestions:
        extra.append("did you mean " + " or ".join(f"'{s}'" for s in d.suggestions) + "?")
    severity = types.DiagnosticSeverity.Warning if d.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(range=to_range(d.span if d.file == here else None, text),
                            message="\n".join([message, *extra]), severity=severity, code=d.code, source=NAME)


def build_server():
    from interpreter.lsp.guard import NotOpen, SafeProtocol, guarded, opened, read_rule_file

    server = LanguageServer(NAME, "1", protocol_cls=SafeProtocol)
    results: dict[str, analysis.Result] = {}

    def refresh(uri: str) -> None:
        try:
            doc = opened(server, uri)
        except NotOpen:         # a change or save of a document the editor never opened: nothing to read
            return
        path = uri_to_path(uri)
        result = analysis.check_text(path, doc.source)
        results[uri] = result
        here = analysis.display_path(path)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=uri, version=doc.version, diagnostics=[to_lsp(d, here, doc.source) for d in result.diagnostics]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded
    def did_open(ls, params):
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded
    def did_change(ls, params):
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded
    def did_save(ls, params):
        refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded
    def did_close(ls, params):
        results.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    def where(params):
        doc = opened(server, params.text_document.uri)
        lines = doc.source.splitlines()
        line = params.position.line
        col = _from_utf16(lines[line], params.position.character) if 0 <= line < len(lines) else 0
        result = results.get(params.text_document.uri)
        return doc, line, col, result.loaded if result else None

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded
    def hover(ls, params):
        doc, line, col, loaded = where(params)
        text = analysis.hover(doc.source, line, col, loaded)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    kinds = {"key": types.CompletionItemKind.Property, "value": types.CompletionItemKind.Variable,
             "function": types.CompletionItemKind.Function, "phase": types.CompletionItemKind.EnumMember,
             "obligation": types.CompletionItemKind.EnumMember, "contract": types.CompletionItemKind.Constant,
             "call": types.CompletionItemKind.Constant, "let": types.CompletionItemKind.Variable}

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", "[", " "]))
    @guarded
    def completion(ls, params):
        doc, line, col, loaded = where(params)
        items = [types.CompletionItem(label=label, kind=kinds.get(kind, types.CompletionItemKind.Text),
                                      detail=detail[:200])
                 for label, kind, detail in analysis.completions(loaded, doc.source, line, col)]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    @guarded
    def definition(ls, params):
        doc, line, col, loaded = where(params)
        found = analysis.definition(doc.source, line, col, uri_to_path(params.text_document.uri), loaded)
        if found is None:
            return None
        file, span = found
        path = Path(file).resolve()
        target_text = read_rule_file(path)
        return types.Location(uri=path.as_uri(), range=to_range(span, target_text))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]))
    @guarded
    def code_action(ls, params):
        uri = params.text_document.uri
        doc = opened(server, uri)
        result = results.get(uri)
        if result is None:
            return []
        here = analysis.display_path(uri_to_path(uri))
        wanted = params.range
        actions = []
        for fix in analysis.quick_fixes(doc.source, result.diagnostics, here):
            where = to_range(fix.span, doc.source)
            if (where.end.line, where.end.character) < (wanted.start.line, wanted.start.character) or \
                    (where.start.line, where.start.character) > (wanted.end.line, wanted.end.character):
                continue
            actions.append(types.CodeAction(
                title=f"Replace '{fix.old}' with '{fix.new}'", kind=types.CodeActionKind.QuickFix,
                diagnostics=[to_lsp(fix.diagnostic, here, doc.source)],
                edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(range=where, new_text=fix.new)]})))
        return actions

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    @guarded
    def formatting(ls, params):
        doc = opened(server, params.text_document.uri)
        new = analysis.formatted(uri_to_path(params.text_document.uri), doc.source)
        if new is None or new == doc.source:
            return []
        lines = doc.source.split("\n")
        end = types.Position(len(lines) - 1, _utf16(lines[-1], len(lines[-1])))
        return [types.TextEdit(range=types.Range(types.Position(0, 0), end), new_text=new)]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    @guarded
    def references(ls, params):
        doc, line, col, loaded = where(params)
        here = analysis.display_path(uri_to_path(params.text_document.uri))
        out = []
        for file, span in analysis.references(doc.source, line, col, uri_to_path(params.text_document.uri), loaded):
            if file == here:
                out.append(types.Location(uri=params.text_document.uri, range=to_range(span, doc.source)))
                continue
            path = Path(file).resolve()
            text = read_rule_file(path)
            if not text:
                continue
            out.append(types.Location(uri=path.as_uri(), range=to_range(span, text)))
        return out

    @server.feature(types.TEXT_DOCUMENT_RENAME)
    @guarded
    def rename(ls, params):
        doc, line, col, loaded = where(params)
        got = analysis.rename(doc.source, line, col, uri_to_path(params.text_document.uri), loaded, params.new_name)
        if isinstance(got, str):
            raise JsonRpcInvalidParams(got)
        return types.WorkspaceEdit(changes={params.text_document.uri: [
            types.TextEdit(range=to_range(span, doc.source), new_text=params.new_name) for span in got]})

    symbol_kinds = {"section": types.SymbolKind.Namespace, "contract": types.SymbolKind.Constant,
                    "call": types.SymbolKind.Event, "let": types.SymbolKind.Variable,
                    "option": types.SymbolKind.Property, "talon": types.SymbolKind.Function,
                    "figure": types.SymbolKind.Constant, "account": types.SymbolKind.Field,
                    "category": types.SymbolKind.EnumMember}

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded
    def document_symbol(ls, params):
        uri = params.text_document.uri
        doc = opened(server, uri)
        result = results.get(uri)
        here = analysis.display_path(uri_to_path(uri))

        def convert(sym: analysis.Symbol):
            return types.DocumentSymbol(
                name=sym.name, kind=symbol_kinds.get(sym.kind, types.SymbolKind.Object),
                range=to_range(sym.span, doc.source), selection_range=to_range(sym.selection, doc.source),
                detail=sym.kind if sym.kind != "section" else None, children=[convert(c) for c in sym.children])
        return [convert(s) for s in analysis.symbols(result.loaded if result else None, here)]

    return server


def main() -> int:
    if LanguageServer is None:
        import sys

        print("stichwort: error: the language server needs pygls: pip install 'stichwort[lsp]'", file=sys.stderr)
        return 2
    from interpreter.lsp.guard import exit_code, quiet_logging

    quiet_logging()
    server = build_server()
    server.start_io()
    return exit_code(server)


if __name__ == "__main__":
    raise SystemExit(main())
