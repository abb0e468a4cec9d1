"""The table in the terminal's words: cards with their suit symbols, actions by their labels, the
`status` command, the trick's winner, and what a player may type for a label he reads.

Only what the seat may see: its own hand, its observation and what the table heard (another seat's
discard as a count of cards, present/labels.py)."""
from __future__ import annotations

from typing import Any

from interpreter.engine import actions as A
from interpreter.present.labels import SUIT_SYMBOLS, label, names_of, plain, suit_symbols, trump_phrase, with_symbols
from interpreter.present.outcome import seat_name


def card(R: Any, code: str) -> str:
    return with_symbols(R, code)


def cards(R: Any, codes: Any) -> str:
    return " ".join(card(R, c) for c in codes)


def said(state: Any, action: int, seat: int, who: int) -> str:
    """An action as `seat` hears it, cards with their symbols."""
    return plain(label(state, action, seat, who), lambda c: card(state.R, c))


def menu_text(state: Any, action: int, seat: int) -> str:
    return said(state, action, seat, seat)


def typed(state: Any, text: str, legal: list[int], seat: int) -> int | None:
    """The legal action whose label the player typed (as shown, or with the cards' codes), if any."""
    want = " ".join(text.split()).lower()
    for a in legal:
        shown = label(state, a, seat, seat)
        if want in (" ".join(menu_text(state, a, seat).split()).lower(), " ".join(plain(shown).split()).lower()):
            return a
    return None


TALON_IN_HAND = "from the talon, now in your hand"
NOT_YET_PLAYING = ("knock", "play")      # before the cut nobody holds a card; in the play the talon is history


def talon_in_hand(obs: dict, dealt_talon: Any) -> list[str]:
    """The dealt talon's cards this seat took up and still holds, while the exchange is going on: from
    the pick-up until the first card is led (a card it laid away is no longer in its hand, and once
    the play starts the line would only repeat what the hand shows)."""
    if obs["phase"] in NOT_YET_PLAYING:
        return []
    hand = set(obs["hand"])
    return [c for c in dealt_talon if c in hand]


def unsymbol(text: str, R: Any = None) -> str:
    """A typed card with a suit symbol (`K♥`, or the deck's own) in the notation's letters (`KH`)."""
    symbols = suit_symbols(R) if R is not None else SUIT_SYMBOLS
    for letter, symbol in symbols.items():
        text = text.replace(symbol, letter)
    return text


def status(state: Any, seat: int, session: Any = None) -> list[str]:
    """The `status` command: the deal, the bidding, the contract with its trump, the declarer and the
    partner as this seat knows him, tricks, and the score so far."""
    R = state.R
    N = names_of(R)
    obs = state.observation(seat)
    out = [f"deal {(session.deal_number + 1) if session is not None else 1}, dealer {seat_name(obs['dealer'])}, "
           f"you are {seat_name(seat)}; phase: {R.words.get(obs['phase'], obs['phase'].replace('_', ' '))}"]
    calls = [f"{seat_name(s)} {N.call(c) if c in R.call_by_name else R.words.get(c, c)}" for s, c in obs["calls"]]
    out.append("bidding: " + (", ".join(calls) if calls else "none yet"))
    if obs["contract"] is not None and state.con is not None:
        out.append(f"contract: {N.contract(obs['contract'])} ({trump_phrase(N, state.con)})")
    if obs["declarer"] is not None:
        line = f"declarer: {seat_name(obs['declarer'])}"
        side = obs.get("declarers")
        if side is not None:
            partners = [s for s in side if s != obs["declarer"]]
            line += f"; partner: {', '.join(map(seat_name, partners))}" if partners else ""
            line += "" if obs.get("partner_revealed", True) else " (the partner is not yet shown to the table)"
        elif obs["contract"] is not None:
            partners = [s for s in state.declarers if s != obs["declarer"]]
            line += f"; partner: {', '.join(map(seat_name, partners))}" if partners else ""
        out.append(line)
    out.append("tricks: " + ", ".join(f"{seat_name(s)} {n}" for s, n in obs["tricks"].items()))
    if session is not None and session.deals:
        money = session.accounts.get("money") if isinstance(session.accounts, dict) else None
        if isinstance(money, list):
            out.append("score so far: " + ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(money)))
    return out


def trick_taken(state: Any, before: list, tricks_before: int, seat: int, action: int) -> str | None:
    """After a card: who took the trick it completed, with the trick's cards; None while it runs."""
    if A.kind_of(action) != A.PLAY or sum(state.play.tricks_won) <= tricks_before:
        return None
    R = state.R
    trick = list(before) + [(seat, A.arg_of(action))]
    first = trick[0][1]
    won = state.play.won_cards
    winner = next((s for s in range(len(won)) if won[s] >> first & 1), None)
    shown = ", ".join(f"{seat_name(s)} {card(R, R.codes[c])}" for s, c in trick)
    return f"{seat_name(winner)} takes the trick ({shown})" if winner is not None else None


def declarations(state: Any) -> list[str]:
    """The declaration round as the table saw it: the figures declared and the calls of each chain,
    by their display names (the engine's announce_text.summary in the table's words)."""
    from interpreter.engine.figures import GAME

    an = state.announce
    S = state.R.announce
    N = names_of(state.R)
    out = []
    if an.declared:
        out.append("declared: " + ", ".join(f"{N.figure(name)} ({seat_name(seat)})" for name, seat in an.declared.items()))
    calls = []
    for (item, owner, other), said_by in an.chains.items():
        if not said_by:
            continue
        word = S.levels[len(said_by) - 1] if len(said_by) <= len(S.levels) else f"{S.levels[-1]} {len(said_by)}"
        name = N.contract(state.con.name) if item == GAME and state.con is not None else \
            N.figure(item) if item in state.R.figures else N.contract(item)
        pair = f" (seats {owner} and {other})" if owner >= 0 else ""
        calls.append(f"{name} {word}{pair}")
    if calls:
        out.append("kontras: " + ", ".join(calls))
    return out
