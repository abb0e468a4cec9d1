"""A Ruleset compiled for play: seats in play order, card tables and bitmasks, every rule-file expression
compiled once into a closure, and each phase's typed settings (engine/phases/*). Built once per
(ruleset, options) and shared by states."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine import actions, backend, figures, given, ranking, seating
from interpreter.engine.cards import bits
from interpreter.engine.compile import Compiler, Fn, Ref
from interpreter.engine.memos import Memos
from interpreter.engine.parts import StateParts
from interpreter.engine.phases import (
    PARTS,
    after_purchase,
    announce,
    announce_state,
    auction,
    choice,
    deal_rest,
    defence,
    dummy,
    knock,
    kontra,
    number_bids,
    partner,
    pass_cards,
    play,
    settle,
    sits_out,
    talon,
)
from interpreter.engine.phases.base import ALWAYS, NEVER
from interpreter.engine.phases.kontra import DEFAULT_KONTRA_MAX  # noqa: F401  (re-exported)
from interpreter.engine.prepare import Prepared, prepare
from interpreter.model.game import Account, Contract, Packet, PayRow
from interpreter.model.ruleset import Ruleset
from interpreter.model.words import ACTION_WORDS

# The words of actions, as printed and accepted (model/words.py): a rule file's `words { … }` gives any of them,
# and the older spellings (`auction.hold.call`, `defence.go`/`stay`) with the defaults stay accepted as aliases.
DEFAULT_WORDS = ACTION_WORDS


@dataclass
class ContractRT:
    name: str
    ref: Ref
    rank: int
    category: str | None
    trump: int                      # suit index, -1 = none
    trump_mask: int
    side: str
    talon: str | None
    goal: Fn
    defence: str
    lead: Fn | None
    obligations: list[play.Obligation]
    winner_led_only: bool
    early_end: Fn | None
    open_who: str | None
    open_after: int
    open_at_lead: bool              # open after the lead to trick `open_after` (else once it is complete)
    beaters: list                   # card → mask of cards that beat it (as current winner)
    strength: list                  # card → comparable strength when it is in the trick
    gen_playable: Any = None        # the backend's function giving the cards the obligations allow, or None: the interpreter's
    honours: int = 0                # the contract's honour cards (`honours`), a card mask
    trump_expr: Fn | None = None    # `trump = EXPR`: the trump suit worked out in each deal (Rules.in_deal)
    # the figures the contract lists in its `figures`, by name: what settlement asks of a figure only counts
    # for these (engine/figures.py), found with one look-up rather than a search of the list every time
    figures: dict[str, figures.FigureRT] = field(default_factory=dict)
    # the suits as the play sees them (engine/ranking.py): per card its suit, per suit its cards, and the
    # trumps' suit (-1: none); the deck's own lists for a contract without a `ranking`
    suit_of: list = field(default_factory=list)
    suit_masks: list = field(default_factory=list)
    trump_class: int = -1
    ranking: str | None = None      # the name of its `ranking`, if it has one
    talon_expr: Fn | None = None    # `talon = EXPR` giving the procedure's name (engine/given.py); `talon` is None
    allowed: Fn | None = None       # when the declarer may name it in the contract phase (engine/given.py)
    trump_sequence: list | None = field(default=None, compare=False, repr=False)  # its trumps, highest first, worked out on first need (card_values.py)


@dataclass
class CallRT:
    name: str
    ref: Ref
    index: int
    rank: int
    category: str | None
    allowed: Fn
    raise_rule: str
    contracts: list
    talon: str | None
    contest: str | None
    sealed: bool
    word: str
    action: int = 0
    contracts_expr: Fn | None = None   # `contracts = EXPR`: evaluated when the auction ends
    joins: tuple = ()                  # base calls of another seat this call is played together with
    talon_expr: Fn | None = None       # `talon = EXPR` giving the procedure's name (engine/given.py); `talon` is None


@dataclass
class Rules:
    rs: Ruleset
    options: dict
    n_seats: int
    players: int
    roles: dict[str, int]
    cards: list
    codes: list[str]
    suit_of: list[int]
    order_of: list[int]
    suit_names: list[str]
    suit_masks: list[int]
    full_mask: int
    calls: list[CallRT]
    call_by_name: dict[str, CallRT]
    contracts: dict[str, ContractRT]
    compiler: Compiler
    auction: auction.AuctionSettings
    talons: dict[str, talon.TalonProc]
    after_purchase: after_purchase.AfterPurchaseSettings
    defence: defence.DefenceSettings
    kontra: kontra.KontraSettings
    play: play.PlaySettings
    settle_rows: settle.Rows = field(default_factory=settle.Rows)
    session_rows: settle.SessionRules = field(default_factory=settle.SessionRules)
    accounts: dict[str, Account] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    default_words: dict[str, str] = field(default_factory=dict)
    contract_words: dict[str, str] = field(default_factory=dict)   # contract → its spoken word (model/words)
    level_words: dict[str, str] = field(default_factory=dict)      # kontra level → its word, where `words` gives one
    procedure: list[str] = field(default_factory=list)
    contract_names: list[str] = field(default_factory=list)
    contract_index: dict[str, int] = field(default_factory=dict)
    _trump_variants: dict = field(default_factory=dict)
    _rankings: dict = field(default_factory=dict, repr=False)   # trump → (strength, beaters), _ranking()
    account_initial: dict[str, Fn] = field(default_factory=dict)
    first_call_at_rank: dict[int, int] = field(default_factory=dict)
    sheet: list[tuple[str, Fn]] = field(default_factory=list)
    max_auction_calls: int = 0      # the auction ends after this many calls at the latest
    max_purchases: int = 0          # after-purchases in one deal at most
    max_actions: int = 0            # no deal takes more actions than this
    functions: Any = None           # what handed out the expressions' functions (engine/backend.py)
    generated: Any = None           # what the backend made for the game (its generated module), or None
    number_bids: number_bids.NumberBidSettings | None = None
    pass_cards: pass_cards.PassSettings | None = None
    deal_hand: Fn | None = None     # `deal.hand`: the cards each player receives in this deal
    turn_up: bool = False           # `deal.turn_up`: the first card left over is shown to all
    figures: dict[str, figures.FigureRT] = field(default_factory=dict)
    announce: announce_state.AnnounceSettings = field(default_factory=announce_state.absent)
    partner: partner.PartnerSettings = field(default_factory=partner.absent)
    knock: knock.KnockSettings = field(default_factory=knock.absent)
    packets: tuple[Packet, ...] = ()    # deal.packets, sizes worked out for the options
    deal_pause: int = 0             # `deal.pause`: the cards each player holds until `deal_rest` (0: no pause)
    card_orders: dict[str, ranking.Spec] = field(default_factory=dict)  # the `ranking`s, by name (engine/ranking.py)
    choices: dict[str, choice.ChoiceSettings] = field(default_factory=dict)   # the decisions (`choice NAME`)
    dummy: Any = None               # play.dummy (engine/phases/dummy.py); None: no dummy
    sits_out: Any = None            # play.sits_out, compiled (engine/phases/sits_out.py); None: everyone plays
    parts: StateParts = PARTS       # what the state takes from the phases (engine/parts.py)
    memos: Memos = field(default_factory=Memos, compare=False, repr=False)     # what the engine works out once while playing (engine/memos.py)

    def in_deal(self, st: Any, con: ContractRT) -> ContractRT:
        """The contract as this deal plays it: one whose `trump` is an expression (`suit_of(turned_up)`)
        gets the suit it gives now (none, or not a suit: no trumps)."""
        if con.trump_expr is None:
            return con
        from interpreter.engine.context import Ctx

        suit = con.trump_expr(Ctx(st))
        return self.with_trump(con, self.suit_names.index(suit) if suit in self.suit_names else -1)

    def with_trump(self, con: ContractRT, suit: int) -> ContractRT:
        """The contract with a trump suit chosen by the declarer."""
        key = (con.name, suit)
        if key not in self._trump_variants:
            self._trump_variants[key] = _contract_rt(self, self.rs.game.contracts[con.name], con.ref, suit)
        return self._trump_variants[key]


def compile_rules(rs: Ruleset, options: dict | None = None, engine: str | None = None) -> Rules:
    """The rules of `rs` under these table options, run by the backend named `engine` (engine/backend.py:
    "interpreter", the reference, or "generated" where it is registered; by default $STICHWORT_ENGINE,
    else the generated one where registered). Rule sets made from the same files (the same `digest`) share
    one compiled form: loading a game again does not compile it again, and what the engine learns while
    playing it (its generated settlements, the auction's positions) is kept."""
    return _compile_cached(_Source(rs), tuple(sorted((options or {}).items())), backend.engine_mode(engine))


class _Source:
    """A rule set as the compiled forms' cache key: equal when made from the same files (the same
    digest; a rule set without one is equal only to itself). Holds the rule set to compile."""
    __slots__ = ("rs", "key")

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.key = rs.digest or rs

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Source) and self.key == other.key


