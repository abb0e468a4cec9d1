"""Croatian Preference played through the engine (games/croatian/croatian.stw against
../shared/rules/croatian-preference.md), part one: the auction and the reveal of game bids, the talon and
the announcement, the defence (play / drop out / invite), kontra and its chain. Every test deals explicit
hands and acts through the action text, so the positions are the catalog's: A = 0 (forehand, the dealer's
left), B = 1, C = 2 (the dealer). The card play, the score columns and the session are in
test_croatian_engine_play.py; the shared deals and helpers in croatian_support.py.

The file-level tests (deck, deal, the worked score sheet replayed through the settlement rows) are in
tests/test_croatian_rules.py; the random playouts in tests/test_engine_invariants.py."""
from __future__ import annotations

import pytest
from croatian_support import (
    BETTEL,
    BETTEL_LOST,
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
    discard,
    game_hand,
    legal,
    run_trumps,
    six_hearts_played,
    trick,
)

from interpreter import load


@pytest.fixture(scope="module")
def rs():
    return load("croatian")


# ---- AUCTION -------------------------------------------------------------------------------------

def bids(state) -> set[str]:
    return {t for t in legal(state) if t.startswith("bid ") or t in ("same", "pass")}


@pytest.mark.rules("CRO-AUC-01", "CRO-AUC-03", "CRO-AUC-06", "CRO-AUC-07", "CRO-AUC-09", "CRO-AUC-10",
                   "CRO-AUC-11", "CRO-AUC-12", "CRO-AUC-13", "CRO-AUC-19", "CRO-AMB-06")
def test_auc_numbers_step_by_one_same_and_game_only_at_the_first_turn(rs):
    state = deal(SIX_HEARTS, SIX_TALON)
    games = {"bid game", "bid bettel", "bid sanac"}
    assert state.current_player() == A and bids(state) == {"bid two", "pass"} | games      # CRO-AUC-10
    act(state, "bid two")
    assert state.current_player() == B and bids(state) == {"bid three", "pass"} | games    # no jump (CRO-AUC-03)
    act(state, "bid three")
    assert state.current_player() == C and bids(state) == {"bid four", "pass"} | games
    act(state, "pass")
    # A, outbid and earlier than B, may only say "same" or pass: no raise, and no game after a number
    assert state.current_player() == A and bids(state) == {"same", "pass"}                # CRO-AUC-09, -11
    act(state, "same")
    assert state.current_player() == B and bids(state) == {"bid four", "pass"}            # CRO-AUC-12
    act(state, "bid four", "same", "pass")
    assert state.declarer == A and state.final_call.name == "four"                        # CRO-AUC-19
    assert state.phase == "talon"

    # game outranks every number; the number bidder is out and only another game outbids it
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid two", "bid game")
    assert state.auction.excluded[A] and state.current_player() == C
    assert bids(state) == {"pass"} | games                                                # CRO-AUC-07, -13
    act(state, "pass")
    assert state.declarer == B and state.phase == "contract"                              # A is not asked again
    # the dealer never says "same", and the auction ends as soon as the others have passed
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "pass", "bid two")
    assert state.current_player() == C and "same" not in legal(state)
    act(state, "bid three")
    assert state.current_player() == B and bids(state) == {"same", "pass"}
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "pass", "pass", "bid two")
    assert state.declarer == C and state.phase == "talon"


