"""Stage 3: find a rule file, read it (.stw, .yaml, .yml or .json), follow `extends`, apply `remove`
and merge the layers into one rules document, keeping where every part was written.
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path

from .diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from .document import SourceMap, build, escape
from .parser import MAX_BYTES, parse
from .resources import builtin_games

MAX_EXTENDS = 12
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
    for c in candidates:
        if c.is_file():
            return c
    games = builtin_games()
    if target in games:
        return games[target]
    if p.suffix in RULE_SUFFIXES or "/" in target:
        raise DiagnosticError([Diagnostic("E130", f"cannot find the rule file '{target}'", file, span,
                                          help="give a path to a .stw/.yaml/.json file or a built-in game name")])
    raise DiagnosticError([Diagnostic("E130", f"unknown game '{target}'", file, span,
                                      help="built-in games: " + ", ".join(sorted(games)),
                                      suggestions=best_matches(target, games))])


def read_text(path: Path, shown: str) -> str:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise DiagnosticError([Diagnostic("E101", f"file is larger than {MAX_BYTES // 1024} KiB", shown)])
        data = path.read_bytes()
    except OSError as err:
        raise DiagnosticError([Diagnostic("E100", f"cannot read file: {err.strerror or err}", shown)]) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise DiagnosticError([Diagnostic("E100", "file is not valid UTF-8 text", shown, Span(line, 1, line, 2))]) from None


def parse_source(text: str, shown: str, suffix: str) -> tuple[dict, SourceMap]:
    if suffix in (".yaml", ".yml", ".json"):
        return parse_data(text, shown)
    doc, smap = build(parse(text, shown), shown)
    return doc, smap


def parse_data(text: str, shown: str) -> tuple[dict, SourceMap]:
    """YAML or JSON text → (document, source map), positions taken from ruamel.yaml."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        raise DiagnosticError([Diagnostic("E101", f"file is larger than {MAX_BYTES // 1024} KiB", shown)])
    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        span = Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2) if mark else None
        raise DiagnosticError([Diagnostic("E113", f"not valid YAML/JSON: {err.problem or err}", shown, span)]) from None
    except (YAMLError, RecursionError, ValueError) as err:
        raise DiagnosticError([Diagnostic("E113", f"not valid YAML/JSON: {type(err).__name__}", shown)]) from None
    smap = SourceMap(shown)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise DiagnosticError([Diagnostic("E114", "a rule file must be a mapping at the top level", shown, Span(1, 1, 1, 2))])
    try:
        return _plain(data, "", smap, 0), smap
    except RecursionError:
        raise DiagnosticError([Diagnostic("E102", "the data nests too deeply", shown)]) from None


def _plain(node, ptr: str, smap: SourceMap, depth: int):
    if depth > 64:
        raise DiagnosticError([Diagnostic("E102", "the data nests deeper than 64 levels", smap.file, smap.find(ptr))])
    if isinstance(node, dict):
        out = {}
        lc = getattr(node, "lc", None)
        for k, v in node.items():
            key = str(k) if not isinstance(k, str) else k
            here = ptr + "/" + escape(key)
            if lc is not None:
                try:
                    kl, kc = lc.key(k)
                    smap.keys[here] = Span(kl + 1, kc + 1, kl + 1, kc + 1 + len(key))
                    vl, vc = lc.value(k)
                    smap.values[here] = Span(vl + 1, vc + 1, vl + 1, vc + 2)
                except (KeyError, TypeError, AttributeError):
                    pass
            out[key] = _plain(v, here, smap, depth + 1)
        return out
    if isinstance(node, list):
        out = []
        lc = getattr(node, "lc", None)
        for i, v in enumerate(node):
            here = f"{ptr}/{i}"
            if lc is not None:
                try:
                    il, ic = lc.item(i)
                    smap.values[here] = Span(il + 1, ic + 1, il + 1, ic + 2)
                except (KeyError, TypeError, AttributeError, IndexError):
                    pass
            out.append(_plain(v, here, smap, depth + 1))
        return out
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return repr(float(node))
    return str(node)


def read_layer(path: Path) -> Layer:
    shown = display_path(path)
    text = read_text(path, shown)
    doc, smap = parse_source(text, shown, path.suffix.lower())
    return Layer(shown, text, doc, smap)


def _remove(doc: dict, path: str, layer: Layer, index: int) -> None:
    parts = path.split(".")
    node = doc
    for i, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            options = list(node) if isinstance(node, dict) else []
            ptr = f"/remove/{index}"
            raise DiagnosticError([Diagnostic(
                "E132", f"cannot remove '{path}': the base has no '{'.'.join(parts[: i + 1])}'",
                layer.path, layer.smap.find(ptr), suggestions=best_matches(part, options))])
        if i == len(parts) - 1:
            del node[part]
        else:
            node = node[part]


def merge(base, over):
    """Deep merge: mappings merge key by key, anything else is replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v) if k in base else copy.deepcopy(v)
        return out
    return copy.deepcopy(over)


def load(target: str) -> Loaded:
    """Read a rule file and its `extends` chain into one merged document."""
    path = resolve(target)
    layers: list[Layer] = []
    seen: list[Path] = []
    current = path
    where = None
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
        layer = read_layer(current)
        layers.append(layer)
        base = layer.doc.get("extends")
        if base is None:
            break
        where = (layer.path, layer.smap.find("/extends"))
        if not isinstance(base, str):
            raise DiagnosticError([Diagnostic("E133", "'extends' takes the name or path of a rule file", *where)])
        current = resolve(base, relative_to=current, where=where)
    layers.reverse()
    doc: dict = {}
    for layer in layers:
        body = {k: v for k, v in layer.doc.items() if k not in ("extends", "remove")}
        removes = layer.doc.get("remove", [])
        if not isinstance(removes, list):
            removes = []
        for i, r in enumerate(removes):
            if isinstance(r, str):
                _remove(doc, r, layer, i)
        doc = merge(doc, body)
    name = path.stem
    return Loaded(name=name, path=display_path(path), doc=doc,
                  origins=Origins([l.smap for l in layers]),
                  sources={l.path: l.text for l in layers}, chain=[l.path for l in layers])


def dump_json(doc: dict) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False)
