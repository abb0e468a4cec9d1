#!/usr/bin/env python3
"""Write grammar/stichwort.schema.json, the JSON Schema (Draft 2020-12) of the rules document.

Every mechanism of the vocabulary is defined here once, with a description and an example, so
that the schema, the checker's messages and docs/vocabulary.md all say the same thing.

    python tools/build_schema.py          # rewrite the schema
    python tools/build_schema.py --check  # exit 1 if the committed schema is out of date
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from interpreter.model.words import ACTION_DOCS, ACTION_WORDS  # the action words are declared once, there

OUT = Path(__file__).resolve().parent.parent / "grammar" / "stichwort.schema.json"

NAME = {"$ref": "#/$defs/name"}
NAMES = {"$ref": "#/$defs/names"}
TEXT = {"type": "string", "maxLength": 4000}
EXPR = {"$ref": "#/$defs/expr"}
NUM = {"$ref": "#/$defs/num"}
# an expression written where a bounded whole number also stands (a packet's size): text only, so that a
# number out of range is still refused by its own bounds; `x-expression` has checks/context.walk type it
SIZE_EXPR = {"type": "string", "maxLength": 200, "x-expression": True}
# a let function's body: expression text only (in YAML/JSON a bare null, number or truth value there
# would be a function of nothing the engine can call; `.stw` always writes the body as text)
BODY = {"type": "string", "maxLength": 4000, "x-expression": True,
        "description": "The expression the function stands for, over its parameters (text: in YAML `body: \"none\"`, not null)."}
INT = {"type": "integer", "minimum": -1000000, "maximum": 1000000}
NAT = {"type": "integer", "minimum": 0, "maximum": 1000}
BOOL = {"type": "boolean"}
SCALAR = {"type": ["integer", "boolean", "string", "null"]}
ANY_VALUE = {"type": ["string", "integer", "boolean", "null", "array", "object"]}
EDIT_PATH = r'^\w+(\.\w+)*(\[(\w+|"([^"\\]|\\.)*")\](\.\w+)*)?$'


def d(schema: dict, doc: str, example: str | None = None) -> dict:
    out = dict(schema)
    out["description"] = doc
    if example is not None:
        out["examples"] = [example]
    return out


def obj(props: dict, doc: str, example: str | None = None, required=()) -> dict:
    out = {"type": "object", "additionalProperties": False, "properties": props}
    if required:
        out["required"] = list(required)
    return d(out, doc, example)


def coll(item: dict, doc: str, example: str | None = None) -> dict:
    out = {"type": "object", "propertyNames": NAME, "additionalProperties": item, "maxProperties": 400}
    return d(out, doc, example)


def arr(item: dict, doc: str, example: str | None = None, max_items: int = 400) -> dict:
    return d({"type": "array", "items": item, "maxItems": max_items}, doc, example)


def enum(values, doc: str, example: str | None = None) -> dict:
    return d({"enum": list(values)}, doc, example)


PAY_ROW = obj({
    "name": d(NAME, "The row's name, by which a variant replaces or removes it, or inserts rows next to it (`settle.pay[premium]`).", "premium"),
    "when": d(EXPR, "Condition; the row applies only when it is true.", "not made"),
    "each": d(EXPR, "A set of seats; the row is applied once per seat, bound to the name `s`.", "defenders"),
    "from": d(EXPR, "Who pays: a seat, `pot`, or an account such as `account(juha, s, declarer)`; `others` is each other player (every active seat but `to`), one transfer each. Leave it out for a score entry that only adds to `to`.", "declarer"),
    "to": d(EXPR, "Who receives: a seat, `pot`, or an account; `others` is each other player (every active seat but `from`), one transfer each: `| losers | s | others | 1 |` has every loser pay 1 to each other player.", "others"),
    "amount": d(EXPR, "How much; an exact number (fractions allowed).", "tricks(s) * A / 10"),
    "note": d(TEXT, "Words for the booklet and the score sheet.", "trick money"),
    "protocol": enum(["left", "right", "middle"], "Where a written protocol of a partnership game shows this entry in its partnership's column: left (trick points), right (honour points) or middle (game points), each deal on its own line (present/protocol.py).", "left"),
    "rule": d(TEXT, "Catalog rule ids this row implements.", "WIEN-SCORE-11"),
}, "One payment or score entry.", "| not made | - | declarer | pot | A |", required=("to", "amount"))
PAY_ROWS = arr(PAY_ROW, "Payment rows. Every row is evaluated on the state as the deal left it, then all transfers are made together, so no row sees another's effect. Written as a table: `pay = table { | when | each | from | to | amount | … }`.")

OBLIGATION_NAMES = ["follow_suit", "must_trump", "must_beat", "lowest_winner", "hold_back", "no_lead", "must_play", "avoid", "declared_cards",
                    "birds_in_order", "play_when_led", "lead_with", "no_discard"]
OBLIGATION = {"oneOf": [
    enum(OBLIGATION_NAMES,
         "A play obligation by name, with its default parameters."),
    obj({
        "rule": enum(OBLIGATION_NAMES,
                     "The filter: follow_suit (play the led suit if able); must_trump (void in the led suit: play the trump suit if able); must_beat (play a card that beats the trick so far if able, within what the earlier filters allow); lowest_winner (of several winning cards play the lowest, void: the lowest trump); hold_back (keep `cards` until no other card of their suit is left); no_lead (do not lead `suit` while holding another suit); must_play (play one of `cards` if able); avoid (play none of `cards` while another card is allowed); declared_cards (a card tied to a declaration waits for its trick); birds_in_order (declared bird cards go highest first); play_when_led (a seat holding one of `cards` plays it when its suit is led); lead_with (a seat holding one of `cards` leads its suit only with it); no_discard (`cards` go only to a trick led in their suit, or as the lead)."),
        "when": d(EXPR, "The filter applies only when this is true (names: `me`, `leader`, `declarer`, …).", "me == next(declarer) and leader == declarer"),
        "suit": d(NAME, "The suit the filter speaks of (default: the trump suit).", "T"),
        "cards": d(NAMES, "The cards the filter speaks of: cards and groups, or a value that gives a card in each deal (`called_card`, a `let`; not run by the engine yet).", "[T1]"),
        "rule_ids": d(TEXT, "Catalog rule ids.", "WIEN-PLAY-12"),
    }, "A play obligation with parameters.", "{ rule = must_trump, suit = T }", required=("rule",)),
]}
OBLIGATIONS = arr(OBLIGATION, "Obligations as an ordered chain of filters over the hand: each narrows the playable cards if it can, and is skipped if it would leave none.", "[follow_suit, must_beat]", 16)

OPEN = obj({
    "who": enum(["defenders", "all", "declarer"], "Whose hands are laid face up."),
    "after_trick": d(NAT, "They open once this many tricks are complete.", "1"),
    "after_lead": d(NAT, "They open right after the lead to this trick.", "2"),
    "doc": TEXT,
}, "Open hands.", "{ who = defenders, after_trick = 1 }")

KONTRA = obj({
    "when": d(EXPR, "When kontra may be said.", "contract.category != trischaken"),
    "first": d(EXPR, "Who may say the first kontra first.", "next(declarer)"),
    "levels": d(NAMES, "The words of the chain, in order; each doubles again.", "[kontra, rekontra, sukontra, mortkontra]"),
    "max": d({"type": ["integer", "null"], "minimum": 1, "maximum": 1000}, "The longest chain allowed; `none` = no limit (the words repeat with a count).", "3"),
    "factor": d(NUM, "The factor per call of the chain.", "2"),
    "by": enum(["alternate", "defenders"], "Who answers: the two sides alternately, or only defenders."),
    "invites": d(BOOL, "Saying the first kontra makes the sayer the host; the other defender plays as his guest, even if he had stayed out.", "true"),
    "scope": enum(["game", "items", "personal"], "What a kontra covers: the whole game, each declared item separately, or only the pair of players (contra ad personam)."),
    "personal": d(EXPR, "When kontras hold only between the declarer and the one who said it.", "contract.kind == negative"),
    "doc": TEXT,
}, "A kontra chain of any length.", "kontra { first = next(declarer)  levels = [kontra, rekontra]  max = none }")

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://stichwort.invalid/schema/rules.json",
    "title": "stichwort rules document",
    "description": "The one data model of a trick-taking game with bidding. The .stw language, YAML and JSON are three spellings of it.",
    "type": "object",
    "additionalProperties": False,
    "$defs": {
        "name": d({"type": "string", "pattern": r"^(?!\d+$)\w+$", "maxLength": 64},
                  "A name: letters, digits and '_' (Unicode allowed); card codes such as 10H are names.", "five_wp"),
        "names": d({"type": "array", "items": {"$ref": "#/$defs/name"}, "maxItems": 400}, "A list of names.", "[C, S, D, H]"),
        "expr": d({"type": ["string", "integer", "boolean", "null"], "maxLength": 4000},
                  "An expression in the small total expression language: arithmetic, comparisons, and/or/not, if … then … else, function calls and `sum(… for s in …)`.",
                  "tricks(declarer) >= 6"),
        "num": d({"type": ["integer", "string"], "maxLength": 200}, "A number: an integer or a constant expression such as 1/3.", "1/3"),
    },
    "properties": {
        "extends": d(TEXT, "The base rule file this variant starts from (a built-in name or a path).", 'extends "wien"'),
        "remove": arr({"type": "string", "pattern": EDIT_PATH}, "Inherited items to drop, as dotted paths; `a.b[k]` drops the entry `k` of the list `a.b`.", "remove contract.five"),
        "edit": arr({"oneOf": [
            obj({"insert": d(TEXT, "The list to insert into, as a dotted path.", "play.obligations"),
                 "value": d(ANY_VALUE, "The entry to insert; a list inserts each of its entries."),
                 "after": d(SCALAR, "The key of the entry to insert after (default: at the end)."),
                 "before": d(SCALAR, "The key of the entry to insert before.")},
                "Insert entries into an inherited list.", "insert must_trump into play.obligations after follow_suit",
                required=("insert", "value")),
            obj({"replace": d({"type": "string", "pattern": EDIT_PATH}, "The entry to replace, as `path[key]`.", "settle.pay[premium]"),
                 "value": d(ANY_VALUE, "The new entry.")},
                "Replace one entry of an inherited list.", "replace settle.pay[premium] { … }", required=("replace", "value")),
            obj({"set": d({"type": "string", "pattern": EDIT_PATH}, "The field of a list entry to set, as `path[key].field`.", "settle.pay[premium].amount"),
                 "value": d(ANY_VALUE, "The new value.")},
                "Set one field of one entry of an inherited list.", "settle.pay[premium].amount = 2 * stake", required=("set", "value")),
            obj({"each": d(TEXT, "The collection, as a dotted path.", "contract"),
                 "where": d({"type": "object", "minProperties": 1, "maxProperties": 1}, "One field and the value an item must have.", "{ category = c }"),
                 "value": d({"type": "object"}, "The statements for every such item, merged into it.")},
                "The same statements for every item of a collection with a given field value.",
                "contract [category = c] { early_end = tricks(declarer) > 0 }", required=("each", "where", "value")),
        ]}, "Edits of inherited lists, entry by entry; an entry is found by its key (a name in a list of names, else a row's `name`, `rule` or `title`)."),
        "title": d(TEXT, "The game's name as players say it.", '"Préférence (Vienna)"'),
        "catalog": d(TEXT, "The rule catalog this file implements.", '"wien-preference"'),
        "family": d(NAME, "The family of games this file belongs to.", "preference"),
        "description": d(TEXT, "A paragraph for the booklet."),
        "source": d(TEXT, "Where the rules come from."),
        "players": d({"type": "integer", "minimum": 2, "maximum": 8}, "Players taking part in each deal.", "3"),
        "customs": arr(TEXT, "Customs that are not rules (shown in the booklet, never enforced)."),
        "let": coll({"oneOf": [EXPR, obj({"params": NAMES, "body": BODY}, "A named expression with parameters.", required=("params", "body"))]},
                    "Named expressions, usable in every expression of the file. No recursion.", "let A = min(pot, max)"),
        "option": coll(obj({
            "default": d(SCALAR, "The value when the table agrees nothing else.", "10"),
            "min": d(INT, "The smallest allowed value."), "max": d(INT, "The largest allowed value."),
            "multiple_of": d({"type": "integer", "minimum": 1, "maximum": 1000000}, "The value must be a multiple of this.", "10"),
            "choices": arr(SCALAR, "The allowed values."),
            "title": TEXT, "doc": TEXT, "rule": TEXT,
        }, "A table option: a named parameter the table agrees on, set with `--set name=value`.", required=("default",)),
            "Table options.", "option stake { default = 10  doc = \"one stake in units\" }"),
        "seating": obj({
            "seats": d({"type": "integer", "minimum": 2, "maximum": 10}, "Players at the table (more than `players` when someone sits out).", "4"),
            "direction": enum(["clockwise", "counterclockwise"], "The direction of dealing, bidding and play.", "clockwise"),
            "sit_out": enum(["nobody", "dealer", "rotation"], "Who sits out when the table has more seats than players: nobody, the dealer of each deal, or by `rotation` (a schedule of whole sits).", "dealer"),
            "roles": coll(INT, "Named seats, as steps from the dealer in the direction of play (negative: against it).", "roles { forehand = 1  rearhand = -1 }"),
            "first_dealer": enum(["draw", "agree"], "How the first dealer is chosen."),
            "draw": obj({
                "compare": arr(enum(["trump", "suit", "rank", "position"], "A key"), "Keys compared in order when drawing for seats.", "[suit, rank]", 4),
                "suits": d(NAMES, "Suits from lowest to highest for the draw."),
                "ranks": arr({"type": ["string", "integer"]}, "Ranks from lowest to highest for the draw."),
                "dealer": enum(["highest", "lowest"], "Which card deals first."),
                "places": arr(INT, "Where the players sit by their cards, lowest card first, as steps from the first dealer; players beyond the list sit out.", "[0, 2, 1, -1]", 10),
                "doc": TEXT,
            }, "The draw for seats and the first dealer."),
            "teams": arr(arr(INT, "Seats as steps from the dealer."), "Fixed partnerships, as lists of steps from the dealer.", "[[1, 3], [2, 0]]", 4),
            "rotation": arr(arr(INT, "Player numbers (1 = the lowest card of the draw) in seat order S0, S1, … (S0 = the first dealer's seat, then in the direction of play); a player missing from the row sits out that sit."), "A seating schedule, one row per sit of a rubber, used with `sit_out = rotation`: the table has `players` seats and the other players wait their turn.", "[[1, 3, 2, 4], [1, 3, 5, 2]]", max_items=20),
            "cut": d(INT, "Who cuts, as a step from the dealer.", "-1"),
            "doc": TEXT,
        }, "Seats, direction, roles, sitting out and fixed partnerships.", required=("direction",)),
        "deck": obj({
            "suits": d(NAMES, "The suits, from lowest to highest.", "[C, S, D, H]"),
            "ranks": arr({"type": ["string", "integer"]}, "The ranks of every suit, from lowest to highest (a suit may override).", "[7, 8, 9, 10, J, Q, K, A]", 30),
            "suit": coll(obj({
                "ranks": arr({"type": ["string", "integer"]}, "This suit's ranks, lowest to highest.", max_items=30),
                "cards": d(NAMES, "This suit's card codes, lowest to highest (instead of rank+suit).", "[T1, T2, SK]"),
                "labels": arr({"type": ["string", "integer"], "maxLength": 12},
                              "What is printed in the corner of each of this suit's `cards`, in their order (for the "
                              "table's display: the Roman numerals of tarock cards); without it, the code without the suit letter.",
                              "[I, II, III]", 60),
                "symbol": d({"type": "string", "maxLength": 8}, "What is drawn for the suit on its cards at the table (default: the "
                            "notation's ♣ ♠ ♥ ♦ for C S H D, else the suit's letter): the suit of a German-suited deck, say.", '"🍃"'),
                "colour": d({"type": "string", "pattern": "^(#[0-9a-fA-F]{6}|[a-z]{3,20})$"}, "The colour the suit is drawn in at the "
                            "table: a CSS colour name or #rrggbb.", "green"),
                "title": TEXT, "doc": TEXT,
            }, "One suit's own ranks or cards, and how it is drawn."), "Suits that differ from the default ranks or are drawn their own way."),
            "trump_suit": d({"anyOf": [NAME, {"type": "null"}]}, "A permanent trump suit (tarock).", "T"),
            "points": obj({
                "rank": coll(NUM, "Card points by rank.", "rank { K = 4  Q = 3 }"),
                "card": coll(NUM, "Card points of single cards (override the rank).", "card { SK = 4 }"),
                "each": d(NUM, "Extra points every captured card is worth (blatt).", "1/3"),
                "total": d(NUM, "The deck's total, checked when the rules are compiled.", "70"),
                "doc": TEXT,
            }, "Card points."),
            "group": coll(NAMES, "Named groups of cards.", "group matadors = [SK, T21, T1]"),
            "names": coll(coll(TEXT, "Display names of suits, ranks or cards."), "Display names per language.", 'names { de { H = "Herz" } }'),
            "doc": TEXT,
        }, "The cards.", required=("suits",)),
        "deal": obj({
            "packets": arr(obj({
                "name": d(NAME, "The packet's name, by which a variant edits it (`deal.packets[talon]`).", "talon"),
                "to": enum(["each", "talon", "pile"], "Who receives the packet: each player in turn, the talon, or a pile."),
                "cards": d({"anyOf": [{"type": "integer", "minimum": 1, "maximum": 60}, SIZE_EXPR]}, "Cards per packet: a number, or an expression over the table options worked out before play (`hand`, `32 - 3 * hand`).", "3"),
                "repeat": d({"anyOf": [{"type": "integer", "minimum": 1, "maximum": 60}, SIZE_EXPR]}, "How many times the packet is dealt: a number, or an expression over the table options.", "2"),
            }, "One packet.", required=("to", "cards")), "The packet schedule.", "table { | to | cards | | each | 3 | | talon | 2 | }", 60),
            "start": d(EXPR, "Who receives the first packet.", "forehand"),
            "cut": d(EXPR, "Who cuts the shuffled pack, as the booklet says it (`explain`); a simulated deal is shuffled afresh, so the cut changes no card.", "prev(dealer)"),
            "hand": d(NUM, "The cards each player receives in this deal, by expression over `deal_number`, `dealer`, `players`, accounts and options; at most what the packets deal. Each `each` packet stops once a player holds this many, and the cards left over go to the talon.", "min(deal_number + 1, 13)"),
            "turn_up": d(BOOL, "After the deal the first card left over (the top of the talon) is turned face up for everyone; expressions read it as `turned_up`.", "true"),
            "pause": d(NAME, "The deal stops after the packet of this name (an `each` packet): each player holds only the cards dealt him so far until the procedure reaches `deal_rest`, which deals the packets after it. The phases before `deal_rest` (decisions such as knocking) are taken having seen only those cards.", "first"),
            "knock": obj({
                "by": d(EXPR, "Who may knock instead of cutting."),
                "packets": arr(obj({"to": enum(["each", "talon", "pile"], "Receiver"), "cards": NAT, "repeat": NAT}, "Packet", required=("to", "cards")), "The schedule after a knock."),
                "choose": d(EXPR, "Who chooses a pile first; the others follow in turn."),
                "doc": TEXT,
            }, "Knocking: an alternative deal chosen by a player."),
            "doc": TEXT,
        }, "How the cards are dealt.", required=("packets",)),
        "procedure": arr({"anyOf": [enum(["knock", "deal_rest", "auction", "partner", "talon", "contract", "after_purchase", "defence", "kontra", "announce", "number_bids", "pass_cards", "play", "settle"], "A phase"),
                                    d(NAME, "The name of a decision the file declares (`choice NAME { … }`), run at that point.", "skat")]},
                         "The phases of one deal, in order; each is configured in its own section, and a declared `choice` runs where its name stands.", "[auction, talon, contract, defence, play, settle]", 12),
        "auction": obj({
            "first": d(EXPR, "Who speaks first.", "forehand"),
            "style": enum(["open", "once", "duels"], "`open`: turns go round until the auction ends; `once`: everyone speaks exactly once; `duels`: two seats at a time — from `first` round the table, each next seat bids to the one left standing, who answers with the hold call or passes; the survivor of the last duel declares, and if nobody bid he may open once or pass (not run by the engine yet)."),
            "pass_final": d(BOOL, "`true` (the default): a player who passes may not bid again. `false`: a pass lasts until the next bid or hold, which makes the passes before it void; every seat is asked in turn, and `passes` counts the seats that have passed since the last bid, so the end conditions read passes in a row (`passes == players - 1 and high != none`: all others have passed after the last bid).", "false"),
            "raise": enum(["higher", "step", "any"], "The default raise rule: strictly higher rank, exactly the next rank, or any."),
            "allowed": d(EXPR, "A constraint every bid must satisfy (names: `me`, `this`, `high`, `holder`, `first_bid(s)`, …).", "first_bid(me) == none or first_bid(me).category == this.category"),
            "ends": d(EXPR, "The auction ends when this becomes true after a call.", "passes == players or (passes == players - 1 and high != none)"),
            "doubles": d(NAMES, "Calls made on the highest bid inside the auction, in order (contract bridge's double and redouble): the first by an opponent of the bidder while the bid stands alone, each later one by an opponent of the seat that made the one before, while nothing but passes followed it; a new bid makes them void. Each is said as its name (or its `words` entry); `double_level` reads how many stand on the bid (0, 1, 2), `latest(s) == double` who made one. Opponents are seats of different partnerships (`seating.teams`); without teams every other seat.", "[double, redouble]"),
            "declarer_by": d(NAME, "A field of the calls (a ladder's `strain`, a call's field or `props` key) that names the declarer: of the side holding the final bid (its partnership in `seating.teams`), the first seat whose bid had the final bid's value of this field. Without it the seat holding the final bid declares.", "strain"),
            "exclude": d(EXPR, "A seat for which this is true is no longer asked (it counts as passed).", "high.category == game and latest(me).category == number"),
            "hold": obj({
                "call": d(NAME, "The word of the hold call.", "hold"),
                "who": d(EXPR, "Whether `me` may hold the current bid of `holder`.", "me == forehand and first_call(forehand) != pass"),
                "bids": d(EXPR, "Which bids can be held (names: `high`).", "high.category == a"),
                "doc": TEXT, "rule": TEXT,
            }, "Hold rights: repeat the current bid and take it over (Vienna 'hold', Croatian 'same').", required=("call", "who")),
            "contest": obj({
                "reveal": enum(["turn", "end"], "When sealed bidders reveal: at their next turn, or after the auction."),
                "rounds": enum(["once", "open"], "Each sealed bidder reveals once, or keeps naming higher contracts until he passes."),
                "first_must_name": d(BOOL, "The first sealed bidder may not pass at his reveal."),
                "ties": enum(["earlier"], "Equal contracts go to the player earlier in the bidding order."),
                "doc": TEXT, "rule": TEXT,
            }, "Sealed bids: calls standing for a set of contracts, named later."),
            "all_pass": obj({
                "contract": d({"anyOf": [EXPR, {"type": "null"}]}, "The contract played when everyone passes; `none` throws the cards in; or an expression that gives one of them, such as a table option's choice (`if passed_in == ramsch then ramsch else none`; the expression form is not run by the engine yet).", "ausfechten"),
                "doc": TEXT, "rule": TEXT,
            }, "What happens when everyone passes."),
            "pass": obj({
                "allowed": d(EXPR, "When passing is allowed.", "not (me == forehand and turn == 0)"),
                "word": TEXT, "doc": TEXT,
            }, "The pass call."),
            "doc": TEXT,
        }, "The auction: who speaks, what may be bid, and when it ends."),
        "call": coll(obj({
            "title": TEXT, "aka": arr(TEXT, "Other names"), "doc": TEXT, "word": d(TEXT, "The word said at the table.", '"five without purchase"'),
            "rank": d(INT, "Rank in the bidding; equal ranks are equivalent (neither may be bid over the other).", "8"),
            "category": d(NAME, "The category, for constraints such as first-call commitments.", "c"),
            "allowed": d(EXPR, "When this call is legal, on top of the raise rule and the auction's constraint.", "me == forehand and turn == 0"),
            "raise": enum(["higher", "step", "any", "equal"], "This call's raise rule."),
            "contracts": d({"anyOf": [NAMES, EXPR]}, "The contracts the winner of this call may choose from after the auction; one contract fixes it.", "[one, two, three, four]"),
            "talon": d({"anyOf": [EXPR, {"type": "null"}]}, "The talon procedure run after the auction when this call wins; or an expression that gives its name in each deal (`if chose(skat) == hand then untouched else pickup`; the expression form is not run by the engine yet).", "buy"),
            "contest": d(NAME, "Sealed-bid contest this call belongs to; calls of one contest may be made over each other and are settled by revealing.", "game"),
            "sealed": d(BOOL, "The contract is chosen later, and kept secret until revealed."),
            "joins": d(NAMES, "A call that is played together with another player's base call (bei).", "[piccolo]"),
            "rule": TEXT,
        }, "One call of the auction.", required=("rank",)), "The calls of the auction (bids), besides pass and hold.",
            "table call { | call | rank | category | contracts | … }"),
        "category": coll(obj({"title": TEXT, "doc": TEXT, "rank": INT}, "A category."), "Contract and call categories."),
        "contract": coll(obj({
            "title": TEXT, "aka": arr(TEXT, "Other names"), "doc": TEXT, "word": TEXT, "rule": TEXT,
            "rank": d(INT, "Rank; the ladder is shown in this order.", "1"),
            "category": d(NAME, "Category.", "a"),
            "kind": enum(["positive", "negative", "all"], "Positive (take enough), negative (take few or exact tricks), or all-against-all."),
            "level": d(NUM, "The level or number of the contract.", "5"),
            "value": d(NUM, "The value used in scoring.", "4"),
            "trump": d({"anyOf": [EXPR, {"type": "null"}]}, "The trump suit; `none` for no trumps; or an expression that gives it in each deal, worked out when the contract is settled (`suit_of(turned_up)`).", "H"),
            "trump_choices": d({"anyOf": [NAMES, EXPR]}, "Trumps the declarer may choose (in the `contract` phase): a list of suits, or an expression giving one, judged in the deal with the declarer as `me` (`if me == forehand then [H] else [S, D, H]`); an empty list or none leaves the contract's own `trump`.", "[S, D, H]"),
            "side": enum(["alone", "called", "partnership", "nobody", "no_declarer"], "The declarer plays alone, with a called (hidden) partner, or with his fixed partner (`seating.teams`); `nobody`: the seat whose call led to the contract keeps the declarer's name but nobody partners anybody; `no_declarer`: nobody declares even when a call led to the contract (`declarer` reads none), and fixed partners play together."),
            "talon": d({"anyOf": [EXPR, {"type": "null"}]}, "The talon procedure of this contract; or an expression that gives its name in each deal (not run by the engine yet).", "halves"),
            "ranking": d(NAME, "The card order of this contract (a declared `ranking`): which cards are trumps and how every suit ranks. Without it the deck's order and `trump` as before.", "grand"),
            "allowed": d(EXPR, "When the declarer may name this contract in the contract phase (names: `this`, the contract offered; `me`, the declarer; `final`, `chose(…)`); a contract whose condition is false is not offered.", "chose(skat) == hand"),
            "goal": d(EXPR, "True when the declaring side has made the contract.", "tricks(declarer) >= 6"),
            "defence": enum(["ask", "all", "nobody"], "Whether defenders choose to go along (ask), all play, or nobody plays."),
            "lead": d(EXPR, "Who leads to the first trick.", "declarer"),
            "open": OPEN,
            "obligations": OBLIGATIONS,
            "winner": enum(["trump_then_led", "led"], "How a trick is won."),
            "early_end": d(EXPR, "Play stops as soon as this is true.", "tricks(declarer) > 0"),
            "honours": d(NAMES, "The honour cards of this contract.", "[AD, KD, QD, JD]"),
            "figures": d(NAMES, "The figures that may be made in this contract.", "[grammeln, valat]"),
            "must_declare": d(NAMES, "Figures the declarer must declare in this contract: his own first statements in the declaration round.", "[pagat_ultimo]"),
            "game": d(BOOL, "Played as a game (without the talon)."),
            "props": coll({"type": ["integer", "string", "boolean", "null"]}, "Further values used by the payment rules, as `contract.NAME`.", "props { premium = 1 }"),
        }, "One contract.", required=("rank",)), "The contract ladder.", "table contract { | contract | rank | trump | goal | … }"),
        "partner": obj({
            "when": d(EXPR, "When the declarer calls a partner.", "contract.side == called"),
            "group": d(NAME, "The group of cards one of which is called.", "kings"),
            "self": d(BOOL, "The declarer may call a card he holds himself (and so play alone)."),
            "by_count": d(EXPR, "When the declarer may call 'the fourth' without naming it.", "count_in(kings, declarer) == 3"),
            "allowed": d(EXPR, "Which cards of the group may be called: judged for each card, with `this` the card offered and `me` the declarer.", "not holds(me, this) and count_in(in_suit(suit_of(this), ober_unter), me) > 0"),
            "doc": TEXT, "rule": TEXT,
        }, "Calling a hidden partner by naming a card."),
        "talon": coll(obj({
            "kind": enum(["exchange", "halves", "aside", "defenders", "into_tricks"], "exchange: take cards and discard as many; halves: choose one of `packets` packets, the rest goes to `rest`; aside: set aside; defenders: goes unseen to the defenders; into_tricks: added to the first tricks."),
            "take": d(NAT, "Cards taken (exchange; default: all)."),
            "discard": d(NAT, "Cards discarded.", "2"),
            "packets": d(NAT, "Packets the talon is split into (halves).", "2"),
            "exposed": d(BOOL, "The talon is shown to everyone."),
            "rest": enum(["defenders", "aside", "declarer"], "Where untaken talon cards go and whose side counts them."),
            "discards": enum(["declarer", "aside", "defenders"], "Whose side counts the discards."),
            "card_by_card": d(BOOL, "exchange: the discards are laid away one card per action, each its own decision, instead of all in one action as a set (a halves buy and `last_resort` discard card by card anyway).", "true"),
            "never": d(NAMES, "Cards or groups that may never be discarded.", "[kings, matadors]"),
            "keep_taken": d(BOOL, "The cards taken from the talon (an exchange's, or the packet of a `halves` talon) may not be discarded again: the dealer who takes up the turned card keeps it."),
            "last_resort": obj({"cards": NAMES, "face_up": BOOL, "doc": TEXT},
                               "Cards that may be discarded only when nothing else is left, then face up."),
            "tricks": d(NAT, "into_tricks: the talon goes one card each into this many first tricks."),
            "who": d(EXPR, "Who handles the talon.", "declarer"),
            "give_up": d(EXPR, "When the declarer may give up once the talon is shown: the game is then lost without play (`given_up`).", "dealt(active, called_card) == 0"),
            "requires": d(EXPR, "A condition on the declarer's hand once the talon is dealt with; if it is false the game is lost at once, without play (`given_up`).", "count_in(suit_cards, declarer) >= 6"),
            "called_packet": enum(["declarer"], "defenders: the packet (of `packets`, as dealt) that holds the called card counts for the declaring side instead."),
            "called_rest": enum(["declarer"], "When the called card lay in the talon and wins a trick, the talon cards left (the packets not taken) go to the declaring side from then on."),
            "doc": TEXT, "rule": TEXT,
        }, "A talon procedure.", required=("kind",)), "Talon procedures, named so contracts and calls can refer to them.",
            "talon buy { kind = exchange  discard = 2 }"),
        "ranking": coll(obj({
            "trumps": d(NAMES, "The trump suit of a contract using this order, lowest first: cards, groups (their cards in the group's order), at most one suit (its cards not listed otherwise, in `ranks` order) or `trump` (the contract's trump suit, in each deal). A card listed here is a trump and belongs to no other suit, for following, the winner of a trick and `suit_of`. `[]`: no trumps.", "[trump, JD, JH, JS, JC]"),
            "ranks": arr({"type": ["string", "integer"]}, "How the cards of every other suit rank, lowest first (and the plain cards of the trump suit); every card not among the trumps must have its rank here.", "[7, 8, 9, Q, K, 10, A]", 30),
            "title": TEXT, "doc": TEXT, "rule": TEXT,
        }, "A card order: the trumps of a contract and the order of the other suits.", required=("trumps", "ranks")),
            "Card orders that contracts choose (`contract.ranking`, `play.ranking`), so that each contract can have its own trumps and its own order of the suits (not run by the engine yet).",
            "ranking suit_game { trumps = [trump, JD, JH, JS, JC]  ranks = [7, 8, 9, Q, K, 10, A] }"),
        "choice": coll(obj({
            "who": d(EXPR, "The seat that decides.", "declarer"),
            "options": d(NAMES, "The options, as the words said (a `words` entry may give another word).", "[pick_up, hand]"),
            "when": d(EXPR, "When the decision is asked; otherwise it is skipped and `chose(NAME)` is none.", "declarer != none"),
            "title": TEXT, "doc": TEXT, "rule": TEXT,
        }, "A decision.", required=("who", "options")),
            "Decisions one seat takes between named options, each run as a phase where its name stands in `procedure`; `chose(NAME)` reads the answer in every expression after it (not run by the engine yet).",
            "choice skat { who = declarer  options = [pick_up, hand] }"),
        "ladder": coll(obj({
            "levels": arr({"type": "integer", "minimum": 0, "maximum": 100000}, "The levels, lowest first; one call per level (and strain), ranked in this order.", "[18, 20, 22, 23, 24]", 200),
            "strains": d(NAMES, "Strains, lowest first (suits or names such as `NT`); with strains there is one call per level and strain, ranked level first, then strain.", "[C, D, H, S, NT]"),
            "rank": d(INT, "The rank of the lowest step; each further step ranks one higher (default 1).", "1"),
            "contracts": d({"anyOf": [NAMES, EXPR]}, "The contracts the winner of any step may choose from.", "[diamonds, hearts, spades, clubs, grand]"),
            "talon": d({"anyOf": [EXPR, {"type": "null"}]}, "The talon procedure after the auction, a name or an expression giving one.", "if chose(skat) == hand then untouched else pickup"),
            "allowed": d(EXPR, "When a step may be called (names: `this`, `high`, `me`, …), on top of the raise rule.", "passes < players - 1 or this.level == 18"),
            "category": d(NAME, "The category of every step.", "game"),
            "title": TEXT, "doc": TEXT, "rule": TEXT,
        }, "A ladder of calls.", required=("levels",)),
            "Calls generated from a list of levels: `ladder bid { levels = [18, 20] }` makes the calls `bid_18` and `bid_20`, spoken `18` and `20`, with `this.level` (and `this.strain`) to read them (not run by the engine yet).",
            "ladder bid { levels = [18, 20, 22, 23, 24]  contracts = [diamonds, hearts, spades, clubs, grand] }"),
        "after_purchase": obj({
            "when": d(EXPR, "When after-purchases are offered.", "final.category == a"),
            "entitled": d(EXPR, "Whether seat `s` may make one.", "has_bid(s)"),
            "first": d(EXPR, "Who is asked first.", "next(declarer)"),
            "take": NAT, "discard": NAT,
            "contracts": d(NAMES, "Contracts an after-purchaser may announce."),
            "must_exceed": d(BOOL, "Each after-purchase must announce a higher contract than the one before."),
            "declining": enum(["keeps_right", "drops_out"], "Whether a player who declines may after-purchase later in the chain."),
            "doc": TEXT, "rule": TEXT,
        }, "The after-purchase (efterköp) chain."),
        "number_bids": obj({
            "first": d(EXPR, "Who states a number first; the others follow in order of play, each once.", "forehand"),
            "min": d(NUM, "The lowest number a seat may state.", "0"),
            "max": d(NUM, "The highest number a seat may state (default: the tricks of the deal).", "tricks_total"),
            "last_not": d(NUM, "A number the last seat to state may not say (e.g. the one that would make the numbers add up to the tricks there are).", "tricks_total - number_bid_total"),
            "contract": d(NAME, "The contract played once every seat has stated its number.", "round"),
            "trump": d(EXPR, "The trump suit of that contract in this deal, by expression; none = no trump.", "suit_of(turned_up)"),
            "doc": TEXT, "rule": TEXT,
        }, "Number bids: every seat states a number once, in turn (the tricks it will take, say); `number_bid(s)` reads it.",
            "number_bids { first = forehand  max = tricks_total  last_not = tricks_total - number_bid_total  contract = round }"),
        "pass_cards": obj({
            "cards": d(NUM, "How many cards each seat passes (0: none in this deal).", "3"),
            "to": d(EXPR, "The seat that receives the cards `me` passes, by expression over `deal_number`, the options, …; a seat that would pass to itself passes nothing.", "if deal_number % 4 == 0 then next(me) else prev(me)"),
            "first": d(EXPR, "Who passes first; the others follow in order of play, each passing all his cards in turn.", "forehand"),
            "when": d(EXPR, "When the cards are passed in this deal (default: always).", "deal_number % 4 != 3"),
            "doc": TEXT, "rule": TEXT,
        }, "Passing cards before the play: every seat chooses `cards` cards, one at a time, and passes them face down to the seat `to` gives; the cards change hands once every seat has passed, so nobody sees what he receives before he has chosen.",
            "pass_cards { cards = 3  to = next(me) }"),
        "defence": obj({
            "when": d(EXPR, "When the defenders are asked.", "contract.defence == ask"),
            "first": d(EXPR, "Who answers first; the other defender follows.", "next(declarer)"),
            "go": d(TEXT, "The word for taking part.", '"go along"'),
            "stay": d(TEXT, "The word for staying out.", '"stay home"'),
            "compulsory": d(EXPR, "When both defenders must go along.", "pot == stake"),
            "invite": d(EXPR, "When a defender who goes along may invite the other.", "true"),
            "kontra_required": d(EXPR, "When, instead of asking, the contract is played only if a defender says kontra.", "contract.level == 2 and not contract.game"),
            "nobody": obj({"declarer_tricks": NAT, "doc": TEXT}, "When nobody defends: the declarer counts as taking this many tricks."),
            "doc": TEXT, "rule": TEXT,
        }, "Defence decisions: go along, stay home, invite."),
        "kontra": KONTRA,
        "announce": obj({
            "when": d(EXPR, "When the declaration round takes place.", "contract.kind == positive"),
            "first": d(EXPR, "Who opens the round.", "declarer"),
            "opener": d(TEXT, "What the opener says first.", '"I am ready"'),
            "passes": d(NAT, "The round ends after this many passes in a row.", "3"),
            "declare": d(EXPR, "Whether `me` may declare the figure `item` now.", "me in declarers"),
            "kontra": KONTRA,
            "doc": TEXT, "rule": TEXT,
        }, "The declaration round: figures and kontras on each item."),
        "figure": coll(obj({
            "title": TEXT, "doc": TEXT, "rule": TEXT,
            "silent": d(NUM, "Points when made without declaring.", "1"),
            "declared": d(NUM, "Points when declared and made.", "2"),
            "goal": d(EXPR, "True when side `side` has made the figure.", "captured(side, matadors)"),
            "card": d(EXPR, "The card the figure is made with: a card's code, or an expression that gives it in each deal (`called_card`).", "T1"),
            "trick": d(INT, "The trick it must win: 12 = last; negative counts from the end.", "-1"),
            "multiplier": d(BOOL, "The figure multiplies the game instead of being paid apart (valat)."),
            "decides": d(BOOL, "Declared, the figure decides whether the game is made (`made`): a declaration by the declaring side makes the game exactly when the figure is made, one by the other side exactly when it fails (a declared valat)."),
            "allowed": d(EXPR, "When the figure may be made or declared.", "contract.kind == positive"),
            "by": enum(["side", "holder"], "Who may declare it: either side, or only the holder of the card."),
            "attempt": d(EXPR, "True when side `side` attempted the figure without declaring it (a silent attempt); a failed silent attempt costs the silent value.", "any(played_card(s, tricks_total) == T1 for s in side)"),
        }, "One figure (side goal).", required=("goal",)), "Figures: side goals besides the game (declared or silent)."),
        "play": obj({
            "lead": d(EXPR, "Who leads to the first trick (a contract may override).", "declarer"),
            "contract": d(NAME, "The contract played when no phase before the play settles one: a game without bidding plays this one in every deal.", "round"),
            "dummy": obj({
                "seat": d(EXPR, "The dummy's seat, judged when the play starts (none: no dummy in this deal).", "partner_of(declarer)"),
                "by": d(EXPR, "The seat that plays the dummy's cards at the dummy's turn (default: the declarer); the dummy himself never acts in the play.", "declarer"),
                "after_lead": d({"type": "integer", "minimum": 1, "maximum": 60}, "The dummy's hand is shown to every other seat from the lead to this trick on (default 1: right after the opening lead).", "1"),
                "doc": TEXT, "rule": TEXT,
            }, "Dummy (contract bridge): one seat's hand laid open and played by another seat; the view, the log, the terminal and the web table show it.", required=("seat",)),
            "sits_out": d(EXPR, "The seats that take no part in the play of this deal, judged when the play starts (a set of seats; none or an empty set: everyone plays): they keep their cards and are never asked, and each trick has a card fewer. A maker's partner who sits out while the maker goes alone.", "set(chose(alone) == alone and t == partner_of(declarer) for t in active)"),
            "obligations": OBLIGATIONS,
            "winner": enum(["trump_then_led", "led"], "How a trick is won (a contract may override)."),
            "ranking": d(NAME, "The card order (a declared `ranking`) of every contract that names none.", "bowers"),
            "early_end": d(EXPR, "Play stops as soon as this is true.", "team_tricks >= 5"),
            "open": OPEN,
            "upset": obj({
                "cards": d(NAMES, "The cards that upset a trick when all of them fall in it.", "[T1, T21, SK]"),
                "wins": d(NAME, "The card that then takes the trick, if one of `cards` would win it otherwise.", "T1"),
                "doc": TEXT, "rule": TEXT,
            }, "A trick holding every one of `cards` goes to `wins` when one of them would win it (Slovenian tarok's emperor's trick).",
                "upset { cards = [T1, T21, SK]  wins = T1 }"),
            "negotiation": obj({
                "when": d(EXPR, "When the players still in play may negotiate instead of playing on.", "size(playing) == 2"),
                "declarer_min": d(NAT, "The fewest tricks an agreement may credit the declarer with, in all.", "6"),
                "defender_min": d(NAT, "The fewest tricks an agreement may credit the defender with, in all.", "2"),
                "doc": TEXT, "rule": TEXT,
            }, "Negotiated concession: a player offers a split of all tricks; the other accepts, counters or refuses.",
                "negotiation { when = size(playing) == 2  declarer_min = 6  defender_min = 2 }"),
            "doc": TEXT, "rule": TEXT,
        }, "Playing the cards."),
        "settle": obj({
            "pay": PAY_ROWS,
            "doc": TEXT,
        }, "Payments and score entries after each deal.", required=("pay",)),
        "account": coll(obj({
            "per": enum(["game", "seat", "pair", "team", "player"], "One account for the table, one per seat, one per ordered pair of seats, one per partnership (`account(name, s)` is the account of s's partnership, `seating.teams`), or one per player that follows him when he changes seats after a sit (`account(name, s)` is the account of the player now in seat s; a player on the bench keeps his)."),
            "initial": d(EXPR, "The starting value.", "-bula"),
            "title": TEXT, "doc": TEXT, "rule": TEXT,
        }, "An account.", required=("per",)), "Accounts kept through a session: the pot, score columns, refa counters.",
            "account pot { per = game  initial = 0 }"),
        "session": obj({
            "before_deal": PAY_ROWS,
            "after_deal": PAY_ROWS,
            "all_pass": PAY_ROWS,
            "dealer": d(EXPR, "The next dealer.", "next(dealer)"),
            "ends": d(EXPR, "The session ends when this is true after a deal.", "sum(account(score, s) for s in seats) == 0"),
            "reckoning": PAY_ROWS,
            "result": d(EXPR, "A seat's final result (name `s`).", "account(money, s)"),
            "sheet": arr(obj({
                "name": d(NAME, "The column's name, by which a variant edits it."),
                "title": d(TEXT, "The column heading.", '"declarer"'),
                "value": d(EXPR, "What the column shows for seat `s` after each deal: a number, or a word such as \"hat\".", "account(score, s)"),
            }, "One column of each player's part of the score sheet.", required=("title", "value")),
                "The score sheet as players keep it on paper: columns per player, one line per deal.",
                "sheet = table { | title | value | … }", 12),
            "sit": obj({
                "ends": d(EXPR, "A sit ends when this is true after a deal."),
                "per_rubber": d(NAT, "Sits in a rubber."),
                "reseat": arr(obj({
                    "after": d(NAT, "The row applies after this sit of the rubber (1 = the first); leave it out for every sit.", "2"),
                    "when": d(EXPR, "Condition, judged with the seats as they are for the next deal (`dealer` is the seat that deals next).", "partnered(dealer, forehand)"),
                    "swap": arr(EXPR, "The two seats whose players change places, judged like `when`.", "[second_hand, third_hand]", 2),
                    "note": d(TEXT, "Words for the record of the move."), "rule": TEXT,
                }, "One move after a sit: the players of two seats change places.", "| 1 | - | [second_hand, third_hand] |", required=("swap",)),
                    "Who moves where after a sit, as rows applied in order: `reseat = table { | after | when | swap | rule | }`. With `seating.rotation` the schedule seats the players instead. The dealer's seat keeps its turn to deal; the player who sits there now deals.", max_items=20),
                "new_rubber": d({"anyOf": [enum(["stay", "draw"], "Stay seated, or draw for seats again."), EXPR]}, "After a rubber: `stay` (the players keep their seats, and the rubber's history of partners starts afresh) or `draw` (seats are drawn again, the lowest card dealing), or an expression giving one of them such as a table option. Default stay.", "stay"),
                "reckoning": d(PAY_ROWS, "Rows applied once when a sit ends, on the accounts as the last deal left them: carry the sit's result into running totals, clear the sit's accounts."),
                "doc": TEXT, "rule": TEXT,
            }, "Sits and rubbers (partnership games)."),
            "doc": TEXT,
        }, "What carries from one deal to the next, and how a session ends."),
        "words": d({**coll(TEXT, ""), "properties": {k: d(TEXT, f"The word {ACTION_DOCS[k]} (default \"{v}\").", f'"{v}"')
                                                    for k, v in ACTION_WORDS.items()}},
                   "Every word the table uses, in one place: the words of actions (the keys below), the spoken word of any call or contract, by its name (an entry speaks for the call and the contract of that name), and the word of each kontra level, by its name (`kontra = \"double\"`). Read by action texts, `play`, `explain` and scenario files; a call's `word`, `defence.go`/`stay` and `auction.hold.call` are older spellings it overrides. Any other key is an error (E301).",
                   'words { go = "play"  stay = "drop out"  five_wp = "five without purchase" }'),
        "names": coll(coll(TEXT, "Display names."), "Display names of calls, contracts and terms per language.", 'names { de { hold = "ich" } }'),
    },
    "required": ["title", "players", "seating", "deck", "deal", "procedure", "contract", "play", "settle"],
}


def render() -> str:
    return json.dumps(SCHEMA, indent=1, ensure_ascii=False) + "\n"


def main(argv) -> int:
    text = render()
    if "--check" in argv:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run python tools/build_schema.py")
            return 1
        print("schema up to date")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
