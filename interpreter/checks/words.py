"""The `words` section: every key is an action word or a call or contract the file declares, and no two
calls (or two contracts) speak the same word, since a typed word must name one action."""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.diagnostics import best_matches
from interpreter.language.document import escape
from interpreter.model.words import ACTION_WORDS, declared_names, table_words


def check(ctx: Context) -> None:
    section = ctx.doc.get("words")
    if not isinstance(section, dict):
        return
    names = declared_names(ctx.doc)
    # a word for a call or contract a variant removed is left standing on purpose: the base still says it
    removed = {p.split(".", 1)[1] for _f, _sp, p in getattr(ctx.origins, "removed", [])
               if p.split(".", 1)[0] in ("call", "contract") and "." in p}
    for key in section:
        if key in ACTION_WORDS or key in names or key in removed:
            continue
        pool = set(ACTION_WORDS) | names
        ctx.error("E301", f"unknown word key '{key}': not an action word, call or contract", f"/words/{escape(key)}",
                  key=True, suggestions=best_matches(str(key), pool),
                  help="action words: " + ", ".join(ACTION_WORDS) + "; or the name of a call or contract")
    _clashes(ctx)


def _clashes(ctx: Context) -> None:
    words = table_words(ctx.doc)
    for part in ("call", "contract"):
        items = ctx.doc.get(part)
        if not isinstance(items, dict):
            continue
        seen: dict[str, str] = {}
        for name in items:
            spoken = words.of(name) if part == "call" else words.contract(name)
            word = " ".join(spoken.split()).lower()
            other = seen.setdefault(word, name)
            if other == name:
                continue
            ptr = f"/words/{escape(name)}" if name in (ctx.doc.get("words") or {}) else f"/{part}/{escape(name)}"
            ctx.error("E314", f"{part}s '{other}' and '{name}' are both spoken '{spoken}'", ptr, key=True,
                      help=f"give each {part} its own word in `words {{ … }}`, so a typed word names one action")
