"""Payment rows with the payee form "each other player" (`from = others` or `to = others`): only one side
of a row can be spread over the other players, and the other side must name one seat to pay or be paid."""
from __future__ import annotations

from interpreter.checks.context import Context


def _row_lists(doc: dict):
    settle = doc.get("settle")
    if isinstance(settle, dict) and isinstance(settle.get("pay"), list):
        yield "/settle/pay", settle["pay"]
    session = doc.get("session")
    if isinstance(session, dict):
        for part, rows in session.items():
            if isinstance(rows, list) and all(isinstance(r, dict) and "to" in r for r in rows):
                yield f"/session/{part}", rows


def check(ctx: Context) -> None:
    for base, rows in _row_lists(ctx.doc):
        for i, r in enumerate(rows):
            if not isinstance(r, dict):
                continue
            spread = [k for k in ("from", "to") if r.get(k) == "others"]
            if len(spread) == 2:
                ctx.error("E402", "a payment row cannot spread both `from` and `to` over the other players",
                          f"{base}/{i}/from", help="`others` stands for every active seat but the row's other party; "
                          "name that party, e.g. `| s | others |` (s pays each other player)")
            elif spread and r.get("to" if spread == ["from"] else "from") is None:
                ctx.error("E402", f"`{spread[0]} = others` needs the row's other party, who pays or is paid by each other player",
                          f"{base}/{i}/{spread[0]}", help="e.g. `| s | others | 1 |`: s pays 1 to each other player")
