"""A finished deal in words, for the terminal and the web table: the contract with its trump, the
declaring side, tricks and card points, every payment row with its amount, the stake paid before the
deal and the pot, the figures, and the score sheets with contracts and declarers by name.

Everything here is public once the deal is over; nothing is computed twice: the payments are the
transfers the engine booked (`state.payments`, one per row and seat, with the row's note), the stake
is the difference of the accounts before and after the session's `before_deal` rows, the figures are
judged by the engine's own `achieved`/`attempted`.
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import figures as F
from interpreter.engine.context import Ctx
from interpreter.model.notes import readable
from interpreter.present.labels import names_of, number, trump_phrase


def seat_name(s: Any) -> str:
    return "–" if s is None else f"seat {s}"


def _amount(v: Any) -> Any:
    return number(v) if not isinstance(v, int) else v


def account_title(R: Any, name: str) -> str:
    """An account as the rule file titles it (`title = "Stock"`), else by its name."""
    spec = R.accounts.get(name)
    return str(spec.title) if spec is not None and spec.title else name


def party(state: Any, who: Any) -> Any:
    """Who a transfer pays or takes from, as the tables show it: a seat (its number), a game account by
    its title, an account kept per seat, team, pair or player by its title and whose it is ("score of
    seats 1 and 3"); None for nobody."""
    if type(who) is int:
        return who
    if not isinstance(who, tuple) or not who:
        return None
    title = account_title(state.R, str(who[0]))
    if len(who) == 1:
        return title
    spec = state.R.accounts.get(str(who[0]))
    keys = state.account_keys(str(who[0]), who[1:])
    if spec is not None and spec.per == "player" and len(keys) == 1:
        return f"{title} of player {keys[0] + 1}"          # players are numbered from 1 for people
    if spec is not None and spec.per == "pair" and len(keys) == 2:
        return f"{title} of seat {keys[0]} against seat {keys[1]}"
    seats = [str(k) for k in keys]
    many = ", ".join(seats[:-1]) + " and " + seats[-1] if len(seats) > 1 else seats[0]
    return f"{title} of seat{'s' if len(seats) > 1 else ''} {many}"


def payment_rows(state: Any, transfers: Any) -> list[dict]:
    """Payments by row of the rule file (its note), each with the amount per seat (a payer's negative),
    and what a row adds to or takes from an account (the pot, a partnership's score) by the account's
    title; rows in their order."""
    rows: dict[str, dict] = {}
    for src, dst, amount, note in transfers or []:
        row = rows.setdefault(note or "payment", {})
        for who, sign in ((src, -1), (dst, 1)):
            key = party(state, who)
            if key is not None:
                row[key] = row.get(key, 0) + sign * amount
    return [{"note": readable(note), "amounts": _ordered(amounts)} for note, amounts in rows.items()]


def _ordered(amounts: dict, shown=_amount) -> dict:
    """Seats first, in order, then the game accounts (the pot) by name."""
    keys = sorted(k for k in amounts if isinstance(k, int)) + sorted(str(k) for k in amounts if not isinstance(k, int))
    return {k: shown(amounts[k]) for k in keys}


def stake_row(state: Any) -> dict | None:
    """What the session's `before_deal` rows took from each seat (and put in the pot) before this deal."""
    before, after = state.start_accounts, state.after_stake_accounts
    if before is after:
        return None
    out: dict[Any, Any] = {}
    for s, (a, b) in enumerate(zip(before.get("money", []), after.get("money", []))):
        if a != b:
            out[s] = b - a
    for name, v in after.items():
        if not name.startswith("_") and name != "money" and not isinstance(v, (list, dict)) and v != before.get(name, 0):
            out[account_title(state.R, name)] = v - before.get(name, 0)
    if not out:
        return None
    rows = state.R.session_rows.before_deal
    notes = {readable(r.note) for r in rows if r.note}
    return {"note": notes.pop() if len(notes) == 1 else "before the deal", "amounts": _ordered(out, lambda v: v)}


def card_points(state: Any) -> dict | None:
    """Card points per seat in play and per side, when the deck counts them."""
    R = state.R
    if not any(c.points for c in R.cards) or state.con is None:
        return None
    out: dict[str, Any] = {"seats": {s: number(state.points((s,))) for s in state.active}}
    if state.declarer is not None and state.declarers:
        out["declarers"] = number(state.points(tuple(state.declarers)))
        out["defenders"] = number(state.points(tuple(state.defenders)))
    return out


def figure_lines(state: Any) -> list[dict]:
    """The figures of the contract that were declared, made or attempted: by which side, and how."""
    con = state.con
    if con is None or not con.figures or state.declarer is None:
        return []
    N = names_of(state.R)
    c = Ctx(state)
    levels = state.R.announce.levels
    out = []
    k = F.kontras(state, con.ref)
    if k:                                       # the game itself, doubled in the declaration round
        word = levels[k - 1] if k <= len(levels) else f"{levels[-1]} {k}"
        out.append({"figure": N.contract(con.name), "side": "declaring side",
                    "how": ("made" if state.made else "lost") + ", " + word})
    for name, fig in con.figures.items():
        for side, who in ((tuple(sorted(state.declarers)), "declaring side"), (tuple(sorted(state.defenders)), "defenders")):
            if not side:
                continue
            declared = F.declared_by(state, name, side)
            made = F.achieved(c, name, side)
            tried = not made and F.attempted(c, name, side)
            if not (declared or made or tried):
                continue
            k = F.kontras(state, name)
            how = ("declared, " if declared else "silent, ") + ("made" if made else "lost")
            if k:
                how += ", " + (levels[k - 1] if k <= len(levels) else f"{levels[-1]} {k}")
            out.append({"figure": N.figure(fig.name), "side": who, "how": how})
    return out


def summary(state: Any, booked: int | None = None) -> dict:
    """The finished deal, for every reader (all of it is public now). `booked`: how many of the state's
    transfers the deal itself made (a session's final reckoning, booked on the last deal's state after
    it, is listed apart as `reckoning`)."""
    N = names_of(state.R)
    r = state.result()
    con = state.con
    transfers = list(state.payments or [])
    booked = len(transfers) if booked is None else booked
    out: dict[str, Any] = {
        "contract": r["contract"], "title": N.contract(r["contract"]) if r["contract"] else "",
        "trump": trump_phrase(N, con) if con is not None else "",
        "declarer": r["declarer"], "made": r["made"], "all_passed": r["all_passed"],
        "side": sorted(state.declarers) if r["declarer"] is not None else [],
        "tricks": r["tricks"], "payments": r["payments"], "pot": r["pot"], "pot_title": account_title(state.R, "pot"),
        "rows": payment_rows(state, transfers[:booked]),
        "balance": {s: _amount(v) for s, v in enumerate(state.accounts.get("money", []))},
    }
    stake = stake_row(state)
    if stake:
        out["stake"] = {"note": stake["note"], "amounts": {k: _amount(v) for k, v in stake["amounts"].items()}}
        out["with_stake"] = {s: _amount(v + stake["amounts"].get(s, 0)) for s, v in r["payments"].items()}
    points = card_points(state)
    if points:
        out["points"] = points
    if transfers[booked:]:
        out["reckoning"] = payment_rows(state, transfers[booked:])
    figs = figure_lines(state)
    if figs:
        out["figures"] = figs
    return out


def words(state: Any) -> list[str]:
    """The end of a deal as sentences (the terminal prints them)."""
    s = summary(state)
    lines = []
    if s["all_passed"] and s["declarer"] is None:
        lines.append(f"All passed: {s['title'] or 'no contract'}" + (f" ({s['trump']})" if s["trump"] else "") + ".")
    elif s["declarer"] is None:
        lines.append(f"{s['title'] or 'No contract'}" + (f" ({s['trump']})" if s["trump"] else "") + ".")
    else:
        partners = [p for p in s["side"] if p != s["declarer"]]
        side = f" with {', '.join(seat_name(p) for p in partners)}" if partners else ""
        verdict = "" if s["made"] is None else (": made" if s["made"] else ": lost")
        lines.append(f"{s['title']} ({s['trump']}), declarer {seat_name(s['declarer'])}{side}{verdict}.")
    if not (s["all_passed"] and not any(s["tricks"].values())):      # thrown in: no card was played
        lines.append("Tricks: " + ", ".join(f"{seat_name(p)} {n}" for p, n in s["tricks"].items()) + ".")
    if "points" in s:
        p = s["points"]
        text = "Card points: " + ", ".join(f"{seat_name(q)} {v}" for q, v in p["seats"].items())
        if "declarers" in p:
            text += f"; declaring side {p['declarers']}, defenders {p['defenders']}"
        lines.append(text + ".")
    for f in s.get("figures", []):
        lines.append(f"{f['figure']}: {f['side']}, {f['how']}.")
    if "stake" in s:
        lines.append(_row_words(s["stake"]))
    for row in s["rows"]:
        lines.append(_row_words(row))
    for row in s.get("reckoning", []):
        lines.append("Final reckoning: " + _row_words(row))
    if _moves_money(s):     # (a game kept only on score sheets says its scores in the rows above)
        lines.append("Payments of the deal: " + ", ".join(f"{seat_name(q)} {_signed(v)}"
                                                         for q, v in s["payments"].items()) + ".")
        if "with_stake" in s:
            lines.append("With the stake: " + ", ".join(f"{seat_name(q)} {_signed(v)}"
                                                        for q, v in s["with_stake"].items()) + ".")
        lines.append("Balance: " + ", ".join(f"{seat_name(q)} {v}" for q, v in s["balance"].items())
                     + (f"; in the {s['pot_title']} {number(s['pot'])}" if s["pot"] else "") + ".")
    return lines


def _moves_money(s: dict) -> bool:
    """Whether money has moved: in this deal, with its stake, or before it (the balance, the pot)."""
    amounts = [*s["payments"].values(), *s.get("with_stake", {}).values(), *s["balance"].values()]
    return bool(s["pot"]) or any(v not in (0, "0") for v in amounts)


def _signed(v: Any) -> str:
    text = number(v) if not isinstance(v, str) else v
    return text if text.startswith("-") or text == "0" else "+" + text


def _row_words(row: dict) -> str:
    parts = [f"{seat_name(k) if isinstance(k, int) else k} {_signed(v)}" for k, v in row["amounts"].items()]
    return f"{row['note'][:1].upper()}{row['note'][1:]}: " + ", ".join(parts) + "."


def sheets(session: Any) -> list[tuple[str, list[str], list[list[str]]]]:
    """The score sheets `sheet_tables` gives, with each deal's contract by its display name and the
    declarer as a seat, and account columns by their titles."""
    from interpreter.engine.session import sheet_tables

    N = names_of(session.R)
    titles = {name: str(spec.title) for name, spec in session.R.accounts.items() if spec.title}
    out = []
    for title, headers, rows in sheet_tables(session):
        fixed = []
        for row, deal in zip(rows, session.deals):
            row = list(row)
            if deal["contract"]:
                row[1] = N.contract(deal["contract"])
            if deal["declarer"] is not None:
                row[2] = seat_name(deal["declarer"])
            fixed.append(row)
        out.append((title, [titles.get(h, h) for h in headers], fixed))
    return out
