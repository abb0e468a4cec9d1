"""Actions are ints: a kind in the high bits and an argument (card, call, contract, mask…) below.
Every action has exactly one text form, used by logs, scenario files, messages and the terminal."""
from __future__ import annotations

SHIFT = 64
ARG = (1 << SHIFT) - 1

PLAY, BID, PASS, HOLD, DISCARD, DECLARE, TRUMP, DEFEND, INVITE, KONTRA, AFTER, REVEAL, NEGOTIATE = range(13)
KIND_NAMES = ["play", "bid", "pass", "hold", "discard", "declare", "trump", "defend", "invite", "kontra",
              "after-purchase", "reveal", "negotiate"]
ACCEPT, REFUSE, OFFER = 0, 1, 100   # NEGOTIATE arguments: accept, refuse, or OFFER + declarer's tricks
MAX_OFFERS = 4                       # offers per deal, so that every deal ends


def make(kind: int, arg: int = 0) -> int:
    return kind << SHIFT | arg


def kind_of(action: int) -> int:
    return action >> SHIFT


def arg_of(action: int) -> int:
    return action & ARG
