"""What one browser is sent: built from its seat's `observation` and what the whole table saw.

Nothing here reads another seat's hand, the talon or a partner from the state: the seat's own cards,
the open hands, a shown talon and its own discards come from `state.observation(seat)`; the rest is
public — the actions said aloud (another seat's discard only as a count of cards), the last trick,
the payments of a finished deal and the score sheets `play` prints.
"""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A
from interpreter.engine.phases.announce import DONE as END_OF_TURN
from interpreter.engine.seating import team_map
from interpreter.engine.session import sheet_tables
from interpreter.present.protocol import has_protocol, protocol_lines
from interpreter.web.faces import sort_key
from interpreter.web.table import PERSON, Table

# observation keys the page draws in their own places; any other key is shown under its name
SHOWN = {"seat", "dealer", "phase", "to_act", "hand", "calls", "declarer", "contract", "trick", "tricks", "talon",
         "discards", "open_hands"}


def _event(table: Table, seat: int, who: int, action: int, text: str) -> dict:
    """One action as `seat` heard it: another seat's discard only as a count of cards; kontras
    (on the game or on an announced item) and announcements marked for the page to list apart."""
    kind = A.kind_of(action)
    if kind == A.DISCARD and who != seat:
        n = len(text.split()) - 1
        text = f"{table.R.words['discard']} ({n} card{'s' if n != 1 else ''})"
    return {"seat": who, "text": text, "kind": A.KIND_NAMES[kind] if 0 <= kind < len(A.KIND_NAMES) else "",
            "kontra": kind in (A.KONTRA, A.ITEM_KONTRA) and A.arg_of(action) != 0,
            "announce": declares(action)}


def declares(action: int) -> bool:
    """Whether an action of the declaration round declares a figure. The engine's ANNOUNCE argument is
    0 for a pass, 1 + the figure's index for a declaration, and from END_OF_TURN up the other ends of a
    turn (`done`, the opener's word): those say nothing, whatever the rule file calls them."""
    return A.kind_of(action) == A.ANNOUNCE and 0 < A.arg_of(action) < END_OF_TURN


def _jsonable(v: Any) -> Any:
    """Fractions and other numbers as the sheets print them; dict keys as strings."""
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    return str(v)


def seats(table: Table, connected: dict[int, int] | None = None) -> list[dict]:
    return [{"seat": s, "kind": k, "person": k == PERSON, "connected": bool((connected or {}).get(s))}
            for s, k in enumerate(table.kinds)]


def view(table: Table, seat: int, connected: dict[int, int] | None = None) -> dict:
    """The message for the browser at `seat`."""
    state = table.state
    obs = state.observation(seat)
    key = sort_key(table.R)
    over = state.is_over()
    mine = obs["to_act"] == seat and not over
    legal = state.legal_actions() if mine else []
    msg: dict[str, Any] = {
        "type": "view",
        "version": table.version,
        "seat": seat,
        "seats": seats(table, connected),
        "deal": table.deal_index + 1,
        "deals": table.deals,
        "dealer": obs["dealer"],
        "phase": obs["phase"],
        "to_act": None if over else obs["to_act"],
        "hand": sorted(obs["hand"], key=key),
        "legal": [state.action_text(a) for a in legal],
        "legal_kinds": [A.KIND_NAMES[A.kind_of(a)] for a in legal],
        "active": list(state.active),
        "calls": [[s, c] for s, c in obs["calls"]],
        "declarer": obs["declarer"],
        "contract": obs["contract"],
        "trick": [[s, c] for s, c in obs["trick"]],
        "last_trick": [[s, c] for s, c in table.last_trick],
        "tricks": obs["tricks"],
        "events": [_event(table, seat, who, a, text) for who, a, text in table.events],
    }
    if "talon" in obs:
        msg["talon"] = list(obs["talon"])
    if "discards" in obs:
        msg["discards"] = sorted(obs["discards"], key=key)
    if obs.get("open_hands"):
        msg["open_hands"] = {s: sorted(h, key=key) for s, h in obs["open_hands"].items()}
    teams = sorted(set(team_map(table.R, state.dealer, state.active).values()))
    if teams:           # fixed partnerships of the rule file (`seating.teams`): public from the deal's start
        msg["teams"] = [list(t) for t in teams]
    if table.seating is not None:
        msg["seating"] = table.seating
    more = {k: v for k, v in obs.items() if k not in SHOWN}
    if more:            # what else the rules let this seat see, shown as it comes
        msg["more"] = more
    if over:
        r = table.session.deals[-1]         # as the deal ended, before any final reckoning of the session
        msg["result"] = {"contract": r["contract"], "declarer": r["declarer"], "made": r["made"],
                         "tricks": r["tricks"], "payments": r["payments"], "all_passed": r["all_passed"]}
        msg["sheets"] = [{"title": t, "headers": h, "rows": rows} for t, h, rows in sheet_tables(table.session)]
        if has_protocol(table.R):       # players change seats: the written protocol, by player, as `play` prints it
            msg["protocol"] = protocol_lines(table.session)
        msg["waiting"] = [s for s in table.people if s not in table.ready]
    if table.final is not None:
        msg["final"] = table.final
        msg["final_by"] = "player" if table.results_by_player else "seat"
    return _jsonable(msg)


def hello(table: Table, seat: int, faces: dict, booklet: str) -> dict:
    """The first message after joining: the game, the card faces and the seat."""
    rs = table.game.rs
    return {"type": "hello", "table": table.id, "seat": seat, "game": table.game.key, "title": rs.title,
            "faces": faces, "booklet": booklet, "words": dict(table.R.words)}
