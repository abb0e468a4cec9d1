"""The phases' sections of a rule set as typed objects (model/game.py keeps them in Game.phases): the
auction, the talons, the after-purchase, the defence, the kontra, the declaration round, the partner call,
the knock, number bids and the play's own settings. Each default the language gives an entry left out is
written here; an expression left out is None (model/game.Expression)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from interpreter.model.expression import Expression
from interpreter.model.expression import given as _expr
from interpreter.model.expression import plain as _plain


@dataclass(frozen=True)
class Auction:
    first: Expression               # `first`, "forehand" unless written
    style: str = "open"
    allowed: Expression | None = None
    ends: Expression | None = None
    exclude: Expression | None = None
    hold_call: str | None = None    # `hold.call`
    hold_who: Expression | None = None
    hold_bids: Expression | None = None
    contest_rounds: Any = "open"
    first_must_name: bool = False
    contest_ties: Any = None
    all_pass: str | None = None     # `all_pass.contract`
    pass_allowed: Expression | None = None
    pass_final: bool = True
    doubles: tuple[str, ...] = ()   # calls on the highest bid, in order (engine/phases/auction_doubles.py)
    declarer_by: str | None = None  # a field of the calls that names the declarer
    at: str = "auction"


@dataclass(frozen=True)
class Talon:
    name: str
    kind: str = "exchange"
    take: Any = None
    discard: Any = None
    exposed: bool = False
    never: Any = None               # cards (codes or groups) never discarded
    packets: int = 2
    last_resort: Any = None         # `last_resort.cards`
    face_up: bool = False           # `last_resort.face_up`
    discards_to: str = "declarer"
    card_by_card: bool = False      # the discards one card per action, not as one set
    rest_to: Any = None
    who: Expression | None = None
    give_up: Expression | None = None
    requires: Expression | None = None
    tricks: int = 0
    called_packet: Any = None
    called_rest: Any = None         # `called_rest` as written (`declarer`: the called card brings the rest)
    at: str = ""


@dataclass(frozen=True)
class AfterPurchase:
    present: bool = False
    when: Expression | None = None
    entitled: Expression | None = None
    take: Any = 2
    discard: Any = 2
    contracts: tuple[str, ...] = ()
    must_exceed: Any = True


@dataclass(frozen=True)
class Defence:
    present: bool = False
    when: Expression | None = None
    first: Expression | None = None
    compulsory: Expression | None = None
    invite: Expression | None = None
    kontra_required: Expression | None = None
    nobody_tricks: Any = None       # `nobody.declarer_tricks`


@dataclass(frozen=True)
class Kontra:
    present: bool = False
    when: Expression | None = None
    first: Expression | None = None
    levels: tuple[str, ...] = ("kontra",)
    max: Any = None
    invites: bool = False


@dataclass(frozen=True)
class AnnounceKontra:
    """`announce.kontra`: the kontras of the declaration round."""
    levels: tuple[str, ...] = ("kontra",)
    max: Any = None
    when: Expression | None = None
    personal: Expression | None = None
    scope: Any = None
    by: Any = "alternate"


@dataclass(frozen=True)
class Announce:
    present: bool = False
    when: Expression | None = None
    first: Expression | None = None
    opener: str = "ready"
    passes: int = 3
    declare: Expression | None = None
    kontra: AnnounceKontra | None = None


@dataclass(frozen=True)
class Partner:
    present: bool = False
    when: Expression | None = None
    group: Any = None
    self_call: bool = False         # `self`
    by_count: Expression | None = None
    allowed: Expression | None = None


@dataclass(frozen=True)
class Choice:
    """A decision (`choice NAME`): who decides, when, among which options, each said in its word."""
    name: str
    who: Expression
    when: Expression | None = None
    options: tuple[str, ...] = ()
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class PassCards:
    """`pass_cards`: how many cards each seat passes, to whom, who first, when."""
    cards: Expression | None = None
    to: Expression | None = None
    first: Expression | None = None
    when: Expression | None = None


@dataclass(frozen=True)
class Knock:
    present: bool = False
    by: Expression | None = None
    choose: Expression | None = None


@dataclass(frozen=True)
class NumberBids:
    first: Expression | None = None
    low: Expression | None = None   # `min`
    high: Expression | None = None  # `max`
    last_not: Expression | None = None
    contract: Any = None
    trump: Expression | None = None


@dataclass(frozen=True)
class Dummy:
    """`play.dummy`: the seat whose hand is laid open, the seat that plays it, from which trick's lead."""
    seat: Expression
    by: Expression
    after_lead: int = 1