@pytest.mark.rules("CRO-AUC-06", "CRO-AUC-17", "CRO-AUC-20", "CRO-TAL-03", "CRO-CON-06", "CRO-CON-08")
def test_auc_06_a_game_keeps_the_talon_and_may_be_any_contract_unless_named(rs):
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid game", "pass", "pass")
    assert state.phase == "contract" and state.current_player() == A                      # no exchange
    assert legal(state) == {f"declare {c}" for c in ("two_g", "three_g", "four_g", "five_g", "bettel_g", "sanac_g")}
    act(state, "declare two_g")
    assert len(state.talon) == 2 and state.discards == 0 and bin(state.hands[A]).count("1") == 10
    assert rs.contract("two_g")["value"] == 3                                             # one more than two
    # named in the auction: fixed, nothing left to announce
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "pass", "bid sanac", "pass")
    assert state.con.name == "sanac_g" and state.phase == "defence" and len(state.talon) == 2
    # the bare number six is not a game: it takes the talon, for Bettel or Sanac
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid two", "bid three", "bid four", "same", "pass", "bid five", "same", "bid six", "pass")
    assert state.declarer == C and state.phase == "talon"
    discard(state, "QC", "JC")
    assert legal(state) == {"declare bettel", "declare sanac"}


@pytest.mark.rules("CRO-AUC-04", "CRO-AUC-05", "CRO-AUC-20", "CRO-CON-02", "CRO-CON-07", "CRO-TAL-01",
                   "CRO-TAL-02", "CRO-TAL-04")
def test_auc_04_number_bid_exchanges_first_then_announces_at_least_the_number(rs):
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid two", "bid three", "pass", "pass")           # B holds three: declarer
    assert state.declarer == B
    # the exchange comes first (CRO-TAL-04): B holds twelve cards, nothing is announced yet
    assert state.phase == "talon" and state.current_player() == B and state.con is None
    assert set(rs.codes(state.hands[B])) >= set(SIX_TALON) and bin(state.hands[B]).count("1") == 12
    for s in (A, B, C):                                            # shown to everyone (CRO-TAL-01)
        assert set(state.observation(s).get("talon", ())) == set(SIX_TALON)
    assert all(t.startswith("discard ") and len(t.split()) == 3 for t in legal(state))
    discard(state, "10C", "9C")                                # any two, face down (CRO-TAL-02)
    assert bin(state.hands[B]).count("1") == 10 and set(rs.codes(state.discards)) == {"10C", "9C"}
    # the announcement: three or higher, never two and never a game (CRO-CON-02, CRO-CON-07)
    assert state.phase == "contract" and state.current_player() == B
    assert legal(state) == {"declare three", "declare four", "declare five", "declare bettel", "declare sanac"}
    act(state, "declare five")                                    # a higher contract than the bid (CRO-AUC-05)
    assert state.con.name == "five" and state.trump == "C" and rs.contract(state.con.name)["game"] is False
    assert state.phase == "defence"


@pytest.mark.rules("CRO-AUC-04", "CRO-CON-01", "CRO-CON-03", "CRO-SCORE-07")
def test_con_01_a_suit_contract_needs_six_tricks(rs):
    state = game_hand(SIX_HEARTS, SIX_TALON)
    act(state, "play", "play", "pass", "pass")
    assert state.trump == "H"                                      # four: hearts are trumps (CRO-CON-03)
    run_trumps(state, 6, [("8H", "7H"), ("AS", "9S"), ("KS", "8S"), ("QS", "10D"), ("AD", "9D"), ("KD", "8D")])
    assert trick(state, "7S", "JS", "10S") == B
    for cards in (("QD", "JD", "7D"), ("AC", "QC", "7C"), ("KC", "JC", "8C")):
        assert trick(state, *cards) == B
    assert state.is_over() and state.play.tricks_won == [6, 4, 0]
    assert state.result()["made"] is True                          # six is enough
    assert state.accounts["score"] == [-30 + 10, -30, -30]        # game hearts: BS 10 won

    state = game_hand(FIVE_HEARTS, FIVE_TALON)
    act(state, "play", "play", "pass", "pass")
    run_trumps(state, 5, [("9H", "7H"), ("8H", "9S"), ("QS", "10D"), ("KD", "9D"), ("QD", "8D")])
    assert trick(state, "7S", "AS", "JS") == B
    for cards in (("KS", "10S", "8S"), ("AD", "JD", "7D"), ("AC", "QC", "7C"), ("KC", "JC", "8C")):
        assert trick(state, *cards) == B
    assert state.is_over() and state.play.tricks_won == [5, 5, 0]
    assert state.result()["made"] is False                         # five is not enough
    assert state.accounts["score"] == [-30 - 10, -30, -30]


