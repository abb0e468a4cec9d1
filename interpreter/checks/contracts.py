"""Pass: every contract can be reached, is settled by a goal, and has a distinct name from the
calls only where it means the same thing."""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.checks.family_names import given_names
from interpreter.language.document import escape
from interpreter.model.family import ladders


def reachable(doc: dict) -> set[str]:
    out: set[str] = set()
    for call in (doc.get("call") or {}).values():
        cs = call.get("contracts") if isinstance(call, dict) else None
        if isinstance(cs, list):
            out.update(map(str, cs))
        elif isinstance(cs, str):
            out.update(doc.get("contract", {}))  # an expression may select any contract
    for lad in ladders(doc).values():
        cs = lad.get("contracts")
        out.update(map(str, cs) if isinstance(cs, list) else doc.get("contract", {}) if isinstance(cs, str) else ())
    auction = doc.get("auction") or {}
    ap = (auction.get("all_pass") or {}) if isinstance(auction, dict) else {}
    out.update(given_names(ap.get("contract")))
    after = doc.get("after_purchase") or {}
    if isinstance(after, dict) and isinstance(after.get("contracts"), list):
        out.update(map(str, after["contracts"]))
    return out


def check(ctx: Context) -> None:
    d = ctx.doc
    if not isinstance(d.get("contract"), dict):
        return
    if "auction" in (d.get("procedure") or []) and (d.get("call") or ladders(d)):  # no calls at all: the phases pass
        reach = reachable(d)
        for name in d["contract"]:
            if name not in reach:
                ctx.error("E304", f"contract '{name}' can never be played: no call leads to it", "/contract/" + escape(name),
                          key=True, help="list it in a call's `contracts`, or remove it")
    settle = d.get("settle") or {}
    if isinstance(settle, dict) and not settle.get("pay"):
        ctx.error("E305", "no payment rules: the contracts would never be settled",
                  "/settle/pay" if "pay" in settle else "/settle", key="pay" not in settle,
                  help="add rows to `pay = table { | when | each | from | to | amount | }`")
    for name, con in d["contract"].items():
        if not isinstance(con, dict):
            continue
        if con.get("side") not in ("nobody", "no_declarer") and "goal" not in con:
            ctx.error("E305", f"contract '{name}' has no goal, so it can be neither made nor lost",
                      "/contract/" + escape(name), key=True, help="add e.g. `goal = tricks(declarer) >= 6`")
