"""The front end's last stage: a checked rules document → frozen, typed objects the engine reads.

    game = game_of(doc)          # model/ruleset.compile_ruleset keeps it as Ruleset.game
    game.seating.draw.compare    # ("rank", "suit") unless the rule file says otherwise
    game.accounts["pot"].per     # "game"

Each object carries `at`, its place in the document as a dotted path (`figure.valat`, `session.sit`): the
diagnostics' pointers name the same places. Every default the rule language gives a missing entry is
written here once, so that the engine never asks the document. An expression the rule file writes is an
`Expression` (its source as the checker left it, text or a constant, and its place); one it leaves out is
None, so that a written `none` and an absent entry stay apart. The engine compiles them (engine/compile.py).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from interpreter.model.deck import resolved_packets, schedule_counts
from interpreter.model.expression import Expr, Expression
from interpreter.model.expression import given as _expr
from interpreter.model.expression import plain as _plain
from interpreter.model.phases import Phases, phases_of
from interpreter.model.words import TableWords, table_words


def readable(record: dict[str, Any]) -> dict[str, Any]:
    """What a rule expression reads of a call, contract or figure (`x.rank`, `x.premium`): its record's
    entries, and under a name the record has not, its `props`' entry (the record wins where both have it)."""
    props = record.get("props")
    return {**props, **record} if isinstance(props, dict) and props else record


@dataclass(frozen=True)
class PayRow:
    """A payment row (`settle.pay`, a part of `session`, `session.sit.reckoning`): when, for each seat of
    `each`, `amount` from `src` to `dst` (either may be the word OTHERS: every other active seat)."""
    when: Expression | None
    each: Expression | None
    src: Expression | None
    dst: Expression
    amount: Expression
    note: str
    name: str | None = None         # the row's name, by which a variant edits it
    at: str = ""


def _rows(rows: Any, at: str) -> tuple[PayRow, ...]:
    out = []
    for i, r in enumerate(rows or ()):
        here = f"{at}[{i}]"
        out.append(PayRow(when=_expr(r, "when", here), each=_expr(r, "each", here), src=_expr(r, "from", here),
                          dst=Expression(r["to"], here + ".to"), amount=Expression(r["amount"], here + ".amount"),
                          note=r.get("note", ""), name=r.get("name"), at=here))
    return tuple(out)


@dataclass(frozen=True)
class Draw:
    """`seating.draw`: the draw for seats and the first dealer (engine/seating.py)."""
    compare: tuple[str, ...] = ("rank", "suit")
    suits: tuple[str, ...] = ()         # empty: the deck's suits, in order
    ranks: tuple[str, ...] = ()         # empty: each card's order in its suit
    lowest_deals: bool = False          # `dealer = lowest`
    places: tuple[int, ...] = ()
    at: str = "seating.draw"


@dataclass(frozen=True)
class Seating:
    """`seating`: who sits out, by what rotation, the fixed partnerships, the draw."""
    sit_out: str = "nobody"
    rotation: tuple[tuple[int, ...], ...] = ()      # kept only with `sit_out = rotation`
    teams: tuple[tuple[int, ...], ...] = ()
    draw: Draw = Draw()
    at: str = "seating"


@dataclass(frozen=True)
class Account:
    """One `account`: kept per game, seat, pair, team or player, with its starting value and title."""
    name: str
    per: str
    initial: Expr = None
    title: str | None = None
    at: str = ""


@dataclass(frozen=True)
class Figure:
    """One `figure` (engine/figures.py)."""
    name: str
    goal: Expr
    attempt: Expr = None
    allowed: Expr = None
    card: Expr = None
    trick: int = 0
    multiplier: bool = False
    by_holder: bool = False         # `by = holder`
    decides: bool = False
    record: dict[str, Any] = field(default_factory=dict)     # as written (plain): what `figure.x` reads in expressions
    at: str = ""

    @property
    def fields(self) -> dict[str, Any]:
        return readable(self.record)


@dataclass(frozen=True)
class Reseat:
    """A row of `session.sit.reseat`: after which sit, when, and the seats it swaps."""
    after: Any
    when: Expression | None
    swap: tuple[Expr, ...]
    note: str


@dataclass(frozen=True)
class Sit:
    """`session.sit`: when a sit ends, how many make a rubber, what is booked, how players move."""
    present: bool = False
    ends: Expression | None = None
    per_rubber: int = 0
    reckoning: tuple[PayRow, ...] = ()
    reseat: tuple[Reseat, ...] = ()
    new_rubber: Expression | None = None
    at: str = "session.sit"


