"""The phase components, one module each; PHASES is the table the state machine dispatches on, PARTS
what the state and its views take from the phases (engine/parts.py)."""
from __future__ import annotations

from typing import Any

from interpreter.engine.accounts import copy_accounts
from interpreter.engine.parts import StateParts
from interpreter.engine.phases import announce_text, choice, knock, kontra, partner, play, settle, talon
from interpreter.engine.phases.after_purchase import AfterPurchasePhase, AfterPurchaseState
from interpreter.engine.phases.announce import AnnouncePhase, AnnounceState
from interpreter.engine.phases.auction import AuctionPhase, AuctionState
from interpreter.engine.phases.base import Phase
from interpreter.engine.phases.choice import ChoicePhase
from interpreter.engine.phases.contract import ContractPhase
from interpreter.engine.phases.deal_rest import DealPausePhase, DealRestPhase
from interpreter.engine.phases.defence import DefencePhase, DefenceState
from interpreter.engine.phases.duels import DUELS
from interpreter.engine.phases.knock import KnockPhase
from interpreter.engine.phases.kontra import KontraPhase, KontraState
from interpreter.engine.phases.number_bids import NumberBidsPhase
from interpreter.engine.phases.partner import PartnerPhase
from interpreter.engine.phases.pass_cards import PassCardsPhase
from interpreter.engine.phases.play import PlayPhase, PlayState
from interpreter.engine.phases.settle import SettlePhase
from interpreter.engine.phases.talon import TalonPhase, TalonState

PHASES: dict[str, Phase] = {p.name: p for p in (
    AuctionPhase(), TalonPhase(), ContractPhase(), AfterPurchasePhase(), DefencePhase(), KontraPhase(),
    PlayPhase(), SettlePhase(), AnnouncePhase(), NumberBidsPhase(),
    PartnerPhase(), KnockPhase(), PassCardsPhase(), DealRestPhase())}
# put first in the procedure by the engine when the deal pauses (`deal.pause`), never written: no name of the vocabulary
DEAL_PAUSE = DealPausePhase()


def component(rules: Any, name: str) -> Phase:
    """The component that runs the procedure's entry `name` under these rules: a decision's own phase
    for a choice's name, the duel auction for an auction of `style = duels`, else the phase of that name."""
    if name in rules.choices:
        return ChoicePhase(rules.choices[name])
    if name == "auction" and rules.auction.style == "duels":
        return DUELS
    if name == DEAL_PAUSE.name:
        return DEAL_PAUSE
    return PHASES[name]


PARTS = StateParts(
    component=component, play=PHASES["play"],
    auction_state=AuctionState, play_state=PlayState, blank_announce=AnnounceState(),
    # (the phase states' own copy(), called unbound)
    copy={"talon": list, "choices": list, "payments": list, "accounts": copy_accounts,
          "talon_state": TalonState.copy, "after_purchase": AfterPurchaseState.copy, "defence": DefenceState.copy,
          "kontra": KontraState.copy},
    fresh={"talon_state": talon.fresh_state, "after_purchase": lambda n: AfterPurchaseState(),
           "defence": DefenceState, "kontra": lambda n: KontraState()},
    card_tables=play.card_tables, apply_rows=settle.apply_rows,
    kontra_word=kontra.word, partner_text=partner.text, knock_text=knock.text, talon_text=talon.text,
    announce_text=announce_text.text, choice_text=choice.text, hands_open=play.hands_open,
    talon_observe=talon.observe, choice_observe=choice.observe)


__all__ = ["PARTS", "PHASES", "Phase", "component"]
