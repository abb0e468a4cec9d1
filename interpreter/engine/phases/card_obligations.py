"""Play obligations over a set of cards (the obligation's `cards`), at the lead and in a trick alike:

- `must_play`: play one of the cards if able (the first lead with the two of clubs);
- `avoid`: play none of the cards while another card is allowed (no point cards on the first trick).

Each is a filter of engine/phases/play.py's chain (same arguments, the same answer: the cards it allows,
or -1 when it does not apply); like every filter it is skipped when it would leave no card, which is what
"if able" and "while another card is allowed" mean. Its `when` says in which tricks it holds."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from interpreter.engine.phases.play import Obligation
    from interpreter.engine.rules import ContractRT
    from interpreter.engine.state import State


def must_play(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    return cands & ob.cards if ob.cards else -1


def avoid(st: State, ob: Obligation, me: int, hand: int, cands: int, led: int, win: int, con: ContractRT) -> int:
    return cands & ~ob.cards if ob.cards else -1


FILTERS = {"must_play": must_play, "avoid": avoid}
