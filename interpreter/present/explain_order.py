"""The booklet's words for the card order and the decisions: which cards are trumps in each contract and
how every suit ranks (the `ranking`s, else the deck's order), and each `choice` — who decides, among
what, when, and what in the rules reads the answer.

`card_order` works the order out from the rules document alone (a ranking's `trumps` lowest first, at
most one suit entry whose other cards come first in `ranks` order); tests/test_explain_order.py holds it
against the order the engine compiles for every contract of every built-in game."""
from __future__ import annotations

import re
from typing import Any


def _cards_by_suit(rs: Any) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {s: [] for s in rs.suits}
    for c in rs.cards:
        out[c.suit].append(c)
    for cards in out.values():
        cards.sort(key=lambda c: c.order)
    return out


def _listed(doc: dict, rs: Any, entries: list) -> tuple[list[str], str | None]:
    """A ranking's trump entries: the cards listed (lowest first) and its suit entry (`trump` or a suit)."""
    groups = (doc.get("deck") or {}).get("group") or {}
    codes = {c.code for c in rs.cards}
    cards: list[str] = []
    suit = None
    for entry in entries:
        entry = str(entry)
        if entry == "trump" or entry in rs.suits:
            suit = entry
        elif entry in codes:
            cards.append(entry)
        elif entry in groups:
            cards += [str(c) for c in groups[entry] if str(c) in codes]
    return cards, suit


def _ranked(cards: list[Any], ranks: list) -> list[Any]:
    """The cards whose rank `ranks` lists, in that order (lowest first)."""
    where = {str(r): i for i, r in enumerate(ranks)}
    return sorted((c for c in cards if str(c.rank) in where), key=lambda c: where[str(c.rank)])


def ranking_of(doc: dict, contract: dict) -> str | None:
    return contract.get("ranking") or (doc.get("play") or {}).get("ranking")


def card_order(doc: dict, rs: Any, contract: dict, trump: str | None) -> dict:
    """The contract's order under the trump suit `trump` (None: none): {"trumps": codes highest first,
    "suits": {suit: codes highest first}} for every suit apart from the trumps."""
    by_suit = _cards_by_suit(rs)
    name = ranking_of(doc, contract)
    spec = (doc.get("ranking") or {}).get(name) if name else None
    if spec is None:                     # the deck's order; the trump suit is the contract's (or permanent)
        led_only = (doc.get("play") or {}).get("winner") == "led" or contract.get("winner") == "led"
        if trump is None and not led_only:
            trump = (doc.get("deck") or {}).get("trump_suit")
        trump = None if led_only else trump
        return {"trumps": [c.code for c in reversed(by_suit[trump])] if trump else [],
                "suits": {s: [c.code for c in reversed(cs)] for s, cs in by_suit.items() if s != trump}}
    listed, suit = _listed(doc, rs, spec.get("trumps") or [])
    suit = trump if suit == "trump" else suit
    ranks = spec.get("ranks") or []
    plain = [c.code for c in _ranked([c for c in by_suit[suit] if c.code not in listed], ranks)] if suit else []
    suits = {s: [c.code for c in reversed(_ranked([c for c in cs if c.code not in listed], ranks))]
             for s, cs in by_suit.items() if s != suit}
    return {"trumps": list(reversed(plain + listed)), "suits": suits}


def _rank_text(rs: Any, codes: list[str]) -> str:
    rank = {c.code: str(c.rank) for c in rs.cards}
    return " ".join(rank[c] for c in codes)


def ranking_lines(doc: dict, rs: Any, name: str) -> list[str]:
    """A ranking in words: its trumps highest first (the suit part as ranks of the trump suit), how the
    other suits rank, and that a listed trump belongs to no other suit."""
    spec = (doc.get("ranking") or {})[name]
    listed, suit = _listed(doc, rs, spec.get("trumps") or [])
    ranks = [str(r) for r in reversed(spec.get("ranks") or [])]
    by_suit = _cards_by_suit(rs)

    def plain(s: str) -> str:           # a suit's cards that are not listed trumps, highest first, by rank
        return " ".join(r for r in ranks if any(str(c.rank) == r and c.code not in listed for c in by_suit[s]))

    def per_suit(suits: list[str]) -> str:
        got = {s: plain(s) for s in suits}
        if len(set(got.values())) == 1:
            return next(iter(got.values()))
        return "; ".join(f"{_suit_name(doc, s)} {r}" for s, r in got.items())

    top = " ".join(reversed(listed))
    out = []
    if suit is None:
        out.append(f"Trumps, highest first: {top}." if top else "No trumps.")
    else:
        owner = "the contract's trump suit" if suit == "trump" else _suit_name(doc, suit)
        tail = f"{per_suit(list(rs.suits) if suit == 'trump' else [suit])} of {owner}"
        out.append(f"Trumps, highest first: {top}, then {tail}." if top else f"Trumps, highest first: {tail}.")
    others = [s for s in rs.suits if s != suit]
    out.append(f"{'Every other suit' if suit is not None else 'Every suit'}, highest first: {per_suit(others)}.")
    if listed:
        out.append(f"{' '.join(reversed(listed))}: trumps only, none of them follows its printed suit.")
    return out


