"""Pass: call ladders (`ladder NAME { levels strains … }`) and duel auctions (`auction.style = duels`).

- E319: a ladder without levels, or with levels not strictly rising (the steps are ranked in the order
  written, so a lower level after a higher one would outrank it); a strain written twice; a step whose
  generated name (`bid_18`) is also a declared call.
- E301: a contract or talon procedure a ladder names that the file does not declare.
- E318: a duel auction that cannot work: without a `hold` (the seat bid to has no other answer than
  pass), with `pass_final = false` (a duel drops the seat that passes), or with `ends` (a duel auction
  ends by itself, when the last duel is over).
"""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.checks.family_forms import check_given
from interpreter.checks.family_names import as_list
from interpreter.language.document import escape
from interpreter.model.family import ladder_steps, ladders


def _ladder(ctx: Context, name: str, lad: dict) -> None:
    base = "/ladder/" + escape(name)
    levels = as_list(lad.get("levels"))
    if not levels:
        ctx.error("E319", f"ladder '{name}' has no levels, so it makes no calls", base + "/levels"
                  if "levels" in lad else base, key="levels" not in lad, help="write `levels = [18, 20, 22]`, lowest first")
    for i in range(1, len(levels)):
        if levels[i] <= levels[i - 1]:
            ctx.error("E319", f"the levels of ladder '{name}' must rise: {levels[i]} comes after {levels[i - 1]}",
                      f"{base}/levels/{i}", help="write the levels lowest first, each once; the calls rank in that order")
            break
    strains = as_list(lad.get("strains"))
    for i, s in enumerate(strains):
        if s in strains[:i]:
            ctx.error("E319", f"strain '{s}' is written twice in ladder '{name}'", f"{base}/strains/{i}",
                      help="write each strain once, lowest first")
    contracts = lad.get("contracts")
    if isinstance(contracts, list):
        for i, c in enumerate(contracts):
            if str(c) not in ctx.contracts:
                ctx.unknown("contract", c, ctx.contracts, f"{base}/contracts/{i}")
    check_given(ctx, lad.get("talon"), ctx.talons, "talon procedure", base + "/talon")


def _clashes(ctx: Context) -> None:
    for step in ladder_steps(ctx.doc).values():
        if step.name in ctx.calls:
            ctx.error("E319", f"ladder '{step.ladder}' makes the call '{step.name}' (level {step.level}), which the file "
                      "also declares", "/call/" + escape(step.name), key=True,
                      help=f"rename the call, or the ladder (its steps are named '{step.ladder}_LEVEL')")


def _duels(ctx: Context) -> None:
    auction = ctx.doc.get("auction")
    if not isinstance(auction, dict) or auction.get("style") != "duels":
        return
    if not isinstance(auction.get("hold"), dict):
        ctx.error("E318", "a duel auction needs a hold call: the seat bid to answers by holding or passing",
                  "/auction/style", help="add `hold { call = yes  who = true }` to the auction")
    if auction.get("pass_final") is False:
        ctx.error("E318", "in a duel auction a pass is final: the seat that passes leaves the bidding",
                  "/auction/pass_final", help="remove `pass_final = false`")
    if "ends" in auction:
        ctx.error("E318", "a duel auction ends by itself, when the last duel is over; `ends` would never be read",
                  "/auction/ends", key=True, help="remove `ends` (in a variant: `remove auction.ends`)")


def check(ctx: Context) -> None:
    for name, lad in ladders(ctx.doc).items():
        _ladder(ctx, name, lad)
    _clashes(ctx)
    _duels(ctx)
