"""The names an expression may use: built-in values and functions, with their types and a doc line.

Types are words: num, bool, seat, seats, card, cards, suit, call, contract, figure, account, name,
none and any (unknown, accepted anywhere). A rule file adds its own names: roles, options, lets,
and the symbols it declares (suits, cards, groups, calls, contracts, categories, …).
"""
from __future__ import annotations

# name -> (type, doc)
VALUES: dict[str, tuple[str, str]] = {
    "dealer": ("seat", "the dealer of this deal"),
    "declarer": ("seat", "the declarer (none when nobody declares)"),
    "me": ("seat", "the seat whose turn it is (the one calling, playing or being asked)"),
    "holder": ("seat", "the seat holding the current highest bid"),
    "leader": ("seat", "the seat that led to the current trick"),
    "host": ("seat", "the defender who invited or said kontra"),
    "guest": ("seat", "the defender who was invited"),
    "side": ("seats", "in a figure's goal: the side being judged"),
    "seats": ("seats", "every seat at the table"),
    "players": ("num", "how many players take part in each deal"),
    "active": ("seats", "the seats taking part in this deal"),
    "defenders": ("seats", "the declarer's opponents"),
    "declarers": ("seats", "the declaring side (declarer and partner)"),
    "playing": ("seats", "the seats that play the cards (defenders who stayed home excluded)"),
    "pot": ("num", "the pot's content"),
    "tricks_played": ("num", "tricks completed so far"),
    "turn": ("num", "calls made so far in the auction"),
    "passes": ("num", "seats that have passed"),
    "bids": ("num", "bids (not passes) made so far"),
    "trick_number": ("num", "the number of the current trick, from 1"),
    "tricks_total": ("num", "tricks in a deal"),
    "team_tricks": ("num", "tricks taken by the defenders together"),
    "kontra_level": ("num", "calls in the kontra chain so far (0 = none)"),
    "deal_number": ("num", "deals played in this session before this one"),
    "made": ("bool", "the declaring side has made its contract"),
    "invited": ("bool", "a defender was invited"),
    "compulsory": ("bool", "going along was compulsory"),
    "all_passed": ("bool", "everyone passed in the auction"),
    "high": ("call", "the current highest call (none before any bid)"),
    "this": ("call", "the call being judged"),
    "final": ("call", "the call that won the auction"),
    "contract": ("contract", "the contract being played"),
    "trump": ("suit", "the trump suit of this deal (none without trumps)"),
    "honours": ("cards", "the honour cards of the contract being played (its `honours` list; none if it has none)"),
    "pass": ("call", "the pass call"),
}

# name -> (argument types, result type, doc); '*' = any number of arguments of the given type
FUNCTIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "next": (("seat",), "seat", "the next seat taking part, in the direction of play"),
    "prev": (("seat",), "seat", "the previous seat taking part"),
    "order": (("seat",), "num", "position in the bidding order, from 0"),
    "partner_of": (("seat",), "seat", "the seat's partner (none if alone)"),
    "opponents_of": (("seat",), "seats", "the seat's opponents in this deal"),
    "tricks": (("any",), "num", "tricks taken by a seat or a set of seats"),
    "points": (("any",), "num", "card points taken by a seat or a set of seats (tricks and talon share)"),
    "captured": (("any", "any"), "bool", "a seat or side has captured every given card in tricks"),
    "holds": (("seat", "any"), "bool", "the seat holds the card (or all cards of a group) now"),
    "dealt": (("any", "any"), "num", "how many of the given cards a seat or side was dealt"),
    "count_in": (("any", "seat"), "num", "how many of the given cards the seat holds now"),
    "won_trick": (("any", "num"), "bool", "a seat or side won trick n (negative: from the end)"),
    "trick_winner": (("num",), "seat", "the seat that won trick n"),
    "winning_card": (("num",), "card", "the card that won trick n"),
    "played_card": (("seat", "num"), "card", "the card the seat played to trick n"),
    "first_call": (("seat",), "call", "the seat's first call (none if it has not spoken)"),
    "first_bid": (("seat",), "call", "the seat's first bid that is not a pass (none if none)"),
    "latest": (("seat",), "call", "the seat's latest call"),
    "has_bid": (("seat",), "bool", "the seat has made a bid other than pass"),
    "passed": (("seat",), "bool", "the seat has passed"),
    "spoke": (("seat",), "bool", "the seat has spoken in the auction"),
    "went_along": (("seat",), "bool", "the defender took part in play"),
    "declared": (("figure",), "bool", "the figure was declared"),
    "kontras": (("any",), "num", "kontra calls on a figure or the game"),
    "account": (("*any",), "num", "an account's value: account(name), account(name, s) or account(name, s, t)"),
    "min": (("*num",), "num", "the smallest of the numbers"),
    "max": (("*num",), "num", "the largest of the numbers"),
    "abs": (("num",), "num", "absolute value"),
    "floor": (("num",), "num", "round down"),
    "ceil": (("num",), "num", "round up"),
    "size": (("any",), "num", "how many seats or cards are in a set"),
}

COMPREHENSIONS: dict[str, tuple[str, str]] = {
    "sum": ("num", "the sum over a set"),
    "count": ("num", "how many members satisfy the condition"),
    "any": ("bool", "true if the condition holds for some member"),
    "all": ("bool", "true if the condition holds for every member"),
    "min": ("num", "the smallest value over a set"),
    "max": ("num", "the largest value over a set"),
    "set": ("seats", "the members that satisfy the condition"),
}

NUMERIC = {"num"}
COLLECTIONS = {"seats", "cards", "list"}
