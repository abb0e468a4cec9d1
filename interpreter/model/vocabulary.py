"""The vocabulary registry: every built-in name a rule file may use, declared once.

Each entry is one name of one kind (a value or function an expression may use, a comprehension
form, a phase of the procedure, a play obligation) with its type, a doc line and an example. The
type checker, `validate`, docs/vocabulary.md and the engine all read this table; the engine's
implementations live in `interpreter.engine.builtins`, keyed by the same names, and a test keeps
the two in step both ways.

An entry may be *pending*: declared because rule files in development already use it, but not yet
implemented by the engine. `validate` refuses a rule file that uses a pending entry, with the
location of each use, so nothing the checker accepts is skipped or crashes at play.

Types are words: num, bool, seat, seats, card, cards, suit, call, contract, figure, account, name,
none and any (unknown, accepted anywhere). A rule file adds its own names: roles, options, lets,
and the symbols it declares (suits, cards, groups, calls, contracts, categories, …).
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("value", "function", "comprehension", "phase", "obligation", "field", "form", "operator")


@dataclass(frozen=True)
class Entry:
    kind: str                       # one of KINDS
    name: str
    type: str                       # the type of a value, the result of a function, "" for phases/obligations
    doc: str
    example: str
    params: tuple[str, ...] = ()    # argument types of a function; '*t' = any number of t
    pending: bool = False           # declared, not implemented: validate refuses its use


def _v(name: str, type_: str, doc: str, example: str, pending: bool = False) -> Entry:
    return Entry("value", name, type_, doc, example, pending=pending)


def _f(name: str, params: tuple[str, ...], result: str, doc: str, example: str, pending: bool = False) -> Entry:
    return Entry("function", name, result, doc, example, params, pending)


def _c(name: str, result: str, doc: str, example: str) -> Entry:
    return Entry("comprehension", name, result, doc, example)


def _p(name: str, doc: str, example: str, pending: bool = False) -> Entry:
    return Entry("phase", name, "", doc, example, pending=pending)


def _field(path: str, doc: str, example: str) -> Entry:
    """A field of the rules document (dotted path, `*` for a name the file chooses, `=value` for one
    value of an enumeration) that the schema describes but the engine cannot run yet."""
    return Entry("field", path, "", doc, example, pending=True)


def _form(path: str, doc: str, example: str) -> Entry:
    """A field the schema describes in its plain form (a name) whose other form (an expression giving
    the name, a card value in a list of cards) the engine cannot run yet: `validate` refuses that
    form at each use (checks/family_forms.py), the plain form stays as it was."""
    return Entry("form", path, "", doc, example, pending=True)


def _op(name: str, params: tuple[str, ...], result: str, doc: str, example: str, pending: bool = False) -> Entry:
    """An operator on operand types beyond numbers (`+` on two sets of cards); pending until the engine runs it."""
    return Entry("operator", name, result, doc, example, params, pending=pending)


def _o(name: str, doc: str, example: str, pending: bool = False) -> Entry:
    return Entry("obligation", name, "", doc, example, pending=pending)


ENTRIES: tuple[Entry, ...] = (
    # ---- values -------------------------------------------------------------------------------
    _v("dealer", "seat", "the dealer of this deal", "next(dealer)"),
    _v("declarer", "seat", "the declarer (none when nobody declares)", "tricks(declarer) >= 6"),
    _v("me", "seat", "the seat whose turn it is (the one calling, playing or being asked)", "me == forehand"),
    _v("holder", "seat", "the seat holding the current highest bid", "holder == dealer"),
    _v("leader", "seat", "the seat that led to the current trick", "leader == declarer"),
    _v("host", "seat", "the defender who invited or said kontra", "host != none"),
    _v("guest", "seat", "the defender who was invited", "guest == next(declarer)"),
    _v("side", "seats", "in a figure's goal: the side being judged", "captured(side, [AS])"),
    _v("seats", "seats", "every seat at the table", "count(s for s in seats)"),
    _v("players", "num", "how many players take part in each deal", "players == 4"),
    _v("active", "seats", "the seats taking part in this deal", "size(active)"),
    _v("defenders", "seats", "the declarer's opponents", "tricks(defenders) >= 5"),
    _v("declarers", "seats", "the declaring side (declarer and partner)", "points(declarers) >= 36"),
    _v("playing", "seats", "the seats that play the cards (defenders who stayed home excluded)", "size(playing) == 2"),
    _v("pot", "num", "the pot's content", "pot >= 10"),
    _v("tricks_played", "num", "tricks completed so far", "tricks_played == 0"),
    _v("turn", "num", "calls made so far in the auction", "turn < 3"),
    _v("passes", "num", "seats that have passed (or are excluded); with `pass_final = false`, since the last bid or hold", "passes == 2"),
    _v("bids", "num", "bids (not passes) made so far", "bids == 0"),
    _v("trick_number", "num", "the number of the current trick, from 1", "trick_number == 1"),
    _v("tricks_total", "num", "tricks in a deal", "tricks_total - tricks(declarer)"),
    _v("number_bid_total", "num", "the sum of the numbers stated so far in the number bids", "tricks_total - number_bid_total"),
    _v("turned_up", "card", "the card turned face up after the deal (`deal.turn_up`): the first card left over; none when every card is dealt", "suit_of(turned_up)"),
    _v("team_tricks", "num", "tricks taken by the defenders together", "team_tricks >= 4"),
    _v("kontra_level", "num", "calls in the kontra chain so far (0 = none)", "2 ^ kontra_level"),
    _v("double_level", "num", "the calls (`auction.doubles`) standing on the highest bid: 0 none, 1 doubled, 2 "
       "redoubled; after the auction, on the final bid", "if double_level == 0 then 50 else 100 * double_level"),
    _v("deal_number", "num", "deals played in this session before this one", "deal_number == 0"),
    _v("made", "bool", "the declaring side has made its contract", "not made"),
    _v("invited", "bool", "a defender was invited", "invited and made"),
    _v("compulsory", "bool", "going along was compulsory", "compulsory"),
    _v("all_passed", "bool", "everyone passed in the auction", "all_passed"),
    _v("high", "call", "the current highest call (none before any bid)", "high == none or this.rank > high.rank"),
    _v("last_call", "call", "the call just made in the auction, pass included (none before any)",
       "passes == players - 1 and last_call != pass"),
    _v("this", "call", "the call being judged (in `partner.allowed`: the card being offered)", "this.category == high.category"),
    _v("final", "call", "the call that won the auction", "final.sealed"),
    _v("contract", "contract", "the contract being played", "contract.level * 2"),
    _v("trump", "suit", "the trump suit of this deal (none without trumps)", "trump == none"),
    _v("pass", "call", "the pass call", "latest(me) == pass"),
    _v("honours", "cards", "the honour cards of the contract being played (its `honours` list; none if it has none)",
       "dealt(declarers, honours)"),
    _v("called_card", "card", "the card named in the partner call (`partner`); none when no card was called",
       "holds(declarer, called_card)"),
    _v("base_bidder", "seat", "when the final call joins another (call `joins`): the player whose base call it "
       "joined, who plays that call's contract too; none otherwise", "base_bidder != none"),
    _v("base_contract", "contract", "the contract of the base call a joining final call joined (none otherwise)",
       "base_contract.level"),
    _v("given_up", "bool", "the game was lost without play: the declarer gave up (talon `give_up`) or failed the "
       "talon's `requires`", "given_up and declarer != none"),
    _v("item", "any", "in a kontra or declaration condition: what is being doubled or declared, the contract (the "
       "game) or a figure", "item == contract"),
    _v("talon_cards", "cards", "the talon as dealt (none when the deal has no talon), wherever its cards went since",
       "points_of(talon_cards)"),
    # ---- functions ----------------------------------------------------------------------------
    _f("next", ("seat",), "seat", "the next seat taking part, in the direction of play", "next(dealer)"),
    _f("prev", ("seat",), "seat", "the previous seat taking part", "prev(dealer)"),
    _f("order", ("seat",), "num", "position in the bidding order, from 0", "order(me) == 0"),
    _f("partner_of", ("seat",), "seat", "the seat's partner (none if alone)", "partner_of(declarer)"),
    _f("opponents_of", ("seat",), "seats", "the seat's opponents in this deal", "opponents_of(declarer)"),
    _f("tricks", ("any",), "num", "tricks taken by a seat or a set of seats", "tricks(declarer) >= 6"),
    _f("points", ("any",), "num", "card points taken by a seat or a set of seats (tricks and talon share)",
       "points(declarers) >= 36"),
    _f("captured", ("any", "any"), "bool", "a seat or side has captured every given card in tricks",
       "captured(declarer, [AH, KH])"),
    _f("holds", ("seat", "any"), "bool", "the seat holds the card (or all cards of a group) now", "holds(me, AH)"),
    _f("dealt", ("any", "any"), "num", "how many of the given cards a seat or side was dealt", "dealt(declarer, [AH])"),
    _f("holder_of", ("card",), "seat", "the seat that holds the card now (none when no hand holds it)",
       "holder_of(2C)"),
    _f("count_in", ("any", "seat"), "num", "how many of the given cards the seat holds now", "count_in([AH, KH], me)"),
    _f("in_trick", ("any",), "bool", "every given card lies in the trick being played", "in_trick([T21, SK])"),
    _f("trick_of", ("card",), "num", "the number of the trick the card was played to (none if it has not been "
       "played)", "winning_card(trick_of(T21)) == SK"),
    _f("won_trick", ("any", "num"), "bool", "a seat or side won trick n (negative: from the end)",
       "won_trick(declarer, -1)"),
    _f("trick_winner", ("num",), "seat", "the seat that won trick n", "trick_winner(1) == declarer"),
    _f("first_call", ("seat",), "call", "the seat's first call (none if it has not spoken)", "first_call(me) == pass"),
    _f("first_bid", ("seat",), "call", "the seat's first bid that is not a pass (none if none)",
       "first_bid(me) == none or this.rank <= first_bid(me).rank"),
    _f("latest", ("seat",), "call", "the seat's latest call", "latest(me) == pass"),
    _f("has_bid", ("seat",), "bool", "the seat has made a bid other than pass", "has_bid(me)"),
    _f("spoke", ("seat",), "bool", "the seat has spoken in the auction", "spoke(me)"),
    _f("went_along", ("seat",), "bool", "the defender took part in play", "went_along(next(declarer))"),
    _f("account", ("*any",), "num", "an account's value: account(name), account(name, s) or account(name, s, t)",
       "account(penalties, s)"),
    _f("min", ("*num",), "num", "the smallest of the numbers", "min(pot, 10)"),
    _f("max", ("*num",), "num", "the largest of the numbers", "max(0, tricks(declarer) - 6)"),
    _f("abs", ("num",), "num", "absolute value", "abs(tricks(declarer) - 5)"),
    _f("floor", ("num",), "num", "round down", "floor(pot / 3)"),
    _f("ceil", ("num",), "num", "round up", "ceil(pot / 3)"),
    _f("size", ("any",), "num", "how many seats or cards are in a set", "size(playing)"),
    _f("partnered", ("seat", "seat"), "bool", "the players now in the two seats have been partners in a sit of "
       "this rubber (for `session.sit.reseat`)", "partnered(dealer, forehand)"),
    _f("number_bid", ("seat",), "num", "the number the seat stated in the number bids (none before it has)", "tricks(s) == number_bid(s)"),
    _f("suit_of", ("card",), "suit", "the suit of a card as the contract's `ranking` sees it: a card listed among "
       "the trumps has the trump suit, which is none where the trumps have no suit (a grand's jacks; `trump` is none "
       "there too); none for none", "suit_of(turned_up)"),
    _f("passed", ("seat",), "bool", "the seat has passed: in the declaration round once it has begun, before "
       "that in the auction", "passed(forehand)"),
    _f("winning_card", ("num",), "card", "the card that won trick n (negative: from the end; none if not played)",
       "winning_card(-1) == AS"),
    _f("played_card", ("seat", "num"), "card", "the card the seat played to trick n (negative: from the end; none "
       "if it has not)", "played_card(declarer, -1) == AS"),
    _f("declared", ("figure",), "bool", "the figure was declared", "declared(slam)"),
    _f("kontras", ("any",), "num", "kontra calls on a figure or the game", "2 ^ kontras(contract)"),
    _f("kontras_between", ("seat", "seat"), "num", "calls in the personal kontra chain between two seats "
       "(kontra `personal`)", "kontras_between(declarer, s)"),
    _f("kontras_by", ("seat",), "num", "kontra-chain calls (kontra, rekontra, …) the seat has made so far",
       "kontras_by(me) == 0"),
    _f("declarations", ("seat",), "num", "figures the seat has declared so far", "declarations(me) == 0"),
    _f("declared_by", ("figure", "any"), "bool", "the figure was declared by the seat or by a seat of the set",
       "declared_by(slam, declarers)"),
    _f("achieved", ("figure", "any"), "bool", "the figure is allowed in this contract (its `allowed` and the "
       "contract's `figures`) and its goal holds for the seat or side", "achieved(slam, declarers)"),
    _f("attempted", ("figure", "any"), "bool", "the seat or side made a silent attempt at the figure (its "
       "`attempt`) without declaring it, in a contract that allows the figure", "attempted(slam, declarers)"),
    _f("dealt_cards", ("any",), "cards", "the cards dealt to a seat or a set of seats, as dealt (before any talon "
       "exchange)", "top_run(dealt_cards(declarers))"),
    _f("talon_place", ("card",), "num", "the card's place in the talon as dealt, from 1 (0 when it was not dealt to "
       "the talon): the order of the talon's packets, and of the talon left when a side collects it",
       "talon_place(T1) < talon_place(called_card)"),
    _f("points_of", ("cards",), "num", "the card points of the given cards, by the deck's `points` (blatt included)",
       "points_of(talon_cards)"),
    _f("top_run", ("cards",), "num", "the length of the unbroken run of the contract's trumps, from its highest "
       "trump down (under its `ranking`), that the cards hold every one of — or, when they lack the highest trump, "
       "that they lack every one of (\"with\" or \"without\" so many); 0 in a contract without trumps",
       "top_run(dealt_cards(declarer) + talon_cards)"),
    _f("in_suit", ("suit", "ranking"), "cards", "the cards that count as the suit under the ranking (its trumps left "
       "out): the cards a seat follows with when the suit is led; `in_suit(trump, r)` gives the ranking's trumps "
       "(`in_suit(none, r)` where they have no suit)",
       "count_in(in_suit(S, ober_unter), me)"),
    _f("led_before", ("suit",), "bool", "a completed trick of this deal was led with a card that counts as the suit "
       "under the contract's ranking (`trump` for a trump lead); the trick in play does not count",
       "led_before(suit_of(called_card))"),
    _f("chose", ("choice",), "name", "the option chosen in the decision (`choice NAME`); none before it is asked, "
       "and when its `when` kept it from being asked", "chose(pickup) == hand"),
    # ---- comprehension forms ------------------------------------------------------------------
    _c("sum", "num", "the sum over a set", "sum(tricks(s) for s in defenders)"),
    _c("count", "num", "how many members satisfy the condition", "count(s for s in seats if has_bid(s))"),
    _c("any", "bool", "true if the condition holds for some member", "any(has_bid(s) for s in seats)"),
    _c("all", "bool", "true if the condition holds for every member", "all(went_along(s) for s in defenders)"),
    _c("min", "num", "the smallest value over a set", "min(tricks(s) for s in defenders)"),
    _c("max", "num", "the largest value over a set", "max(tricks(s) for s in defenders)"),
    _c("set", "seats", "the members that satisfy the condition", "set(s for s in defenders if went_along(s))"),
    # ---- phases of the procedure --------------------------------------------------------------
    _p("auction", "the bidding: calls in turn by the auction's rules until it ends", "procedure = [auction, play, settle]"),
    _p("talon", "the talon procedure of the contract (exchange, halves, none, whole, into tricks)",
       "procedure = [auction, talon, contract, play, settle]"),
    _p("contract", "the declarer fixes the contract (raise within a category, choose trumps)",
       "procedure = [auction, talon, contract, play, settle]"),
    _p("after_purchase", "the after-purchase chain: further talon cards bought in turn",
       "procedure = [auction, talon, contract, after_purchase, play, settle]"),
    _p("defence", "each defender goes along, stays home or invites", "procedure = [auction, contract, defence, play, settle]"),
    _p("kontra", "the kontra chain on the game (kontra, rekontra, …)",
       "procedure = [auction, contract, defence, kontra, play, settle]"),
    _p("play", "the play of the cards, trick by trick, with the contract's obligations",
       "procedure = [auction, play, settle]"),
    _p("settle", "the payment rows, evaluated together on the final state", "procedure = [auction, play, settle]"),
    _p("number_bids", "every seat states a number once, in turn (`min`..`max`, the last one may not say `last_not`); then the `contract` is played, its trump by `trump`", "procedure = [number_bids, play, settle]"),
    _p("pass_cards", "each seat passes `cards` cards to the seat `to` gives, one card at a time, in turn from `first`; "
       "the cards change hands once every seat has passed, so nobody sees what he receives before he has passed",
       "procedure = [pass_cards, play, settle]"),
    _p("partner", "the declarer names a card; its holder becomes the hidden partner",
       "procedure = [auction, partner, talon, play, settle]"),
    _p("knock", "before the first phase when the deal has a `knock`: that seat knocks or cuts; after a knock each "
       "player chooses a pile in turn (it need not be written in the procedure)", "procedure = [knock, auction, play, settle]"),
    _p("deal_rest", "deals the packets after `deal.pause`: until it, each player holds only the cards dealt him up to "
       "that packet, so the phases before it are taken having seen only those", "procedure = [knock_1, deal_rest, auction, play, settle]"),
    _p("announce", "the declaration round: figures and kontras on each item",
       "procedure = [auction, talon, announce, play, settle]"),
    # ---- play obligations ---------------------------------------------------------------------
    _o("follow_suit", "play the led suit if able", "obligations = [follow_suit]"),
    _o("must_trump", "void in the led suit: play the trump suit if able", "obligations = [follow_suit, must_trump]"),
    _o("must_beat", "play a card that beats the trick so far if able, within what the earlier filters allow",
       "obligations = [follow_suit, must_trump, must_beat]"),
    _o("lowest_winner", "of several winning cards play the lowest (void: the lowest trump)",
       "obligations = [follow_suit, lowest_winner]"),
    _o("hold_back", "keep `cards` until no other card of their suit is left",
       "obligations = [follow_suit, { rule = hold_back, cards = [AS] }]"),
    _o("no_lead", "do not lead `suit` while holding another suit", "obligations = [{ rule = no_lead, suit = H }, follow_suit]"),
    _o("must_play", "play one of `cards` if able", "obligations = [{ rule = must_play, cards = [2C], when = trick_number == 1 }]"),
    _o("avoid", "play none of `cards` while another card is allowed",
       "obligations = [follow_suit, { rule = avoid, cards = [QS], when = trick_number == 1 }]"),
    _o("declared_cards", "a declared figure's card (its `card`) waits for the figure's `trick`, unless the earlier "
       "obligations force it out; at that trick, or as soon as possible after it, it must be played",
       "obligations = [follow_suit, declared_cards]"),
    _o("birds_in_order", "of the declared cards of `cards` in hand only the highest may be played (a declared "
       "card is not due at its trick while a higher one is held)",
       "obligations = [follow_suit, declared_cards, { rule = birds_in_order, cards = [T3, T2, T1] }]"),
    _o("play_when_led", "a seat holding one of `cards` must play it when a trick is led in its suit (the suit "
       "under the contract's ranking)", "obligations = [follow_suit, { rule = play_when_led, cards = [called_card] }]"),
    _o("lead_with", "a seat holding one of `cards` may lead a card of its suit only by leading that card",
       "obligations = [follow_suit, { rule = lead_with, cards = [called_card] }]"),
    _o("no_discard", "`cards` may be played only to a trick led in their suit, or as the lead",
       "obligations = [follow_suit, { rule = no_discard, cards = [called_card] }]"),
    # ---- document fields the schema describes but the engine cannot run yet -----------------
    # the kontra phase's chain is one chain on the game; per-item and personal chains are the
    # declaration round's (`announce { kontra { … } }`)
    _field("kontra.scope=items", "kontras on each declared item separately", "kontra { scope = items }"),
    _field("kontra.scope=personal", "kontras that hold between two players only", "kontra { scope = personal }"),
    _field("kontra.personal", "when kontras hold only between two players", "kontra { personal = true }"),
    # the declaration round's turns go round the table from its opener; nobody is invited by a kontra there
    _field("announce.kontra.first", "who may say the first kontra first, in the declaration round",
           "announce { kontra { first = next(declarer) } }"),
    _field("announce.kontra.invites", "a kontra in the declaration round that invites the other defender",
           "announce { kontra { invites = true } }"),
    # (per-contract card orders (`ranking`), a contract's `allowed`, decisions (`choice`), ladders, duel auctions,
    # `partner.allowed` and the talon procedure or all-pass contract given by an expression run since issue 34:
    # engine/ranking.py, engine/phases/choice.py, duels.py, engine/given.py, model/family.with_ladder_calls)
    # forms: a list of cards naming a card value
    _form("obligations.#.cards", "an entry of an obligation's `cards` that names a card value (`called_card`, a "
          "`let` giving a card) rather than a card or group, in an obligation other than `play_when_led`, "
          "`lead_with` and `no_discard` (which take it)", "{ rule = no_discard, cards = [called_card] }"),
    # operators on new operand types
    _op("+", ("cards", "cards"), "cards", "the cards of both sets (their union)",
        "top_run(dealt_cards(declarer) + talon_cards)"),
)

REGISTRY: dict[tuple[str, str], Entry] = {(e.kind, e.name): e for e in ENTRIES}


def entries(kind: str) -> dict[str, Entry]:
    """The entries of one kind, by name, in declaration order."""
    return {e.name: e for e in ENTRIES if e.kind == kind}


def is_pending(kind: str, name: str) -> bool:
    entry = REGISTRY.get((kind, name))
    return entry is not None and entry.pending


# Views of the registry in the shapes the type checker and the expression compiler read.
VALUES: dict[str, tuple[str, str]] = {e.name: (e.type, e.doc) for e in ENTRIES if e.kind == "value"}
FUNCTIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    e.name: (e.params, e.type, e.doc) for e in ENTRIES if e.kind == "function"}
COMPREHENSIONS: dict[str, tuple[str, str]] = {e.name: (e.type, e.doc) for e in ENTRIES if e.kind == "comprehension"}
PHASES: tuple[str, ...] = tuple(e.name for e in ENTRIES if e.kind == "phase")
OBLIGATIONS: tuple[str, ...] = tuple(e.name for e in ENTRIES if e.kind == "obligation")
FIELDS: tuple[str, ...] = tuple(e.name for e in ENTRIES if e.kind == "field")
FORMS: tuple[str, ...] = tuple(e.name for e in ENTRIES if e.kind == "form")
OPERATORS: dict[str, Entry] = {e.name: e for e in ENTRIES if e.kind == "operator"}

NUMERIC = {"num"}
COLLECTIONS = {"seats", "cards", "list"}
