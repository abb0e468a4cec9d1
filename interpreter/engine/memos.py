"""What the engine works out once per compiled game, on first need, and keeps with it (`Rules.memos`).

Each is a named field, empty (None, or an empty table) until first worked out; nothing here is rule data
(the model holds that): these are tables derived from the compiled rules, so that a deal does not work
them out again. A memo is only ever filled, never changed once set, and every state of the game reads the
same one. The functions that fill each are named beside it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class Memos:
    # the procedure's phase components, in its order (state.State._advance)
    components: tuple | None = None
    # the auction's state as a new deal has it, never written: each deal starts from a copy (state.State)
    blank_auction: Any = None
    # per dealer: (seats taking part, teams, fixed partners, the ring of next and previous seats) (state.State)
    state_seats: dict = field(default_factory=dict)
    # the accounts at zero, copied for each deal (state._zero_accounts)
    zero_accounts: dict | None = None
    # per (dealer, cards each): where each place of the shuffled deck goes (deals.deal_cards)
    deal_plans: dict = field(default_factory=dict)
    # per (ranking, trump, led only): the card order (ranking.order_for)
    card_orders: dict = field(default_factory=dict)
    # the card points as byte-wide tables: (rows, denominator, values by total) (readings.mask_points)
    point_tables: tuple | None = None
    # the cards by the bits of their point units (readings.point_planes)
    point_planes: tuple | None = None
    # point_tables' rows as a tuple, with their number (readings.point_rows)
    point_rows: tuple | None = None
    # per id of a ranking's beaters: (the beaters, the play's card tables) (phases/play.card_tables)
    card_tables: dict = field(default_factory=dict)
    # per (seats, seats playing): each seat's next seat among those playing (phases/play.ring)
    play_rings: dict = field(default_factory=dict)
    # the figures kept for a trick and the mask of their cards (phases/play.trick_figures)
    figure_trick: tuple | None = None
    # the upset and called rest as masks, None when the rules have neither; `play_extras_found` once worked
    # out (phases/play_extras.extras_of)
    play_extras: Any = None
    play_extras_found: bool = False
    # per (seats, active seats): (each seat's next active seat, each seat's previous one) (readings._ring)
    seat_rings: dict = field(default_factory=dict)
    # per (side kind, declarer, seats taking part): (declaring seats, defenders, partner pairs), for the kinds
    # whose sides follow from those alone (sides.form); per (seats taking part, declaring seats): the defenders
    sides_formed: dict = field(default_factory=dict)
    defenders: dict = field(default_factory=dict)
    # per set of cards the declarer may call (a mask): their calls (phases/partner.PartnerPhase.legal)
    partner_calls: dict = field(default_factory=dict)
    # per (first seat, seats taking part): every seat taking part once, in turn (phases/knock.seat_order)
    seat_orders: dict = field(default_factory=dict)
    # per (first seat, seats taking part): the knock's first position after a knock (phases/knock._step)
    knock_roots: dict = field(default_factory=dict)
    # per contract name: the suits it lets the declarer choose as trumps (phases/contract._suits)
    trump_choice_suits: dict = field(default_factory=dict)
    # the compiled `session.sit` (reseating.settings)
    sit_settings: Any = None
    # per key: the generated play's tables of declared figures (kept by the generated code)
    declared_tables: dict = field(default_factory=dict)
