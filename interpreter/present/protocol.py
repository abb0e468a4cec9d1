"""The written protocol of a partnership game played in sits: one row per player at the top holding his
running total (in the unit the rule file's `per = player` account keeps), and below, sit by sit, a pair
of columns, the protocol keeper's partnership ("we") and the other ("they"). Each deal in which
a partnership scores gets a line in its column: the entries of settlement rows marked `protocol = left`
on the left, `right` on the right, `middle` in the middle with a line drawn under both columns after it;
a double line closes the sit with each partnership's total and the sit's result.

Generic: which rows go where is the rule file's `protocol` column of `settle.pay`; the players are
numbered 1, 2, … as the session numbers them; the keeper is player 1.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from interpreter.engine import reseating

WIDTH = 23


def has_protocol(R: Any) -> bool:
    """The game is played in sits and marks some settlement rows for a protocol."""
    return reseating.settings(R).present and bool(_positions(R))


def _positions(R: Any) -> dict[str, str]:
    """A settlement row's note → where the protocol writes it."""
    rows = (R.rs.document().get("settle") or {}).get("pay") or []
    return {str(r.get("note", "")): r["protocol"] for r in rows if r.get("protocol")}


def _fmt(v: Any) -> str:
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{float(v):.1f}"
    return str(v)


def _signed(v: Any) -> str:
    return ("+" if v > 0 else "") + _fmt(v)


def deal_entries(R: Any, deal: dict) -> dict[tuple, dict[str, Any]]:
    """Seats the entries were booked to (one seat of a partnership) → {'left': …, 'right': …, 'middle': …}."""
    where = _positions(R)
    out: dict[tuple, dict[str, Any]] = {}
    for _src, dst, amount, note in deal.get("transfers") or []:
        pos = where.get(str(note))
        if pos is None or not isinstance(dst, tuple) or len(dst) < 2:
            continue
        key = dst[1] if isinstance(dst[1], tuple) else (dst[1],)
        cell = out.setdefault(key, {})
        cell[pos] = cell.get(pos, 0) + amount
    return out


def _teams_of(deal: dict) -> list[tuple[int, ...]]:
    """The deal's partnerships (their seats), the keeper's (player 1's) first."""
    seats = deal.get("seats") or ()
    teams: list[tuple[int, ...]] = [tuple(t) for t in deal.get("teams") or []]
    teams.sort(key=lambda t: 0 if any(seats[s] == 0 for s in t) else 1)
    return teams


def _merged(entries: dict[tuple, dict[str, Any]], team: tuple[int, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, cell in entries.items():
        if set(key) <= set(team):
            for pos, v in cell.items():
                out[pos] = out.get(pos, 0) + v
    return out


def _cell(entry: dict[str, Any] | None) -> str:
    """Trick points left, honour points right, game points in the middle (in brackets)."""
    if not entry:
        return ""
    left = _fmt(entry["left"]) if entry.get("left") else ""
    right = _fmt(entry["right"]) if entry.get("right") else ""
    middle = f"[{_fmt(entry['middle'])}]" if entry.get("middle") else ""
    return f"{left:>6} {middle:^6} {right:<6}"


def protocol_lines(session: Any) -> list[str]:
    """The protocol as text lines, up to the latest deal."""
    R = session.R
    table = session.table
    out: list[str] = []
    # the rows at the top: each player's running total after every sit
    row_name = next((a for a, spec in R.accounts.items() if spec.per == "player"), None)
    out.append("Protocol" + (f" ({R.accounts[row_name].title or row_name})" if row_name else ""))
    for p in range(table.people):
        entries = []
        for rec in table.sits:
            if p in rec["bench"]:
                entries.append("·")          # no entry for a sit spent on the bench
            elif row_name is not None:
                entries.append(_signed(rec["rows"][p][row_name]))
        out.append(f"  player {p + 1}: " + "  ".join(entries) if entries else f"  player {p + 1}:")
    # the columns, sit by sit
    sit_deals: list[dict] = []
    sit_no = 0
    for deal in session.deals:
        sit_deals.append(deal)
        if deal.get("sit_end"):
            sit_no += 1
            out += _sit_lines(R, sit_deals, sit_no, deal["sit_end"])
            sit_deals = []
    if sit_deals:
        out += _sit_lines(R, sit_deals, sit_no + 1, None)
    return out


def _players(deal: dict, team: tuple[int, ...]) -> str:
    seats = deal.get("seats") or ()
    return " & ".join(str(seats[s] + 1) for s in team)


def _sit_lines(R: Any, deals: list[dict], number: int, end: dict | None) -> list[str]:
    first = deals[0]
    teams = _teams_of(first)
    if len(teams) != 2:
        return []
    vi, de = teams
    out = ["", f"Sit {number}: we = players {_players(first, vi)}, they = players {_players(first, de)}",
           f"{'we':^{WIDTH}}‖{'they':^{WIDTH}}", f"{'trick  game  honour':^{WIDTH}}‖{'trick  game  honour':^{WIDTH}}"]
    totals = {vi: 0, de: 0}
    for deal in deals:
        entries = deal_entries(R, deal)
        a, b = _merged(entries, vi), _merged(entries, de)
        for team, e in ((vi, a), (de, b)):
            totals[team] += sum((v for v in (e or {}).values()), 0)
        if a or b:
            out.append(f"{_cell(a):<{WIDTH}}‖{_cell(b):<{WIDTH}}")
        if (a or {}).get("middle") or (b or {}).get("middle"):
            out.append("─" * WIDTH + "‖" + "─" * WIDTH)     # a line under the game and the other side's points
    if end is not None:
        out.append("═" * (2 * WIDTH + 1))
        out.append(f"{'sum ' + _fmt(totals[vi]):^{WIDTH}}‖{'sum ' + _fmt(totals[de]):^{WIDTH}}")
        seats = first.get("seats") or ()
        row = next((k for k in (end["rows"].get(seats[vi[0]]) or {})), None)
        if row is not None:
            p = seats[vi[0]]
            result = end["rows"][p][row] - end["before"][p][row]
            out.append(f"result: we {_signed(result)} each, they {_signed(-result)} each")
    return out