@functools.lru_cache(maxsize=64)
def _compile_cached(source: _Source, options_items: tuple, engine: str = "interpreter") -> Rules:
    return compile_uncached(source.rs, options_items, engine)


def compile_uncached(rs: Ruleset, options_items: tuple, engine: str = "interpreter") -> Rules:
    """The rules of `rs` under these table options, compiled afresh by the backend named `engine`
    (compile_rules keeps them)."""
    return backend.chosen(engine).compile(rs, options_items)


class Reference:
    """The reference interpreter as a backend: the closures engine/compile.py makes, run as they are."""

    name = backend.REFERENCE

    def compile(self, rs: Ruleset, options_items: tuple) -> Rules:
        return assemble(prepare(rs, options_items), backend.REFERENCE_FUNCTIONS)


backend.register(Reference())


def assemble(p: Prepared, functions: backend.Functions) -> Rules:
    """The compiled rules, every expression's function handed out by `functions` (the backend's), stage by
    stage in this order (the order the expressions are compiled in)."""
    p.comp.functions = functions
    rules = _new_rules(p, functions)
    _phase_settings(rules, p)
    _words(rules)
    _contracts(rules, p)
    _calls(rules, p)
    _auction(rules, p)
    _settlement(rules, functions)
    _bound_actions(rules)
    return rules


