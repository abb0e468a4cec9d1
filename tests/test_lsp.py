"""The language server: started over stdio as a subprocess, it publishes the located diagnostics of
`validate` for an opened file with a mistake; hover, completion and go-to-definition answer from
the vocabulary and across `extends`."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the [lsp] extra is not installed")

ROOT = Path(__file__).resolve().parent.parent


class Client:
    """A minimal JSON-RPC client speaking the LSP framing (Content-Length headers) over pipes."""

    def __init__(self, cwd: Path):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", "lsp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.next_id = 0
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self.stdin, self.stdout, self.stderr = self.proc.stdin, self.proc.stdout, self.proc.stderr

    def send(self, method: str, params: dict, request: bool = True) -> int | None:
        msg: dict = {"jsonrpc": "2.0", "method": method, "params": params}
        ident = None
        if request:
            self.next_id += 1
            ident = msg["id"] = self.next_id
        body = json.dumps(msg).encode("utf-8")
        self.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.stdin.flush()
        return ident

    def read(self) -> dict:
        length = 0
        while True:
            line = self.stdout.readline()
            if not line:
                raise AssertionError("the server closed its output: " + self.stderr.read().decode(errors="replace"))
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.stdout.read(length))

    def wait_for(self, pred, timeout: float = 60) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            msg = self.read()
            if pred(msg):
                return msg
        raise AssertionError("no such message in time")

    def request(self, method: str, params: dict) -> dict:
        ident = self.send(method, params)
        return self.wait_for(lambda m: m.get("id") == ident)

    def close(self) -> None:
        try:
            self.request("shutdown", {})
            self.send("exit", {}, request=False)
            self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def client(tmp_path):
    c = Client(tmp_path)
    c.request("initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    c.send("initialized", {}, request=False)
    yield c
    c.close()


def with_base(folder: Path) -> Path:
    """The small valid base of the diagnostics cases, as base.stw in `folder`."""
    base = folder / "base.stw"
    base.write_text((ROOT / "tests/diagnostics/cases/helpers/house_base.stw").read_text(), encoding="utf-8")
    return base


def change_file(client: Client, path: Path, text: str, version: int) -> dict:
    """The editor's text of `path` replaced by `text`; the diagnostics then published."""
    client.send("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": version},
                                           "contentChanges": [{"text": text}]}, request=False)
    return client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]


def open_file(client: Client, path: Path, text: str) -> dict:
    path.write_text(text, encoding="utf-8")
    client.send("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "stichwort",
                                                          "version": 1, "text": text}}, request=False)
    return client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]


def test_opened_file_with_a_mistake_gets_the_located_diagnostic(client, tmp_path):
    text = 'extends "wien"\ntitle = "house"\ncontract one { rnak = 1 }\n'
    params = open_file(client, tmp_path / "house.stw", text)
    (d,) = params["diagnostics"]
    assert d["code"] == "E201" and "rnak" in d["message"] and "did you mean 'rank'" in d["message"]
    assert d["range"]["start"] == {"line": 2, "character": 15}
    assert d["range"]["end"] == {"line": 2, "character": 19}


def test_unsaved_changes_are_checked_and_fixed_files_clear(client, tmp_path):
    path = tmp_path / "house.stw"
    params = open_file(client, path, 'extends "wien"\ntitle = "house"\n')
    assert params["diagnostics"] == []
    client.send("textDocument/didChange", {"textDocument": {"uri": path.as_uri(), "version": 2},
                                           "contentChanges": [{"text": 'extends "wien"\nlet x = contract.defense\n'}]},
                request=False)
    params = client.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")["params"]
    (d,) = params["diagnostics"]
    assert d["code"] == "E330" and d["range"]["start"]["line"] == 1