@pytest.mark.rules("CRO-AUC-08", "CRO-AMB-06")
def test_auc_08_a_player_who_passed_is_never_asked_again(rs):
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "pass")
    seen = []
    for text in ("bid two", "bid three", "same", "bid four", "same", "bid five", "same", "bid six", "pass"):
        seen.append(state.current_player())
        act(state, text)
    assert A not in seen and seen == [B, C, B, C, B, C, B, C, B]
    assert state.declarer == C and state.final_call.name == "six"
    assert state.phase == "talon" and state.current_player() == C


@pytest.mark.rules("CRO-AUC-14", "CRO-AUC-15", "CRO-AUC-16", "CRO-AMB-07")
def test_auc_15_silent_when_the_contract_cannot_win(rs):
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid game", "bid game", "bid game")
    # A, the earliest game bidder, reveals first and must name a contract
    assert state.current_player() == A and "pass" not in legal(state)
    assert legal(state) == {f"declare {c}" for c in ("two_g", "three_g", "four_g", "five_g", "bettel_g", "sanac_g")}
    act(state, "declare five_g")
    # B may only name what beats A's acorns: the equal game belongs to the earlier player (CRO-AUC-16)
    assert state.current_player() == B and legal(state) == {"declare bettel_g", "declare sanac_g", "pass"}
    act(state, "pass")                                             # B stays silent: his contract stays secret
    assert state.current_player() == C and legal(state) == {"declare bettel_g", "declare sanac_g", "pass"}
    act(state, "pass")
    assert state.declarer == A and state.con.name == "five_g"
    assert state.auction.reveals[B] is None and state.auction.reveals[C] is None
    assert [label for _, label in state.auction.calls][-2:] == ["pass", "pass"]

    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid game", "bid game", "pass", "declare four_g", "declare sanac_g")
    assert state.declarer == B and state.con.name == "sanac_g"   # the higher contract wins the contest


@pytest.mark.rules("CRO-AUC-16", "CRO-AUC-17", "CRO-AMB-07")
def test_auc_16_the_earlier_player_wins_an_equal_game(rs):
    # B names Bettel; A said a plain game earlier and may claim the same Bettel: A has precedence
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid game", "bid bettel", "pass")
    assert state.current_player() == A
    assert legal(state) == {"declare bettel_g", "declare sanac_g", "pass"}
    act(state, "declare bettel_g")
    assert state.declarer == A and state.con.name == "bettel_g"
    # if A stays silent B keeps it
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "bid game", "bid bettel", "pass", "pass")
    assert state.declarer == B and state.con.name == "bettel_g"
    # two named equal games: the later bidder cannot take it from the earlier one
    state = deal(SIX_HEARTS, SIX_TALON)
    act(state, "pass", "bid sanac", "bid sanac")
    assert state.is_over() is False and state.declarer == B and state.con.name == "sanac_g"


# ---- DEFENCE -------------------------------------------------------------------------------------

@pytest.mark.rules("CRO-DEF-01", "CRO-DEF-02")
def test_def_02_the_declarers_left_answers_first(rs):
    for bids, declarer, order in ((("bid game", "pass", "pass"), A, [B, C]),
                                  (("pass", "bid game", "pass"), B, [C, A]),
                                  (("pass", "pass", "bid game"), C, [A, B])):
        state = deal(SIX_HEARTS, SIX_TALON)
        act(state, *bids)
        assert state.declarer == declarer
        act(state, "declare four_g")                               # the contract is announced first (CRO-DEF-01)
        asked = []
        while state.phase == "defence":
            asked.append(state.current_player())
            assert legal(state) == {"play", "drop out"}
            act(state, "play")
        assert asked == order


