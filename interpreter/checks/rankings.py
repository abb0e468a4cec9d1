"""Pass: card orders (`ranking NAME { trumps ranks }`) hold together, and each contract's trump suit fits its order.

- E301: an entry of `trumps` that is neither a card, a group, a suit nor `trump`; a rank that is not the
  deck's; a `ranking` field naming no declared card order.
- E317: a card listed twice among the trumps (also through a group); two suit entries (a suit and
  `trump`, or two suits: a contract has one trump suit); a rank written twice in `ranks`; a card that is
  neither among the trumps nor of a rank in `ranks` (its place in its suit would be unknown); a contract
  whose `trump` does not fit its order — an order with `trump` needs a contract that gives a trump suit,
  an order with a fixed suit takes that suit (a contract naming another is wrong), an order without a
  suit entry has no trump suit to give.

The engine plays the orders these checks pass (engine/ranking.py).
"""
from __future__ import annotations

from interpreter.checks.context import Context, plain_name
from interpreter.checks.family_names import as_dict, as_list
from interpreter.language.document import escape
from interpreter.model.family import rankings

_HELP_TWICE = "each card has one place in the order; list it once (a group or suit entry lists its cards already)"


def _deck_cards(ctx: Context) -> dict[str, tuple[str, str]]:
    """card code → (suit, rank), for the cards made of a rank and a suit (not a suit's own `cards`)."""
    deck = as_dict(ctx.doc.get("deck"))
    out: dict[str, tuple[str, str]] = {}
    default = [str(r) for r in as_list(deck.get("ranks"))]
    own = as_dict(deck.get("suit"))
    for suit in ctx.suits:
        spec = as_dict(own.get(suit))
        if isinstance(spec.get("cards"), list):
            continue
        ranks = [str(r) for r in spec["ranks"]] if isinstance(spec.get("ranks"), list) else default
        for r in ranks:
            out[f"{r}{suit}"] = (suit, r)
    return out


def _trumps(ctx: Context, name: str, spec: dict, base: str) -> tuple[set[str], list[str]]:
    """The cards listed among the trumps (cards and groups), and the suit entries, with E301/E317 on the way."""
    listed: dict[str, str] = {}
    suits: list[str] = []
    for i, entry in enumerate(as_list(spec.get("trumps"))):
        entry, ptr = str(entry), f"{base}/trumps/{i}"
        if entry == "trump" or entry in ctx.suits:
            suits.append(entry)
            if len(suits) == 2:
                ctx.error("E317", f"ranking '{name}' names two trump suits ('{suits[0]}' and '{entry}')", ptr,
                          help="a contract has one trump suit: keep one suit entry (or `trump`, the contract's own) "
                               "and list any other cards one by one")
            continue
        if entry in ctx.cards:
            members = [entry]
        elif entry in ctx.groups and isinstance(ctx.groups[entry], list):
            members = [str(c) for c in ctx.groups[entry]]
        else:
            ctx.unknown("card, group or suit", entry, set(ctx.cards) | set(ctx.groups) | set(ctx.suits) | {"trump"}, ptr)
            continue
        for card in members:
            if card in listed:
                again = f" (through '{entry}')" if entry != card else ""
                ctx.error("E317", f"card '{card}' is listed twice among the trumps of ranking '{name}'{again}", ptr,
                          help=_HELP_TWICE)
            listed[card] = entry
    return set(listed), suits


def _ranks(ctx: Context, name: str, spec: dict, base: str) -> set[str]:
    seen: set[str] = set()
    for i, r in enumerate(as_list(spec.get("ranks"))):
        r, ptr = str(r), f"{base}/ranks/{i}"
        if r not in ctx.ranks:
            ctx.unknown("rank", r, ctx.ranks, ptr)
        elif r in seen:
            ctx.error("E317", f"rank '{r}' is written twice in the ranks of ranking '{name}'", ptr,
                      help="write each rank once, lowest first")
        seen.add(r)
    return seen


def _check_ranking(ctx: Context, name: str, spec: dict) -> tuple[str | None, bool]:
    """Check one order; returns its fixed trump suit (or None) and whether it takes `trump` from the contract."""
    base = "/ranking/" + escape(name)
    listed, suits = _trumps(ctx, name, spec, base)
    ranks = _ranks(ctx, name, spec, base)
    for code, (_suit, rank) in _deck_cards(ctx).items():
        if code not in listed and rank not in ranks:
            ctx.error("E317", f"card '{code}' has no place in ranking '{name}': it is not among the trumps and its "
                      f"rank '{rank}' is not in `ranks`", base + "/ranks", key=True,
                      help=f"add '{rank}' to `ranks` (lowest first), or list '{code}' among the trumps")
            break
    fixed = next((s for s in suits if s != "trump"), None)
    return fixed, "trump" in suits


def _fits(ctx: Context, cname: str, con: dict, rname: str, fixed: str | None, takes_trump: bool, ptr: str) -> None:
    trump = con.get("trump")
    gives = (trump is not None and trump != "none") or con.get("trump_choices") not in (None, [])
    if takes_trump and not gives:
        ctx.error("E317", f"ranking '{rname}' takes its trump suit from the contract (`trump`), but contract "
                  f"'{cname}' gives none", ptr,
                  help="give the contract a `trump` (a suit, an expression) or `trump_choices`, or use an order "
                       "without `trump`")
    elif not takes_trump and fixed is None and trump not in (None, "none"):
        ctx.error("E317", f"contract '{cname}' names the trump suit {trump}, but its ranking '{rname}' has no trump "
                  "suit", ptr, help=f"write `trump` among the trumps of '{rname}', or `trump = none` in the contract")
    elif fixed is not None and plain_name(trump) and trump not in (fixed, "none"):
        ctx.error("E317", f"contract '{cname}' names the trump suit {trump}, but its ranking '{rname}' makes {fixed} "
                  "the trump suit", ptr, help=f"write `trump = {fixed}` (or leave it out), or choose another ranking")


def check(ctx: Context) -> None:
    orders = rankings(ctx.doc)
    found = {name: _check_ranking(ctx, name, spec) for name, spec in orders.items()}
    default = as_dict(ctx.doc.get("play")).get("ranking")
    if isinstance(default, str) and default not in orders:
        ctx.unknown("ranking", default, orders, "/play/ranking")
        default = None
    for cname, con in ctx.contracts.items():
        if not isinstance(con, dict):
            continue
        own = con.get("ranking")
        ptr = f"/contract/{escape(cname)}/ranking"
        if isinstance(own, str) and own not in orders:
            ctx.unknown("ranking", own, orders, ptr)
            continue
        rname = own if isinstance(own, str) else default
        if rname is None or rname not in found:
            continue
        fixed, takes = found[rname]
        _fits(ctx, cname, con, rname, fixed, takes, ptr if own else f"/contract/{escape(cname)}")
