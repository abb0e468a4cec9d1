"""Pass: every phase in the procedure is configured, and every configured phase can run."""
from __future__ import annotations

from interpreter.checks.context import Context

SECTION = {"auction": "auction", "partner": "partner", "talon": "talon", "after_purchase": "after_purchase",
           "defence": "defence", "kontra": "kontra", "announce": "announce", "play": "play", "settle": "settle"}


def check(ctx: Context) -> None:
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
        section = SECTION.get(phase)
        if section and section not in d:
            ctx.error("E306", f"the procedure runs '{phase}', but the file has no '{section}' section", f"/procedure/{i}",
                      help=f"add `{section} {{ … }}` or drop the phase")
        if phase == "auction" and not d.get("call"):
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
    if "play" in seen and "settle" in seen and procedure.index("settle") < procedure.index("play"):
        ctx.error("E308", "settlement comes before the play of the cards", f"/procedure/{procedure.index('settle')}",
                  help="move 'settle' after 'play'")
