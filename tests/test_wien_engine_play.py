"""Engine-level rule tests for Préférence as played in Vienna (games/wien/wien.stw against the catalog
../shared/rules/wien-preference.md), part two: going along or staying home (WIEN-DEF), the play of the
cards (WIEN-PLAY), the payments (WIEN-SCORE) and the session (WIEN-SESS), each checked by driving the
engine as in test_wien_engine.py (the auction, the contract and the talon); the shared deals and helpers,
and how seats and accounts are numbered, are in wien_support.py."""
from __future__ import annotations

import random

import pytest
from wien_support import (
    CAT_A,
    LOW_DEAL,
    PREMIUM,
    RS,
    SPEL,
    TOP_DEAL,
    codes,
    contract_by_bidding,
    do,
    first_discard,
    four_in_mask_deal,
    game,
    legal,
    n_cards,
    pays,
    play_random,
    played_contract,
    three_bidders,
    to_play,
)

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine.session import Session

# ---- DEFENCE ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-DEF-01", "WIEN-DEF-16", "WIEN-AMB-14")
def test_def_01_defenders_are_asked_only_in_basic_contracts_and_hearts():
    for name in CAT_A + SPEL + ["hearts"]:
        st = contract_by_bidding(name, pot=10)
        assert st.phase == "defence", name
        assert legal(st) == {"go along", "stay home"}
    for name in PREMIUM:
        if name == "hearts":
            continue
        st = contract_by_bidding(name, pot=10)
        assert st.phase == "play" and st.playing == (0, 1, 2), name


@pytest.mark.rules("WIEN-DEF-04", "WIEN-DEF-16", "WIEN-AMB-06")
def test_def_04_no_defence_after_an_after_purchase():
    st = three_bidders()
    assert st.phase == "after_purchase"                         # declared and bought, defence comes after
    do(st, (1, "after-purchase"))
    first_discard(st)
    do(st, (1, "declare five"), (2, "decline"), (0, "decline"))
    assert st.phase == "play" and st.playing == (0, 1, 2) and not st.defence.compulsory
    # without an after-purchase the same position asks the defenders (the pot is not compulsory)
    st = three_bidders()
    do(st, (1, "decline"), (2, "decline"))
    assert st.phase == "defence"


@pytest.mark.rules("WIEN-DEF-05")
def test_def_05_left_defender_declares_first():
    for dealer in range(3):
        st = game(pot=10, dealer=dealer)
        fh = (dealer + 1) % 3
        do(st, (fh, "bid one"), "pass", "pass")
        first_discard(st)
        do(st, "declare one")
        assert st.phase == "defence" and st.current_player() == (fh + 1) % 3      # the declarer's left
        do(st, "go along")
        assert st.current_player() == dealer                                      # then his right


@pytest.mark.rules("WIEN-DEF-08", "WIEN-DEF-06", "WIEN-SCORE-08")
def test_def_08_stay_home_defender_is_out_of_the_play():
    st = four_in_mask_deal(pot=10)
    do(st, (2, "go along"), (0, "stay home"), (2, "no invite"))
    home = st.hands[0]
    assert st.playing == (1, 2)
    play_random(st, random.Random(3))
    assert st.hands[0] == home                                   # his cards stay down
    assert all(len(trick) == 2 for trick, _ in st.play.history)       # tricks of two cards
    assert st.play.tricks_won[0] == 0 and st.play.tricks_won[1] + st.play.tricks_won[2] == 10
    assert st.result()["payments"][0] == 0                       # not paid, pays nothing (WIEN-SCORE-08)
    assert all(0 not in (s, d) for s, d, _, _ in st.payments)