@pytest.mark.rules("CRO-DEF-01", "CRO-DEF-03", "CRO-DEF-08", "CRO-DEF-10", "CRO-SCORE-13")
def test_def_01_a_lone_defender_needs_two_tricks_the_one_who_dropped_out_is_out(rs):
    state = game_hand(NINE_TRICKS, NINE_TALON)
    act(state, "drop out", "play", "no invite")
    assert state.playing == (A, C)
    b_hand = state.hands[B]
    assert state.phase == "kontra" and state.current_player() == C   # the one who dropped out is not asked
    act(state, "pass")
    run_trumps(state, 8, [(c,) for c in ("9S", "8S", "7S", "JD", "10D", "9D", "8D", "7D")])
    assert trick(state, "AS", "10C") == A
    assert trick(state, "7C", "JC") == C                           # C's only trick
    assert state.is_over()
    assert all(len(cards) == 2 and B not in {s for s, _ in cards} for cards, _ in state.play.history)   # CRO-DEF-08
    assert state.hands[B] == b_hand                                # B's cards lie untouched
    assert state.play.tricks_won == [9, 0, 1]
    # C played and failed his two tricks: he pays BS 10 and still scores his trick; B is not penalised
    assert state.accounts["score"] == [-30 + 10, -30, -30 - 10]
    assert state.accounts["juha"] == {(C, A): 10}


@pytest.mark.rules("CRO-DEF-04", "CRO-DEF-10", "CRO-SCORE-13")
def test_def_04_both_playing_need_four_together(rs):
    # four tricks between them, all B's: C with none is safe too
    state = game_hand(SIX_HEARTS, SIX_TALON)
    act(state, "play", "play", "pass", "pass")
    run_trumps(state, 6, [("8H", "7H"), ("AS", "9S"), ("KS", "8S"), ("QS", "10D"), ("AD", "9D"), ("KD", "8D")])
    for cards in (("7S", "JS", "10S"), ("QD", "JD", "7D"), ("AC", "QC", "7C"), ("KC", "JC", "8C")):
        trick(state, *cards)
    assert state.play.tricks_won == [6, 4, 0]
    assert state.accounts["score"] == [-20, -30, -30]
    assert state.accounts["juha"] == {(B, A): 40}
    # one trick between them: both pay
    state = game_hand(NINE_TRICKS, NINE_TALON)
    act(state, "play", "play", "pass", "pass")
    run_trumps(state, 8, [("KS", "9S"), ("QS", "8S"), ("JS", "7S"), ("10S", "JD"), ("AD", "10D"),
                          ("KD", "9D"), ("QD", "8D"), ("QC", "7D")])
    trick(state, "AS", "KC", "10C")
    assert trick(state, "7C", "AC", "JC") == B
    assert state.play.tricks_won == [9, 1, 0]
    assert state.accounts["score"] == [-20, -40, -40]
    assert state.accounts["juha"] == {(B, A): 10}


@pytest.mark.rules("CRO-DEF-05", "CRO-PLAY-01", "CRO-SCORE-08", "CRO-SCORE-17")
def test_def_05_nobody_plays_the_declarer_has_ten_tricks(rs):
    state = game_hand(FIVE_HEARTS, FIVE_TALON)                     # A could not make this if it were played
    act(state, "drop out", "drop out")
    assert state.is_over() and state.play.history == [] and state.trick == []
    assert state.play.tricks_won == [10, 0, 0] and state.result()["made"] is True
    assert state.accounts["score"] == [-20, -30, -30] and not state.accounts["juha"]


