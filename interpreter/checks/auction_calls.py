"""Pass: calls on the highest bid (`auction.doubles`) and the declarer named by a field of the calls
(`auction.declarer_by`), engine/phases/auction_doubles.py.

- E327: a call on the bid named twice, named like a call, a contract, the pass or hold call or an action word;
  `doubles` in an auction that is not `style = open` (a duel or a once-round has no turn to double in);
  `declarer_by` naming a field that some call does not have (every call must say it, or the declarer could
  not be found).
"""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.model.family import with_ladder_calls
from interpreter.model.words import ACTION_WORDS

# fields every call has, whatever the file writes
_ALWAYS = {"name", "rank"}


def _doubles(ctx: Context, auction: dict) -> None:
    names = auction.get("doubles")
    if not isinstance(names, list):
        return
    calls = set(with_ladder_calls(ctx.doc).get("call") or {})
    taken = calls | set(ctx.contracts) | {"pass"} | ({ctx.hold_word} if ctx.hold_word else set()) | set(ACTION_WORDS)
    for i, name in enumerate(names):
        where = f"/auction/doubles/{i}"
        if name in names[:i]:
            ctx.error("E327", f"'{name}' is written twice in auction.doubles", where,
                      help="name each call on the bid once: `doubles = [double, redouble]`")
        elif str(name) in taken:
            what = ("a call" if name in calls else "a contract" if name in ctx.contracts else "an action word")
            ctx.error("E327", f"the call on the bid '{name}' has the name of {what}", where,
                      help="give the call on the bid a name of its own (`double`, `redouble`)")
    style = auction.get("style", "open")
    if names and style != "open":
        ctx.error("E327", f"calls on the bid need an open auction, where each seat is asked in turn; this one is "
                  f"`style = {style}`", "/auction/doubles", key=True, help="remove `doubles`, or use `style = open`")


def _declarer_by(ctx: Context, auction: dict) -> None:
    field = auction.get("declarer_by")
    if not isinstance(field, str) or field in _ALWAYS:
        return
    calls = with_ladder_calls(ctx.doc).get("call") or {}
    lacking = [name for name, rec in calls.items()
               if isinstance(rec, dict) and field not in rec and field not in (rec.get("props") or {})]
    if lacking:
        shown = ", ".join(sorted(map(str, lacking))[:6]) + (" …" if len(lacking) > 6 else "")
        ctx.error("E327", f"the declarer is named by the calls' '{field}', which {len(lacking)} call(s) do not have: "
                  f"{shown}", "/auction/declarer_by",
                  help="name a field every call has (a ladder's `strain`), or give the calls that field in `props`")


def check(ctx: Context) -> None:
    auction = ctx.doc.get("auction")
    if not isinstance(auction, dict):
        return
    _doubles(ctx, auction)
    _declarer_by(ctx, auction)