@dataclass(frozen=True)
class Session:
    """`session`: rows booked around each deal, the next dealer, the end, the result, the score sheet."""
    before_deal: tuple[PayRow, ...] = ()
    after_deal: tuple[PayRow, ...] = ()
    all_pass: tuple[PayRow, ...] = ()
    reckoning: tuple[PayRow, ...] = ()
    dealer: Expression | None = None
    ends: Expression | None = None
    result: Expression | None = None
    sheet: tuple[tuple[str, Expression], ...] = ()
    sit: Sit = Sit()


@dataclass(frozen=True)
class Option:
    """A table option: its default, bounds and choices."""
    name: str
    default: Any = None
    min: Any = None
    max: Any = None
    multiple_of: Any = None
    choices: tuple = ()


@dataclass(frozen=True)
class Opening:
    """When a contract's hand is laid open: whose, after which trick (or lead)."""
    who: str | None = None
    after: int = 0
    at_lead: bool = False           # after the lead to trick `after` (else once it is complete)


@dataclass(frozen=True)
class Obligation:
    """A play obligation of a contract: its rule, when it applies, and the suit or cards it names."""
    rule: str
    when: Expression | None = None
    suit: Any = None
    cards: Any = None


def _obligation(ob: Any, at: str) -> Obligation:
    if isinstance(ob, str):
        return Obligation(ob)
    return Obligation(rule=ob["rule"], when=_expr(ob, "when", at), suit=ob.get("suit"), cards=_plain(ob.get("cards")))


@dataclass(frozen=True)
class Contract:
    """A contract, the play's defaults written in where it gives none."""
    name: str
    record: dict[str, Any]          # as written (plain): what `contract.x` reads in expressions
    rank: Any = 0
    category: str | None = None
    trump: Any = None               # a suit's name, an expression giving one, or None
    winner: str = "trump_then_led"
    obligations: tuple[Obligation, ...] = (Obligation("follow_suit"),)
    side: str = "alone"
    talon: str | None = None
    goal: Expression | None = None
    defence: str = "all"
    lead: Expression | None = None
    early_end: Expression | None = None
    opening: Opening = Opening()
    honours: Any = None
    figures: tuple[str, ...] = ()
    must_declare: tuple[str, ...] = ()
    trump_choices: Any = None
    allowed: Expression | None = None       # suits the declarer may choose as trumps, or an expression giving them
    ranking: str | None = None              # its card order (`ranking NAME`, engine/ranking.py), or play's
    at: str = ""

    @property
    def fields(self) -> dict[str, Any]:
        return readable(self.record)


@dataclass(frozen=True)
class Call:
    """A call of the auction."""
    name: str
    record: dict[str, Any]          # as written (plain): what a call's attributes read in expressions
    rank: Any = 0
    category: str | None = None
    allowed: Expression | None = None
    raise_rule: str = "higher"
    contracts: Any = None           # a list of contracts, an expression giving them, or None
    talon: str | None = None
    contest: str | None = None
    sealed: bool = False
    joins: tuple[str, ...] = ()
    at: str = ""

    @property
    def fields(self) -> dict[str, Any]:
        return readable(self.record)


@dataclass(frozen=True)
class Packet:
    """A packet of the deal: how many cards, to whom (`each`, `talon`, or a pile), how many times."""
    to: str
    cards: int
    repeat: int = 1
    name: str | None = None         # its name (`deal.packets[NAME]`), by which `deal.pause` names it


@dataclass(frozen=True)
class Ranking:
    """A card order as written (`ranking NAME { trumps ranks }`): its trump entries lowest first (cards,
    groups, suits or `trump`) and the ranks' order."""
    name: str
    trumps: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()


def _rankings(part: Any) -> dict[str, Ranking]:
    if not isinstance(part, Mapping):
        return {}
    return {str(n): Ranking(str(n), tuple(str(e) for e in r.get("trumps") or ()), tuple(str(x) for x in r.get("ranks") or ()))
            for n, r in part.items() if isinstance(r, Mapping)}