def _new_rules(p: Prepared, functions: backend.Functions) -> Rules:
    """The rules with the deck, the seats and the first phases' settings."""
    rs, comp = p.rs, p.comp
    suit_names = list(rs.suits)
    phases = rs.game.phases
    rules = Rules(
        rs=rs, options=p.options, n_seats=seating.chairs(rs), players=rs.players, roles=p.roles,
        cards=list(rs.cards), codes=[c.code for c in rs.cards], suit_of=[suit_names.index(c.suit) for c in rs.cards],
        order_of=[c.order for c in rs.cards], suit_names=suit_names, suit_masks=[rs.suit_mask[s] for s in suit_names],
        full_mask=(1 << len(rs.cards)) - 1, calls=[], call_by_name={}, contracts={}, compiler=comp,
        auction=None, talons=talon.settings(phases.talons, rs, comp),  # type: ignore[arg-type]  # auction set below
        after_purchase=after_purchase.settings(phases.after_purchase, comp), defence=defence.settings(phases.defence, comp),
        kontra=kontra.settings(phases.kontra, comp), play=play.settings(phases.play, comp))
    rules.functions = functions
    rules.generated = functions.module
    rules.packets = p.packets
    return rules


def _phase_settings(rules: Rules, p: Prepared) -> None:
    """The rankings, the procedure and the other phases' settings, the deal's, the figures."""
    rs, comp = p.rs, p.comp
    game = rs.game
    phases = game.phases
    rules.card_orders = ranking.specs(game.rankings, game.groups, rs)
    rules.procedure = list(game.procedure)
    rules.partner = partner.settings(phases.partner, comp, rs)
    rules.knock = knock.settings(phases.knock, comp)
    if rules.knock.present and "knock" not in rules.procedure:
        rules.procedure.insert(0, "knock")     # the knock comes with the deal, before the first phase
    rules.deal_pause = deal_rest.first_cards(p.packets, game.deal_pause)
    if rules.deal_pause:
        rules.procedure.insert(0, "deal_pause")     # the cards after the pause held back (phases/deal_rest.py)
    rules.number_bids = number_bids.settings(phases.number_bids, comp)
    rules.choices = choice.settings(phases.choices, comp)
    rules.pass_cards = pass_cards.settings(phases.pass_cards, comp)
    rules.dummy = dummy.settings(phases.play.dummy, comp)
    rules.sits_out = sits_out.settings(phases.play.sits_out, comp)
    rules.deal_hand = comp.text(game.deal_hand) if game.deal_hand is not None else None
    rules.turn_up = game.turn_up
    rules.figures = figures.compile_figures(game.figures, comp.text, p.figure_refs, dict(rs.card_index))
    rules.announce = announce.settings(phases.announce, game.lets, comp, rules.figures)


