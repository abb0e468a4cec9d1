"""Issue 38, item 5: the language server reads only what the editor opened, answers every request (an
error reply for a bad one, never silence, never a traceback) and exits 0 after shutdown and exit.
Each attack is followed by a normal request, which must still be answered."""
from __future__ import annotations

import os
import select
import time
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the [lsp] extra is not installed")

from test_lsp import Client, open_file


def answer(client: Client, ident: int, timeout: float = 20) -> dict:
    """The reply to request `ident`, or a failure if none comes in `timeout` seconds (silence)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if select.select([client.stdout], [], [], 0.2)[0]:
            msg = client.read()
            if msg.get("id") == ident:
                return msg
    raise AssertionError(f"no reply to request {ident} within {timeout} s")


def ask(client: Client, method: str, params: dict) -> dict:
    return answer(client, client.send(method, params))


def hover(uri: str, line: int = 0, character: int = 1) -> dict:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}


def normal_request_is_answered(client: Client, path: Path) -> None:
    got = ask(client, "textDocument/hover", hover(path.as_uri(), 1, 2))
    assert "players" in got["result"]["contents"]["value"]


def no_traceback(msg: dict) -> None:
    text = str(msg)
    assert "Traceback" not in text and 'File "' not in text and "traceback" not in text, text


@pytest.fixture
def served(tmp_path):
    c = Client(tmp_path)
    ask(c, "initialize", {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})
    c.send("initialized", {}, request=False)
    path = tmp_path / "open.stw"
    open_file(c, path, 'extends "simple"\nplayers = 3\n')
    yield c, path
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait(timeout=10)


def test_requests_about_unopened_documents_read_nothing(served, tmp_path):
    client, path = served
    secret = tmp_path / "never-opened.stw"
    secret.write_text('extends "simple"\ntitle = "secret words"\n', encoding="utf-8")
    for uri in ("file:///dev/zero", secret.as_uri(), "file:///proc/self/environ", "untitled:x", "file:///%00"):
        for method, params in (("textDocument/hover", hover(uri)), ("textDocument/definition", hover(uri)),
                               ("textDocument/completion", hover(uri)), ("textDocument/references",
                               hover(uri) | {"context": {"includeDeclaration": True}}),
                               ("textDocument/documentSymbol", {"textDocument": {"uri": uri}}),
                               ("textDocument/formatting", {"textDocument": {"uri": uri},
                                                            "options": {"tabSize": 2, "insertSpaces": True}})):
            t0 = time.monotonic()
            got = ask(client, method, params)
            assert time.monotonic() - t0 < 10
            assert got["error"]["code"] == -32602, got
            assert "is not open" in got["error"]["message"]
            assert "secret words" not in str(got)
            no_traceback(got)
    # a save or change of a document never opened is not read either
    client.send("textDocument/didSave", {"textDocument": {"uri": "file:///dev/zero"}}, request=False)
    normal_request_is_answered(client, path)


@pytest.mark.parametrize("position", [{"line": -1, "character": 0}, {"line": 0, "character": -5},
                                      {"line": 2**40, "character": 2**40}, {"line": "one", "character": 0}, {}])
def test_a_bad_position_gets_an_error_reply(served, position):
    client, path = served
    got = ask(client, "textDocument/hover", {"textDocument": {"uri": path.as_uri()}, "position": position})
    if "error" in got:
        assert got["error"]["code"] in (-32602, -32603)
        no_traceback(got)
    else:                       # a position past the end of the text is a valid one: nothing there
        assert got["result"] is None
    normal_request_is_answered(client, path)


def test_garbage_and_unknown_methods_leave_the_server_answering(served):
    client, path = served
    for body in (b"{not json", b"[]", b'{"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": 7}',
                 b'{"jsonrpc": "2.0", "id": [1], "method": "x"}', b"\xff\xfe"):
        client.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        client.stdin.flush()
    got = answer(client, 99)
    assert got["error"]["code"] == -32602
    got = ask(client, "stichwort/nothing", {})
    assert got["error"]["code"] == -32601
    normal_request_is_answered(client, path)


def test_a_failure_inside_a_handler_is_an_error_reply_without_a_traceback():
    from pygls.exceptions import JsonRpcInternalError

    from interpreter.lsp.guard import guarded

    @guarded
    def broken(ls, params):
        raise KeyError("boom")

    with pytest.raises(JsonRpcInternalError) as info:
        broken(None, None)
    error = info.value.to_response_error()
    assert "KeyError" in error.message and error.data is None


def test_a_definition_into_a_device_reads_nothing(served, tmp_path):
    """`extends` naming a link to /dev/zero: the reply's file is read under the rule-file rules."""
    client, _ = served
    os.symlink("/dev/zero", tmp_path / "zero.stw")
    path = tmp_path / "variant.stw"
    open_file(client, path, 'extends "zero.stw"\n')
    t0 = time.monotonic()
    got = ask(client, "textDocument/definition", hover(path.as_uri(), 0, 10))
    assert time.monotonic() - t0 < 10
    no_traceback(got)


def test_shutdown_then_exit_ends_the_server_with_0(served):
    client, path = served
    normal_request_is_answered(client, path)
    assert ask(client, "shutdown", {})["result"] is None
    client.send("exit", {}, request=False)
    assert client.proc.wait(timeout=20) == 0
    err = client.stderr.read().decode(errors="replace")
    assert "Traceback" not in err and "ValueError" not in err, err


def test_exit_without_shutdown_ends_the_server_with_1(served):
    client, _ = served
    client.send("exit", {}, request=False)
    assert client.proc.wait(timeout=20) == 1