@pytest.mark.rules("WIEN-AMB-09", "WIEN-DEF-11", "WIEN-DEF-02")
@pytest.mark.parametrize("left, right", [("stay home", "go along"), ("go along", "stay home")])
def test_amb_09_invitation_after_both_defenders_declared_before_the_lead(left, right):
    st = contract_by_bidding("one", pot=10)
    assert st.phase == "defence" and st.current_player() == 2                  # the declarer's left first
    assert legal(st) == {"go along", "stay home"}                            # no invitation yet
    do(st, (2, left))
    assert st.current_player() == 0 and legal(st) == {"go along", "stay home"}   # none after one answer
    do(st, (0, right))
    goer = 2 if left == "go along" else 0
    # both have declared: the one who went along, and only he, may invite, and no card is played yet
    assert st.phase == "defence" and st.current_player() == goer
    assert legal(st) == {"invite", "no invite"}
    assert not st.play.history and not st.trick and all(n_cards(h) == 10 for h in st.hands)
    do(st, (goer, "invite"))
    assert st.phase == "play" and st.playing == (0, 1, 2) and st.current_player() == 1   # the declarer leads
    assert all("invite" not in t for t in legal(st))                         # never again once play starts


@pytest.mark.rules("WIEN-AMB-09", "WIEN-DEF-02")
def test_amb_09_no_invitation_under_compulsion_or_when_both_go_along():
    st = to_play(contract_by_bidding("one", pot=10))                         # both go along: nobody to invite
    assert st.phase == "play" and st.playing == (0, 1, 2)
    st = contract_by_bidding("one", pot=0)                                   # one stake in the pot: compulsory
    assert st.defence.compulsory and st.phase == "play" and st.playing == (0, 1, 2)  # no one asked, no one invited


@pytest.mark.rules("WIEN-DEF-15", "WIEN-AMB-12", "WIEN-SCORE-11", "WIEN-SCORE-12")
def test_def_15_falling_declarer_and_falling_defender_pay_the_same_a():
    found = 0
    for seed in range(80):
        st = played_contract("one", seed, pot=10)               # pot 20, A = 20: both defenders went along
        r = st.result()
        d_fell = not r["made"]
        fallen = [s for s in (0, 2) if st.play.tricks_won[s] < 2]
        if not (d_fell and fallen):
            continue
        found += 1
        for s in fallen:
            assert pays(st, s, "pot") == pays(st, 1, "pot") == [20]
        # the declarer's swing is larger: he pays A and the defenders' tricks
        assert r["payments"][1] < min(r["payments"][s] for s in fallen)
    assert found


# ---- PLAY -------------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-PLAY-01")
def test_play_01_declarer_leads_the_first_trick():
    st = do(game(), (1, "pass"), (2, "bid one"), (0, "pass"))
    first_discard(st)
    do(st, (2, "declare one"))
    to_play(st)
    assert st.phase == "play" and st.current_player() == 2
    st = do(game(), (1, "pass"), (2, "pass"), (0, "bid five_wp"))
    assert st.phase == "play" and st.current_player() == 0


def check_trick_rules(st):
    """Every trick of a finished deal: followed suit when able, won by the highest trump else the highest
    card of the led suit, and the winner led the next one."""
    trump = st.con.trump
    prev_winner = None
    for trick, winner in st.play.history:
        if prev_winner is not None:
            assert trick[0][0] == prev_winner                                    # WIEN-PLAY-10
        led = RS.cards[trick[0][1]].suit
        trumps = [(s, c) for s, c in trick if trump >= 0 and RS.cards[c].suit == RS.suits[trump]]
        pool = trumps or [(s, c) for s, c in trick if RS.cards[c].suit == led]
        assert winner == max(pool, key=lambda sc: RS.cards[sc[1]].order)[0]      # WIEN-PLAY-08, -09
        prev_winner = winner


@pytest.mark.rules("WIEN-PLAY-03", "WIEN-PLAY-08", "WIEN-PLAY-09", "WIEN-PLAY-10")
def test_play_03_10_follow_suit_and_trick_winners_in_random_deals():
    for seed in range(30):
        name = (CAT_A + SPEL + ["hearts", "five_wp", "six"])[seed % 10]
        st = to_play(contract_by_bidding(name, seed))
        rng = random.Random(seed)
        while not st.is_over():
            me = st.current_player()
            cards = [a for a in st.legal_actions() if A.kind_of(a) == A.PLAY]
            if st.trick:
                led = RS.cards[st.trick[0][1]].suit
                held = [c for c in RS.codes(st.hands[me]) if c.endswith(led)]
                if held:
                    assert all(RS.cards[c].suit == led for c in cards)           # WIEN-PLAY-03
            st.apply(rng.choice(cards))
        check_trick_rules(st)


