"""What the state and its views take from the phase components, without importing them.

The state (engine/state.py) keeps one small state per phase component and hands the moves to the
components; its views print each phase's actions. Those live a layer above it (engine/phases/). The
phases package describes itself once in a StateParts (phases/__init__.PARTS), the compiled rules hold it
(`Rules.parts`), and the state reads it there: each entry a named, typed field, never swapped."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Text = Callable[[Any, int], str]        # (state, action) → the action's printed spelling


@dataclass(frozen=True, eq=False)
class StateParts:
    # the machine: the procedure entry's component under some rules (phases.component), the play's component
    component: Callable[[Any, str], Any]
    play: Any
    # the states of the phases: a new deal's auction and play states (by the number of seats), the declaration
    # round's blank (never written: the round starts with a copy)
    auction_state: Callable[[int], Any]
    play_state: Callable[[int], Any]
    blank_announce: Any
    # the parts a clone shares until first used, and how each is copied (State._Part); the phase states a
    # new deal makes on first use, and how (by the number of seats)
    copy: Mapping[str, Callable[[Any], Any]]
    fresh: Mapping[str, Callable[[int], Any]]
    # what the state asks of the play and the settlement: a ranking's card tables (phases/play.card_tables),
    # payment rows applied (phases/settle.apply_rows)
    card_tables: Callable[[Any, Any], tuple]
    apply_rows: Callable[[Any, Any, bool], None]
    # the views: each phase's action text, and what a seat observes of it (engine/views.py)
    kontra_word: Text
    partner_text: Text
    knock_text: Text
    talon_text: Text
    announce_text: Text
    choice_text: Text
    hands_open: Callable[[Any], bool]
    talon_observe: Callable[[Any, int, dict], None]
    choice_observe: Callable[[Any, dict], None]
