"""Croatian Preference played through the engine (games/croatian/croatian.stw against
../shared/rules/croatian-preference.md), part two: the card play, the score columns and the session. As
in test_croatian_engine.py (the auction, the defence and kontra), every test deals explicit hands and acts
through the action text, with the catalog's positions A = 0 (forehand), B = 1, C = 2 (the dealer); the
shared deals and helpers are in croatian_support.py."""
from __future__ import annotations

import random

import pytest
from croatian_support import (
    BETTEL,
    BETTEL_TALON,
    FIVE_HEARTS,
    FIVE_TALON,
    NINE_TALON,
    NINE_TRICKS,
    SIX_HEARTS,
    SIX_TALON,
    A,
    B,
    C,
    act,
    deal,
    game_hand,
    playable,
    run_trumps,
    six_hearts_played,
    trick,
)

from interpreter import load
from interpreter.bots.rule import RuleBot
from interpreter.engine import new_game
from interpreter.engine.session import Session


@pytest.fixture(scope="module")
def rs():
    return load("croatian")


# ---- PLAY ----------------------------------------------------------------------------------------

# A plays hearts; B and C are void in clubs, A in diamonds: following, trumping and discarding.
PLAYING = [
    ["AH", "KH", "7H", "JS", "AC", "KC", "QC", "JC", "8C", "7C"],
    ["10H", "8H", "AS", "9S", "7S", "AD", "KD", "QD", "JD", "10D"],
    ["QH", "JH", "9H", "KS", "QS", "10S", "8S", "9D", "8D", "7D"],
]
PLAYING_TALON = ["10C", "9C"]


@pytest.mark.rules("CRO-PLAY-05", "CRO-PLAY-06", "CRO-PLAY-07", "CRO-PLAY-08", "CRO-PLAY-09", "CRO-PLAY-10")
def test_play_05_10_follow_trump_or_discard_with_no_duty_to_beat(rs):
    state = game_hand(PLAYING, PLAYING_TALON)
    act(state, "play", "play", "pass", "pass")
    assert state.current_player() == A
    act(state, "play JS")
    assert playable(state) == {"AS", "9S", "7S"}                   # follow suit; beating is not required
    act(state, "play 9S")
    assert playable(state) == {"KS", "QS", "10S", "8S"}
    act(state, "play 8S")
    assert state.play.history[-1][1] == A and state.current_player() == A   # the highest spade wins and leads
    act(state, "play AC")
    assert playable(state) == {"10H", "8H"}                        # void in clubs: must trump
    act(state, "play 10H")
    assert playable(state) == {"QH", "JH", "9H"}                   # must trump, need not overtrump
    act(state, "play 9H")
    assert state.play.history[-1][1] == B and state.current_player() == B   # the highest trump wins and leads
    act(state, "play AD", "play 7D")
    assert playable(state) == {"AH", "KH", "7H"}
    act(state, "play 7H")
    assert state.play.history[-1][1] == A                               # the lowest trump beats the ace of the led suit
    assert trick(state, "KC", "8H", "JH") == C
    assert trick(state, "9D", "KH", "10D") == A
    act(state, "play QC")
    assert playable(state) == {"AS", "7S", "KD", "QD", "JD"}       # no clubs and no trumps: any card
    act(state, "play 7S")
    assert playable(state) == {"QH"}
    act(state, "play QH")
    assert state.play.history[-1][1] == C and state.current_player() == C
    assert trick(state, "KS", "AH", "AS") == A
    for cards in (("JC", "KD", "8D"), ("8C", "QD", "QS"), ("7C", "JD", "10S")):
        assert trick(state, *cards) == A
    assert state.is_over() and state.play.tricks_won == [7, 1, 2]