@pytest.mark.rules("WIEN-PLAY-08", "WIEN-PLAY-09", "WIEN-PLAY-10", "WIEN-PLAY-13", "WIEN-PLAY-11")
def test_play_13_left_defender_void_must_play_his_lowest_trump():
    st = four_in_mask_deal(pot=0)                       # compulsory: both defenders go along
    assert st.phase == "play" and st.playing == (0, 1, 2)
    do(st, (1, "play 7S"))
    assert legal(st) == {"play 7H"}                     # lowest trump, not 9H or AH
    do(st, (2, "play 7H"))
    assert legal(st) == {"play 8H", "play 10H", "play JH"}   # the right defender: any trump that beats it
    do(st, (0, "play 8H"))
    assert st.play.history[-1][1] == 0                       # the highest trump wins a spade lead (WIEN-PLAY-08)
    assert st.current_player() == 0                     # and leads next (WIEN-PLAY-10)
    do(st, (0, "play JC"))
    assert legal(st) == {"play KH", "play QH"}                          # B, void in clubs, must trump
    do(st, (1, "play QH"))
    assert legal(st) == {"play 7C", "play 8C", "play 9C", "play 10C"}   # C follows, cannot beat: any club
    do(st, (2, "play 9C"))
    assert st.play.history[-1][1] == 1 and st.current_player() == 1


@pytest.mark.rules("WIEN-PLAY-13", "WIEN-PLAY-11")
def test_play_13_no_maskningsplikt_when_one_defender_stays_home():
    st = four_in_mask_deal(pot=10)
    do(st, (2, "go along"), (0, "stay home"), (2, "no invite"))
    do(st, (1, "play 7S"))
    assert legal(st) == {"play 7H", "play 9H", "play AH"}


@pytest.mark.rules("WIEN-PLAY-09")
def test_play_09_off_suit_card_does_not_win_without_trumps():
    # five without purchase is sans: the highest card of the led suit wins, and a high card of another
    # suit, played by a player void in the led suit, never does
    st = do(game(deal=LOW_DEAL), (1, "bid five_wp"), "pass", "pass")
    do(st, (1, "play 9S"), (2, "play 10S"))
    assert legal(st) == {"play AS"}                     # A must follow and beat
    do(st, (0, "play AS"))
    assert st.play.history[-1][1] == 0
    do(st, (0, "play QH"))
    assert legal(st) == {"play 7H", "play 8H"}          # B follows hearts (his are all lower)
    do(st, (1, "play 8H"))
    # C is void in hearts: any card; his KC does not win
    assert legal(st) == {"play " + c for c in ["10C", "JC", "QC", "KC", "JS", "QS", "KS", "9D", "10D"]}
    do(st, (2, "play KC"))
    assert st.play.history[-1][1] == 0


@pytest.mark.rules("WIEN-PLAY-06", "WIEN-PLAY-07")
def test_play_06_07_defenders_hands_open_after_the_first_trick_in_seven_and_eight():
    cases = [("seven", LOW_DEAL, "7C"), ("seven_wp", LOW_DEAL, "7C"), ("five", LOW_DEAL, "7C"),
             ("eight", TOP_DEAL, "AS"), ("eight_wp", TOP_DEAL, "AS"), ("six_wp", TOP_DEAL, "AS")]
    for name, deal, lead in cases:
        discard = "discard KH AH" if deal is LOW_DEAL else "discard KD AD"
        st = to_play(contract_by_bidding(name, deal=deal, discard=discard))
        assert "open_hands" not in st.observation(0)
        do(st, (1, "play " + lead))
        st.apply(st.legal_actions()[0])
        assert "open_hands" not in st.observation(1)       # not while the first trick is on the table
        st.apply(st.legal_actions()[0])
        assert len(st.play.history) == 1 and st.phase == "play", name
        obs = {s: st.observation(s) for s in range(3)}
        if name.startswith(("seven", "eight")):
            assert set(obs[1]["open_hands"]) == {0, 2}       # the declarer sees both defenders' cards
            assert set(obs[1]["open_hands"][2]) == codes(st.hands[2])
            assert set(obs[0]["open_hands"]) == {2}          # each defender sees the other's (WIEN-PLAY-07)
            assert set(obs[2]["open_hands"]) == {0}
            assert set(obs[0]["open_hands"][2]) == codes(st.hands[2])
            assert 1 not in obs[0]["open_hands"]             # the declarer's hand stays hidden
        else:
            assert all("open_hands" not in o for o in obs.values()), name


