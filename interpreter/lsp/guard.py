"""The language server's boundary: what an editor (or anything writing to its input) may ask.

- Only documents the client opened are read: a request about any other URI (a never-opened file,
  `file:///dev/zero`) is an error reply, and nothing is read from disk for it.
- Every request is answered: a request whose parameters do not fit the protocol (a position at line -1)
  gets an "invalid params" error, and a failure inside a handler an "internal error" whose message names
  the failure, with no traceback in the reply.
- A file read for a reply (the base file a definition leads to) is a rule file, a regular file and at
  most the rule files' size cap, as on the command line.
- `exit` after `shutdown` ends the server with 0 (1 without a `shutdown`, as the protocol says).
"""
from __future__ import annotations

import functools
import logging
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

from interpreter.diagnostics import DiagnosticError


class NotOpen(JsonRpcInvalidParams):
    """A request about a document the client has not opened."""


class SafeProtocol(LanguageServerProtocol):
    """LanguageServerProtocol that answers a request it cannot read instead of dropping it."""

    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except Exception:
            ident = data.get("id") if isinstance(data, dict) else None
            if isinstance(ident, (int, str)) and not isinstance(ident, bool) and "method" in data:
                method = str(data.get("method"))[:80]
                self._send_response(ident, None, JsonRpcInvalidParams(
                    f"the parameters of '{method}' do not fit the protocol (a position out of range, "
                    "a missing field?)").to_response_error())
            return None

    def handle_message(self, message):
        if message is None:        # answered (or, a notification, dropped) in structure_message
            return None
        return super().handle_message(message)


def quiet_logging() -> None:
    """pygls logs every refused message with its traceback to stderr; an editor shows that panel."""
    log = logging.getLogger("pygls")
    log.addHandler(logging.NullHandler())
    log.propagate = False


def opened(server, uri: str):
    """The text document the client opened at `uri`; NotOpen (an error reply) for any other."""
    doc = server.workspace.text_documents.get(uri) if isinstance(uri, str) else None
    if doc is None:
        from urllib.parse import unquote

        doc = server.workspace.text_documents.get(unquote(uri)) if isinstance(uri, str) else None
    if doc is None:
        raise NotOpen(f"'{str(uri)[:200]}' is not open: the server answers only for documents the editor opened")
    return doc


def guarded(handler):
    """A feature handler whose failures are error replies without a traceback."""
    @functools.wraps(handler)
    def run(ls, params):
        try:
            return handler(ls, params)
        except JsonRpcException:
            raise
        except (Exception, RecursionError) as err:
            raise JsonRpcInternalError(f"stichwort could not answer ({type(err).__name__}: {str(err)[:200]})") from None
    return run


def read_rule_file(path: Path) -> str:
    """The text of a rule file read for a reply, under the command line's rules; '' if it is none."""
    from interpreter.language.loader import display_path, read_text

    try:
        return read_text(path, display_path(path))
    except DiagnosticError:
        return ""


def exit_code(server) -> int:
    return 0 if getattr(server.protocol, "_shutdown", False) else 1


__all__ = ["NotOpen", "SafeProtocol", "exit_code", "guarded", "opened", "quiet_logging", "read_rule_file", "types"]