@pytest.mark.rules("CRO-DEF-06", "CRO-DEF-07", "CRO-DEF-10", "CRO-SCORE-11")
def test_def_06_07_the_invitation_cannot_be_refused_the_host_answers_for_four(rs):
    state = game_hand(NINE_TRICKS, NINE_TALON)
    act(state, "drop out", "play")
    assert state.current_player() == C and legal(state) == {"invite", "no invite"}
    act(state, "invite")
    # B is in the play without being asked: the next question is kontra, and B has no way to decline
    assert state.playing == (A, B, C) and (state.defence.host, state.defence.guest) == (C, B)
    assert state.phase == "kontra" and legal(state) == {"kontra", "pass"}
    act(state, "pass", "pass")
    assert state.phase == "play"
    run_trumps(state, 8, [("KS", "9S"), ("QS", "8S"), ("JS", "7S"), ("10S", "JD"), ("AD", "10D"),
                          ("KD", "9D"), ("QD", "8D"), ("QC", "7D")])
    trick(state, "AS", "KC", "10C")
    assert trick(state, "7C", "AC", "JC") == B                     # the guest takes the only trick
    # the host answers for the team's four: he pays, the guest never does; the host scores the trick
    assert state.accounts["score"] == [-20, -30, -40]
    assert state.accounts["juha"] == {(C, A): 10}

    state = game_hand(SIX_HEARTS, SIX_TALON)
    act(state, "drop out", "play", "invite", "pass", "pass")
    run_trumps(state, 6, [("8H", "7H"), ("AS", "9S"), ("KS", "8S"), ("QS", "10D"), ("AD", "9D"), ("KD", "8D")])
    for cards in (("7S", "JS", "10S"), ("QD", "JD", "7D"), ("AC", "QC", "7C"), ("KC", "JC", "8C")):
        trick(state, *cards)
    assert state.play.tricks_won == [6, 4, 0]                           # the guest took all four
    assert state.accounts["score"] == [-20, -30, -30]              # the host with none is safe
    assert state.accounts["juha"] == {(C, A): 40}


def first_legal_playout(state):
    while not state.is_over():
        state.apply(state.legal_actions()[0])


@pytest.mark.rules("CRO-DEF-09", "CRO-CON-04", "CRO-AMB-10", "CRO-SCORE-17")
def test_def_09_bettel_nobody_may_drop_out_and_nobody_has_a_quota(rs):
    state = deal(BETTEL, BETTEL_TALON)
    act(state, "bid bettel", "pass", "pass")
    assert state.con.name == "bettel_g" and state.trump is None
    assert state.phase == "kontra" and legal(state) == {"kontra", "pass"}   # never "play" / "drop out"
    act(state, "pass", "pass")
    assert state.playing == (A, B, C)
    first_legal_playout(state)
    assert len(state.play.history) == 10                                # the 5-trick stop does not apply (CRO-AMB-10)
    assert state.play.tricks_won[A] == 0 and state.result()["made"] is True
    assert state.accounts["score"] == [-30 + 14, -30, -30]         # game Bettel: BS 14
    assert not state.accounts["juha"]                              # a made Bettel gives the defenders nothing

    state = deal(BETTEL_LOST, BETTEL_TALON)
    act(state, "bid bettel", "pass", "pass", "pass", "pass")
    assert trick(state, "10S", "7S", "AH") == A                    # play stops at A's first trick
    assert state.is_over() and state.play.tricks_won == [1, 0, 0]
    # the defenders took no trick, yet nobody pays a quota; each scores 5 × 14
    assert state.accounts["score"] == [-30 - 14, -30, -30]
    assert state.accounts["juha"] == {(B, A): 70, (C, A): 70}


# ---- KONTRA --------------------------------------------------------------------------------------