def test_hover_completion_and_definition_across_extends(client, tmp_path):
    with_base(tmp_path)
    path = tmp_path / "house.stw"
    text = 'extends "base"\ntitle = "h"\nsettle.pay[won].amount = tricks(declarer) + contract.premium\ncall one { contracts = [one, two] }\n'
    assert open_file(client, path, text)["diagnostics"] == []
    uri = {"uri": path.as_uri()}
    hover = client.request("textDocument/hover", {"textDocument": uri, "position": {"line": 2, "character": 28}})
    assert "tricks" in hover["result"]["contents"]["value"] and "taken by a seat" in hover["result"]["contents"]["value"]
    comp = client.request("textDocument/completion", {"textDocument": uri, "position": {"line": 3, "character": 24}})
    labels = {i["label"] for i in comp["result"]["items"]}
    assert {"two_g", "one", "declarer", "follow_suit"} <= labels and "early_end" not in labels   # a list: names, no keys
    comp = client.request("textDocument/completion", {"textDocument": uri, "position": {"line": 3, "character": 25}})
    typed = {i["label"] for i in comp["result"]["items"]}                # "o" typed: only names beginning with it
    assert "one" in typed and all(label.startswith("o") for label in typed) and len(typed) < len(labels) / 5
    found = client.request("textDocument/definition", {"textDocument": uri, "position": {"line": 3, "character": 29}})
    assert found["result"]["uri"] == (tmp_path / "base.stw").as_uri()
    base_lines = (tmp_path / "base.stw").read_text().splitlines()
    assert base_lines[found["result"]["range"]["start"]["line"]].lstrip().startswith("| two ")
    found = client.request("textDocument/definition", {"textDocument": uri, "position": {"line": 0, "character": 3}})
    assert found["result"]["uri"] == (tmp_path / "base.stw").as_uri()


def _apply(text: str, edits: list[dict]) -> str:
    """The text after LSP TextEdits (ASCII text, so UTF-16 columns are characters), the last first."""
    lines = text.split("\n")
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    spans = []
    for e in edits:
        r = e["range"]
        spans.append((offsets[r["start"]["line"]] + r["start"]["character"],
                      offsets[r["end"]["line"]] + r["end"]["character"], e["newText"]))
    for a, b, new in sorted(spans, reverse=True):
        text = text[:a] + new + text[b:]
    return text


def test_quick_fix_puts_the_suggestion_in_place_and_the_file_validates(client, tmp_path):
    path = tmp_path / "house.stw"
    text = 'extends "wien"\ntitle = "house"\ncontract one { rnak = 1 }\n'
    (d,) = open_file(client, path, text)["diagnostics"]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": path.as_uri()}, "range": d["range"], "context": {"diagnostics": [d]}})["result"]
    (fix,) = [a for a in actions if a["title"] == "Replace 'rnak' with 'rank'"]
    assert fix["kind"] == "quickfix" and fix["diagnostics"][0]["code"] == "E201"
    fixed = _apply(text, fix["edit"]["changes"][path.as_uri()])
    assert fixed == 'extends "wien"\ntitle = "house"\ncontract one { rank = 1 }\n'
    assert change_file(client, path, fixed, 2)["diagnostics"] == []
    # a range elsewhere in the file gets no fix
    far = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}
    change_file(client, path, text, 3)
    assert client.request("textDocument/codeAction", {"textDocument": {"uri": path.as_uri()}, "range": far,
                                                      "context": {"diagnostics": []}})["result"] == []


def test_formatting_gives_the_layout_of_fmt(client, tmp_path):
    from interpreter.language.format import format_text

    path = tmp_path / "house.stw"
    text = 'extends "wien"\ntitle = "house"   # a comment\ncontract one {\n        rank = 1\n}\n'
    open_file(client, path, text)
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": path.as_uri()},
                                                       "options": {"tabSize": 2, "insertSpaces": True}})["result"]
    formatted = _apply(text, edits)
    assert formatted != text and formatted == format_text(text)
    assert "# a comment" in formatted
    change_file(client, path, formatted, 2)
    assert client.request("textDocument/formatting", {"textDocument": {"uri": path.as_uri()},
                                                      "options": {"tabSize": 2, "insertSpaces": True}})["result"] == []


def test_outline_lists_the_sections_and_what_each_declares(client, tmp_path):
    path = tmp_path / "house.stw"
    text = ('extends "wien"\ntitle = "house"\noption bonus { default = 1 }\nlet extra = bonus * 2\n'
            'settle.pay[premium_made].amount = extra\n')
    assert open_file(client, path, text)["diagnostics"] == []
    got = client.request("textDocument/documentSymbol", {"textDocument": {"uri": path.as_uri()}})["result"]
    assert [s["name"] for s in got] == ["extends", "title", "option", "let", "settle"]
    option = got[2]
    (bonus,) = option["children"]
    assert bonus["name"] == "bonus" and bonus["detail"] == "option" and bonus["selectionRange"]["start"] == {"line": 2, "character": 7}
    assert got[3]["children"][0]["name"] == "extra" and got[3]["children"][0]["range"]["start"]["line"] == 3
    assert got[4]["range"]["start"]["line"] == 4 and got[4]["children"] == []


