"""Facts of the deck and the deal read off a rules document: card codes, card points, packet counts.

The checks use them to judge a document and the ruleset compiler to index one."""
from __future__ import annotations

from fractions import Fraction

from interpreter.model.values import constant, evaluate


def card_codes(deck: dict) -> list[str]:
    """Every card code of the deck, suit by suit, lowest first."""
    out: list[str] = []
    default_ranks = deck.get("ranks", [])
    for suit in deck.get("suits", []):
        own = deck.get("suit", {}).get(suit, {})
        if "cards" in own:
            out.extend(str(c) for c in own["cards"])
        else:
            out.extend(f"{r}{suit}" for r in own.get("ranks", default_ranks))
    return out


def card_points(deck: dict, cards: list[str]) -> dict[str, Fraction]:
    points = deck.get("points") or {}
    by_rank = {str(k): constant(v) for k, v in (points.get("rank") or {}).items()}
    by_card = {str(k): constant(v) for k, v in (points.get("card") or {}).items()}
    each = constant(points.get("each", 0))
    out: dict[str, Fraction] = {}
    for suit in deck.get("suits", []):
        own = (deck.get("suit") or {}).get(suit, {})
        if "cards" in own:
            pairs: list[tuple[str, str | None]] = [(str(c), None) for c in own["cards"]]
        else:
            pairs = [(f"{r}{suit}", str(r)) for r in own.get("ranks", deck.get("ranks", []))]
        for code, rank in pairs:
            base = by_card.get(code, by_rank.get(rank, Fraction(0)) if rank is not None else Fraction(0))
            out[code] = (base or Fraction(0)) + (each or Fraction(0))
    return out


def schedule_counts(packets: list, players: int) -> tuple[int, int, int]:
    """(cards per player, talon cards, pile cards) for a packet schedule."""
    per_player = talon = piles = 0
    for p in packets:
        if not isinstance(p, dict):
            continue
        n = p.get("cards", 0) * p.get("repeat", 1)
        if p.get("to") == "each":
            per_player += n
        elif p.get("to") == "talon":
            talon += n
        else:
            piles += n
    return per_player, talon, piles


def resolved_packets(doc: dict, options: dict | None = None) -> list[dict]:
    """The deal's packets with whole numbers for `cards` and `repeat`: a packet may give them by an
    expression over the table options (`| each | hand |`), worked out with the options' values (the
    defaults, changed by `options`); an expression may give 0 (the packet deals nothing). Raises
    ValueError (NotBeforePlay for an expression that reads anything but options and lets of them) and
    for a size that is not a whole number from 0 to 60."""
    values = {k: (v.get("default") if isinstance(v, dict) else None) for k, v in (doc.get("option") or {}).items()}
    values.update(options or {})
    lets = doc.get("let") if isinstance(doc.get("let"), dict) else {}
    out = []
    for i, p in enumerate((doc.get("deal") or {}).get("packets") or []):
        if not isinstance(p, dict):
            continue
        q = dict(p)
        for key, default in (("cards", 0), ("repeat", 1)):
            raw = p.get(key, default)
            if isinstance(raw, int) and not isinstance(raw, bool):
                continue
            try:
                v = evaluate(raw, values, lets)
                if isinstance(v, bool) or not isinstance(v, (int, Fraction)) or v != int(v) or not 0 <= v <= 60:
                    raise ValueError(f"packet {i + 1}'s {key} gives {v}, not a whole number from 0 to 60")
            except ValueError as err:
                err.where = f"/deal/packets/{i}/{key}"     # type: ignore[attr-defined]  # for the checks' location
                raise
            q[key] = int(v)
        out.append(q)
    return out
