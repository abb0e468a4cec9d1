"""The declaration round's settings and the state of one deal's round (phases/announce.py runs it)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine.phases.base import NEVER
from interpreter.model.limits import DEFAULT_KONTRA_MAX

if TYPE_CHECKING:
    from interpreter.engine.figures import FigureRT
    from interpreter.engine.phases.conditions import Condition


@dataclass
class AnnounceSettings:
    present: bool
    when: Any
    first: Any | None
    opener: str
    passes: int
    declare: Any
    kontra: bool                    # kontras may be said at all
    levels: list[str]
    max: int
    kontra_when: Any
    personal: Any
    answered: bool                  # `by = alternate`: the sides answer in turn; else the other side says every call
    items: bool = True              # `scope = game`: only the game has a chain, the figures none
    figures: list[FigureRT] = field(default_factory=list)
    declare_if: Condition | None = None     # `declare` and `kontra.when`, taken apart (phases/conditions.py)
    opens_if: Condition | None = None
    when_if: Condition | None = None
    personal_if: Condition | None = None
    multipliers: tuple[str, ...] = ()       # the figures that multiply the game
    ends_after: int = 1                     # passes in a row that end the round: `passes`, at least one
    figure_index: dict[str, int] = field(default_factory=dict)
    # contract → the figures it lists, each with the plan of `declare` for it (None: never declared)
    by_contract: dict = field(default_factory=dict)


def absent() -> AnnounceSettings:
    """The settings of a rule file without a declaration round."""
    return AnnounceSettings(False, NEVER, None, "ready", 3, NEVER, False, ["kontra"], DEFAULT_KONTRA_MAX, NEVER,
                            NEVER, True)


@dataclass
class AnnounceState:
    declared: dict[str, int] = field(default_factory=dict)     # figure -> the seat that declared it
    # (item, owner, other) -> the seats that said each call; side-wide chains have owner = other = -1,
    # item = the figure's name or GAME; personal chains name the game's contract and the two seats
    chains: dict[tuple, tuple[int, ...]] = field(default_factory=dict)
    in_row: int = 0                     # passes in a row
    spoke: bool = False                 # the seat to act has said something this turn
    opening: bool = False               # the opener's first turn is under way
    personal: bool = False
    # (item code, owner seat, contract name, its ref, the plan of `kontra.when` for it, each seat's opening
    # call of its personal chain on the game) of each game in play
    games: tuple = ()
    passed: tuple[int, ...] = ()        # seats that have passed at least once in the round
    given: dict | None = None           # an outcome-only deal: the figures made and attempted, by side
    pc: Any = None                      # the contract's PerContract (set when the round starts; only read)
    view: Any = None                    # pc's Declared for the figures declared (kept by start and apply)
    # the tracked chains (phases/announce_chains.py; kept by start and apply when pc.tracked, else None):
    # for the game's side-wide chain and then each figure in their order, the call a defender and the call
    # a declarer may make next on it (0: none); then the game's side and the number of figures declared
    entries: tuple | None = None
    # the parts of the round's conditions that read nothing the round changes (phases/conditions.py STEADY),
    # judged: (part, seat) or part → its value (_kept); a copy (a clone's, a round's start) starts without
    kept: dict = field(default_factory=dict, repr=False, compare=False)

    def copy(self) -> AnnounceState:
        return AnnounceState(dict(self.declared), dict(self.chains), self.in_row, self.spoke, self.opening,
                             self.personal, self.games, self.passed, self.given, self.pc, self.view,
                             self.entries)
