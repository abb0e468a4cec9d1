"""The rule bot's passing (engine/phases/pass_cards.py): cards are passed in games where each plays for
himself to avoid tricks and point cards, so it passes away what is most likely to take a trick or to cost
points: the card that carries the most points first, then the highest; among equals a short suit's card
(emptying a suit lets it discard later)."""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A
from interpreter.engine.cards import bits
from interpreter.engine.readings import mask_points


def danger(R: Any, hand: int, card: int) -> tuple:
    """How much the bot wants rid of `card` (higher: passed first)."""
    same_suit = len(bits(hand & R.suit_masks[R.suit_of[card]]))
    return (mask_points(R, 1 << card) > 0 and R.order_of[card] >= _HIGH * _ranks(R, card), R.order_of[card],
            mask_points(R, 1 << card), -same_suit)


_HIGH = 0.5         # a point card counts as dangerous when it ranks in the upper half of its suit


def _ranks(R: Any, card: int) -> int:
    return len(bits(R.suit_masks[R.suit_of[card]]))


def choose(state: Any, legal: list[int]) -> int:
    R = state.R
    hand = state.hands[state.to_act]
    return max(legal, key=lambda a: danger(R, hand, A.arg_of(a)))
