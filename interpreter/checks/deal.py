"""Pass: the deal schedule hands out exactly the cards of the deck, and fits the players."""
from __future__ import annotations

import math

from interpreter.checks.context import Context
from interpreter.checks.expressions import environment
from interpreter.diagnostics import DiagnosticError
from interpreter.model.deck import resolved_packets, schedule_counts
from interpreter.model.values import NotBeforePlay
from interpreter.model.vocabulary import FUNCTIONS, VALUES


def check(ctx: Context) -> None:
    deal = ctx.doc.get("deal")
    players = ctx.doc.get("players")
    if not isinstance(deal, dict) or not isinstance(players, int) or not ctx.cards:
        return
    try:
        packets = resolved_packets(ctx.doc)
    except NotBeforePlay as err:
        name = str(err)
        if name in VALUES or name in FUNCTIONS or name in environment(ctx) or name in ctx.lets:   # an unknown one: checks/expressions
            ctx.error("E402", f"the packet sizes are worked out before any deal, so they cannot read '{name}'",
                      getattr(err, "where", "/deal/packets"), help="use numbers, the table options and lets made of them")
        return
    except ValueError as err:
        ctx.error("E402", f"deal.packets: {err}", getattr(err, "where", "/deal/packets"),
                  help="a packet's cards and repeat must come to a whole number from 0 to 60 with the options' defaults")
        return
    per, talon, piles = schedule_counts(packets, players)
    by_option = any(isinstance(p.get(k), str) for p in deal.get("packets", []) if isinstance(p, dict) for k in ("cards", "repeat"))
    dealt = per * players + talon + piles
    deck = len(ctx.cards)
    if dealt != deck:
        more = "more" if dealt > deck else "fewer"
        ctx.error("E303", f"the deal hands out {dealt} cards ({players} × {per} + {talon} talon"
                  + (f" + {piles} in piles" if piles else "") + f"), {more} than the {deck} cards of the deck"
                  + (" with the table options' defaults" if by_option else ""),
                  "/deal/packets", key=True, help="change the packets or the deck so that every card is dealt once"
                  + ("; a packet sized by an option can take the rest, e.g. `32 - 3 * hand`" if by_option else ""))
    if by_option and dealt == deck:
        _every_option_value(ctx, players, deck)
    _check_hand(ctx, deal)
    _check_pause(ctx, deal, packets)
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


def _check_pause(ctx: Context, deal: dict, packets: list) -> None:
    """`deal.pause` names an `each` packet with another `each` packet after it, and the procedure deals the
    rest (`deal_rest`, before the play); `deal_rest` without a pause has nothing to deal (E306)."""
    pause = deal.get("pause")
    raw = ctx.doc.get("procedure")
    procedure: list = raw if isinstance(raw, list) else []
    if pause is None:
        if "deal_rest" in procedure:
            ctx.error("E306", "the procedure runs 'deal_rest', but the deal has no pause: every card is dealt at once",
                      f"/procedure/{procedure.index('deal_rest')}",
                      help="name the packet the deal stops after, `deal { pause = NAME }`, or drop 'deal_rest'")
        return
    names = [p.get("name") for p in packets]
    if pause not in names:
        known = ", ".join(str(n) for n in names if n is not None) or "none: give the packets a `name` column"
        ctx.error("E301", f"deal.pause names '{pause}', which is no packet of the deal", "/deal/pause",
                  help=f"the packets named: {known}")
        return
    at = names.index(pause)
    if packets[at].get("to") != "each":
        ctx.error("E303", f"deal.pause names the packet '{pause}', which goes to the {packets[at].get('to')}, not to each player",
                  "/deal/pause", help="pause after a packet dealt to each player")
    elif not any(p.get("to") == "each" and p.get("cards", 0) for p in packets[at + 1:]):
        ctx.error("E303", f"no packet is dealt to the players after '{pause}': the pause would hold nothing back",
                  "/deal/pause", help="pause after an earlier packet, or drop `pause`")
    if "deal_rest" not in procedure:
        ctx.error("E306", f"the deal pauses after '{pause}', but the procedure never deals the rest", "/deal/pause",
                  help="add 'deal_rest' to `procedure` where the rest of the cards is dealt")
    elif "play" in procedure and procedure.index("play") < procedure.index("deal_rest"):
        ctx.error("E308", "the cards are played before the rest of them is dealt",
                  f"/procedure/{procedure.index('deal_rest')}", help="move 'deal_rest' before 'play'")


MAX_COMBINATIONS = 2000        # option values tried for packets sized by the table options


def _every_option_value(ctx: Context, players: int, deck: int) -> None:
    """Packets sized by table options deal the whole deck for every value the options allow (min to
    max, or the choices), not only for the defaults: a value `--set` accepts must give a deal. Options
    without bounds, or too many combinations, are not tried (the engine then refuses the deal in words)."""
    import itertools

    from interpreter.language.expressions import names_in, parse_text

    options = ctx.doc.get("option") or {}
    read: set[str] = set()
    for p in ctx.doc["deal"].get("packets", []):
        for k in ("cards", "repeat"):
            if isinstance(p, dict) and isinstance(p.get(k), str):
                try:
                    read |= names_in(parse_text(p[k]))
                except DiagnosticError:
                    return
    ranges = {}
    for name in sorted(read & set(options)):
        spec = options[name] if isinstance(options[name], dict) else {}
        if isinstance(spec.get("choices"), list):
            ranges[name] = list(spec["choices"])
        elif isinstance(spec.get("min"), int) and isinstance(spec.get("max"), int) and spec["max"] - spec["min"] <= 200:
            ranges[name] = list(range(spec["min"], spec["max"] + 1))
        else:
            return
    if not ranges or math.prod(len(v) for v in ranges.values()) > MAX_COMBINATIONS:
        return
    for values in itertools.product(*ranges.values()):
        chosen = dict(zip(ranges, values))
        try:
            per, talon, piles = schedule_counts(resolved_packets(ctx.doc, chosen), players)
            problem = None if per * players + talon + piles == deck else \
                f"hands out {per * players + talon + piles} cards, not the {deck} of the deck"
        except ValueError as err:
            problem = f"cannot be made ({err})"
        if problem:
            shown = ", ".join(f"{k} = {v}" for k, v in chosen.items())
            ctx.error("E303", f"with {shown} (which the options allow) the deal {problem}", "/deal/packets", key=True,
                      help="narrow the option's min/max or choices to the values that deal the whole deck, or size "
                      "the packets so that every allowed value does")
            return


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