@pytest.mark.rules("CRO-PLAY-09", "CRO-CON-05")
def test_play_09_no_trumps_in_bettel_and_sanac(rs):
    state = deal(BETTEL, BETTEL_TALON)
    act(state, "bid sanac", "pass", "pass", "play", "play", "pass", "pass")
    assert state.con.name == "sanac_g" and state.trump is None
    assert state.current_player() == B                             # A, the declarer, does not lead (CRO-CON-05)
    assert trick(state, "AS", "AH", "7S") == B                     # a heart is no trump: the led suit wins


@pytest.mark.rules("CRO-PLAY-02", "CRO-PLAY-03", "CRO-PLAY-04", "CRO-AMB-12")
def test_play_03_a_dropped_out_forehand_is_skipped_for_the_lead(rs):
    # declarer C (the dealer): A leads as a defender; if A dropped out, B leads
    cases = [(("pass", "pass", "bid game"), ("play", "play"), A),
             (("pass", "pass", "bid game"), ("drop out", "play", "no invite"), B),
             (("pass", "pass", "bid game"), ("drop out", "play", "invite"), A),
             # declarer B: C answers first; A dropped out, so B (the next in rotation) leads himself
             (("pass", "bid game", "pass"), ("play", "drop out", "no invite"), B),
             # declarer A, forehand: he leads whoever plays
             (("bid game", "pass", "pass"), ("drop out", "play", "no invite"), A),
             # Sanac: both exceptions at once, the first active player who is not the declarer (CRO-AMB-12)
             (("pass", "bid sanac", "pass"), ("play", "drop out", "no invite"), C),
             (("bid sanac", "pass", "pass"), ("drop out", "play", "no invite"), C),
             (("pass", "bid sanac", "pass"), ("play", "play"), A)]
    for bids, answers, leader in cases:
        state = deal(SIX_HEARTS, SIX_TALON)
        act(state, *bids)
        if state.con is None:
            act(state, "declare four_g")
        act(state, *answers)
        while state.phase == "kontra":
            act(state, "pass")
        assert state.phase == "play" and state.current_player() == leader, (bids, answers)


@pytest.mark.rules("CRO-PLAY-11", "CRO-CON-01", "CRO-SCORE-10", "CRO-SCORE-17")
def test_play_11_play_stops_at_five_defence_tricks(rs):
    state = game_hand(FIVE_HEARTS, FIVE_TALON)
    act(state, "play", "play", "pass", "pass")
    assert trick(state, "7S", "AS", "JS") == B
    for cards in (("AD", "JD", "7D"), ("AC", "QC", "7C"), ("KC", "JC", "8C")):
        assert trick(state, *cards) == B
    assert not state.is_over()                                    # four are not enough
    assert trick(state, "KS", "10S", "8S") == B
    assert state.is_over() and len(state.play.history) == 5             # the fifth ends it
    assert set(rs.codes(state.hands[A])) == {"AH", "KH", "QH", "JH", "10H"}   # A never got to his trumps
    assert state.result()["made"] is False
    assert state.accounts["score"] == [-40, -30, -30]              # failed: BS 10 lost; nobody else pays
    assert state.accounts["juha"] == {(B, A): 50}


# ---- SCORE and SESSION ---------------------------------------------------------------------------

def masks(rs, hands, talon):
    idx = rs.card_index
    out = []
    for codes in hands:
        m = 0
        for code in codes:
            m |= 1 << idx[code]
        out.append(m)
    return out, [idx[c] for c in talon]


def session_deal(session, hands, talon, *texts, play=None):
    """One deal of `session` with C dealing: the given actions, then `play` (a function) to the end."""
    session.dealer = C
    state = session.start(*masks(session.rs, hands, talon))
    act(state, *texts)
    if play is not None:
        play(state)
    assert state.is_over()
    session.finish(state)
    return state


def five_hearts_fails(state):
    run_trumps(state, 5, [("9H", "7H"), ("8H", "9S"), ("QS", "10D"), ("KD", "9D"), ("QD", "8D")])
    for cards in (("7S", "AS", "JS"), ("KS", "10S", "8S"), ("AD", "JD", "7D"), ("AC", "QC", "7C"),
                  ("KC", "JC", "8C")):
        trick(state, *cards)
    assert state.result()["made"] is False


