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
from interpreter.present import outcome
from interpreter.present.labels import label, names_of, trump_phrase
from interpreter.present.protocol import has_protocol, protocol_lines
from interpreter.present.table_text import talon_in_hand
from interpreter.web.faces import sort_key
from interpreter.web.table import PERSON, Table

# observation keys the page draws in their own places; any other key is shown under its name
SHOWN = {"seat", "dealer", "phase", "to_act", "hand", "calls", "declarer", "contract", "trick", "tricks", "talon",
         "discards", "open_hands"}


def _event(table: Table, seat: int, who: int, action: int, text: str) -> dict:
    """One action as `seat` heard it: another seat's discard only as a count of cards; kontras
    (on the game or on an announced item) and announcements marked for the page to list apart. `label`
    says it in the rule file's display names (cards as `{code}`, the same cards as `text`)."""
    kind = A.kind_of(action)
    if kind == A.DISCARD and who != seat:
        n = len(text.split()) - 1
        text = f"{table.R.words['discard']} ({n} card{'s' if n != 1 else ''})"
    return {"seat": who, "text": text, "label": label(table.state, action, seat, who),
            "kind": A.KIND_NAMES[kind] if 0 <= kind < len(A.KIND_NAMES) else "",
            "kontra": kind in (A.KONTRA, A.ITEM_KONTRA) and A.arg_of(action) != 0,
            "announce": declares(action)}


def _call_word(R, name: str) -> str:
    """A call of the auction as the table says it (`pass` and `hold` in the file's words)."""
    if name in R.call_by_name:
        return names_of(R).call(name)
    return R.words.get(name, name)


def _game(state, obs: dict) -> dict:
    """The contract as this seat knows it: its display name and trump (once the contract is known to
    the seat's observation), the declarer and, once this seat knows him, the partner."""
    N = names_of(state.R)
    out: dict[str, Any] = {"calls": [[s, _call_word(state.R, c)] for s, c in obs["calls"]]}
    if obs["contract"] is not None and state.con is not None:
        out["title"] = N.contract(obs["contract"])
        out["trump"] = trump_phrase(N, state.con)
    if "declarers" in obs:                      # a called partner: as far as this seat knows
        out["side"] = list(obs["declarers"])
        out["side_known"] = bool(obs.get("partner_revealed", True))
    elif obs["declarer"] is not None and obs["contract"] is not None:
        out["side"] = sorted(state.declarers)   # no hidden partner in this game: the sides are public
        out["side_known"] = True
    return out


def _last_winner(table: Table) -> int | None:
    """Who took the last trick: the seat whose tricks hold its first card."""
    if not table.last_trick:
        return None
    R, won = table.R, table.state.play.won_cards
    first = R.codes.index(table.last_trick[0][1])
    return next((s for s in range(len(won)) if won[s] >> first & 1), None)


def _from_talon(table: Table, obs: dict) -> list[str]:
    """The cards of the dealt talon that this seat holds, has laid away or has played: the seat's own
    cards, marked for it (a talon taken unseen by the others joins the hand silently otherwise)."""
    own = set(obs["hand"]) | set(obs.get("discards", []))
    own |= {table.R.codes[A.arg_of(a)] for who, a, _ in table.events if who == obs["seat"] and A.kind_of(a) == A.PLAY}
    return [c for c in table.records[-1]["talon"] if c in own]


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
    key = sort_key(table.R, state.con)
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
        "labels": [label(state, a, seat, seat) for a in legal],
        "legal_kinds": [A.KIND_NAMES[A.kind_of(a)] for a in legal],
        "active": list(state.active),
        "calls": [[s, c] for s, c in obs["calls"]],
        "declarer": obs["declarer"],
        "contract": obs["contract"],
        "trick": [[s, c] for s, c in obs["trick"]],
        "last_trick": [[s, c] for s, c in table.last_trick],
        "last_winner": _last_winner(table),
        "game": _game(state, obs),
        "tricks": obs["tricks"],
        "events": [_event(table, seat, who, a, text) for who, a, text in table.events],
    }
    if mine and state.phase == "talon" and any(A.kind_of(a) == A.DISCARD for a in legal):     # own count still to lay away
        msg["discard_left"] = state.talon_state.discard_count
    if "talon" in obs:
        msg["talon"] = list(obs["talon"])
    if "discards" in obs:
        msg["discards"] = sorted(obs["discards"], key=key)
    taken = _from_talon(table, obs)
    if taken:
        msg["from_talon"] = taken           # marks the cards of the hand (and the trick) that came from the talon
    holding = talon_in_hand(obs, table.records[-1]["talon"]) if not over else []
    if holding:
        msg["talon_in_hand"] = holding      # the line of the exchange: only until the first card is led
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
        msg["result"] = dict(outcome.summary(state, len(r["transfers"])), payments=r["payments"], made=r["made"],
                             hands={s: sorted(h, key=key) for s, h in enumerate(table.records[-1]["hands"]) if h})
        msg["sheets"] = [{"title": t, "headers": h, "rows": rows} for t, h, rows in outcome.sheets(table.session)]
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
