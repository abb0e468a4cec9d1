"""Pass: the deal schedule hands out exactly the cards of the deck, and fits the players."""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.model.deck import schedule_counts


def check(ctx: Context) -> None:
    deal = ctx.doc.get("deal")
    players = ctx.doc.get("players")
    if not isinstance(deal, dict) or not isinstance(players, int) or not ctx.cards:
        return
    per, talon, piles = schedule_counts(deal.get("packets", []), players)
    dealt = per * players + talon + piles
    deck = len(ctx.cards)
    if dealt != deck:
        more = "more" if dealt > deck else "fewer"
        ctx.error("E303", f"the deal hands out {dealt} cards ({players} × {per} + {talon} talon"
                  + (f" + {piles} in piles" if piles else "") + f"), {more} than the {deck} cards of the deck",
                  "/deal/packets", key=True, help="change the packets or the deck so that every card is dealt once")
    _check_hand(ctx, deal)
    knock = deal.get("knock")
    if isinstance(knock, dict) and isinstance(knock.get("packets"), list):
        kper, ktalon, kpiles = schedule_counts(knock["packets"], players)
        kdealt = kper * players + ktalon + kpiles
        if kdealt != deck:
            ctx.error("E303", f"after a knock the deal hands out {kdealt} cards, not the {deck} of the deck",
                      "/deal/knock/packets", key=True)
        if kpiles and kpiles != per * players:
            ctx.error("E303", f"the knock piles hold {kpiles} cards, but the players need {per * players}",
                      "/deal/knock/packets", key=True)


# What `deal.hand` may read: it is evaluated before any card is dealt (engine/deals.py).
_BEFORE_THE_DEAL = {"deal_number", "dealer", "players", "seats", "true", "false", "none"}
_PURE_FUNCTIONS = {"min", "max", "abs", "floor", "ceil", "account", "if"}


def _check_hand(ctx: Context, deal: dict) -> None:
    """E402: `deal.hand` may use only what is known before the cards are dealt."""
    from interpreter.checks.expressions import _calls
    from interpreter.diagnostics import DiagnosticError
    from interpreter.language.expressions import names_in, parse_text

    text = deal.get("hand")
    if not isinstance(text, str):
        return
    raw_lets = ctx.doc.get("let")
    lets: dict = raw_lets if isinstance(raw_lets, dict) else {}
    allowed = _BEFORE_THE_DEAL | set(ctx.options) | set(ctx.doc.get("account") or {})
    bad: set[str] = set()
    seen: set[str] = set()
    todo = [text]
    while todo:
        body = todo.pop()
        try:
            node = parse_text(body)
        except DiagnosticError:
            return                                  # the expression pass reports it
        for name in names_in(node) | _calls(node):
            if name in lets and name not in seen:
                seen.add(name)
                let = lets[name]
                if isinstance(let, str):
                    todo.append(let)
                elif isinstance(let, dict) and isinstance(let.get("body"), str):
                    todo.append(let["body"])
            elif name not in lets and name not in allowed and name not in _PURE_FUNCTIONS:
                bad.add(name)
    if bad:
        ctx.error("E402", f"deal.hand is worked out before any card is dealt, so it cannot read {', '.join(sorted(bad))}",
                  "/deal/hand", help="use deal_number, dealer, players, seats, accounts, options and lets of these")