def column(session, seat, title):
    titles = [t for t, _ in session.R.sheet]
    return [d["sheet"][seat][titles.index(title)] for d in session.deals]


def starting_accounts(rs, score):
    acc = new_game(rs, seed=0, dealer=C).accounts
    acc["score"] = list(score)
    return acc


@pytest.mark.rules("CRO-SCORE-02", "CRO-SCORE-03", "CRO-SCORE-04", "CRO-SCORE-05", "CRO-SESS-08", "CRO-AMB-14")
def test_score_03_05_the_hat_when_crossing_zero_and_the_inverted_hat_back(rs):
    session = Session(rs, accounts=starting_accounts(rs, [-4, -30, -30]))
    nobody = ("bid game", "pass", "pass", "declare four_g", "drop out", "drop out")
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)              # A wins 10: -4 -> +6
    assert session.accounts["score"][A] == 6
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)              # under the hat winnings add: +16
    session_deal(session, FIVE_HEARTS, FIVE_TALON, "bid game", "pass", "pass", "declare four_g",
                 "play", "play", "pass", "pass", play=five_hearts_fails)   # loses 10: +6
    session_deal(session, FIVE_HEARTS, FIVE_TALON, "bid game", "pass", "pass", "declare four_g",
                 "play", "play", "pass", "pass", play=five_hearts_fails)   # loses 10: -4, back below zero
    assert column(session, A, "declarer") == [6, 16, 6, -4]
    assert column(session, A, "hat") == ["hat", "hat", "hat", ""]
    # below zero a win makes the written bula smaller (CRO-SCORE-03): B and C never moved from 30
    assert column(session, B, "declarer") == [-30] * 4 and column(session, B, "hat") == [""] * 4
    # a column crossing zero, up or down, never ends the game: only the sum does (CRO-SESS-08)
    assert not session.ended and sum(session.accounts["score"]) == -64
    # exactly zero is not under the hat (CRO-AMB-14)
    session = Session(rs, accounts=starting_accounts(rs, [-10, -30, -30]))
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)
    assert column(session, A, "declarer") == [0] and column(session, A, "hat") == [""]


@pytest.mark.rules("CRO-SCORE-01", "CRO-SCORE-12", "CRO-SCORE-13")
def test_score_12_juha_columns_are_only_ever_added_to(rs):
    session = Session(rs)
    rng = random.Random(5)
    bots = [RuleBot(f"juha:{s}") for s in range(3)]
    before = {}
    penalised = 0
    for _ in range(40):
        state = session.start(rng=rng)
        while not state.is_over():
            state.apply(bots[state.current_player()].choose(state))
        for src, dst, amount, _ in state.payments:
            if isinstance(dst, tuple) and dst[0] == "juha":
                assert amount > 0 and src is None
                assert dst[2] == state.declarer and dst[1] != state.declarer   # always against the declarer
            if isinstance(dst, tuple) and dst[0] == "score" and dst[1] != state.declarer and amount < 0:
                penalised += 1
        session.finish(state)
        after = dict(session.accounts["juha"])
        assert all(after.get(k, 0) >= v for k, v in before.items())
        before = after
        if session.ended:
            break
    assert sum(before.values()) > 0 and penalised > 0            # the sample scored tricks and penalties
    # the sheet shows them left and right of the declarer column: left = against the left-hand neighbour
    titles = [t for t, _ in session.R.sheet]
    last = session.deals[-1]["sheet"]
    for s in (A, B, C):
        assert last[s][titles.index("juha left")] == before.get((s, (s + 1) % 3), 0)
        assert last[s][titles.index("juha right")] == before.get((s, (s - 1) % 3), 0)