@dataclass(frozen=True)
class Game:
    """The rule set's sections as the engine reads them."""
    seating: Seating
    accounts: Mapping[str, Account]
    figures: tuple[Figure, ...]
    session: Session
    options: Mapping[str, Option]
    contracts: Mapping[str, Contract]     # in the order written
    calls: Mapping[str, Call]             # in the order written
    categories: tuple[str, ...]
    lets: Mapping[str, Any]               # name → its body (text, a constant, or {params, body})
    procedure: tuple[str, ...]
    hold_word: str | None                 # `auction.hold.call`
    deal_hand: Expression | None          # `deal.hand`
    turn_up: bool                         # `deal.turn_up`
    settle: tuple[PayRow, ...]            # `settle.pay`
    roles: Mapping[str, int]
    phases: Phases
    words: TableWords                     # the words of actions, calls, contracts and levels (model/words.py)
    rankings: Mapping[str, Ranking] = field(default_factory=dict)    # the card orders, by name
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)     # `deck.group`: cards in the order written
    # what the deal's packets are worked out from under the table options (packets_for)
    dealing: Mapping[str, Any] = field(default_factory=dict)
    deal_pause: str | None = None         # `deal.pause`: the packet after which the deal waits for `deal_rest`

    def dealt_for(self, options: Mapping[str, Any], players: int) -> tuple[tuple[Packet, ...], int, int, int]:
        """The deal's packets with their sizes worked out for these option values (model/deck.py), and the
        cards they deal each player, to the talon and to other piles. Raises ValueError as resolved_packets."""
        raw = resolved_packets(dict(self.dealing), dict(options))
        per, talon, piles = schedule_counts(raw, players)
        return (tuple(Packet(to=p["to"], cards=p["cards"], repeat=p.get("repeat", 1), name=p.get("name")) for p in raw),
                per, talon, piles)

    @property
    def sit(self) -> Sit:
        return self.session.sit


def game_of(doc: Mapping[str, Any]) -> Game:
    """The typed model of a checked document (plain dicts and lists, or their frozen forms)."""
    seating = _seating(doc.get("seating") or {})
    session = doc.get("session") or {}
    play = doc.get("play") or {}
    auction = doc.get("auction") or {}
    deal = doc.get("deal") or {}
    return Game(
        seating=seating, accounts=MappingProxyType(_accounts(doc.get("account") or {})),
        figures=tuple(_figure(n, r) for n, r in (doc.get("figure") or {}).items()),
        session=Session(**{part: _rows(session.get(part), f"session.{part}") for part in
                           ("before_deal", "after_deal", "all_pass", "reckoning")},
                        dealer=_expr(session, "dealer", "session"), ends=_expr(session, "ends", "session"),
                        result=_expr(session, "result", "session"),
                        sheet=tuple((c["title"], Expression(c["value"], f"session.sheet[{i}].value"))
                                    for i, c in enumerate(session.get("sheet") or ())),
                        sit=_sit(session.get("sit") or {}, seating)),
        options=MappingProxyType({k: _option(k, v) for k, v in (doc.get("option") or {}).items()}),
        contracts=MappingProxyType({n: _contract(n, c, play) for n, c in (doc.get("contract") or {}).items()}),
        calls=MappingProxyType({n: _call(n, c, auction.get("raise", "higher"))
                                for n, c in (doc.get("call") or {}).items()}),
        categories=tuple(doc.get("category") or ()), lets=MappingProxyType(_plain(dict(doc.get("let") or {}))),
        procedure=tuple(doc.get("procedure") or ()), hold_word=(auction.get("hold") or {}).get("call"),
        deal_hand=_expr(deal, "hand", "deal"), turn_up=bool(deal.get("turn_up")), settle=_rows(
            (doc.get("settle") or {}).get("pay"), "settle.pay"),
        roles=MappingProxyType(dict((doc.get("seating") or {}).get("roles") or {})), phases=phases_of(doc),
        words=table_words(_plain(doc)), rankings=MappingProxyType(_rankings(doc.get("ranking"))),
        groups=MappingProxyType({str(g): tuple(str(c) for c in members)
                                 for g, members in ((doc.get("deck") or {}).get("group") or {}).items()}),
        dealing={k: _plain(doc[k]) for k in ("option", "let", "deal") if k in doc},
        deal_pause=str(deal["pause"]) if deal.get("pause") is not None else None)


def _option(name: str, o: Mapping[str, Any]) -> Option:
    return Option(name=name, default=o.get("default"), min=o.get("min"), max=o.get("max"),
                  multiple_of=o.get("multiple_of"), choices=tuple(o.get("choices") or ()))


