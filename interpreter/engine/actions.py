"""Actions are ints: a kind in the high bits and an argument (card, call, contract, mask…) below.
Every action has exactly one text form, used by logs, scenario files, messages and the terminal."""
from __future__ import annotations

SHIFT = 64
ARG = (1 << SHIFT) - 1

PLAY, BID, PASS, HOLD, DISCARD, DECLARE, TRUMP, DEFEND, INVITE, KONTRA, AFTER, REVEAL = range(12)
KIND_NAMES = ["play", "bid", "pass", "hold", "discard", "declare", "trump", "defend", "invite", "kontra",
              "after-purchase", "reveal"]


def make(kind: int, arg: int = 0) -> int:
    return kind << SHIFT | arg


def kind_of(action: int) -> int:
    return action >> SHIFT


def arg_of(action: int) -> int:
    return action & ARG
