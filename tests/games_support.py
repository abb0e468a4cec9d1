"""Which built-in games the engine plays, and which are in development.

A game in development is well formed but uses mechanisms the engine does not run yet (every error E410):
`stichwort validate` lists it as `dev`, and `simulate`, `play` and `test` refuse it with one line. The list
is written out so that a new game in development is a decision, and a game that becomes playable leaves
it (tests/test_playout.py checks both ways)."""
from __future__ import annotations

from pathlib import Path

from interpreter.resources import builtin_games

# none now: Skat and Schafkopf (issue 34) are played since the engine runs their card orders, decisions, ladders,
# duels, the called ace's duties and the card functions (tests/test_scenarios_waiting.py tests the machinery of
# a game in development with one made for it)
IN_DEVELOPMENT: frozenset[str] = frozenset()


def playable_games() -> dict[str, Path]:
    """Every built-in rule file the engine plays, by name."""
    return {name: path for name, path in builtin_games().items() if name not in IN_DEVELOPMENT}
