"""What one seat knows about a deal: the information set a search bot may condition on.

`seat_view(state, seat)` is the only place the bots read a live state. It takes the seat's
`observation(seat)`, the seat's own dealt hand, the public action log (another seat's discards are
replaced by `None`: they are laid away face down) and the table's accounts before the deal. It never
reads another seat's hand or a hidden talon card, so a bot built on the view cannot cheat; the tests
hand it states whose hidden cards differ and check that it decides the same.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.engine import actions as A


def _mask(ruleset: Any, codes) -> int:
    idx = ruleset.card_index
    m = 0
    for c in codes:
        m |= 1 << idx[c]
    return m


@dataclass
class SeatView:
    """The seat's information set, as plain data."""

    ruleset: Any                       # the Ruleset the deal runs under
    options: dict                      # table options (all values)
    seat: int
    dealer: int
    deal_number: int
    accounts: dict | None              # the table's accounts before the deal (public: the pot, the sheet)
    dealt: int                         # mask of the cards dealt to this seat
    hand: int                          # mask of the cards it holds now
    history: list[tuple[int, int | None, int]] = field(default_factory=list)  # (seat, action or None, kind)
    exposed_talon: int = 0             # talon cards shown to all
    open_hands: dict[int, int] = field(default_factory=dict)  # seat -> mask, hands lying open now
    discards_seen: int = 0             # discards this seat knows (its own, or picked up)
    legal: list[int] = field(default_factory=list)
    obs: dict = field(default_factory=dict)   # the observation itself (phase, calls, trick, contract…)

    @property
    def key(self) -> tuple:
        """The same deal as seen by the same seat: (dealer, deal number, dealt hand)."""
        return (self.seat, self.dealer, self.deal_number, self.dealt)


def seat_view(state: Any, seat: int | None = None) -> SeatView:
    """The information set of `seat` (default: the seat to act) at `state`."""
    if seat is None:
        seat = state.current_player()
    obs = state.observation(seat)
    R = state.R
    rs = R.rs
    history: list[tuple[int, int | None, int]] = []
    for s, a in state.log:
        kind = A.kind_of(a)
        if s != seat and kind == A.DISCARD:
            history.append((s, None, kind))     # face down: the seat saw that a discard was made, not which
        else:
            history.append((s, a, kind))
    start = getattr(state, "start_accounts", None)
    return SeatView(
        ruleset=rs,
        options=dict(R.options),
        seat=seat,
        dealer=obs["dealer"],
        deal_number=getattr(state, "deal_number", 0),
        accounts=_copy(start),
        dealt=state.dealt_hands[seat],
        hand=_mask(rs, obs["hand"]),
        history=history,
        exposed_talon=_mask(rs, [*obs.get("talon", ()), *([obs["turned_up"]] if "turned_up" in obs else [])]),
        open_hands={int(s): _mask(rs, codes) for s, codes in obs.get("open_hands", {}).items()},
        discards_seen=_mask(rs, obs.get("discards", ())),
        legal=list(state.legal_actions()) if state.current_player() == seat else [],
        obs=obs,
    )


def _copy(acc: dict | None) -> dict | None:
    if acc is None:
        return None
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in acc.items()}
