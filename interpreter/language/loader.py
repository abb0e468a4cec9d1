"""Stage 3: find a rule file, read it (.stw, .yaml, .yml or .json), follow `extends`, apply `remove`
and merge the layers into one rules document, keeping where every part was written.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from interpreter.files import is_file, read_bytes, refuse_special
from interpreter.language.document import SourceMap, build, escape
from interpreter.language.edits import Spans, apply_edit, merge, remove_path
from interpreter.language.parser import MAX_BYTES, check_tokens, parse, token_problem
from interpreter.resources import builtin_games

MAX_EXTENDS = 12
LARGE = 8_000            # a .stw file of more tokens than this is parsed with positions at once
LAYER_ONLY = ("extends", "remove", "edit")   # how a layer changes its base; not part of the merged document
MAX_DATA_DEPTH = 64
RULE_SUFFIXES = (".stw", ".yaml", ".yml", ".json")


@dataclass
class Layer:
    path: str
    text: str
    doc: dict
    smap: SourceMap


@dataclass
class Origins:
    """Source maps of all layers, latest first: where a merged pointer was last written."""
    layers: list[SourceMap] = field(default_factory=list)
    files: list[str] = field(default_factory=list)     # the extends chain, base first
    removed: list[tuple[str, Span | None, str]] = field(default_factory=list)   # (file, span, path) of every `remove`

    def find(self, ptr: str, prefer_key: bool = False) -> tuple[str, Span | None]:
        probe = ptr
        while True:
            for smap in reversed(self.layers):
                table_a, table_b = (smap.keys, smap.values) if prefer_key else (smap.values, smap.keys)
                if probe in table_a:
                    return smap.file, table_a[probe]
                if probe in table_b:
                    return smap.file, table_b[probe]
            if not probe:
                break
            probe = probe.rsplit("/", 1)[0]
        return (self.layers[-1].file if self.layers else "<input>"), None


@dataclass
class Loaded:
    name: str
    path: str
    doc: dict
    origins: Origins
    sources: dict[str, str]
    chain: list[str]


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def resolve(target: str, relative_to: Path | None = None, where: tuple[str, Span | None] | None = None) -> Path:
    """A rule file by path, by path relative to another rule file, or by built-in name."""
    file, span = where or ("<command line>", None)
    candidates = []
    p = Path(target)
    if relative_to is not None:
        candidates.append(relative_to.parent / target)
        if p.suffix.lower() not in RULE_SUFFIXES:  # a bare name: a file of that name beside this one, in any spelling
            candidates.extend(relative_to.parent / (target + suffix) for suffix in RULE_SUFFIXES)
    candidates.append(p)
    found = [c for c in candidates if is_file(c)]
    for c in found:
        if c.suffix.lower() in RULE_SUFFIXES:
            return c
    games = builtin_games()
    if target in games:
        return games[target]
    if found:  # only rule files are read, so that no other file's content can appear in a diagnostic
        raise DiagnosticError([Diagnostic("E130", f"'{target}' is not a rule file: only .stw, .yaml, .yml and .json "
                                          "files are read", file, span, help="give a rule file or a built-in game name")])
    refuse_special(candidates, f"the rule file '{target}'", file, span)      # a named pipe: E100, never opened
    if p.suffix in RULE_SUFFIXES or "/" in target:
        raise DiagnosticError([Diagnostic("E130", f"cannot find the rule file '{target}'", file, span,
                                          help="give a path to a .stw/.yaml/.json file or a built-in game name")])
    close = best_matches(target, games)
    raise DiagnosticError([Diagnostic("E130", f"unknown game '{target}'", file, span,
                                      help="give a built-in game name or the path of a rule file" if close
                                      else "built-in games: " + ", ".join(sorted(games)),
                                      suggestions=close)])


def read_text(path: Path, shown: str) -> str:
    """A rule file's text: only .stw/.yaml/.yml/.json files are read (so no other file's content is
    ever shown in a diagnostic), at most MAX_BYTES, and only regular files."""
    if path.suffix.lower() not in RULE_SUFFIXES:
        raise DiagnosticError([Diagnostic("E100", "not a rule file: only .stw, .yaml, .yml and .json files are read",
                                          shown, help="give a rule file or a built-in game name")])
    try:
        data = read_bytes(path, "rule file", MAX_BYTES)
    except DiagnosticError as err:
        d = err.diagnostics[0]
        message = f"file is larger than {MAX_BYTES // 1024} KiB" if d.code == "E101" else d.message
        raise DiagnosticError([Diagnostic(d.code, message, shown, help=d.help)]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        line_start = data.rfind(b"\n", 0, err.start) + 1
        col = len(data[line_start: err.start].decode("utf-8", errors="replace")) + 1
        raise DiagnosticError([Diagnostic("E100", f"file is not valid UTF-8 text (byte 0x{data[err.start]:02x})",
                                          shown, Span(line, col, line, col + 1),
                                          help="save the file in the UTF-8 encoding")]) from None


def sources_for(diagnostics: list[Diagnostic]) -> dict[str, str]:
    """The text of every readable file the diagnostics point into, for rendering their lines."""
    out: dict[str, str] = {}
    for d in diagnostics:
        if d.file in out or d.span is None:
            continue
        try:
            path = Path(d.file)
            if path.is_file() and path.stat().st_size <= MAX_BYTES:
                out[d.file] = path.read_bytes().decode("utf-8", errors="replace")
        except (OSError, ValueError):
            pass
    return out


def parse_source(text: str, shown: str, suffix: str, positions: bool = True) -> tuple[dict, SourceMap]:
    if suffix in (".yaml", ".yml", ".json"):
        return parse_data(text, shown)
    doc, smap = build(parse(text, shown, positions=positions), shown)
    return doc, smap


def parse_data(text: str, shown: str) -> tuple[dict, SourceMap]:
    """YAML or JSON text → (document, source map), positions taken from ruamel.yaml."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise DiagnosticError([Diagnostic("E101", f"file is larger than {MAX_BYTES // 1024} KiB", shown)])
    _check_flow_depth(text, shown)
    check_tokens(text, shown)      # a cost bound: a long flow list is refused before it is parsed
    _check_aliases(text, shown)
    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except MarkedYAMLError as err:
        raise DiagnosticError([_yaml_diagnostic(err, shown)]) from None
    except RecursionError:
        raise DiagnosticError([Diagnostic("E102", f"the data nests deeper than {MAX_DATA_DEPTH} levels", shown,
                                          help="flatten the structure")]) from None
    except (YAMLError, ValueError, OverflowError) as err:
        raise DiagnosticError([Diagnostic("E113", f"not valid YAML/JSON: {type(err).__name__}", shown)]) from None
    except TypeError:
        raise DiagnosticError([Diagnostic("E113", "not valid YAML/JSON: a key is a list or mapping, not a name", shown,
                                          Span(1, 1, 1, 2), help="keys are names; a key written { … } or [ … ] cannot be one")]) from None
    smap = SourceMap(shown)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise DiagnosticError([Diagnostic("E114", "a rule file must be a mapping at the top level", shown, Span(1, 1, 1, 2),
                                          help="write the file as keys and values, e.g. `title: …` on the first line")])
    problem = expansion_problem(data)
    if problem:
        raise DiagnosticError([Diagnostic(problem[0], problem[1], shown, Span(1, 1, 1, 2), help=problem[2])])
    try:
        return _plain(data, "", smap, 0, text.splitlines()), smap
    except RecursionError:
        raise DiagnosticError([Diagnostic("E102", f"the data nests deeper than {MAX_DATA_DEPTH} levels", shown,
                                          help="flatten the structure")]) from None


MAX_ALIASES = 100                # '*name' references in one YAML file
MAX_NODES = 200_000              # values in one YAML document, aliases followed
MAX_NUMBER = 10**15              # the largest number a rule file may write


def alias_problem(text: str) -> tuple[str, Span | None] | None:
    """More than MAX_ALIASES aliases, counted on the parser's events before anything is built."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import AliasEvent

    if "*" not in text:
        return None
    n = 0
    try:
        for event in YAML(typ="safe", pure=True).parse(text):
            if isinstance(event, AliasEvent):
                n += 1
                if n > MAX_ALIASES:
                    m = event.start_mark
                    return f"more than {MAX_ALIASES} YAML aliases", Span(m.line + 1, m.column + 1, m.line + 1, m.column + 2)
    except (YAMLError, RecursionError, ValueError):
        return None       # the real load reports it, with its place
    return None


def expansion_problem(data) -> tuple[str, str, str] | None:
    """(code, message, help) for a document that, aliases followed, holds more than MAX_NODES values
    (an alias bomb), or holds a number beyond MAX_NUMBER (a YAML hex number of 5,000 digits)."""
    budget = MAX_NODES
    stack = [data]
    while stack:
        node = stack.pop()
        budget -= 1
        if budget < 0:
            return ("E103", f"the file expands to more than {MAX_NODES} values (YAML aliases repeated too often)",
                    "write the values out, or use fewer '*' references")
        if isinstance(node, int) and not isinstance(node, bool) and abs(node) > MAX_NUMBER:
            return "E104", f"a number is too large (at most {MAX_NUMBER:,} either way)", "write a smaller number"
        if isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _check_aliases(text: str, shown: str) -> None:
    problem = alias_problem(text)
    if problem:
        raise DiagnosticError([Diagnostic("E103", problem[0], shown, problem[1],
                                          help="write the values out, or use fewer '*' references")])


def _yaml_diagnostic(err, shown: str) -> Diagnostic:
    """A YAML parser error in words: where it was noticed and, as help, what was open at the time."""
    mark = err.problem_mark or err.context_mark
    span = Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2) if mark else None
    problem = str(err.problem or err)
    hints = []
    context, cmark = err.context, err.context_mark
    if context and cmark is not None and (mark is None or (cmark.line, cmark.column) != (mark.line, mark.column)):
        hints.append(f"{context} that starts on line {cmark.line + 1}, column {cmark.column + 1}")
    duplicate = re.match(r'found duplicate key "(.*?)" with value', problem)
    if duplicate:
        key = duplicate.group(1)
        if span is not None:
            span = Span(span.line, span.col, span.line, span.col + max(len(key), 1))
        return Diagnostic("E120", f"'{key}' is given twice", shown, span,
                          help="each key may be set once in a mapping; a variant file overrides its base")
    if "expected ','" in problem:
        hints.append("a ',' between two entries, or the closing bracket, is missing before this")
    if "<block end>" in problem:
        problem = "this line does not fit the indentation of the lines above"
    if "indentation" in problem or "mapping values are not allowed" in problem:
        hints.append("check the indentation: the keys of one mapping start in the same column, "
                     "and a value containing ': ' needs quotes")
    elif "'\\t'" in problem:
        hints.append("indent with spaces, not tabs")
    return Diagnostic("E113", f"not valid YAML/JSON: {problem}", shown, span, help="; ".join(hints) or None)


def _scalar_width(lines: list[str], line: int, col: int, node) -> int:
    """How many characters the scalar `node` takes at (line, col) (0-based) of the YAML/JSON text; 1 if unsure."""
    if isinstance(node, (dict, list)) or not 0 <= line < len(lines):
        return 1
    text = lines[line][col:]
    if text[:1] in ("'", '"'):
        quote, i = text[0], 1
        while i < len(text):
            if quote == '"' and text[i] == "\\":
                i += 2
                continue
            if text[i] == quote:
                if quote == "'" and text[i + 1: i + 2] == "'":
                    i += 2
                    continue
                return i + 1
            i += 1
        return len(text.rstrip()) or 1
    shown = {True: "true", False: "false", None: ""}.get(node, str(node)) if isinstance(node, (bool, type(None))) else str(node)
    return len(shown) if shown and text.startswith(shown) else 1


def _check_flow_depth(text: str, shown: str) -> None:
    """Refuse [ and { nested far deeper than MAX_DATA_DEPTH before the YAML parser recurses into them."""
    depth, line, col = 0, 1, 0
    quote = None
    previous = "\n"
    for ch in text:
        col += 1
        if ch == "\n":
            line, col, quote = line + 1, 0, None if quote == "#" else quote
        elif quote is not None:
            if ch == quote and quote != "#" and previous != "\\":
                quote = None
        elif (ch in "\"'" and previous in " \t\n[{,:") or (ch == "#" and previous in " \t\n"):
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth > MAX_DATA_DEPTH + 1:
                raise DiagnosticError([Diagnostic("E102", f"the data nests deeper than {MAX_DATA_DEPTH} levels", shown,
                                                  Span(line, col, line, col + 1), help="flatten the structure")])
        elif ch in "]}":
            depth = max(depth - 1, 0)
        previous = ch


def _plain(node, ptr: str, smap: SourceMap, depth: int, lines: list[str] | None = None):
    if depth > MAX_DATA_DEPTH:
        raise DiagnosticError([Diagnostic("E102", f"the data nests deeper than {MAX_DATA_DEPTH} levels", smap.file,
                                          smap.find(ptr), help="flatten the structure")])
    if isinstance(node, dict):
        out = {}
        lc = getattr(node, "lc", None)
        for k, v in node.items():
            key = str(k) if not isinstance(k, str) else k
            here = ptr + "/" + escape(key)
            if lc is not None:
                try:
                    kl, kc = lc.key(k)
                    width = max(_scalar_width(lines or [], kl, kc, key), len(key))
                    smap.keys[here] = Span(kl + 1, kc + 1, kl + 1, kc + 1 + width)
                    vl, vc = lc.value(k)
                    width = _scalar_width(lines or [], vl, vc, v)
                    smap.values[here] = Span(vl + 1, vc + 1, vl + 1, vc + 1 + width)
                except (KeyError, TypeError, AttributeError):
                    pass
            out[key] = _plain(v, here, smap, depth + 1, lines)
        return out
    if isinstance(node, list):
        items = []
        lc = getattr(node, "lc", None)
        for i, v in enumerate(node):
            here = f"{ptr}/{i}"
            if lc is not None:
                try:
                    il, ic = lc.item(i)
                    width = _scalar_width(lines or [], il, ic, v)
                    smap.values[here] = Span(il + 1, ic + 1, il + 1, ic + 1 + width)
                except (KeyError, TypeError, AttributeError, IndexError):
                    pass
            items.append(_plain(v, here, smap, depth + 1, lines))
        return items
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        if abs(node) > MAX_NUMBER:
            raise DiagnosticError([Diagnostic("E104", f"the number is too large (at most {MAX_NUMBER:,} either way)",
                                              smap.file, smap.find(ptr))])
        return int(node)
    if isinstance(node, float):
        return repr(float(node))
    return str(node)


_PARSED: OrderedDict[tuple, tuple] = OrderedDict()
_PARSED_MAX = 64


def read_layer(path: Path, positions: bool = True) -> Layer:
    """One rule file as a layer. A file whose text has not changed is parsed once per process:
    layers are never modified (merging copies them), so the parsed document can be shared."""
    shown = display_path(path)
    text = read_text(path, shown)
    suffix = path.suffix.lower()
    # YAML and JSON always keep their positions (read once); so does a large .stw file, which the fast
    # pass would only read twice when it has something to report (its cost grows with its length)
    positions = positions or suffix != ".stw" or token_problem(text, LARGE) is not None
    key = (shown, suffix, positions, hashlib.sha256(text.encode("utf-8")).digest())
    hit = _PARSED.get(key)
    if hit is not None:
        _PARSED.move_to_end(key)
        return Layer(shown, text, hit[0], hit[1])
    doc, smap = parse_source(text, shown, path.suffix.lower(), positions)
    _PARSED[key] = (doc, smap)
    if len(_PARSED) > _PARSED_MAX:
        _PARSED.popitem(last=False)
    return Layer(shown, text, doc, smap)


def layer_from_text(path: Path, text: str, positions: bool = True) -> Layer:
    """A layer from text not (yet) saved as `path` — an editor's buffer."""
    shown = display_path(path)
    doc, smap = parse_source(text, shown, path.suffix.lower(), positions)
    return Layer(shown, text, doc, smap)


def load(target: str, positions: bool = True, texts: dict[str, str] | None = None) -> Loaded:
    """Read a rule file and its `extends` chain into one merged document. Without `positions` the
    source map is empty (faster); ask for it when there are diagnostics to locate. `texts` gives the
    text of files by their resolved path, instead of what is on disk (an editor's unsaved buffers)."""
    path = resolve(target)
    layers: list[Layer] = []
    seen: list[Path] = []
    current = path
    where: tuple[str, Span | None] = ("<command line>", None)
    while True:
        real = current.resolve()
        if real in seen:
            cycle = " → ".join(display_path(p) for p in seen + [real])
            file, span = where
            raise DiagnosticError([Diagnostic("E131", f"'extends' goes round in a cycle: {cycle}", file, span,
                                              help="a base file must not extend its own variant")])
        seen.append(real)
        if len(seen) > MAX_EXTENDS:
            file, span = where
            raise DiagnosticError([Diagnostic("E131", f"more than {MAX_EXTENDS} files in one 'extends' chain", file, span)])
        text = (texts or {}).get(str(real))
        layer = read_layer(current, positions) if text is None else layer_from_text(current, text, positions)
        layers.append(layer)
        base = layer.doc.get("extends")
        if base is None:
            break
        where = (layer.path, layer.smap.find("/extends"))
        if not isinstance(base, str):
            raise DiagnosticError([Diagnostic("E133", "'extends' takes the name or path of a rule file", *where,
                                              help="a file extends one base: a game name or a path such as \"base.stw\"")])
        current = resolve(base, relative_to=current, where=where)
    layers.reverse()
    doc: dict = {}
    spans = Spans([])
    removed: list[tuple[str, Span | None, str]] = []
    for layer in layers:
        body = {k: v for k, v in layer.doc.items() if k not in LAYER_ONLY}
        removes = layer.doc.get("remove", [])
        if not isinstance(removes, list):
            removes = []
        for i, r in enumerate(removes):
            if isinstance(r, str):
                remove_path(doc, r, i, layer.path, layer.smap, spans)
                removed.append((layer.path, layer.smap.find(f"/remove/{i}"), r))
        doc = merge(doc, body)
        spans.smaps.append(layer.smap)
        edits = layer.doc.get("edit", [])
        for i, e in enumerate(edits if isinstance(edits, list) else []):
            if isinstance(e, dict):
                apply_edit(doc, e, i, layer.smap, spans)
    name = path.stem
    return Loaded(name=name, path=display_path(path), doc=doc,
                  origins=Origins(spans.smaps, [layer.path for layer in layers], removed),
                  sources={l.path: l.text for l in layers}, chain=[l.path for l in layers])


def dump_json(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)
