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
