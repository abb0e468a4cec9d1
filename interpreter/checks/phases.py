"""Pass: every phase in the procedure is configured, and every configured phase can run."""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.language.document import escape
from interpreter.model.limits import DEFAULT_KONTRA_MAX
from interpreter.model.vocabulary import is_pending

_PENDING_HELP = "a rule file that uses it cannot be played; see the pending entries in docs/vocabulary.md"

SECTION = {"auction": "auction", "partner": "partner", "talon": "talon", "after_purchase": "after_purchase",
           "defence": "defence", "kontra": "kontra", "announce": "announce", "play": "play", "settle": "settle",
           "number_bids": "number_bids", "pass_cards": "pass_cards"}


def check_kontra_bound(ctx: Context) -> None:
    """W340: a kontra chain without a written maximum is cut at the engine's default, said aloud."""
    for ptr, section in (("/kontra", ctx.doc.get("kontra")),
                         ("/announce/kontra", (ctx.doc.get("announce") or {}).get("kontra")
                          if isinstance(ctx.doc.get("announce"), dict) else None)):
        if isinstance(section, dict) and section.get("max") is None:
            ctx.error("W340", f"the kontra chain has no maximum; it ends after {DEFAULT_KONTRA_MAX} calls",
                      ptr, key=True, severity="warning",
                      help=f"write `max = N` in `{ptr[1:].replace('/', '.')}` to say how long the chain may grow")


def check(ctx: Context) -> None:
    check_obligations(ctx)
    check_kontra_bound(ctx)
    d = ctx.doc
    procedure = d.get("procedure")
    if not isinstance(procedure, list):
        return
    seen = set()
    for i, phase in enumerate(procedure):
        if phase in seen:
            ctx.error("E306", f"phase '{phase}' appears twice in the procedure", f"/procedure/{i}",
                      help="each phase runs once per deal; remove one of them")
        seen.add(phase)
        if isinstance(phase, str) and is_pending("phase", phase):
            ctx.error("E410", f"phase '{phase}' is declared in the vocabulary but the engine does not implement it yet",
                      f"/procedure/{i}", help=_PENDING_HELP)
        section = SECTION.get(phase)
        if section and section not in d:
            ctx.error("E306", f"the procedure runs '{phase}', but the file has no '{section}' section", f"/procedure/{i}",
                      help=f"add `{section} {{ … }}` or drop the phase")
        if phase == "auction" and not d.get("call") and not d.get("ladder"):
            ctx.error("E306", "the procedure has an auction, but no calls are declared", f"/procedure/{i}",
                      help="add `table call { … }`")
    for phase, section in SECTION.items():
        if section in d and phase not in seen and phase != "talon":
            ctx.error("E307", f"'{section}' is configured but the procedure never runs phase '{phase}'",
                      "/" + section, key=True, help="add it to `procedure` or remove the section")
        when = d.get(section, {}).get("when") if isinstance(d.get(section), dict) else None
        if phase in seen and when is False:
            ctx.error("E307", f"phase '{phase}' can never run: its condition is always false", f"/{section}/when",
                      help=f"drop '{phase}' from `procedure`, or give `when` a condition that can hold")
    if "number_bids" in seen and isinstance(d.get("number_bids"), dict) and not d["number_bids"].get("contract") \
            and "auction" not in procedure[:procedure.index("number_bids")]:
        ctx.error("E306", "the number bids name no contract to play, and no auction before them settles one",
                  "/number_bids", key=True, help="write `contract = NAME` in `number_bids`, the contract played after the bids")
    play = d.get("play")
    if "play" in seen and not {"auction", "number_bids"} & seen and isinstance(play, dict) and not play.get("contract"):
        ctx.error("E306", "nothing settles the contract the cards are played in: no auction, no number bids, and "
                  "`play` names no contract", "/play", key=True,
                  help="write `contract = NAME` in `play`, the contract of every deal of a game without bidding")
    if "play" in seen and "settle" in seen and procedure.index("settle") < procedure.index("play"):
        ctx.error("E308", "settlement comes before the play of the cards", f"/procedure/{procedure.index('settle')}",
                  help="move 'settle' after 'play'")


def _obligation_chains(d: dict):
    """(pointer, chain) of every obligation list: the play section's and each contract's."""
    play = d.get("play")
    if isinstance(play, dict) and isinstance(play.get("obligations"), list):
        yield "/play/obligations", play["obligations"]
    contracts = d.get("contract")
    if isinstance(contracts, dict):
        for name, c in contracts.items():
            if isinstance(c, dict) and isinstance(c.get("obligations"), list):
                yield f"/contract/{escape(str(name))}/obligations", c["obligations"]


def check_obligations(ctx: Context) -> None:
    for ptr, chain in _obligation_chains(ctx.doc):
        for i, ob in enumerate(chain):
            rule = ob.get("rule") if isinstance(ob, dict) else ob
            if isinstance(rule, str) and is_pending("obligation", rule):
                ctx.error("E410", f"play obligation '{rule}' is declared in the vocabulary but the engine does not "
                          "implement it yet", f"{ptr}/{i}", help=_PENDING_HELP)