@dataclass(frozen=True)
class Play:
    """`play`'s own settings (its defaults for the contracts are written into each model/game.Contract)."""
    lead: Expression | None = None
    negotiate: Expression | None = None     # `negotiation.when`
    declarer_min: Any = 0
    defender_min: Any = 0
    contract: str | None = None             # played when no phase before the play settles one
    upset_cards: Any = None                 # `upset.cards`: cards that upset a trick when all fall in it
    upset_wins: Any = None                  # `upset.wins`: the card that then takes it
    dummy: Dummy | None = None              # `dummy` (engine/phases/dummy.py); None: no dummy


@dataclass(frozen=True)
class Phases:
    auction: Auction
    talons: Mapping[str, Talon]
    after_purchase: AfterPurchase
    defence: Defence
    kontra: Kontra
    announce: Announce
    partner: Partner
    knock: Knock
    number_bids: NumberBids
    play: Play
    choices: Mapping[str, Choice]
    pass_cards: PassCards | None


def phases_of(doc: Mapping[str, Any]) -> Phases:
    return Phases(auction=_auction(doc.get("auction") or {}),
                  talons={n: _talon(n, t) for n, t in (doc.get("talon") or {}).items()},
                  after_purchase=_after_purchase(doc), defence=_defence(doc), kontra=_kontra(doc),
                  announce=_announce(doc), partner=_partner(doc.get("partner")),
                  knock=_knock((doc.get("deal") or {}).get("knock")), number_bids=_number_bids(doc.get("number_bids") or {}),
                  play=_play(doc.get("play") or {}), choices=_choices(doc),
                  pass_cards=_pass_cards(doc.get("pass_cards")))


def _choices(doc: Mapping[str, Any]) -> dict[str, Choice]:
    section = doc.get("words")
    words = {str(k): str(v) for k, v in section.items()} if isinstance(section, Mapping) else {}
    out = {}
    for name, c in (doc.get("choice") or {}).items():
        options = tuple(str(o) for o in c.get("options") or ())
        out[name] = Choice(name=name, who=Expression(c.get("who", "declarer"), f"choice.{name}.who"),
                           when=_expr(c, "when", f"choice.{name}"), options=options,
                           words=tuple(words.get(o, o) for o in options))
    return out


def _pass_cards(sec: Any) -> PassCards | None:
    if not isinstance(sec, Mapping):
        return None
    at = "pass_cards"
    return PassCards(cards=_expr(sec, "cards", at), to=_expr(sec, "to", at), first=_expr(sec, "first", at),
                     when=_expr(sec, "when", at))


def _auction(a: Mapping[str, Any]) -> Auction:
    hold = a.get("hold") or {}
    contest = a.get("contest") or {}
    pass_ = a.get("pass") or {}
    return Auction(
        first=Expression(a.get("first", "forehand"), "auction.first"), style=a.get("style", "open"),
        allowed=_expr(a, "allowed", "auction"), ends=_expr(a, "ends", "auction"), exclude=_expr(a, "exclude", "auction"),
        hold_call=hold.get("call"), hold_who=_expr(hold, "who", "auction.hold"), hold_bids=_expr(hold, "bids", "auction.hold"),
        contest_rounds=contest.get("rounds", "open"), first_must_name=bool(contest.get("first_must_name")),
        contest_ties=contest.get("ties"), all_pass=(a.get("all_pass") or {}).get("contract"),
        pass_allowed=_expr(pass_, "allowed", "auction.pass"), pass_final=a.get("pass_final", True) is not False,
        doubles=tuple(str(n) for n in a.get("doubles") or ()), declarer_by=a.get("declarer_by"))


def _talon(name: str, t: Mapping[str, Any]) -> Talon:
    at = f"talon.{name}"
    lr = t.get("last_resort") or {}

    def expr(key: str) -> Expression | None:       # an entry written `none` is left out too
        return Expression(t[key], f"{at}.{key}") if t.get(key) is not None else None
    return Talon(name=name, kind=t.get("kind", "exchange"), take=t.get("take"), discard=t.get("discard"),
                 exposed=bool(t.get("exposed")), never=_plain(t.get("never")), packets=int(t.get("packets") or 2),
                 last_resort=_plain(lr.get("cards")), face_up=bool(lr.get("face_up")),
                 discards_to=t.get("discards") or "declarer", card_by_card=t.get("card_by_card") is True,
                 rest_to=t.get("rest"), who=expr("who"),
                 give_up=expr("give_up"), requires=expr("requires"), tricks=int(t.get("tricks") or 0),
                 called_packet=t.get("called_packet"), called_rest=t.get("called_rest"), at=at)


