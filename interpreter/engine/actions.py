"""Actions are ints: a kind in the high bits and an argument (card, call, contract, mask…) below.
Every action has exactly one text form, used by logs, scenario files, messages and the terminal."""
from __future__ import annotations

SHIFT = 64
ARG = (1 << SHIFT) - 1

PLAY, BID, PASS, HOLD, DISCARD, DECLARE, TRUMP, DEFEND, INVITE, KONTRA, AFTER, REVEAL, NEGOTIATE = range(13)
# the declaration round (engine/phases/announce.py): ANNOUNCE's argument is 0 for the end of a turn, else
# 1 + the figure's index; ITEM_KONTRA's packs the item, the level and (personal chains) the other seat
ANNOUNCE, ITEM_KONTRA = 13, 14
NUMBER = 15                          # a number stated in the number bids (engine/phases/number_bids.py)
KIND_NAMES = ["play", "bid", "pass", "hold", "discard", "declare", "trump", "defend", "invite", "kontra",
              "after-purchase", "reveal", "negotiate", "announce", "item-kontra", "number"]
# the partner call (engine/phases/partner.py: a card index, or "the fourth") and the talon's choices
# (engine/phases/talon.py: which packet to take; give up (1) or play on (0))
PARTNER_CALL, PACKET, GIVE_UP = 16, 17, 18
KIND_NAMES += ["partner-call", "packet", "give-up"]
KNOCK = 19                           # knock (1) or cut (0) before the first phase (engine/phases/knock.py)
KIND_NAMES += ["knock"]
CHOOSE = 20                          # an option of a decision (engine/phases/choice.py): choice << 16 | option
KIND_NAMES += ["choose"]
PASS_CARD = 21                       # a card passed to another seat before the play (engine/phases/pass_cards.py)
KIND_NAMES += ["pass-card"]
DOUBLE = 22                          # a call on the highest bid (engine/phases/auction_doubles.py): 1 + its level
KIND_NAMES += ["double"]
ACCEPT, REFUSE, OFFER = 0, 1, 100   # NEGOTIATE arguments: accept, refuse, or OFFER + declarer's tricks
MAX_OFFERS = 4                       # offers per deal, so that every deal ends


def make(kind: int, arg: int = 0) -> int:
    return kind << SHIFT | arg


def kind_of(action: int) -> int:
    return action >> SHIFT


def arg_of(action: int) -> int:
    return action & ARG
