"""The phase components, one module each; PHASES is the table the state machine dispatches on."""
from __future__ import annotations

from typing import Any

from interpreter.engine.phases.after_purchase import AfterPurchasePhase
from interpreter.engine.phases.announce import AnnouncePhase
from interpreter.engine.phases.auction import AuctionPhase
from interpreter.engine.phases.base import Phase
from interpreter.engine.phases.choice import ChoicePhase
from interpreter.engine.phases.contract import ContractPhase
from interpreter.engine.phases.defence import DefencePhase
from interpreter.engine.phases.duels import DUELS
from interpreter.engine.phases.knock import KnockPhase
from interpreter.engine.phases.kontra import KontraPhase
from interpreter.engine.phases.number_bids import NumberBidsPhase
from interpreter.engine.phases.partner import PartnerPhase
from interpreter.engine.phases.pass_cards import PassCardsPhase
from interpreter.engine.phases.play import PlayPhase
from interpreter.engine.phases.settle import SettlePhase
from interpreter.engine.phases.talon import TalonPhase

PHASES: dict[str, Phase] = {p.name: p for p in (
    AuctionPhase(), TalonPhase(), ContractPhase(), AfterPurchasePhase(), DefencePhase(), KontraPhase(),
    PlayPhase(), SettlePhase(), AnnouncePhase(), NumberBidsPhase(),
    PartnerPhase(), KnockPhase(), PassCardsPhase())}


def component(rules: Any, name: str) -> Phase:
    """The component that runs the procedure's entry `name` under these rules: a decision's own phase
    for a choice's name, the duel auction for an auction of `style = duels`, else the phase of that name."""
    if name in rules.choices:
        return ChoicePhase(rules.choices[name])
    if name == "auction" and rules.auction.style == "duels":
        return DUELS
    return PHASES[name]


__all__ = ["PHASES", "Phase", "component"]