def _words(rules: Rules) -> None:
    """The words of the table (model/words.py), each kontra level said in its word (its name accepted:
    engine/text.py)."""
    table = rules.rs.game.words
    rules.default_words = table.fallback
    rules.words = table.actions
    rules.contract_words = table.contracts
    rules.level_words = table.levels
    rules.kontra.levels, rules.announce.levels = ([table.level(n) for n in rules.kontra.levels],
                                                  [table.level(n) for n in rules.announce.levels])


def _contracts(rules: Rules, p: Prepared) -> None:
    game = rules.rs.game
    for name, con in game.contracts.items():
        rules.contracts[name] = _contract_rt(rules, con, p.refs_con[name], None)
    rules.contract_names = list(game.contracts)
    rules.contract_index = {n: i for i, n in enumerate(rules.contract_names)}


def _calls(rules: Rules, p: Prepared) -> None:
    """The calls of the auction, in their order, each with its action."""
    rs, comp = rules.rs, p.comp
    x = comp.text
    game = rs.game
    for idx, name in enumerate(rs.calls):
        c = game.calls[name]
        cs = c.contracts
        call_talon, call_talon_expr = given.name_or_expression(comp, c.talon, rules.talons)
        rules.calls.append(CallRT(
            name=name, ref=p.refs_call[name], index=idx, rank=c.rank, category=c.category,
            allowed=x(c.allowed) if c.allowed is not None else ALWAYS, raise_rule=c.raise_rule,
            contracts=list(cs) if isinstance(cs, list) else ([name] if name in game.contracts and cs is None else []),
            talon=call_talon, contest=c.contest, sealed=c.sealed, word=game.words.of(name),
            contracts_expr=x(cs) if isinstance(cs, str) else None, joins=c.joins, talon_expr=call_talon_expr))
        rules.call_by_name[name] = rules.calls[-1]
        rules.calls[-1].action = actions.make(actions.BID, idx)
    # for each rank, the index of the first call of that rank (calls are sorted by rank): an auction
    # scan starts there, since no lower call can follow a bid of that rank
    rules.first_call_at_rank = {}
    for call in reversed(rules.calls):
        rules.first_call_at_rank[call.rank] = call.index
    if any(call.raise_rule == "any" for call in rules.calls):  # a lower call may follow: scan from the first
        rules.first_call_at_rank = {call.rank: 0 for call in rules.calls}


def _auction(rules: Rules, p: Prepared) -> None:
    game, comp = rules.rs.game, p.comp
    rules.auction = auction.settings(game.phases.auction, game.calls, game.lets, comp, p.symbols, p.pass_ref,
                                     rules.calls)
    rules.auction.double_words = tuple(game.words.of(n) for n in rules.auction.doubles)
    rules.auction.all_pass, rules.auction.all_pass_expr = given.name_or_expression(comp, rules.auction.all_pass,
                                                                                   game.contracts)


