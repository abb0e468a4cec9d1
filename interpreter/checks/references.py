"""Pass: every name a field refers to (contract, call, talon procedure, suit, card, group, figure)
is declared somewhere in the rule file."""
from __future__ import annotations

from interpreter.checks.context import Context, names_a_suit, names_one_of
from interpreter.checks.family_forms import card_values
from interpreter.checks.family_names import is_expression
from interpreter.language.document import escape


def _each(coll):
    return coll.items() if isinstance(coll, dict) else []


def _kind_of(ctx: Context, name: str) -> str | None:
    """What else the file declares under `name`, in words ('a suit', 'a contract', …), or None."""
    kinds = (("a card", ctx.cards), ("a group of cards", ctx.groups), ("a suit", ctx.suits),
             ("a contract", ctx.contracts), ("a call", ctx.calls), ("a talon procedure", ctx.talons),
             ("a figure", ctx.figures), ("a category", ctx.categories), ("an account", ctx.accounts),
             ("a table option", ctx.options), ("a seat role", ctx.roles))
    return next((words for words, pool in kinds if name in pool), None)


def _missing(ctx: Context, what: str, name, pool, ptr: str) -> None:
    """E301 for a name not in `pool`: a name of another kind is said to be of the wrong kind."""
    other = _kind_of(ctx, str(name))
    if other is None:
        ctx.unknown(what, name, pool, ptr)
        return
    wanted = " or ".join(("an " if w[0] in "aeiou" else "a ") + w for w in what.split(" or "))
    known = sorted(map(str, pool))
    shown = ", ".join(known[:12]) + (f" and {len(known) - 12} more" if len(known) > 12 else "")
    ctx.error("E301", f"'{name}' is {other}, not {wanted}", ptr,
              help=f"this field names {what}s: {shown}" if pool else f"the rule file declares no {what}s")


def _names(ctx: Context, values, pool, what: str, ptr: str) -> None:
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list):
        return
    for i, v in enumerate(values):
        if v is None:
            continue
        if str(v) not in pool:
            _missing(ctx, what, v, pool, f"{ptr}/{i}" if len(values) > 1 or isinstance(values, list) else ptr)


def _one(ctx: Context, value, pool, what: str, ptr: str) -> None:
    if value is None or not isinstance(value, str):
        return
    if value not in pool:
        _missing(ctx, what, value, pool, ptr)