@pytest.mark.rules("CRO-AMB-15", "CRO-DEAL-04", "CRO-AUC-01")
@pytest.mark.parametrize("agreed", [0, 1, 2])
def test_amb_15_the_agreed_first_dealer_deals_then_the_deal_rotates(rs, agreed):
    assert rs.doc["seating"]["first_dealer"] == "agree"          # no draw is imposed: the table agrees
    session = Session(rs, dealer=agreed)
    rng = random.Random(agreed)
    bots = [RuleBot(f"agree:{s}") for s in range(3)]
    dealers = []
    for _ in range(6):
        state = session.start(rng=rng)
        dealers.append(state.dealer)
        assert state.current_player() == (state.dealer + 1) % 3   # the dealer's left speaks first
        while not state.is_over():
            state.apply(bots[state.current_player()].choose(state))
        session.finish(state)
    assert dealers == [(agreed + k) % 3 for k in range(6)]           # clockwise, all-passes included


@pytest.mark.rules("CRO-SESS-01", "CRO-SESS-02", "CRO-SESS-03", "CRO-SESS-04", "CRO-AUC-18")
def test_sess_03_the_refa_is_used_up_by_the_hand_it_doubles(rs):
    session = Session(rs, options={"bula": 50})
    for _ in range(3):
        session_deal(session, SIX_HEARTS, SIX_TALON, "pass", "pass", "pass")
    assert session.accounts["refa"] == [3, 3, 3]
    nobody = ("bid game", "pass", "pass", "declare four_g", "drop out", "drop out")
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)
    assert session.accounts["refa"] == [2, 3, 3]                  # A's refa crossed out, the others keep theirs
    assert session.accounts["score"][A] == -50 + 2 * 10
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)
    assert session.accounts["refa"] == [0, 3, 3]
    assert session.accounts["score"][A] == -50 + 3 * 20
    session_deal(session, SIX_HEARTS, SIX_TALON, *nobody)           # none left: scored normally
    assert session.accounts["refa"] == [0, 3, 3] and session.accounts["score"][A] == -50 + 3 * 20 + 10
    # a defender's refa does nothing for him: B's column is untouched, his refas too
    assert session.accounts["score"][B] == -50


@pytest.mark.rules("CRO-SESS-11", "CRO-SESS-07", "CRO-SESS-09", "CRO-SESS-10", "CRO-AMB-13")
def test_sess_11_a_failed_contract_or_a_penalty_never_ends_the_game(rs):
    sum6 = [30, -30, -6]                                           # the columns add up to -6
    # failed: the full 10 is lost, the game goes on
    session = Session(rs, accounts=starting_accounts(rs, sum6))
    session_deal(session, FIVE_HEARTS, FIVE_TALON, "bid game", "pass", "pass", "declare four_g",
                 "play", "play", "pass", "pass", play=five_hearts_fails)
    assert session.accounts["score"] == [20, -30, -6] and not session.ended
    # made, but the lone defender fails his two tricks: +10 and -10, the sum stays -6
    session = Session(rs, accounts=starting_accounts(rs, sum6))

    def nine(state):
        run_trumps(state, 8, [(c,) for c in ("9S", "8S", "7S", "JD", "10D", "9D", "8D", "7D")])
        trick(state, "AS", "10C")
        trick(state, "7C", "JC")

    session_deal(session, NINE_TRICKS, NINE_TALON, "bid game", "pass", "pass", "declare four_g",
                 "drop out", "play", "no invite", "pass", play=nine)
    assert session.accounts["score"] == [40, -30, -16] and not session.ended
    # made with no penalty: the 10 is cut to 6, each defence trick is worth 6, and the game ends
    session = Session(rs, accounts=starting_accounts(rs, sum6))
    session_deal(session, SIX_HEARTS, SIX_TALON, "bid game", "pass", "pass", "declare four_g",
                 "play", "play", "pass", "pass", play=six_hearts_played)
    assert session.accounts["score"] == [36, -30, -6] and session.accounts["juha"] == {(B, A): 24}
    assert session.ended and sum(session.final.values()) == 0