def _settlement(rules: Rules, functions: backend.Functions) -> None:
    """The accounts, the payment rows of the deal and of the session, the session's sheet."""
    comp = rules.compiler
    x = comp.text
    game = rules.rs.game
    rules.accounts = dict(game.accounts)
    rules.account_initial = {name: x(spec.initial) for name, spec in rules.accounts.items()
                             if spec.initial not in (0, None)}
    rules.settle_rows = _rows(comp, "settle", game.settle, functions)
    session = game.session
    rules.session_rows = settle.SessionRules(
        **{part: _rows(comp, part, getattr(session, part), functions) for part in settle.SESSION_PARTS},
        dealer=x(session.dealer) if session.dealer is not None else None,
        ends=x(session.ends) if session.ends is not None else None,
        result=x(session.result) if session.result is not None else None)
    rules.sheet = [(title, x(value)) for title, value in session.sheet]


def _rows(comp: Compiler, part: str, rows: tuple[PayRow, ...], functions: backend.Functions) -> settle.Rows:
    """The payment rows of `part`, with the function that evaluates them all where the backend gave one."""
    return settle.Rows(part, tuple(settle.row(comp, r) for r in rows), functions.rows(part))


def _bound_actions(rules: Rules) -> None:
    """The most actions a deal can take, phase by phase; the engine enforces the auction's and the
    after-purchases' bounds, the others follow from the rules (passes are final, raises climb, a kontra
    chain has a maximum, each trick takes one card per seat)."""
    seats, n_calls, n_cons = rules.n_seats, len(rules.calls), len(rules.contracts)
    # raises climb through the calls; each can be held once and joined once per seat; passes are final or void;
    # reveals climb through the contracts. Under `raise = any` this is the bound itself.
    rules.max_auction_calls = seats * (2 * n_calls + 2 * n_cons + 2)
    ap = rules.after_purchase
    rules.max_purchases = (len(ap.contracts) + 1) * seats if ap.present else 0
    after = rules.max_purchases * (3 + seats) + seats
    defence_calls = seats + 1
    kontra_calls = rules.kontra.max + seats + 1 if rules.kontra.present else 0
    hand_size = rules.rs.hand_size
    plays = hand_size * seats + 2 * actions.MAX_OFFERS + 1
    # the knock (knock or cut, one pile each), the partner call, and a talon's give-up, packet and
    # card-by-card discards
    knocking = 1 + seats if rules.knock.present else 0
    talon_steps = 2 + max((t.discard or 0 for t in rules.talons.values()), default=0)
    rules.max_actions = (rules.max_auction_calls + 1 + 2 + after + defence_calls + kontra_calls + plays
                         + announce.max_actions(rules) + knocking + 1 + talon_steps + len(rules.choices))


