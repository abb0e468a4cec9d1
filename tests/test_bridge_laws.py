"""Contract bridge (games/bridge): the seating, the calls and the play by the Laws, checked against what the
Laws say worked out here in the test (the order of the strains, the duty to follow suit, who wins a trick and
leads the next, the declaring side's tricks), on random deals under both engines. The scores are in the
scenario files of games/bridge/scenarios."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.session import Session
from interpreter.engine.text import parse
from tests.helpers import act, legal_texts

N, E, S, W = 0, 1, 2, 3
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
STRAINS = ["C", "D", "H", "S", "NT"]                 # lowest first (BRIDGE-AUC-04)
BIDS = [f"bid {level}{strain}" for level in range(1, 8) for strain in STRAINS]


def deal(seed: int = 1, dealer: int = N, name: str = "bridge"):
    return new_game(load(name), seed=seed, dealer=dealer)


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> int:
    return RANKS.index(card[:-1])


@pytest.mark.rules("BRIDGE-SEAT-01", "BRIDGE-AUC-16")
def test_partners_sit_opposite_and_the_other_two_defend(engine):
    for declarer_call, declarer, side in (("bid 1S", N, {N, S}), ("bid 1NT", E, {E, W})):
        st = deal(dealer=declarer)
        calls = [declarer_call, "pass", "pass", "pass"]
        for c in calls:
            act(st, c)
        assert st.declarer == declarer and set(st.declarers) == side
        assert set(st.defenders) == {N, E, S, W} - side and st.dummy == (declarer + 2) % 4


@pytest.mark.rules("BRIDGE-SEAT-02", "BRIDGE-AUC-02")
def test_the_auction_goes_clockwise_and_a_call_is_a_pass_a_bid_a_double_or_a_redouble(engine):
    st = deal(seed=4, dealer=W)
    said = ["bid 1C", "double", "redouble", "pass", "bid 1D", "pass", "pass", "pass"]
    turns = []
    for c in said:
        turns.append(st.current_player())
        for t in legal_texts(st):            # every call offered is one of the four kinds
            assert t in BIDS or t in ("pass", "double", "redouble"), t
        act(st, c)
    assert turns == [W, N, E, S, W, N, E, S]


@pytest.mark.rules("BRIDGE-AUC-04", "BRIDGE-DECK-02", "BRIDGE-AUC-06", "BRIDGE-AMB-01")
@pytest.mark.parametrize("bid", ["bid 1C", "bid 1H", "bid 1S", "bid 1NT", "bid 3D", "bid 6S", "bid 7S"])
def test_the_strains_rank_no_trump_spades_hearts_diamonds_clubs_and_only_a_sufficient_bid_is_offered(engine, bid):
    st = deal()
    act(st, bid)
    higher = set(BIDS[BIDS.index(bid) + 1:])             # by the order worked out above: level, then strain
    offered = {t for t in legal_texts(st) if t.startswith("bid ")}
    assert offered == higher
    if bid == "bid 1S":
        assert "bid 1H" not in offered and "bid 1NT" in offered and "bid 2C" in offered
        with pytest.raises(ValueError, match="not a legal action"):     # BRIDGE-AMB-01: no insufficient bid
            st.apply(parse(st, "bid 1H"))


@pytest.mark.rules("BRIDGE-AUC-10", "BRIDGE-AUC-14")
def test_a_later_bid_supersedes_a_double_and_the_contract_is_the_final_bids_level_and_strain(engine):
    st = deal()
    for c in ("bid 1S", "double", "redouble", "bid 2C", "pass", "pass", "pass"):
        act(st, c)
    c = st.ctx()
    text = st.R.compiler.text
    assert (text("final.level")(c), str(text("final.strain")(c)), text("double_level")(c)) == (2, "C", 0)
    assert st.declarer == W and str(text("trump")(c)) == "C"                     # West bid 2C: clubs trumps
    st = deal()
    for c in ("bid 3NT", "double", "pass", "pass", "pass"):
        act(st, c)
    c = st.ctx()
    assert (text("final.level")(c), str(text("final.strain")(c)), text("double_level")(c)) == (3, "NT", 1)
    assert text("trump")(c) is None or str(text("trump")(c)) == "none"             # no trumps


@pytest.mark.rules("BRIDGE-PLAY-04", "BRIDGE-PLAY-05", "BRIDGE-PLAY-06", "BRIDGE-PLAY-07", "BRIDGE-PLAY-08",
                   "BRIDGE-PLAY-09", "BRIDGE-PLAY-10", "BRIDGE-AUC-14", "BRIDGE-DECK-02")
@pytest.mark.parametrize("seed", range(6))
def test_the_play_by_the_laws_on_random_deals(engine, seed):
    rng = random.Random(f"bridge-laws-{seed}")
    dealer = seed % 4
    bid = rng.choice(["bid 1C", "bid 2H", "bid 3NT", "bid 4S", "bid 6D"])
    st = deal(seed=seed, dealer=dealer)
    for c in (bid, "double", "pass", "pass", "pass") if seed % 2 else (bid, "pass", "pass", "pass"):
        act(st, c)
    level, strain = int(bid[4]), bid[5:]
    trump = None if strain == "NT" else strain
    declarer = dealer
    assert st.phase == "play" and st.declarer == declarer
    leader = (declarer + 1) % 4
    won = dict.fromkeys(range(4), 0)
    for number in range(13):                                     # BRIDGE-PLAY-10
        trick: list[tuple[int, str]] = []
        for k in range(4):
            seat = (leader + k) % 4                              # BRIDGE-PLAY-04: clockwise from the leader
            assert st.to_act == seat
            hand = st.R.rs.codes(st.hands[seat])
            offered = {t[5:] for t in legal_texts(st)}
            if trick and any(suit(x) == suit(trick[0][1]) for x in hand):
                assert offered == {x for x in hand if suit(x) == suit(trick[0][1])}      # BRIDGE-PLAY-05
            else:
                assert offered == set(hand)                                              # BRIDGE-PLAY-06
            card = rng.choice(sorted(offered))
            act(st, f"play {card}")
            trick.append((seat, card))
        trumps = [(rank(c), s) for s, c in trick if suit(c) == trump]
        followed = [(rank(c), s) for s, c in trick if suit(c) == suit(trick[0][1])]
        winner = max(trumps or followed)[1]                      # BRIDGE-PLAY-07; no suit outranks another
        won[winner] += 1
        assert st.observation(N)["tricks"] == {s: won[s] for s in range(4)}
        if number < 12:
            assert st.to_act == winner                           # BRIDGE-PLAY-08, dummy's hand too
        leader = winner
    assert st.is_over()
    side = won[declarer] + won[(declarer + 2) % 4]               # BRIDGE-PLAY-09
    assert st.result()["made"] == (side >= 6 + level)            # BRIDGE-AUC-14


@pytest.mark.rules("BRIDGE-SEAT-04", "BRIDGE-RUB-10", "BRIDGE-AMB-04")
def test_in_rubber_the_deal_passes_clockwise_and_a_passed_out_deal_scores_nothing():
    rs = load("bridge-rubber")
    sess = Session(rs, {}, dealer=E)
    rng = random.Random(5)
    dealers = []
    for k in range(5):
        st = sess.start(rng=rng)
        dealers.append(st.dealer)
        before = {name: list(v) for name, v in st.accounts.items() if isinstance(v, list)}
        if k == 1:                                               # four passes: passed out
            for _ in range(4):
                act(st, "pass")
            assert st.is_over() and st.all_passed
            assert {name: list(v) for name, v in st.accounts.items() if isinstance(v, list)} == before
        else:
            for c in ("bid 1C", "pass", "pass", "pass"):
                act(st, c)
            while not st.is_over():
                st.apply(rng.choice(st.legal_actions()))
        sess.finish(st)
    assert dealers == [E, S, W, N, E]                            # the passed-out deal moved the deal on too


def _openspiel_bridge_after(*calls: int):
    pyspiel = pytest.importorskip("pyspiel")
    st = pyspiel.load_game("bridge", {"use_double_dummy_result": False}).new_initial_state()
    while st.is_chance_node():                                   # a deal: the first card left each time
        st.apply_action(st.legal_actions()[0])
    for c in calls:
        st.apply_action(c)
    return st


@pytest.mark.rules("BRIDGE-OS-07")
def test_four_passes_end_openspiels_game_at_zero_three_after_a_bid_start_the_play(engine):
    PASS, ONE_CLUB = 52, 55                                      # OpenSpiel's action ids (BRIDGE-OS-05)
    os_st = _openspiel_bridge_after(PASS, PASS, PASS)
    assert not os_st.is_terminal()
    os_st.apply_action(PASS)
    assert os_st.is_terminal() and list(os_st.returns()) == [0, 0, 0, 0]
    ours = deal(name="bridge-openspiel")
    for _ in range(4):
        act(ours, "pass")
    assert ours.is_over() and ours.all_passed and not any(ours.accounts["score"].values())   # each side 0
    assert set(ours.result()["tricks"].values()) == {0}                                       # nothing played
    os_st = _openspiel_bridge_after(ONE_CLUB, PASS, PASS, PASS)
    assert not os_st.is_terminal() and all(a < 52 for a in os_st.legal_actions())   # a card to play
    ours = deal(name="bridge-openspiel")
    for c in ("bid 1C", "pass", "pass", "pass"):
        act(ours, c)
    assert ours.phase == "play"


# BRIDGE-SCORE-12's board table: who is vulnerable on boards 1 to 16
VULNERABLE = {1: "", 2: "NS", 3: "EW", 4: "NSEW", 5: "NS", 6: "EW", 7: "NSEW", 8: "", 9: "EW", 10: "NSEW", 11: "",
              12: "NS", 13: "NSEW", 14: "", 15: "NS", 16: "EW"}


@pytest.mark.rules("BRIDGE-OS-13", "BRIDGE-SCORE-12")
def test_the_duplicate_boards_deal_and_set_vulnerability_as_openspiels_duplicate_state():
    # OpenSpiel's NewDuplicateBridgeInitialState(board): dealer (board - 1) mod 4, vulnerability by the board; the
    # duplicate rule file plays the boards in turn from board 1, dealt by North
    sess = Session(load("bridge"), {}, dealer=N)
    rng = random.Random(13)
    for board in range(1, 17):
        st = sess.start(rng=rng)
        assert st.dealer == (board - 1) % 4
        vulnerable = st.R.compiler.text("vulnerable(s)")
        c = st.ctx()
        for seat, name in ((N, "NS"), (E, "EW"), (S, "NS"), (W, "EW")):
            c.vars["s"] = seat
            assert bool(vulnerable(c)) == (name in VULNERABLE[board]), (board, name)
        for _ in range(4):
            act(st, "pass")
        sess.finish(st)
