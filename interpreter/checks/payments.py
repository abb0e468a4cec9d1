"""Payment rows. The payee form "each other player" (`from = others` or `to = others`): only one side of a
row can be spread over the other players, and the other side must name one seat to pay or be paid. And a
party that is none in every deal (`none`, or `partner_of(…)` in a game where nobody ever has a partner):
what the row pays would be lost, or come from nowhere (E316); where the file cannot tell, the engine
stops the deal with the row named (engine/phases/settle.py)."""
from __future__ import annotations

from interpreter.checks.context import Context, already
from interpreter.language.expressions import parse_text


def _row_lists(doc: dict):
    settle = doc.get("settle")
    if isinstance(settle, dict) and isinstance(settle.get("pay"), list):
        yield "/settle/pay", settle["pay"]
    session = doc.get("session")
    if isinstance(session, dict):
        for part, rows in session.items():
            if isinstance(rows, list) and all(isinstance(r, dict) and "to" in r for r in rows):
                yield f"/session/{part}", rows
        sit = session.get("sit")
        if isinstance(sit, dict) and isinstance(sit.get("reckoning"), list):
            yield "/session/sit/reckoning", sit["reckoning"]


def check(ctx: Context) -> None:
    alone = _nobody_partnered(ctx.doc)
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
            for key in ("from", "to"):
                if key in r and _always_none(r[key], alone):
                    _none_party(ctx, f"{base}/{i}/{key}", key, r[key], alone)
            if "each" not in r and not any(already(ctx, f"{base}/{i}/{k}") for k in ("from", "to")):
                _unbound_seat(ctx, r, f"{base}/{i}")


def _unbound_seat(ctx: Context, row: dict, ptr: str) -> None:
    """`s` names the seat an `each` row is paid for; in a row without `each` it is none in every deal."""
    from interpreter.diagnostics import DiagnosticError
    from interpreter.language.expressions import names_in

    for key in ("when", "from", "to", "amount"):
        text = row.get(key)
        if not isinstance(text, str):
            continue
        try:
            free = names_in(parse_text(text)) & {"s", "t"}
        except DiagnosticError:
            continue                # the expressions pass reports it
        if free:
            name = sorted(free)[0]
            ctx.error("E401", f"'{name}' in a payment row without `each`: it names no seat here", f"{ptr}/{key}",
                      help=f"`each = …` binds {name} to every seat of a set, e.g. `each = defenders`; without it, "
                      "name the seat (`declarer`, `dealer`, …)")
            return


def _nobody_partnered(doc: dict) -> bool:
    """No seat ever has a partner: no fixed teams, and no contract whose declarer calls one."""
    seating = doc.get("seating")
    if isinstance(seating, dict) and seating.get("teams"):
        return False
    contracts = doc.get("contract")
    return not (isinstance(contracts, dict)
                and any(isinstance(c, dict) and c.get("side") == "called" for c in contracts.values()))


def _always_none(text: object, alone: bool) -> bool:
    """The party reads none in every deal: `none`, `partner_of(…)` where nobody is partnered, or an account
    kept for such a party."""
    if text is None:
        return True
    if not isinstance(text, str):
        return False
    try:
        node = parse_text(text)
    except Exception:           # a bad expression is the expressions pass's to report
        return False
    return _none_node(node, alone)


def _none_node(node: tuple, alone: bool) -> bool:
    if node == ("const", None):
        return True
    if node[0] == "call" and node[1] == "partner_of":
        return alone
    if node[0] == "call" and node[1] == "account":
        return any(_none_node(a, alone) for a in node[2][1:])
    return False


def _none_party(ctx: Context, ptr: str, key: str, text: object, alone: bool) -> None:
    written = "none" if text is None else str(text)
    what = ("names nobody" if written == "none" else
            "is none in every deal: nobody in this game ever has a partner (no `seating.teams`, no contract "
            "with `side = called`)")
    lost = ("goes to nobody: the money would be lost" if key == "to"
            else "is paid by nobody: the money would come from nowhere")
    ctx.error("E316", f"`{key} = {written}` {what}, so what this row pays {lost}", ptr,
              help="name a seat or an account there is in every deal the row pays in (`declarer`, `s`, `pot`), "
              "or leave the row out")