def _contract_rt(rules: Rules, c: Contract, ref: Ref, chosen_trump: int | None) -> ContractRT:
    comp = rules.compiler
    x = comp.text
    rs = rules.rs
    suit_names, suit_masks = rules.suit_names, rules.suit_masks
    permanent = suit_names.index(rs.trump_suit) if rs.trump_suit else -1
    trump_name = c.trump
    trump = suit_names.index(trump_name) if trump_name in suit_names else -1
    # `trump = EXPR` (not a suit's name): no trumps until the deal gives the suit (Rules.in_deal)
    trump_expr = x(trump_name) if chosen_trump is None and isinstance(trump_name, str) and trump < 0 else None
    if chosen_trump is not None:
        trump = chosen_trump
    led_only = c.winner == "led"
    if trump < 0 and permanent >= 0 and not led_only:
        trump = permanent
    if led_only:
        trump = -1
    order = _order(rules, c.ranking, trump, led_only)
    if order is not None:
        trump, trump_mask, strength, beaters = order.trump, order.trump_mask, order.strength, order.beaters
        suit_of, suits, trump_class = order.suit_of, order.suit_masks, order.trump_class
    else:
        trump_mask = suit_masks[trump] if trump >= 0 else 0
        strength, beaters = _ranking(rules, trump, trump_mask)
        suit_of, suits, trump_class = rules.suit_of, suit_masks, trump
    obligations = play.obligations(comp, c.obligations, suit_names, rs)
    talon_name, talon_expr = given.name_or_expression(comp, c.talon, rules.talons)
    name = c.name
    con = ContractRT(
        name=name, ref=ref, rank=c.rank, category=c.category, trump=trump,
        trump_mask=trump_mask, side=c.side, talon=talon_name,
        goal=_made(rules, x(c.goal) if c.goal is not None else NEVER, c), defence=c.defence,
        lead=x(c.lead) if c.lead is not None else None,
        obligations=obligations, winner_led_only=led_only,
        early_end=x(c.early_end) if c.early_end is not None else None,
        open_who=c.opening.who, open_after=c.opening.after, open_at_lead=c.opening.at_lead,
        beaters=beaters, strength=strength, honours=_card_mask(rs, c.honours), trump_expr=trump_expr,
        figures=_listed_figures(rules, c), suit_of=suit_of, suit_masks=suits, trump_class=trump_class,
        ranking=order.name if order is not None else None, talon_expr=talon_expr,
        allowed=x(c.allowed) if c.allowed is not None else None)
    functions = rules.functions
    con.gen_playable = functions.playable(rules, con, chosen_trump is not None)
    if chosen_trump is None and functions.ends_never(name):
        con.early_end = None            # never true: not asked
    return con


def _order(rules: Rules, name: str | None, trump: int, led_only: bool) -> ranking.Order | None:
    """The contract's card order under its trump suit (engine/ranking.py), None without a `ranking`."""
    spec = rules.card_orders.get(name) if name is not None else None
    if spec is None:
        return None
    return ranking.order_for(rules, spec, ranking.trump_of(spec, trump), led_only)


def _made(rules: Rules, goal: Fn, c: Contract) -> Fn:
    """The contract's goal as `made` reads it: a declared figure that `decides` the game, or a game given
    up, decides it before the goal does (figures.game_made)."""
    deciders = tuple(f for f in _listed_figures(rules, c).values() if f.decides)
    can_give_up = any(proc.give_up is not None or proc.requires is not None for proc in rules.talons.values())
    return figures.game_made(goal, deciders, can_give_up)


def _listed_figures(rules: Rules, c: Contract) -> dict[str, figures.FigureRT]:
    """The rules' figures whose names are `in` the contract's `figures`, as figures.allowed asks it."""
    listed = c.figures
    return {name: fig for name, fig in rules.figures.items() if name in listed}


def _ranking(rules: Rules, trump: int, trump_mask: int) -> tuple[list, list[int]]:
    """(strength, beaters) of every card with `trump` (-1: none), made once per trump and shared by the
    contracts that have it (neither is ever written to)."""
    memo = rules._rankings
    if trump not in memo:
        suit_of, order_of, suit_masks = rules.suit_of, rules.order_of, rules.suit_masks
        n_cards = len(suit_of)
        strength = [(1 if suit_of[i] == trump else 0, order_of[i]) for i in range(n_cards)]
        beaters = []
        for i in range(n_cards):
            s = suit_of[i]
            higher_same = 0
            for j in bits(suit_masks[s]):
                if order_of[j] > order_of[i]:
                    higher_same |= 1 << j
            beaters.append(higher_same if s == trump or trump < 0 else higher_same | trump_mask)
        memo[trump] = (strength, beaters)
    return memo[trump]


def _card_mask(rs: Ruleset, cards: Any) -> int:
    """Card codes and group names (a list, or one name) as a card mask."""
    if not cards:
        return 0
    return rs.mask([str(x) for x in ([cards] if isinstance(cards, str) else cards)])
