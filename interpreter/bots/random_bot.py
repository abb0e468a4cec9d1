"""The random bot: uniformly random among the legal actions."""
from __future__ import annotations

import random


class RandomBot:
    """Uniformly random among the legal actions, from its own seeded random.Random."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]