def check(ctx: Context) -> None:
    d = ctx.doc
    cards_or_groups = set(ctx.cards) | set(ctx.groups)
    if isinstance(d.get("number_bids"), dict):
        _one(ctx, d["number_bids"].get("contract"), ctx.contracts, "contract", "/number_bids/contract")
    if isinstance(d.get("play"), dict):
        _one(ctx, d["play"].get("contract"), ctx.contracts, "contract", "/play/contract")
    for name, call in _each(d.get("call")):
        base = "/call/" + escape(name)
        if isinstance(call.get("contracts"), list):
            _names(ctx, call["contracts"], ctx.contracts, "contract", base + "/contracts")
        if not is_expression(call.get("talon")):        # an expression: checks/family_forms
            _one(ctx, call.get("talon"), ctx.talons, "talon procedure", base + "/talon")
        if isinstance(call.get("joins"), list):
            _names(ctx, call["joins"], ctx.calls, "call", base + "/joins")
    for name, con in _each(d.get("contract")):
        base = "/contract/" + escape(name)
        if not is_expression(con.get("talon")):
            _one(ctx, con.get("talon"), ctx.talons, "talon procedure", base + "/talon")
        if names_a_suit(ctx, con.get("trump")):     # an expression (`suit_of(turned_up)`) is typed by checks/expressions
            _one(ctx, con.get("trump"), ctx.suits, "suit", base + "/trump")
        if isinstance(con.get("trump_choices"), list):
            _names(ctx, con["trump_choices"], ctx.suits, "suit", base + "/trump_choices")
        if isinstance(con.get("honours"), list):
            _names(ctx, con["honours"], cards_or_groups, "card", base + "/honours")
        if isinstance(con.get("figures"), list):
            _names(ctx, con["figures"], ctx.figures, "figure", base + "/figures")
        _obligations(ctx, con.get("obligations"), base + "/obligations", cards_or_groups)
    auction = d.get("auction", {})
    if isinstance(auction, dict):
        ap_contract = (auction.get("all_pass") or {}).get("contract")
        if not is_expression(ap_contract):
            _one(ctx, ap_contract, ctx.contracts, "contract", "/auction/all_pass/contract")
    ap = d.get("after_purchase", {})
    if isinstance(ap, dict) and isinstance(ap.get("contracts"), list):
        _names(ctx, ap["contracts"], ctx.contracts, "contract", "/after_purchase/contracts")
    for name, tal in _each(d.get("talon")):
        base = "/talon/" + escape(name)
        if isinstance(tal.get("never"), list):
            _names(ctx, tal["never"], cards_or_groups, "card or group", base + "/never")
        lr = tal.get("last_resort") or {}
        if isinstance(lr.get("cards"), list):
            _names(ctx, lr["cards"], cards_or_groups, "card or group", base + "/last_resort/cards")
    deck = d.get("deck", {})
    for gname, members in _each(deck.get("group")):
        _names(ctx, members, set(ctx.cards), "card", "/deck/group/" + escape(gname))
    points = deck.get("points", {}) or {}
    for card in (points.get("card") or {}):
        if card not in ctx.cards:
            ctx.unknown("card", card, ctx.cards, "/deck/points/card/" + escape(card), key=True)
    for rank in (points.get("rank") or {}):
        if rank not in ctx.ranks:
            ctx.unknown("rank", rank, ctx.ranks, "/deck/points/rank/" + escape(rank), key=True)
    _one(ctx, deck.get("trump_suit"), ctx.suits, "suit", "/deck/trump_suit")
    for sname in (deck.get("suit") or {}):
        if sname not in ctx.suits:
            ctx.unknown("suit", sname, ctx.suits, "/deck/suit/" + escape(sname), key=True)
    partner = d.get("partner", {})
    if isinstance(partner, dict):
        _one(ctx, partner.get("group"), ctx.groups, "group", "/partner/group")
    for fname, fig in _each(d.get("figure")):
        if names_one_of(ctx, fig.get("card"), ctx.cards):    # `card = called_card`: checks/expressions
            _one(ctx, fig.get("card"), ctx.cards, "card", "/figure/" + escape(fname) + "/card")
    play = d.get("play", {})
    if isinstance(play, dict):
        _obligations(ctx, play.get("obligations"), "/play/obligations", cards_or_groups)
        upset = play.get("upset")
        if isinstance(upset, dict):
            if isinstance(upset.get("cards"), list):
                _names(ctx, upset["cards"], cards_or_groups, "card or group", "/play/upset/cards")
            _one(ctx, upset.get("wins"), ctx.cards, "card", "/play/upset/wins")
    seating = d.get("seating", {})
    if isinstance(seating, dict) and isinstance(seating.get("draw"), dict) and isinstance(seating["draw"].get("suits"), list):
        _names(ctx, seating["draw"]["suits"], ctx.suits, "suit", "/seating/draw/suits")


def _obligations(ctx, chain, ptr, cards_or_groups):
    if not isinstance(chain, list):
        return
    for i, ob in enumerate(chain):
        if isinstance(ob, dict):
            _one(ctx, ob.get("suit"), ctx.suits, "suit", f"{ptr}/{i}/suit")
            if isinstance(ob.get("cards"), list):
                values = card_values(ctx)   # a card value (`called_card`): the pending form, checks/family_forms.py
                for j, c in enumerate(ob["cards"]):
                    if c is not None and str(c) not in cards_or_groups and str(c) not in values:
                        _missing(ctx, "card", c, cards_or_groups, f"{ptr}/{i}/cards/{j}")