def _contract(name: str, c: Mapping[str, Any], play: Mapping[str, Any]) -> Contract:
    at = f"contract.{name}"
    open_ = c.get("open") or play.get("open") or {}
    obligations = c.get("obligations", play.get("obligations", ["follow_suit"]))
    where = at if "obligations" in c else "play"
    return Contract(
        name=name, record=_plain(c), rank=c.get("rank", 0), category=c.get("category"), trump=c.get("trump"),
        winner=c.get("winner", play.get("winner", "trump_then_led")),
        obligations=tuple(_obligation(ob, f"{where}.obligations[{i}]") for i, ob in enumerate(obligations)),
        side=c.get("side", "alone"), talon=c.get("talon"),
        goal=Expression(c["goal"], at + ".goal") if c.get("goal") is not None else None,
        defence=c.get("defence", "all"),
        lead=_expr(c, "lead", at) or _expr(play, "lead", "play"),
        early_end=_expr(c, "early_end", at) or _expr(play, "early_end", "play"),
        opening=Opening(who=open_.get("who"), after=open_.get("after_trick", open_.get("after_lead", 0)),
                        at_lead="after_trick" not in open_ and "after_lead" in open_),
        honours=_plain(c.get("honours")), figures=tuple(c.get("figures") or ()),
        must_declare=tuple(str(n) for n in c.get("must_declare") or ()), trump_choices=_plain(c.get("trump_choices")),
        allowed=_expr(c, "allowed", at), ranking=_name(c.get("ranking", play.get("ranking"))),
        at=at)


def _name(v: Any) -> str | None:
    return v if isinstance(v, str) else None


def _call(name: str, c: Mapping[str, Any], default_raise: str) -> Call:
    cs = c.get("contracts")
    return Call(name=name, record=_plain(c), rank=c.get("rank", 0), category=c.get("category"),
                allowed=_expr(c, "allowed", f"call.{name}"), raise_rule=c.get("raise", default_raise),
                contracts=_plain(cs), talon=c.get("talon"), contest=c.get("contest"), sealed=bool(c.get("sealed")),
                joins=tuple(c.get("joins") or ()), at=f"call.{name}")


def _seating(s: Mapping[str, Any]) -> Seating:
    d = s.get("draw") or {}
    draw = Draw(compare=tuple(d.get("compare") or ("rank", "suit")), suits=tuple(str(x) for x in d.get("suits") or ()),
                ranks=tuple(str(x) for x in d.get("ranks") or ()), lowest_deals=d.get("dealer") == "lowest",
                places=tuple(d.get("places") or ()))
    sit_out = s.get("sit_out") or "nobody"
    rotation = tuple(tuple(int(p) for p in row) for row in s.get("rotation") or ()) if sit_out == "rotation" else ()
    return Seating(sit_out=sit_out, rotation=rotation, teams=tuple(tuple(int(k) for k in t) for t in s.get("teams") or ()),
                   draw=draw)


def _accounts(accounts: Mapping[str, Any]) -> dict[str, Account]:
    return {name: Account(name=name, per=str(a.get("per")), initial=a.get("initial"),
                          title=None if a.get("title") is None else str(a.get("title")), at=f"account.{name}")
            for name, a in accounts.items()}


def _figure(name: str, r: Mapping[str, Any]) -> Figure:
    return Figure(name=name, goal=r["goal"], attempt=r.get("attempt"), allowed=r.get("allowed"), card=r.get("card"),
                  trick=int(r.get("trick") or 0), multiplier=bool(r.get("multiplier")), by_holder=r.get("by") == "holder",
                  decides=bool(r.get("decides")), record=_plain(r), at=f"figure.{name}")


def _sit(s: Mapping[str, Any], seating: Seating) -> Sit:
    reseat = []
    for i, r in enumerate(s.get("reseat") or ()):
        swap = r.get("swap") or []
        reseat.append(Reseat(after=r.get("after"), when=_expr(r, "when", f"session.sit.reseat[{i}]"),
                             swap=tuple(str(x) for x in swap) if isinstance(swap, (list, tuple)) else (swap,),
                             note=str(r.get("note") or r.get("rule") or "")))
    return Sit(present=bool(s), ends=_expr(s, "ends", "session.sit"),
               per_rubber=int(s.get("per_rubber") or len(seating.rotation) or 0),
               reckoning=_rows(s.get("reckoning"), "session.sit.reckoning"), reseat=tuple(reseat),
               new_rubber=_expr(s, "new_rubber", "session.sit"))