# ---- SCORE ------------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SCORE-01")
def test_score_01_payment_after_the_play():
    st = to_play(contract_by_bidding("two", seed=2, pot=10))
    money = list(st.accounts["money"])
    rng = random.Random(2)
    while not st.is_over():
        assert st.payments == [] and st.accounts["money"] == money and st.accounts["pot"] == 20
        st.apply(rng.choice([a for a in st.legal_actions() if A.kind_of(a) == A.PLAY]))
    assert st.payments and st.accounts["money"] != money


@pytest.mark.rules("WIEN-SCORE-10", "WIEN-SCORE-09", "WIEN-SCORE-05", "WIEN-SCORE-06")
def test_score_10_a_made_declarer_nets_the_value_of_his_own_tricks():
    checked = 0
    for seed in range(60):
        for name in ("one", "two_wp"):
            st = played_contract(name, seed, pot=20)           # pot 30 = the maximum: A = 30, 3 units a trick
            r = st.result()
            if not r["made"] or any(st.play.tricks_won[s] < 2 for s in (0, 2)):
                continue
            checked += 1
            assert r["payments"][1] == 3 * st.play.tricks_won[1]
            assert r["payments"][0] == 3 * st.play.tricks_won[0] and r["payments"][2] == 3 * st.play.tricks_won[2]
            assert r["pot"] == 0
    assert checked


@pytest.mark.rules("WIEN-SCORE-17", "WIEN-SCORE-16", "WIEN-SCORE-18", "WIEN-SCORE-19", "WIEN-CON-03")
@pytest.mark.parametrize("name", [n for n in PREMIUM if n != "hearts"])
def test_score_17_19_premium_contracts_pay_only_pot_and_premium(name):
    stake = 20
    for seed in range(6):
        st = played_contract(name, seed, options={"stake": stake, "maximum": 60})
        r = st.result()
        assert r["pot"] in (0, 2 * stake)
        premium = PREMIUM[name] * stake
        for s in (0, 2):
            # no trick money, no defender falls: each defender only exchanges the premium
            assert r["payments"][s] == (-premium if r["made"] else premium), (name, seed, st.play.tricks_won)
            assert pays(st, s, "pot") == []
        assert r["payments"][1] == (2 * premium + stake if r["made"] else -2 * premium - stake)
        assert pays(st, "pot", 1) == ([stake] if r["made"] else [])
        assert pays(st, 1, "pot") == ([] if r["made"] else [stake])


@pytest.mark.rules("WIEN-SCORE-19", "WIEN-SCORE-14", "WIEN-SCORE-15")
def test_score_19_hearts_premium_one_stake_even_to_a_stay_home_defender():
    for seed in range(10):
        st = contract_by_bidding("hearts", seed, pot=10, options={"stake": 20, "maximum": 60})
        do(st, (2, "go along"), (0, "stay home"), (2, "no invite"))
        play_random(st, random.Random(seed))
        made = st.result()["made"]
        for s in (0, 2):                                             # A stayed home and pays all the same
            assert (pays(st, s, 1, "premium") if made else pays(st, 1, s, "premium")) == [20], (seed, s)
        assert st.result()["payments"][0] == (-20 if made else 20)   # A: the premium and nothing else


@pytest.mark.rules("WIEN-SCORE-20", "WIEN-AMB-14", "WIEN-DEF-16")
def test_score_20_nobody_stays_home_in_five_to_eight_so_both_exchange_the_premium():
    for name in ("five", "five_wp", "six", "seven_wp", "eight"):
        st = contract_by_bidding(name, pot=30)                   # pot 40: going along is not compulsory
        assert st.phase == "play" and st.playing == (0, 1, 2)
        assert not any(t in ("go along", "stay home") for t in legal(st))
        play_random(st, random.Random(1))
        made = st.result()["made"]
        for s in (0, 2):
            assert (pays(st, s, 1) if made else pays(st, 1, s)) == [PREMIUM[name] * 10]