def test_references_of_a_let_in_the_file_and_its_base(client, tmp_path):
    with_base(tmp_path)
    path = tmp_path / "house.stw"
    text = ('extends "base"\nlet bonus = 2   # bonus in a comment is no use\n'
            'settle.pay[won].amount = 1 + contract.premium + bonus\ntitle = "bonus"\n')
    assert open_file(client, path, text)["diagnostics"] == []
    uri = {"uri": path.as_uri()}
    got = client.request("textDocument/references", {"textDocument": uri, "position": {"line": 1, "character": 5},
                                                     "context": {"includeDeclaration": True}})["result"]
    assert sorted((r["uri"], r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in got) == [
        (path.as_uri(), 1, 4), (path.as_uri(), 2, 48)]
    # a contract: its row in the base, and where the base and this file name it
    got = client.request("textDocument/references", {"textDocument": uri, "position": {"line": 2, "character": 38},
                                                     "context": {"includeDeclaration": True}})["result"]
    assert got == []            # 'contract' is a built-in word, not a declared name
    text2 = text + "call one { contracts = [one, two_g] }\n"
    change_file(client, path, text2, 2)
    got = client.request("textDocument/references", {"textDocument": uri, "position": {"line": 4, "character": 30},
                                                     "context": {"includeDeclaration": True}})["result"]
    base = (tmp_path / "base.stw").as_uri()
    in_base = [n for n, ln in enumerate((tmp_path / "base.stw").read_text().splitlines()) if "two_g" in ln]
    assert len(in_base) == 2            # the call that leads to it and its row in the contract table
    assert {(r["uri"], r["range"]["start"]["line"]) for r in got} == {(path.as_uri(), 4)} | {(base, n) for n in in_base}


def test_rename_a_let_everywhere_in_the_file_and_refusals(client, tmp_path):
    with_base(tmp_path)
    path = tmp_path / "house.stw"
    text = ('extends "base"\nlet bonus = 2   # bonus\n'
            'settle.pay[won].amount = 1 + contract.premium + bonus\nsettle.pay[lost].amount = bonus\n')
    assert open_file(client, path, text)["diagnostics"] == []
    at = {"textDocument": {"uri": path.as_uri()}, "position": {"line": 1, "character": 6}}
    edit = client.request("textDocument/rename", {**at, "newName": "extra"})["result"]
    renamed = _apply(text, edit["changes"][path.as_uri()])
    assert renamed == ('extends "base"\nlet extra = 2   # bonus\n'
                       'settle.pay[won].amount = 1 + contract.premium + extra\nsettle.pay[lost].amount = extra\n')
    assert change_file(client, path, renamed, 2)["diagnostics"] == []
    # refused: a name already declared, a bad name, and a name its base writes too
    at["position"] = {"line": 1, "character": 6}
    for new, says in (("two", "already a contract"), ("9", "not a name"), ("tricks", "built-in")):
        err = client.request("textDocument/rename", {**at, "newName": new})["error"]
        assert says in err["message"], err
    text3 = renamed + "call one { contracts = [one, two] }\n"
    change_file(client, path, text3, 3)
    at["position"] = {"line": 4, "character": 29}
    err = client.request("textDocument/rename", {**at, "newName": "deuce"})["error"]
    assert "also written in" in err["message"] and "base.stw" in err["message"]
    at["position"] = {"line": 0, "character": 1}
    assert "can be renamed" in client.request("textDocument/rename", {**at, "newName": "x"})["error"]["message"]


def test_quick_fixes_narrow_a_wide_span_to_the_word_the_message_names(tmp_path):
    from interpreter.lsp import analysis

    path = tmp_path / "q.stw"
    text = 'extends "wien"\nlet x = trciks(declarer) + contract.premum\ncontract.one.defence = asc\n'
    path.write_text(text, encoding="utf-8")
    diags = analysis.check_text(path, text).diagnostics
    fixes = analysis.quick_fixes(text, diags, analysis.display_path(path))
    assert {(f.old, f.new) for f in fixes} == {("asc", "ask"), ("trciks", "tricks"), ("premum", "premium")}
    lines = text.splitlines()
    for f in fixes:                       # each span covers exactly the misspelt word
        assert lines[f.span.line - 1][f.span.col - 1:f.span.end_col - 1] == f.old
