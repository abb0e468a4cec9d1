"""The rule bot's auction judgement kept in per-rule-set tables (bots/rule_judge.py, bots/invitations.py)
answers exactly as the plain computation does (the margins are compared: the same floats, bit for bit),
for random hands of the games with an auction, and its memos stay bounded."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from interpreter.bots import invitations, rule_play
from interpreter.bots.rule import RuleBot
from interpreter.bots.rule_judge import _TALON_HELP, call_entries, goal_profile
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.cards import bits
from interpreter.engine.phases.talon import procedure_under
from interpreter.pipeline import load

GAMES = ["wien", "croatian", "koenigrufen", "priffe"]


def _auction(game: str, seed: int):
    """A new deal of `game` at its auction (a knock before it answered by the rule bot)."""
    st = new_game(load(game), seed=seed)
    bot = RuleBot(seed=seed)
    while st.phase != "auction":
        st.apply_unchecked(bot.choose(st))
    return st


def _hands(st, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    cards = list(range(len(st.R.cards)))
    out = []
    for _ in range(count):
        out.append(sum(1 << c for c in rng.sample(cards, st.R.rs.hand_size)))
    return out


# ---- the plain computations, as the bot made them before its tables --------------------------------------
def _plain_estimate(R, hand: int, trump: int) -> float:
    est = 0.0
    for s, smask in enumerate(R.suit_masks):
        cards = sorted(bits(hand & smask), key=lambda i: R.order_of[i], reverse=True)
        n = len(cards)
        if not n:
            continue
        top = len(bits(smask)) - 1
        for depth, c in enumerate(cards[:3]):
            gap = top - R.order_of[c]
            if gap <= depth and n > depth:
                est += 1.0 if gap == 0 else 0.6
        if s == trump:
            est += max(0, n - 3) * 0.9 + 0.3 * min(n, 3)
    return min(est, R.rs.hand_size)


def _plain_exchange(st, contract, call) -> tuple[int, int]:
    if st.phase != "auction":
        return 0, 0
    name = getattr(call, "talon", None) or getattr(contract, "talon", None)
    proc = st.R.talons.get(name) if name else None
    if proc is None or proc.kind != "exchange":
        return 0, 0
    take = proc.take if proc.take is not None else len(st.talon)
    return take, proc.discard if proc.discard is not None else take


def _plain_margin(bot, st, hand: int, contract, call=None) -> float:
    made = goal_profile(st, contract)
    total = st.R.rs.hand_size
    if not made:
        return _plain_points(bot, st, hand, contract)
    if made == {0}:
        take, discard = _plain_exchange(st, contract, call)
        return 5.0 * (rule_play.zero_chance(st, hand, take, discard) - bot.zero_bar) + bot.boldness
    lo = min(made)
    est = _plain_estimate(st.R, hand, contract.trump)
    if len(made) == 1 and lo < total:
        return min(est - lo + 1.0, lo - rule_play.forced_tricks(st, hand)) + bot.boldness
    if lo == total:
        return est - total + 0.5 + bot.boldness
    return est - lo + 2.2 + bot.boldness


def _plain_points(bot, st, hand: int, contract) -> float:
    if contract.side == "nobody":
        return -0.5
    rec = contract.ref.rec
    if "points(" not in str(rec.get("goal") or ""):
        return -99
    risk = 0.0
    for fig in rec.get("must_declare") or ():
        f = getattr(st.R, "figures", {}).get(fig)
        if f is not None and f.card >= 0 and not hand >> f.card & 1:
            return -99
        risk += 1.5
    total = st.R.rs.hand_size
    need = total / 2 - (total / len(st.active) if contract.side == "called" else 0)
    proc = procedure_under(st, contract)
    return _plain_estimate(st.R, hand, contract.trump) - need - 0.3 - risk + _plain_talon(st, proc) + bot.boldness


def _plain_talon(st, proc) -> float:
    """Half the talon in one packet: the kind's help; each card a packet takes fewer (none when the talon is put
    aside) costs 1 / seats for the exchange, for a discard that counts for the declarer and for a card that is
    not the declarer side's."""
    if proc is None:
        return 0.0
    if proc.kind == "aside" or (proc.kind == "halves" and proc.packets > 2):
        talon = st.R.rs.talon_size
        taken = talon / proc.packets if proc.kind == "halves" else 0
        per_card = 1 + (proc.discards_to == "declarer") + (proc.rest_to != "declarer")
        return _TALON_HELP["halves"] - (talon / 2 - taken) * per_card / len(st.active)
    return _TALON_HELP.get(proc.kind, 0.0)


def _plain_low(R, hand: int) -> float:
    risk = 0.0
    for smask in R.suit_masks:
        cards = bits(hand & smask)
        size = len(bits(smask))
        for c in cards:
            o = R.order_of[c]
            if o >= size - 3:
                risk += 0.9
            elif o >= size - 5:
                risk += 0.3
        if cards and min(R.order_of[c] for c in cards) >= 2:
            risk += 0.5
    return risk


def _plain_tops(R, hand: int) -> tuple[int, int, int]:
    aces = kings = stops = 0
    for smask in R.suit_masks:
        cards = sorted((R.order_of[c] for c in bits(hand & smask)), reverse=True)
        top = len(bits(smask)) - 1
        n = len(cards)
        has_ace = bool(cards) and cards[0] == top
        has_king = top - 1 in cards
        aces += has_ace
        kings += has_king and n >= 2
        if has_ace or (has_king and n >= 2) or (top - 2 in cards and n >= 3):
            stops += 1
    return aces, kings, stops