def _after_purchase(doc: Mapping[str, Any]) -> AfterPurchase:
    ap = doc.get("after_purchase") or {}
    return AfterPurchase(present="after_purchase" in doc, when=_expr(ap, "when", "after_purchase"),
                         entitled=_expr(ap, "entitled", "after_purchase"), take=ap.get("take", 2),
                         discard=ap.get("discard", 2), contracts=tuple(ap.get("contracts", ())),
                         must_exceed=ap.get("must_exceed", True))


def _defence(doc: Mapping[str, Any]) -> Defence:
    df = doc.get("defence") or {}
    return Defence(present="defence" in doc, when=_expr(df, "when", "defence"), first=_expr(df, "first", "defence"),
                   compulsory=_expr(df, "compulsory", "defence"), invite=_expr(df, "invite", "defence"),
                   kontra_required=_expr(df, "kontra_required", "defence"),
                   nobody_tricks=(df.get("nobody") or {}).get("declarer_tricks"))


def _kontra(doc: Mapping[str, Any]) -> Kontra:
    kt = doc.get("kontra") or {}
    return Kontra(present="kontra" in doc, when=_expr(kt, "when", "kontra"), first=_expr(kt, "first", "kontra"),
                  levels=tuple(kt.get("levels", ("kontra",))), max=kt.get("max"), invites=bool(kt.get("invites")))


def _announce(doc: Mapping[str, Any]) -> Announce:
    an = doc.get("announce") or {}
    kt = an.get("kontra")
    kontra = None if kt is None else AnnounceKontra(
        levels=tuple((kt or {}).get("levels", ("kontra",))), max=(kt or {}).get("max"),
        when=_expr(kt, "when", "announce.kontra") if kt else None,
        personal=_expr(kt, "personal", "announce.kontra") if kt else None,
        scope=(kt or {}).get("scope"), by=(kt or {}).get("by", "alternate"))
    return Announce(present="announce" in doc, when=_expr(an, "when", "announce"), first=_expr(an, "first", "announce"),
                    opener=str(an.get("opener") or "ready"), passes=int(an.get("passes", 3)),
                    declare=_expr(an, "declare", "announce"), kontra=kontra)


def _partner(p: Any) -> Partner:
    if not p:
        return Partner()
    return Partner(present=True, when=_expr(p, "when", "partner"), group=p.get("group"), self_call=bool(p.get("self")),
                   by_count=_expr(p, "by_count", "partner"), allowed=_expr(p, "allowed", "partner"))


def _knock(k: Any) -> Knock:
    if not k:
        return Knock()
    return Knock(present=True, by=_expr(k, "by", "deal.knock"), choose=_expr(k, "choose", "deal.knock"))


def _number_bids(sec: Mapping[str, Any]) -> NumberBids:
    at = "number_bids"
    return NumberBids(first=_expr(sec, "first", at), low=_expr(sec, "min", at), high=_expr(sec, "max", at),
                      last_not=_expr(sec, "last_not", at), contract=sec.get("contract"), trump=_expr(sec, "trump", at))


def _play(play: Mapping[str, Any]) -> Play:
    neg = play.get("negotiation") or {}
    return Play(lead=_expr(play, "lead", "play"), negotiate=_expr(neg, "when", "play.negotiation"),
                declarer_min=neg.get("declarer_min", 0), defender_min=neg.get("defender_min", 0),
                contract=play.get("contract"), upset_cards=_plain((play.get("upset") or {}).get("cards")),
                upset_wins=(play.get("upset") or {}).get("wins"), dummy=_dummy(play.get("dummy")))


def _dummy(d: Any) -> Dummy | None:
    if not isinstance(d, Mapping) or "seat" not in d:
        return None
    return Dummy(seat=Expression(d["seat"], "play.dummy.seat"), by=Expression(d.get("by", "declarer"), "play.dummy.by"),
                 after_lead=int(d.get("after_lead", 1)))
