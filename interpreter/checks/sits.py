"""Pass: partnerships, sits and the rotation hold together (E315).

- `side = partnership` and `per = team` accounts need `seating.teams`; teams are steps from the dealer,
  each seat of the table in exactly one team;
- `sit_out = rotation` needs a `rotation`, and a rotation belongs to `sit_out = rotation`; each of its rows
  seats `players` different players numbered 1 .. `seats`;
- `session.sit.reseat` rows follow a sit after which the rubber goes on (`after` below `per_rubber`).
"""
from __future__ import annotations

from interpreter.checks.context import Context
from interpreter.language.document import escape


def check(ctx: Context) -> None:
    d = ctx.doc
    raw = d.get("seating")
    seating: dict = raw if isinstance(raw, dict) else {}
    players = d.get("players") if isinstance(d.get("players"), int) else None
    seats = seating.get("seats", players)
    teams = seating.get("teams")
    _teams(ctx, teams, players, seating.get("sit_out"))
    if not teams:
        for name, con in (d.get("contract") or {}).items():
            if isinstance(con, dict) and con.get("side") == "partnership":
                ctx.error("E315", f"contract '{name}' is played in partnership, but the seating gives no teams",
                          f"/contract/{escape(name)}/side", help="give `seating { teams = [[1, 3], [2, 0]] }`")
        for name, acc in (d.get("account") or {}).items():
            if isinstance(acc, dict) and acc.get("per") == "team":
                ctx.error("E315", f"account '{name}' is kept per team, but the seating gives no teams",
                          f"/account/{escape(name)}/per", help="give `seating { teams = … }` or keep it per seat")
    rotation = seating.get("rotation")
    if seating.get("sit_out") == "rotation" and not rotation:
        ctx.error("E315", "players sit out by rotation, but there is no rotation schedule", "/seating/sit_out",
                  help="give `rotation = [[1, 3, 2, 4], …]`, one row of player numbers per sit")
    if rotation and seating.get("sit_out") != "rotation":
        ctx.error("E315", "a rotation schedule is given, but players do not sit out by it", "/seating/rotation",
                  key=True, help="add `sit_out = rotation`")
    for i, row in enumerate(rotation or []):
        if not isinstance(row, list):
            continue
        bad = len(row) != players or len(set(row)) != len(row) or any(not 1 <= p <= (seats or 0) for p in row)
        if bad:
            ctx.error("E315", f"rotation row {i + 1} must seat {players} different players numbered 1 to {seats}",
                      f"/seating/rotation/{i}")
    sit = (d.get("session") or {}).get("sit") if isinstance(d.get("session"), dict) else None
    per_rubber = sit.get("per_rubber") if isinstance(sit, dict) else None
    choice = sit.get("new_rubber") if isinstance(sit, dict) else None
    if isinstance(choice, str):
        option = (d.get("option") or {}).get(choice)
        allowed = {"stay", "draw"}
        if isinstance(option, dict):
            values = set(map(str, option.get("choices") or [option.get("default")]))
            if not values <= allowed:
                ctx.error("E315", f"option '{choice}' chooses what follows a rubber: its values must be stay or draw",
                          f"/option/{escape(choice)}", key=True)
        elif choice.isidentifier() and choice not in allowed:
            ctx.error("E315", f"new_rubber is '{choice}'; after a rubber the players stay or draw",
                      "/session/sit/new_rubber", suggestions=sorted(allowed))
    for i, row in enumerate((sit or {}).get("reseat") or [] if isinstance(sit, dict) else []):
        after = row.get("after") if isinstance(row, dict) else None
        if isinstance(after, int) and isinstance(per_rubber, int) and not 1 <= after < max(per_rubber, 2):
            ctx.error("E315", f"reseat row {i + 1} follows sit {after}, but a rubber has {per_rubber} sits "
                      "(after the last the rubber ends)", f"/session/sit/reseat/{i}/after")


def _teams(ctx: Context, teams, players, sit_out) -> None:
    if not isinstance(teams, list) or not teams or not isinstance(players, int):
        return
    steps = [int(k) % players for t in teams if isinstance(t, list) for k in t if isinstance(k, int)]
    if sorted(steps) != list(range(players)):
        ctx.error("E315", f"the teams must place each of the {players} seats of a deal in exactly one team "
                  "(steps from the dealer)", "/seating/teams", key=True)