def _suit_name(doc: dict, suit: str | None) -> str:
    if suit is None:
        return "none"
    own = ((doc.get("deck") or {}).get("suit") or {}).get(suit) or {}
    names = (((doc.get("deck") or {}).get("names") or {}).get("en") or {})
    title = names.get(suit) or own.get("title")
    return f"{title} ({suit})" if title and str(title) != suit else suit


def order_blocks(b: Any, doc: dict, rs: Any, title_of: Any) -> None:
    """The booklet's "Trumps and card order": each ranking with the contracts played under it, then the
    contracts played in the deck's order."""
    contracts = doc.get("contract") or {}
    used: dict[str, list[str]] = {}
    plain: list[str] = []
    for name in rs.contracts:
        ranking = ranking_of(doc, contracts[name])
        (used.setdefault(ranking, []) if ranking else plain).append(title_of(name))
    if not used and not plain:
        return
    b.heading("Trumps and card order")
    for name, titles in used.items():
        b.para(f"{', '.join(titles)} (ranking {name}):")
        b.bullets(ranking_lines(doc, rs, name))
    if plain:
        b.para(_deck_order_words(doc, rs, plain, bool(used)))


def _deck_order_words(doc: dict, rs: Any, titles: list[str], others: bool) -> str:
    deck = doc.get("deck") or {}
    led = (doc.get("play") or {}).get("winner") == "led"
    who = f"{', '.join(titles)} play" if others else "Every contract plays"
    text = (f"{who} in the deck's order: in each suit the cards rank as the table of the cards lists them, "
            "the last the highest. ")
    if led:
        return text + "There are no trumps: the highest card of the suit led takes the trick."
    permanent = deck.get("trump_suit")
    if permanent:
        return text + (f"The permanent trump suit, {_suit_name(doc, permanent)}, is trumps in every contract whose "
                       "trump column names no other suit; a trump beats every other suit.")
    return text + "The trumps are the suit in the contract's trump column (none: no trumps); a trump beats every other suit."


# ---- choices ----------------------------------------------------------------------------------------
def choice_lines(doc: dict, words: Any) -> list[str]:
    """Each `choice` in the order of the deal: who decides among which options, when it is asked, and
    which parts of the rules read the answer (`chose(NAME)`)."""
    said = (doc.get("words") or {}) if isinstance(doc.get("words"), dict) else {}
    choices = doc.get("choice") or {}
    order = [p for p in doc.get("procedure") or [] if p in choices] + [c for c in choices if c not in (doc.get("procedure") or [])]
    out = []
    for name in order:
        c = choices[name]
        options = [f"'{said.get(o, o)}'" for o in c.get("options") or []]
        when = c.get("when", True)
        asked = "" if when is True else f", when {words(when)}"
        readers = _readers(doc, name)
        who = str(c.get("who"))
        who = "the " + who.replace("_", " ") if re.fullmatch(r"[a-z_]+", who) else words(who)
        text = (f"{name}: {who} chooses {', '.join(options[:-1])} or {options[-1]}{asked}"
                + (f". The answer is read by: {'; '.join(readers)}" if readers else "")
                + (f" ({c['rule']})" if c.get("rule") else "") + "."
                + (f" {c['doc']}" if c.get("doc") else ""))
        out.append(text)
    return out


def _readers(doc: dict, name: str, pattern: re.Pattern | None = None, deeper: bool = True) -> list[str]:
    """Where the rules read `chose(name)`: an item's field (items of one kind with the same field counted
    together: the talon of 63 calls), or a `let` by name with where that is read in turn (one level)."""
    pattern = pattern or re.compile(r"\bchose\(\s*" + re.escape(name) + r"\s*\)")
    found: dict[tuple[str, str], list[str]] = {}

    def walk(v: Any, path: list[str]) -> None:
        if isinstance(v, str):
            if pattern.search(v):
                kind, item, field = _where(path)
                names = found.setdefault((kind, field), [])
                if item not in names:
                    names.append(item)
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, path + [str(k)])
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, path + [str(i)])

    for key, value in doc.items():
        if key not in ("choice", "words", "title", "description"):
            walk(value, [key])
    out = []
    for (kind, field), items in found.items():
        if kind == "let" and not deeper:
            out += items
        elif kind == "let":
            for i in items:
                used = _readers(doc, i, re.compile(r"(?<![.\w])" + re.escape(i) + r"\b(?!\s*\()"), False)
                used = [u for u in used if u != i]
                out.append(f"{i}, a let" + (f" that {', '.join(used[:-1])}{' and ' if len(used) > 1 else ''}{used[-1]} read" if used else ""))
        elif not field:
            out.append(kind)
        elif not items[0]:
            out.append(f"{kind}.{field}")
        elif len(items) <= 3:
            out.append(f"the {field} of {kind} {', '.join(items)}")
        else:
            out.append(f"the {field} of {len(items)} {kind}s")
    return out


def _where(path: list[str]) -> tuple[str, str, str]:
    """(kind, item, field) of a place in the document: ("call", "bid_18", "talon"), ("let", NAME, "")."""
    if path[0] == "let":
        return "let", path[1], ""
    if path[0] in ("contract", "call", "talon", "ladder", "figure", "ranking", "choice", "account") and len(path) > 2:
        return path[0], path[1], ".".join(p for p in path[2:] if not p.isdigit())
    return path[0], "", ".".join(p for p in path[1:] if not p.isdigit())
