"""Pass: the forms the engine does not run yet (the registry's pending `form` entries), refused at each use,
and the names a field given by an expression can give.

A field that names a talon procedure or the all-pass contract may give the name by an expression (the engine
runs it: engine/given.py); the names the expression can give are checked as references (E301). An
obligation's `cards` may name a card value (`called_card`, a `let` giving a card) instead of a card or
group: the engine runs that form in `play_when_led`, `lead_with` and `no_discard` (engine/phases/duties.py),
and it is E410 here in any other obligation until the engine runs it there.
"""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.checks.expressions import environment
from interpreter.checks.family_names import as_dict, given_names, is_expression
from interpreter.language.document import escape
from interpreter.model.vocabulary import REGISTRY, VALUES

# the obligations whose `cards` may name a card value (the others take cards and groups only, for now)
CARD_VALUE_RULES = ("play_when_led", "lead_with", "no_discard")
_HELP = "a rule file that uses it cannot be played; see the pending entries in docs/vocabulary.md"


def _pending(ctx: Context, form: str, ptr: str) -> None:
    entry = REGISTRY[("form", form)]
    shown = form.replace(".*.", ".….").replace(".#.", "[…].")
    ctx.error("E410", f"'{shown}' in this form ({entry.doc}) is declared in the vocabulary but the engine does not "
              "implement it yet", ptr, help=_HELP)


def check_given(ctx: Context, value, pool, what: str, ptr: str) -> None:
    """E301 for a name a name-or-expression field gives that is not in `pool`. A plain name is checked here
    (nothing else types it); in an expression only the names the expressions know, since an unknown one
    is already E401 there."""
    if not is_expression(value):
        if isinstance(value, str) and value not in pool:
            ctx.unknown(what, value, pool, ptr)
        return
    known = environment(ctx)
    for name in sorted(given_names(value)):
        if name not in pool and name in known:
            ctx.unknown(what, name, pool, ptr)


def _talons(ctx: Context) -> None:
    for kind, items in (("call", ctx.calls), ("contract", ctx.contracts)):
        for name, item in items.items():
            value = item.get("talon") if isinstance(item, dict) else None
            if is_expression(value):
                check_given(ctx, value, ctx.talons, "talon procedure", f"/{kind}/{escape(name)}/talon")


def _all_pass(ctx: Context) -> None:
    value = as_dict(as_dict(ctx.doc.get("auction")).get("all_pass")).get("contract")
    if is_expression(value):
        check_given(ctx, value, ctx.contracts, "contract", "/auction/all_pass/contract")


def card_values(ctx: Context) -> set[str]:
    """Names that give a card or cards in each deal: built-in card values and `let`s (typed later)."""
    lets = set(ctx.lets) if isinstance(ctx.lets, dict) else set()
    return {n for n, (t, _doc) in VALUES.items() if t in ("card", "cards")} | lets


def _obligation_cards(ctx: Context) -> None:
    values = card_values(ctx) - set(ctx.cards) - set(ctx.groups)
    chains = []
    play = ctx.doc.get("play")
    if isinstance(play, dict):
        chains.append(("/play/obligations", play.get("obligations")))
    for name, con in ctx.contracts.items():
        if isinstance(con, dict):
            chains.append((f"/contract/{escape(name)}/obligations", con.get("obligations")))
    for ptr, chain in chains:
        for i, ob in enumerate(chain if isinstance(chain, list) else []):
            if isinstance(ob, dict) and ob.get("rule") in CARD_VALUE_RULES:
                continue            # the engine works these out in each deal (engine/phases/duties.py)
            cards = ob.get("cards") if isinstance(ob, dict) else None
            for j, c in enumerate(cards if isinstance(cards, list) else []):
                if str(c) in values:
                    _pending(ctx, "obligations.#.cards", f"{ptr}/{i}/cards/{j}")


def check(ctx: Context) -> None:
    _talons(ctx)
    _all_pass(ctx)
    _obligation_cards(ctx)