def _plain_stopped(R, hand: int, suit: int) -> bool:
    cards = [R.order_of[c] for c in bits(hand & R.suit_masks[suit])]
    top = len(bits(R.suit_masks[suit])) - 1
    n = len(cards)
    return top in cards or (top - 1 in cards and n >= 2) or (top - 2 in cards and n >= 3)


def _plain_long_strong(R, hand: int, suit: int) -> bool:
    cards = [R.order_of[c] for c in bits(hand & R.suit_masks[suit])]
    top = len(bits(R.suit_masks[suit])) - 1
    return len(cards) >= 5 and sum(1 for o in cards if o >= top - 2) >= 2


# ---- the tables answer as the plain computations ----------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("boldness", [0.0, 0.35])
def test_every_calls_margin_is_the_plain_one(game, boldness):
    st = _auction(game, seed=3)
    R = st.R
    bot = RuleBot(seed=1, boldness=boldness)
    for hand in _hands(st, 40, seed=len(game)):
        for call in R.calls:
            names = call.contracts or []
            plain = max((_plain_margin(bot, st, hand, R.contracts[n], call) for n in names), default=-99)
            assert bot._call_margin(st, hand, A.make(A.BID, R.calls.index(call))) == plain - 0.05 * call.rank
            held = max((_plain_margin(bot, st, hand, R.contracts[n]) for n in names), default=-99)
            assert bot.best_margin(st, hand, _held(st, call)) == held, (game, call.name)
        for name, con in R.contracts.items():
            assert bot.can_make(st, hand, con) == _plain_margin(bot, st, hand, con), (game, name)


def _held(st, call):
    return call_entries(st, call, by_call=False)


def test_a_contract_wanting_no_tricks_counts_the_exchange_only_in_the_auction():
    st = _auction("wien", seed=5)
    bot = RuleBot(seed=1)
    zero = [c for c in st.R.contracts.values() if goal_profile(st, c) == {0}]
    assert zero
    hand = _hands(st, 1, seed=9)[0]
    during = {c.name: bot.can_make(st, hand, c, st.R.calls[0]) for c in zero}
    st.phase = "play"                       # the same hand once the auction is over: no exchange ahead
    try:
        after = {c.name: bot.can_make(st, hand, c, st.R.calls[0]) for c in zero}
        assert after == {c.name: _plain_margin(bot, st, hand, c, st.R.calls[0]) for c in zero}
    finally:
        st.phase = "auction"
    assert during == {c.name: _plain_margin(bot, st, hand, c, st.R.calls[0]) for c in zero}


@pytest.mark.parametrize("game", GAMES)
def test_hand_readings_are_the_plain_ones(game):
    st = _auction(game, seed=4)
    R = st.R
    bot = RuleBot(seed=1)
    for hand in _hands(st, 60, seed=7):
        assert bot.low_estimate(st, hand, None) == _plain_low(R, hand)
        assert invitations.hand_tops(R, hand) == _plain_tops(R, hand)
        for suit in range(len(R.suit_masks)):
            assert invitations._stopped(R, hand, suit) == _plain_stopped(R, hand, suit)
            assert invitations._long_strong(R, hand, suit) == _plain_long_strong(R, hand, suit)
        for trump in range(-1, len(R.suit_masks)):
            assert bot._tricks_estimate(R, hand, SimpleNamespace(trump=trump)) == _plain_estimate(R, hand, trump)


# ---- bounded ---------------------------------------------------------------------------------------------
def test_the_memos_are_bounded():
    st = _auction("wien", seed=6)
    R = st.R
    bot = RuleBot(seed=1)
    hand = _hands(st, 1, seed=11)[0]
    con = next(c for c in R.contracts.values() if goal_profile(st, c))
    bot.can_make(st, hand, con)                                      # the tables exist
    bot.low_estimate(st, hand, None)
    margins = R.__dict__["_bot_margins"]
    suit_memo = R.__dict__["_bot_suit_holdings"][0]
    low_memo = R.__dict__["_bot_low_holdings"][0]
    for memo in (margins, suit_memo, low_memo):
        memo.clear()
        memo.update({-i - 1: None for i in range(200_001)})          # keys no hand or suit holding has
    R.__dict__["_bot_estimates"].clear()
    R.__dict__["_bot_suit_parts"].clear()
    other = _hands(st, 1, seed=12)[0]
    assert bot.can_make(st, other, con) == _plain_margin(bot, st, other, con)
    assert bot.low_estimate(st, other, None) == _plain_low(R, other)
    for memo in (margins, suit_memo, low_memo):
        assert 0 < len(memo) < 10


def test_a_points_margin_follows_the_final_calls_talon_procedure():
    st = _auction("koenigrufen", seed=8)
    R = st.R
    bot = RuleBot(seed=1, boldness=0.2)
    points = [c for c in R.contracts.values() if not goal_profile(st, c)]
    assert points
    finals = [None, *R.calls, *(SimpleNamespace(talon=name) for name in R.talons)]
    try:
        for final in finals:
            st.final_call = final
            for hand in _hands(st, 15, seed=13):
                for con in points:
                    assert bot.can_make(st, hand, con) == _plain_margin(bot, st, hand, con), (final, con.name)
    finally:
        st.final_call = None
