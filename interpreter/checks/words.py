"""The `words` section: every key is an action word, a call or contract the file declares or a kontra level, and no two
calls (or two contracts) speak the same word, since a typed word must name one action."""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.diagnostics import best_matches
from interpreter.language.document import escape
from interpreter.model.words import ACTION_WORDS, declared_names, kontra_levels, table_words


def check(ctx: Context) -> None:
    _clashes(ctx)                       # the `word` of a call speaks too, with or without a `words` section
    section = ctx.doc.get("words")
    if not isinstance(section, dict):
        return
    names = declared_names(ctx.doc)
    levels = set(kontra_levels(ctx.doc))
    # a word for a call or contract a variant removed is left standing on purpose: the base still says it
    removed = {p.split(".", 1)[1] for _f, _sp, p in getattr(ctx.origins, "removed", [])
               if p.split(".", 1)[0] in ("call", "contract") and "." in p}
    for key in section:
        if key in ACTION_WORDS or key in names or key in removed or key in levels:
            continue
        pool = set(ACTION_WORDS) | names | levels
        chains = f"; the kontra levels: {', '.join(sorted(levels))}" if levels else \
            "; a kontra level's name, where the game has a kontra chain"
        ctx.error("E301", f"unknown word key '{key}': not an action word, call, contract or kontra level",
                  f"/words/{escape(key)}", key=True, suggestions=_alike(str(key), pool),
                  help="action words: " + ", ".join(ACTION_WORDS) + "; or the name of a call or contract" + chains)


def _alike(key: str, pool: set[str]) -> list[str]:
    """Close spellings of the key of the same kind: a name with digits in it (a call like `k7NT`) is no
    spelling of a word without any (`kontra`)."""
    digits = any(ch.isdigit() for ch in key)
    return [m for m in best_matches(key, pool) if digits or not any(ch.isdigit() for ch in m)]


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
            bases = [_joins(items[n]) for n in (other, name)] if part == "call" else []
            if bases and all(bases) and bases[0] != bases[1]:
                # joining calls (bei) on different bases: both may be open at once, and the word names two bids
                ctx.error("E314", f"calls '{other}' and '{name}' are both spoken '{spoken}', but they join different "
                          f"calls ({', '.join(bases[0])}; {', '.join(bases[1])}): while both are open, the word "
                          "names two bids", ptr, key=True,
                          help="give each joining call its own word (its `word`, or `words { … }`), say naming the "
                               "call it joins")
                continue
            ctx.error("E314", f"{part}s '{other}' and '{name}' are both spoken '{spoken}'", ptr, key=True,
                      help=f"give each {part} its own word in `words {{ … }}`, so a typed word names one action")


def _joins(call: object) -> list[str]:
    """The calls a joining call joins (a bei's bases), by name; none for a call of its own."""
    joins = call.get("joins") if isinstance(call, dict) else None
    return [str(j) for j in joins] if isinstance(joins, list) else []
