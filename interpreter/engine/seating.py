"""The draw for seats and the first dealer, by the rule file's `seating.draw`:

    compare = [suit, rank]      keys compared in order: trump (a permanent-trump card beats any other),
                                suit (by `suits`, lowest first), rank (by `ranks`, lowest first),
                                position (the card's place within its own suit, lowest first)
    suits / ranks               the orders used in the draw, when they differ from play
    dealer = highest | lowest   which card deals first
    places = [0, 2, 1, -1]      where the players sit by their cards, lowest card first, as steps from
                                the first dealer's seat; players beyond the list sit out
"""
from __future__ import annotations


def draw_key(rs, code: str) -> tuple:
    draw = rs.game.seating.draw
    compare = draw.compare
    suits = list(draw.suits or (str(x) for x in rs.suits))
    ranks = draw.ranks
    card = rs.cards[rs.card_index[code]]
    key = []
    for k in compare:
        if k == "trump":
            key.append(1 if rs.trump_suit and card.suit == rs.trump_suit else 0)
        elif k == "suit":
            key.append(suits.index(card.suit) if card.suit in suits else -1)
        elif k == "rank":
            key.append(ranks.index(card.rank) if card.rank in ranks else card.order)
        elif k == "position":
            key.append(card.order)
    return tuple(key)


def draw_order(rs, drawn: dict) -> list:
    """Players ordered by their drawn cards, the one who deals first first."""
    lowest = rs.game.seating.draw.lowest_deals
    return sorted(drawn, key=lambda p: draw_key(rs, drawn[p]), reverse=not lowest)


def seats_by_draw(rs, drawn: dict) -> dict:
    """Seats by the draw: step from the first dealer (in the direction of play) → player, using
    `seating.draw.places` (lowest card first)."""
    places = rs.game.seating.draw.places
    ranked = sorted(drawn, key=lambda p: draw_key(rs, drawn[p]))
    return {step % len(places): player for step, player in zip(places, ranked)}


# ---- the table during play ----------------------------------------------------------------------

def chairs(rs) -> int:
    """The engine's seats. With `sit_out = rotation` the table has `players` chairs and the people beyond
    them wait on the bench by the rotation schedule (engine/reseating.py); otherwise every person has a
    seat and the seating says who sits out each deal."""
    if rs.game.seating.sit_out == "rotation":
        return int(rs.players)
    return int(rs.seats)


def people(rs) -> int:
    """How many people play in a session: the rows of `per = player` accounts."""
    return int(rs.seats)


def team_map(rules, dealer: int, active: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Seat → its fixed partnership (`seating.teams`, steps from the dealer), as the sorted seats of the
    partnership; empty without `seating.teams`. The key names the partnership for `per = team` accounts."""
    teams = rules.rs.game.seating.teams
    if not teams:
        return {}
    out: dict[int, tuple[int, ...]] = {}
    for team in teams:
        seats = tuple(sorted({step_from(dealer, k, active, rules.n_seats) for k in team}))
        for s in seats:
            out[s] = seats
    return out


def step_from(dealer: int, k: int, active: tuple[int, ...], n: int) -> int:
    """The seat `k` steps from the dealer in the direction of play (negative: against it)."""
    return (dealer + k) % n