@pytest.mark.rules("CRO-DEF-11", "CRO-DEF-12", "CRO-DEF-14", "CRO-DEF-15")
def test_def_12_the_left_defender_may_say_kontra_first(rs):
    state = game_hand(SIX_HEARTS, SIX_TALON)
    act(state, "play", "play")
    assert state.phase == "kontra" and state.current_player() == B and legal(state) == {"kontra", "pass"}
    act(state, "kontra")
    # the other defender is not asked any more: the declarer answers
    assert state.current_player() == A and legal(state) == {"rekontra", "pass"}
    assert (state.defence.host, state.defence.guest, state.kontra.sayer) == (B, C, B)
    act(state, "pass")
    assert state.phase == "play"

    state = game_hand(SIX_HEARTS, SIX_TALON)
    act(state, "play", "play", "pass")
    assert state.current_player() == C and legal(state) == {"kontra", "pass"}   # only after B declined
    act(state, "kontra")
    assert (state.defence.host, state.defence.guest) == (C, B) and state.current_player() == A
    act(state, "pass")
    six_hearts_played(state)
    # four defence tricks would make both safe without kontra; under kontra the host needs five
    assert state.accounts["score"] == [-30 + 20, -30, -30 - 20]
    assert state.accounts["juha"] == {(C, A): 4 * 10 * 2}         # the host scores the guest's tricks


@pytest.mark.rules("CRO-DEF-14", "CRO-AMB-11")
def test_def_14_kontra_by_a_lone_defender_brings_the_other_in_as_guest(rs):
    state = game_hand(NINE_TRICKS, NINE_TALON)
    act(state, "drop out", "play", "no invite")
    assert state.playing == (A, C) and state.current_player() == C    # only a defender who plays is asked
    act(state, "kontra", "pass")
    assert state.phase == "play" and state.playing == (A, B, C) and (state.defence.host, state.defence.guest) == (C, B)
    run_trumps(state, 8, [("KS", "9S"), ("QS", "8S"), ("JS", "7S"), ("10S", "JD"), ("AD", "10D"),
                          ("KD", "9D"), ("QD", "8D"), ("QC", "7D")])
    trick(state, "AS", "KC", "10C")
    assert trick(state, "7C", "AC", "JC") == B
    # only the host scores (the guest's trick), and only the host pays: both doubled
    assert state.accounts["score"] == [-30 + 20, -30, -30 - 20]
    assert state.accounts["juha"] == {(C, A): 20}


@pytest.mark.rules("CRO-DEF-13", "CRO-SCORE-16")
def test_def_13_kontra_doubles_every_score(rs):
    plain = game_hand(SIX_HEARTS, SIX_TALON)
    act(plain, "play", "play", "pass", "pass")
    six_hearts_played(plain)
    doubled = game_hand(SIX_HEARTS, SIX_TALON)
    act(doubled, "play", "play", "kontra", "pass")
    six_hearts_played(doubled)
    assert plain.kontra.level == 0 and doubled.kontra.level == 1

    def gain(st, s):
        return st.accounts["score"][s] + 30

    assert gain(plain, A) == 10 and gain(doubled, A) == 20
    assert plain.accounts["juha"][(B, A)] == 40 and doubled.accounts["juha"][(B, A)] == 80
    assert gain(doubled, B) == -20                                 # the host's penalty is doubled too


@pytest.mark.rules("CRO-DEF-16", "CRO-DEF-17", "CRO-SCORE-15")
def test_def_16_17_the_chain_alternates_without_limit(rs):
    state = game_hand(SIX_HEARTS, SIX_TALON)
    act(state, "play", "play")
    words = ["kontra", "rekontra", "sukontra", "mortkontra", "mortkontra 5", "mortkontra 6"]
    speakers = []
    for level, word in enumerate(words, 1):
        speakers.append(state.current_player())
        assert legal(state) == {word, "pass"}
        act(state, word)
        assert state.kontra.level == level
    # the kontra-sayer and the declarer alternate; the guest is never asked
    assert speakers == [B, A, B, A, B, A] and C not in speakers
    assert state.current_player() == B and legal(state) == {"mortkontra 7", "pass"}
    act(state, "pass")
    assert state.phase == "play"
    six_hearts_played(state)
    M = 2 ** 6
    assert state.accounts["score"] == [-30 + 10 * M, -30 - 10 * M, -30]   # the kontra-sayer still answers for five
    assert state.accounts["juha"] == {(B, A): 4 * 10 * M}