def ausfechten(seed, pot):
    st = do(game(seed, pot=pot), (1, "pass"), (2, "pass"), (0, "pass"))
    assert st.con.name == "ausfechten" and st.declarer is None
    return play_random(st, random.Random(seed))


@pytest.mark.rules("WIEN-SCORE-22", "WIEN-SCORE-21", "WIEN-SCORE-23", "WIEN-SCORE-04")
def test_score_22_23_ausfechten_ties_each_pay_one_stake_whatever_the_pot():
    ties = 0
    for seed in range(60):
        st = ausfechten(seed, pot=40)                            # the pot holds 5 stakes, the maximum 3
        top = max(st.play.tricks_won)
        payers = [s for s in range(3) if st.play.tricks_won[s] == top]
        ties += len(payers) == 2
        r = st.result()
        for s in range(3):
            assert r["payments"][s] == (-10 if s in payers else 0), (seed, st.play.tricks_won)
        assert r["pot"] == 50 + 10 * len(payers)
    assert ties


# ---- SESSION ----------------------------------------------------------------------------------------

@pytest.mark.rules("WIEN-SESS-01", "WIEN-SESS-05")
def test_sess_01_05_chips_and_bowl_are_customs_the_pot_is_an_account():
    customs = " ".join(RS.doc["customs"])
    assert "WIEN-SESS-01" in customs and "WIEN-SESS-05" in customs
    assert RS.doc["account"]["pot"]["per"] == "game"             # the bowl's content: one shared pot
    st = game(pot=0)
    assert st.accounts["pot"] == 10 and st.accounts["money"] == [-10, 0, 0]


@pytest.mark.rules("WIEN-SESS-02", "WIEN-SESS-03", "WIEN-EX-05")
@pytest.mark.parametrize("stake", [10, 20, 30])
def test_sess_02_03_stake_is_ten_units_and_a_trick_one_tenth(stake):
    spec = RS.doc["option"]["stake"]
    assert spec["default"] == 10 and spec["min"] == 10 and "divisible by ten" in spec["doc"]
    with pytest.raises(ValueError, match="minimum"):
        game(options={"stake": 5})                  # less than ten units is no stake (WIEN-SESS-02)
    st = played_contract("one", 5, options={"stake": stake, "maximum": stake})
    assert st.after_stake_accounts["pot"] == stake
    for s in (0, 2):
        assert pays(st, 1, s) == ([st.play.tricks_won[s] * stake // 10] if st.play.tricks_won[s] else [])


@pytest.mark.rules("WIEN-SESS-08", "WIEN-SESS-09", "WIEN-SESS-06", "WIEN-SESS-07")
def test_sess_08_dealer_rotates_and_the_pot_is_carried():
    sess = Session(RS, dealer=0, accounts={"pot": 0, "money": [0, 0, 0]})
    rng = random.Random(9)
    pots = []
    for k in range(4):
        st = sess.start(rng=rng)
        assert st.dealer == k % 3
        before = pots[-1] if pots else 0
        assert st.accounts["pot"] == before + 10                       # the new dealer's stake on top
        assert st.start_accounts["money"][st.dealer] - st.after_stake_accounts["money"][st.dealer] == 10
        while not st.is_over():
            st.apply(rng.choice(st.legal_actions()))
        sess.finish(st)
        pots.append(st.accounts["pot"])
        assert sess.dealer == (k + 1) % 3


@pytest.mark.rules("WIEN-SESS-02", "WIEN-SESS-03")
def test_sess_02_the_stake_must_be_divisible_by_ten():
    from interpreter.engine.rules import compile_rules

    rs = load("wien")
    assert rs.doc["option"]["stake"]["multiple_of"] == 10
    assert compile_rules(rs, {"stake": 20}).options["stake"] == 20
    with pytest.raises(ValueError, match="multiple of 10"):
        compile_rules(rs, {"stake": 25})
