"""What each expression field of the rules document must give: a condition, a seat, a set of seats, a
number, a suit, a card or a set of cards. The type checker compares the type an expression gives with
the one its field wants (E402). A field is named by the end of its path; where one name means two
things (`who` of the hold right is a condition, `who` of a talon procedure a seat), the longer path
decides. A field not listed may give any type its meaning needs."""
from __future__ import annotations

# (path suffix) → the type wanted; '*' matches a name the file chooses, '#' a list position
_BY_SUFFIX: dict[tuple[str, ...], str] = {
    ("when",): "bool", ("early_end",): "bool", ("goal",): "bool", ("allowed",): "bool", ("requires",): "bool",
    ("give_up",): "bool", ("ends",): "bool", ("exclude",): "bool", ("bids",): "bool", ("declare",): "bool",
    ("entitled",): "bool", ("compulsory",): "bool", ("invite",): "bool", ("kontra_required",): "bool",
    ("personal",): "bool", ("attempt",): "bool", ("by_count",): "bool", ("hold", "who"): "bool",
    ("lead",): "seat", ("first",): "seat", ("start",): "seat", ("cut",): "seat", ("dealer",): "seat",
    ("talon", "*", "who"): "seat", ("knock", "by"): "seat", ("knock", "choose"): "seat", ("choice", "*", "who"): "seat",
    ("trump",): "suit", ("trump_choices",): "list", ("figure", "*", "card"): "card",
    ("each",): "seats", ("play", "sits_out"): "seats",
    ("call", "*", "talon"): "name", ("contract", "*", "talon"): "name", ("all_pass", "contract"): "contract",
    ("amount",): "num", ("result",): "num", ("account", "*", "initial"): "num", ("call", "*", "contracts"): "list", ("packets", "#", "cards"): "num", ("packets", "#", "repeat"): "num",
}

HELP = {"bool": "write a condition, e.g. `tricks(declarer) >= 6` instead of `tricks(declarer)`",
        "seat": "write a seat, e.g. `forehand`, `declarer` or `next(dealer)`",
        "seats": "write a set of seats, e.g. `defenders`, `active` or `seats`",
        "num": "write a number, e.g. `stake`, `tricks(s) * A / 10` or `if made then 2 else 0`",
        "suit": "write a suit, e.g. `H` or `suit_of(turned_up)`",
        "card": "write a card, e.g. `T1`, `KH` or `turned_up`",
        "cards": "write a set of cards, e.g. `[KH, QH]`, a group such as `kings`, or `hand(declarer)`",
        "list": "write a list of suits, e.g. `[S, D, H]` or `if hand_game then [H] else [S, D, H]`",
        "name": "write the name of a talon procedure, e.g. `buy` or `if chose(pickup) == hand then untouched else exchange`",
        "contract": "write the name of a contract, e.g. `ramsch` or `if option_ramsch then ramsch else none`"}


# the suffixes by their last name (always a written name, never '*' or '#'), longest first
_BY_LAST: dict[str, list[tuple[tuple[str, ...], str]]] = {}
for _suffix, _want in sorted(_BY_SUFFIX.items(), key=lambda kv: -len(kv[0])):
    assert _suffix[-1] not in ("*", "#")
    _BY_LAST.setdefault(_suffix[-1], []).append((_suffix, _want))


def wanted(path: tuple[str, ...]) -> str | None:
    """The type the expression field at `path` must give, or None when any type will do: the longest
    suffix of the path listed above decides."""
    if not path:
        return None
    for suffix, want in _BY_LAST.get(path[-1], ()):
        n = len(suffix)
        if n <= len(path) and all(s == "*" or s == p for s, p in zip(suffix, path[-n:])):
            return want
    return None


# Names bound by the field itself, where they differ from their meaning elsewhere: in `partner.allowed`
# `this` is the card being offered, in a contract's `allowed` the contract being offered, not a call.
_SCOPES: dict[tuple[str, ...], dict[str, str]] = {("partner", "allowed"): {"this": "card"},
                                                  ("contract", "*", "allowed"): {"this": "contract"}}


def scope_of(path: tuple[str, ...]) -> dict[str, str] | None:
    """The names the expression field at `path` binds (None: the usual meanings)."""
    return _SCOPES.get(tuple(path))
