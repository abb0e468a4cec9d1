"""Priffe through the engine: the auction and its passnolla, the partnerships, the lead, the play, the
scoring of every stick count, honours, games and partial scores, the variants, and sessions of sits and
rubbers with the four-player reseating and the five-player rotation. Every test deals explicit hands or
drives a session, applies actions in their text form or states a deal's trick counts, and reads what the
engine booked; nothing here computes a score itself.

Seats A, B, C, D = 0, 1, 2, 3 with D dealing, so A is forehand, B second hand, C third hand and the
partnerships are A-C against B-D (PRIFFE-DEAL-04, PRIFFE-DEAL-05)."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.engine import new_game
from interpreter.engine.deals import validate_deal
from interpreter.engine.phases.play import own_play
from interpreter.engine.phases.settle import apply_rows
from interpreter.engine.session import Session
from interpreter.engine.text import parse

BASE = load("priffe")
A, B, C, D = 0, 1, 2, 3
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def split_hands() -> list[list[str]]:
    """Every suit dealt round the table from a different seat: each partnership holds two of every
    contract's four honours (two aces, two twos, two of the top four diamonds and hearts)."""
    hands: list[list[str]] = [[], [], [], []]
    for k, suit in enumerate("CSDH"):
        for i, r in enumerate(RANKS):
            hands[(i + k) % 4].append(r + suit)
    return hands


def swap(hands: list[list[str]], a: str, b: str) -> list[list[str]]:
    """The hands with cards a and b exchanged between their holders."""
    out = [list(h) for h in hands]
    ha = next(h for h in out if a in h)
    hb = next(h for h in out if b in h)
    ha[ha.index(a)], hb[hb.index(b)] = b, a
    return out


SPLIT = split_hands()


def deal(rs=BASE, hands=None, dealer: int = D):
    return new_game(rs, deal={"hands": hands or SPLIT, "talon": []}, dealer=dealer)


def act(st, *moves: tuple[int, str]):
    for seat, text in moves:
        assert st.current_player() == seat, (st.phase, st.current_player(), seat, text)
        st.apply(parse(st, text))
    return st


def settle(st, contract: str, declarer: int | None, tricks: list[int]):
    """Finish a deal by its stated result: the contract, its declarer and the stick each seat took."""
    st.con = st.R.contracts[contract]
    st.declarer = declarer
    own_play(st).tricks_won = list(tricks)
    st.phase_i = len(st.R.procedure)
    apply_rows(st, st.R.settle_rows, record=True)
    st.settled = True
    st._end()
    return st


def spread(ours: int) -> list[int]:
    """Stick per seat when A-C take `ours` of the 13."""
    theirs = 13 - ours
    return [(ours + 1) // 2, (theirs + 1) // 2, ours // 2, theirs // 2]


def score(st, seat: int) -> int:
    return st.account("score", seat)


# ---- AUCTION -------------------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-AUC-01", "PRIFFE-AUC-02", "PRIFFE-AUC-03", "PRIFFE-AUC-07", "PRIFFE-AUC-08",
                   "PRIFFE-CON-02", "PRIFFE-SEAT-01", "PRIFFE-SEAT-02", "PRIFFE-DEAL-05")
def test_auc_each_speaks_once_the_final_bid_is_played_with_the_partner():
    st = act(deal(), (A, "bid ruter"), (B, "pass"), (C, "bid hjarter"), (D, "pass"))
    assert st.phase == "play"                              # rear hand has spoken: the bidding is over
    assert (st.contract, st.declarer) == ("hjarter", C)
    assert set(st.declarers) == {A, C} and set(st.defenders) == {B, D}


@pytest.mark.rules("PRIFFE-AUC-04", "PRIFFE-AUC-05")
def test_auc_04_05_the_ladder_and_only_the_first_two_invite():
    st = deal()
    first = {st.action_text(a) for a in st.legal_actions()}
    assert first == {"pass", "bid klöver", "bid spader", "bid ruter", "bid hjärter", "bid nolla", "bid priffe"}
    act(st, (A, "bid spader"))
    assert {st.action_text(a) for a in st.legal_actions()} == {"pass", "bid ruter", "bid hjärter", "bid nolla",
                                                                "bid priffe"}
    st = act(deal(), (A, "pass"), (B, "pass"))
    third = {st.action_text(a) for a in st.legal_actions()}
    assert "bid klöver" not in third and "bid spader" not in third and "bid ruter" in third


@pytest.mark.rules("PRIFFE-AUC-06")
def test_auc_06_priffe_before_rear_hand_ends_the_bidding():
    st = act(deal(), (A, "pass"), (B, "bid priffe"))
    assert st.phase == "play" and (st.contract, st.declarer) == ("priffe", B)


@pytest.mark.rules("PRIFFE-AUC-09", "PRIFFE-CON-03", "PRIFFE-CON-04", "PRIFFE-CON-10", "PRIFFE-AMB-02")
@pytest.mark.parametrize("invitation", ["klover", "spader", None])
def test_con_03_04_a_final_invitation_or_all_pass_is_passnolla_without_a_declarer(invitation):
    st = deal()
    act(st, (A, f"bid {invitation}" if invitation else "pass"), (B, "pass"), (C, "pass"), (D, "pass"))
    assert st.contract == "passnolla"
    assert st.declarer is None and st.declarers == () and set(st.defenders) == {A, B, C, D}
    assert st.partner == {A: C, C: A, B: D, D: B}          # the partnerships still play together
    assert st.play.leader == A                             # forehand leads (PRIFFE-PLAY-01)


# ---- PLAY ----------------------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-PLAY-01", "PRIFFE-PLAY-02", "PRIFFE-AMB-11")
def test_play_01_02_forehand_leads_except_in_priffe_where_the_declarers_right_hand_does():
    assert act(deal(), (A, "pass"), (B, "bid nolla"), (C, "pass"), (D, "pass")).play.leader == A
    assert act(deal(), (A, "bid ruter"), (B, "pass"), (C, "pass"), (D, "pass")).play.leader == A
    assert act(deal(), (A, "pass"), (B, "pass"), (C, "bid priffe")).play.leader == B
    assert act(deal(), (A, "bid priffe")).play.leader == D
    assert act(deal(), (A, "pass"), (B, "pass"), (C, "pass"), (D, "bid priffe")).play.leader == C


@pytest.mark.rules("PRIFFE-PLAY-03", "PRIFFE-PLAY-04", "PRIFFE-PLAY-05", "PRIFFE-PLAY-06", "PRIFFE-PLAY-07",
                   "PRIFFE-PLAY-08", "PRIFFE-CON-05")
def test_play_follow_suit_no_duty_to_trump_highest_trump_wins_and_thirteen_stick():
    # D's clubs 5C 9C KC go to C for his diamonds 2D 6D 10D: D is void in clubs and holds trumps
    hands = swap(swap(swap(SPLIT, "5C", "2D"), "9C", "6D"), "KC", "10D")
    st = act(deal(hands=hands), (A, "bid ruter"), (B, "pass"), (C, "pass"), (D, "pass"))
    act(st, (A, "play AC"))
    assert {st.action_text(a) for a in st.legal_actions()} == {"play 3C", "play 7C", "play JC"}
    act(st, (B, "play 3C"), (C, "play 4C"))
    legal_d = {st.action_text(a) for a in st.legal_actions()}
    assert "play QS" in legal_d and "play 2D" in legal_d  # void in clubs: any card, trumping not forced
    act(st, (D, "play 2D"))
    assert st.play.history[-1][1] == D                    # the only trump beats the ace led
    assert st.current_player() == D                       # the winner leads next
    while not st.is_over():
        st.apply(st.legal_actions()[0])
    assert sum(st.play.tricks_won) == 13 and st.settled   # all thirteen stick, then the scoring


# ---- SCORE ---------------------------------------------------------------------------------------

# PRIFFE-SCORE-12: A-C's stick s → (A-C score, trick points, honour points) for a positive contract and
# for nolla, A declaring; True = A-C score, False = B-D.
SCORE_12 = {
    13: ((True, 70, 20), (False, 70, 90)), 12: ((True, 60, 10), (False, 60, 70)),
    11: ((True, 50, 0), (False, 50, 50)), 10: ((True, 40, 0), (False, 40, 40)),
    9: ((True, 30, 0), (False, 30, 30)), 8: ((True, 20, 0), (False, 20, 20)),
    7: ((True, 10, 0), (False, 10, 10)), 6: ((False, 10, 10), (True, 10, 0)),
    5: ((False, 20, 20), (True, 20, 0)), 4: ((False, 30, 30), (True, 30, 0)),
    3: ((False, 40, 40), (True, 40, 0)), 2: ((False, 50, 50), (True, 50, 0)),
    1: ((False, 60, 70), (True, 60, 10)), 0: ((False, 70, 90), (True, 70, 20)),
}


@pytest.mark.rules("PRIFFE-SCORE-01", "PRIFFE-SCORE-02", "PRIFFE-SCORE-03", "PRIFFE-SCORE-04", "PRIFFE-SCORE-05",
                   "PRIFFE-SCORE-10", "PRIFFE-SCORE-11", "PRIFFE-SCORE-12", "PRIFFE-SCORE-13", "PRIFFE-SCORE-14",
                   "PRIFFE-CON-05", "PRIFFE-CON-06", "PRIFFE-CON-07", "PRIFFE-CON-08", "PRIFFE-CON-09",
                   "PRIFFE-AMB-01", "PRIFFE-AMB-03")
@pytest.mark.parametrize("contract", ["ruter", "hjarter", "priffe", "nolla"])
@pytest.mark.parametrize("ours", range(14))
def test_score_12_every_stick_count(contract, ours):
    st = settle(deal(), contract, A, spread(ours))
    ac_scores, tp, hon = SCORE_12[ours][1 if contract == "nolla" else 0]
    game = 10 if tp >= 30 else 0                         # a first game from a clean sheet; honours never count
    got = (score(st, A), score(st, B))
    assert got == ((tp + hon + game, 0) if ac_scores else (0, tp + hon + game))
    assert score(st, C) == score(st, A) and score(st, D) == score(st, B)     # one account per partnership
    winner = A if ac_scores else B
    assert st.account("games", winner) == (1 if game else 0)
    assert st.account("partial", winner) == (0 if game else tp)
    assert st.made == ((ours >= 7) if contract != "nolla" else (ours <= 6))


@pytest.mark.rules("PRIFFE-SCORE-06", "PRIFFE-AMB-02", "PRIFFE-CON-10")
@pytest.mark.parametrize("fewer", range(7))
def test_score_06_passnolla_the_side_with_fewer_stick_scores_no_penalty(fewer):
    st = settle(deal(), "passnolla", None, spread(13 - fewer))
    tp = 10 * (7 - fewer)
    slam = {0: 20, 1: 10}.get(fewer, 0)
    assert (score(st, A), score(st, B)) == (0, tp + slam + (10 if tp >= 30 else 0))


@pytest.mark.rules("PRIFFE-SCORE-07", "PRIFFE-SCORE-08", "PRIFFE-SCORE-09", "PRIFFE-CON-11", "PRIFFE-EX-02",
                   "PRIFFE-AMB-12", "PRIFFE-VAR-01", "PRIFFE-VAR-02")
@pytest.mark.parametrize("rules, held, one_hand, expected", [
    ("priffe", 2, False, 0), ("priffe", 3, False, 20), ("priffe", 4, False, 40), ("priffe", 4, True, 40),
    ("priffe-honours50", 3, False, 20), ("priffe-honours50", 4, False, 40), ("priffe-honours50", 4, True, 50),
    ("priffe-half-honours", 3, False, 10), ("priffe-half-honours", 4, False, 20), ("priffe-half-honours", 4, True, 20),
])
def test_score_08_honours_per_partnership_and_hand(rules, held, one_hand, expected):
    # SPLIT: A holds AC, C holds AD; B holds AS, D holds AH. Three: AS goes to C; four: AH to C as well;
    # four in one hand: AS, AH and AD all go to A
    hands = SPLIT
    if one_hand:
        hands = swap(swap(swap(hands, "AS", "6C"), "AH", "10C"), "AD", "2C")
    elif held >= 3:
        hands = swap(hands, "AS", "QC")
        if held == 4:
            hands = swap(hands, "AH", "JS")
    rs = load(rules)
    aces = {s: sum(1 for c in h if c.startswith("A")) for s, h in enumerate(hands)}
    assert aces[A] + aces[C] == held and (aces[A] == 4) == one_hand
    st = settle(deal(rs, hands), "priffe", B, spread(7))   # B-D fail by one: A-C 10 + 10 besides honours
    assert score(st, A) == 20 + expected
    assert score(st, B) == 0                              # paid whatever the contract's outcome


@pytest.mark.rules("PRIFFE-VAR-03")
def test_var_03_defenders_slams_pay_double():
    plain = settle(deal(), "priffe", B, spread(12))        # B-D take 1 stick: A-C 6 penalty tricks
    double = settle(deal(load("priffe-double-slam")), "priffe", B, spread(12))
    assert score(double, A) - score(plain, A) == 10       # lilla straffslam 20 instead of 10
    made = settle(deal(load("priffe-double-slam")), "priffe", A, spread(13))
    assert score(made, A) == settle(deal(), "priffe", A, spread(13)).account("score", A)   # declarers' slams stay


# ---- games and partial scores across deals (a session) ----------------------------------------------

def play_out(sess: Session, contract: str, declarer: int | None, ours: int, hands=None):
    """One deal of the session, finished by its stated result."""
    masks, talon = validate_deal(sess.R, hands or SPLIT, [])
    st = sess.start(hands=masks, talon=talon)
    settle(st, contract, declarer, spread(ours))
    sess.finish(st)
    return st


def seat_of(sess: Session, player: int) -> int:
    return sess.table.seat_player.index(player)


@pytest.mark.rules("PRIFFE-SCORE-15", "PRIFFE-SCORE-16", "PRIFFE-SCORE-17", "PRIFFE-SCORE-18", "PRIFFE-AMB-04",
                   "PRIFFE-SESS-01", "PRIFFE-SCORE-24", "PRIFFE-SCORE-25", "PRIFFE-SCORE-26", "PRIFFE-SCORE-28")
def test_score_15_17_partials_games_and_the_sit():
    sess = Session(BASE, dealer=D)
    st = play_out(sess, "priffe", A, 9)                   # A-C 30: first game (+10)
    assert (st.account("games", A), st.account("partial", A), score(st, A)) == (1, 0, 40)
    st = play_out(sess, "priffe", B, 5)                   # B-D 8 stick: 20, a partial score
    assert (st.account("partial", B), score(st, B)) == (20, 20)
    st = play_out(sess, "nolla", A, 4)                    # A-C nolla 4 stick: 30, their second game …
    assert sess.deals[-1].get("sit_end")                  # … which ends the sit
    rows = sess.deals[-1]["sit_end"]["rows"]
    diff = (40 + 30 + 20 - 20) // 10
    assert [rows[p]["row"] for p in range(4)] == [diff, -diff, diff, -diff]
    assert sum(r["row"] for r in rows.values()) == 0


@pytest.mark.rules("PRIFFE-SCORE-17")
def test_score_17_a_game_wipes_both_sides_partial_scores():
    sess = Session(BASE, dealer=D)
    play_out(sess, "priffe", B, 5)                        # B-D 8 stick: partial 20 for B-D
    st = play_out(sess, "priffe", A, 11)                  # A-C 50: game; surplus and B-D's partial gone
    assert (st.account("partial", A), st.account("partial", B)) == (0, 0)


@pytest.mark.rules("PRIFFE-VAR-04")
def test_var_04_the_second_game_needs_40():
    for rules, ends in (("priffe", True), ("priffe-second-game-40", False)):
        sess = Session(load(rules), dealer=D)
        play_out(sess, "priffe", A, 9)                    # first game
        play_out(sess, "priffe", A, 9)                    # 30 more: a second game only at 30
        assert bool(sess.deals[-1].get("sit_end")) == ends


# ---- sits and rubbers ----------------------------------------------------------------------------

def partners(sess: Session) -> set[frozenset]:
    sp = sess.table.seat_player
    return {frozenset((sp[0], sp[2])), frozenset((sp[1], sp[3]))}


def win_a_sit(sess: Session, deals: int) -> None:
    """A sit of `deals` deals: A-C's seats lose all but the last two, which make two games."""
    for _ in range(deals - 2):
        play_out(sess, "priffe", A, 6)                     # 10 + 10 to B-D, no game
    play_out(sess, "priffe", A, 13)
    play_out(sess, "priffe", A, 13)


@pytest.mark.rules("PRIFFE-SEAT-03", "PRIFFE-SESS-02", "PRIFFE-SESS-03", "PRIFFE-SESS-04", "PRIFFE-SESS-05",
                   "PRIFFE-SESS-16", "PRIFFE-SESS-17", "PRIFFE-SESS-18", "PRIFFE-SCORE-27", "PRIFFE-AMB-05")
@pytest.mark.parametrize("first, second", [(2, 2), (2, 3), (3, 2), (3, 3), (4, 2)])
def test_sess_02_05_three_sits_every_pair_partners_once(first, second):
    sess = Session(BASE, dealer=D, options={"point_value": 2})
    seen = [partners(sess)]
    win_a_sit(sess, first)
    dealer = sess.dealer
    before, after = sess.deals[-1]["sit_end"]["seats"], sess.table.seat_player
    # PRIFFE-SESS-02: the next dealer and forehand stay, the other two change places
    assert after[dealer] == before[dealer] and after[(dealer + 1) % 4] == before[(dealer + 1) % 4]
    assert {after[(dealer + 2) % 4], after[(dealer + 3) % 4]} == {before[(dealer + 2) % 4], before[(dealer + 3) % 4]}
    assert after != tuple(before)
    seen.append(partners(sess))
    win_a_sit(sess, second)
    dealer = sess.dealer
    before, after = sess.deals[-1]["sit_end"]["seats"], sess.table.seat_player
    fore = before[(dealer + 1) % 4]
    forced = frozenset((before[dealer], fore)) not in seen[0] | seen[1]
    # PRIFFE-SESS-03/04: the dealer stays; the neighbour who partnered him stays; forehand moves only if not
    assert after[dealer] == before[dealer]
    assert (after[(dealer + 1) % 4] != fore) == forced
    assert any("tvångsbyte" in m for m in sess.deals[-1]["sit_end"]["moves"]) == forced
    seen.append(partners(sess))
    assert len(set().union(*seen)) == 6                   # all three pairings, each once
    win_a_sit(sess, 2)
    assert sess.ended and sess.table.rubber == 2           # the rubber and the game are over
    final = sess.close()
    rows = sess.accounts["row"]
    assert sum(rows) == 0 and final == {p: 2 * rows[p] for p in range(4)}   # the last row entry × the rate


@pytest.mark.rules("PRIFFE-SESS-06", "PRIFFE-SESS-07")
@pytest.mark.parametrize("choice", ["stay", "draw"])
def test_sess_06_new_rubber_stay_or_draw(choice):
    sess = Session(BASE, dealer=D, options={"new_rubber": choice})
    for _ in range(3):
        win_a_sit(sess, 2)
    last = tuple(sess.deals[-1]["sit_end"]["seats"])
    assert sess.table.rubber == 2 and sess.table.partners == set()
    if choice == "stay":                                   # a långsits: the same seats again
        assert sess.table.seat_player == last
    else:
        assert sess.deals[-1]["sit_end"]["moves"] == ["seats drawn again for the new rubber"]


# ---- five players --------------------------------------------------------------------------------

SESS_15 = [[1, 3, 2, 4], [1, 3, 5, 2], [1, 5, 4, 2], [1, 5, 3, 4], [5, 2, 3, 4]]


@pytest.mark.rules("PRIFFE-SESS-08", "PRIFFE-SESS-09", "PRIFFE-SESS-10", "PRIFFE-SESS-11", "PRIFFE-SESS-12",
                   "PRIFFE-SESS-13", "PRIFFE-SESS-14", "PRIFFE-SESS-15", "PRIFFE-SESS-22", "PRIFFE-SEAT-10",
                   "PRIFFE-AMB-06")
def test_sess_08_15_five_players_by_the_rotation():
    sess = Session(load("priffe-5"), dealer=0)
    assert sess.R.n_seats == 4 and sess.table.people == 5
    pairs: list[frozenset] = []
    for sit in range(5):
        assert [p + 1 for p in sess.table.seat_player] == SESS_15[sit]
        pairs += [frozenset(x) for x in partners(sess)]
        win_a_sit(sess, 2 + sit % 2)
        record = sess.deals[-1]["sit_end"]
        assert record["bench"] == [4 - sit]               # 5, 4, 3, 2, 1 sit out in turn
        benched = record["bench"][0]
        assert record["rows"][benched] == record["before"][benched]   # no entry for the one sitting out
    assert len(set(pairs)) == 10                           # every pair of the five partners exactly once
    assert sess.ended and sum(sess.accounts["row"]) == 0
    assert len(sess.close()) == 5


# ---- simulation: rubbers end by their own rule, rows sum to zero, determinism --------------------------

@pytest.mark.rules("PRIFFE-SESS-16", "PRIFFE-SCORE-28")
@pytest.mark.parametrize("name", ["priffe", "priffe-5"])
def test_simulated_sessions_end_by_rule_and_balance(name):
    from interpreter.harness.runner import simulate_sessions

    one = simulate_sessions(name, 6, 200, seed=3)
    two = simulate_sessions(name, 6, 200, seed=3, workers=2)
    assert one["ended_by_rule"] == 6 and one["largest_imbalance"] == 0
    for s in (one, two):
        s.pop("_elapsed")
    assert one == two


# ---- the protocol and the bots' conventions ---------------------------------------------------------

@pytest.mark.rules("PRIFFE-EX-05", "PRIFFE-SCORE-20", "PRIFFE-SCORE-21", "PRIFFE-SCORE-22", "PRIFFE-SCORE-23",
                   "PRIFFE-SCORE-24", "PRIFFE-SCORE-26")
def test_protocol_shows_rows_columns_games_and_the_result():
    from interpreter.present.protocol import protocol_lines

    sess = Session(BASE, dealer=D)
    play_out(sess, "priffe", A, 11)
    play_out(sess, "ruter", B, 7)                          # B-D take 6: A-C a penalty trick
    play_out(sess, "hjarter", C, 9)
    lines = protocol_lines(sess)
    assert "  player 1: +13" in lines and "  player 2: -13" in lines
    assert "Sit 1: we = players 1 & 3, they = players 2 & 4" in lines
    rows = [line.split("‖")[0].split() for line in lines if "‖" in line]
    assert ["50", "[10]"] in rows and ["10", "10"] in rows and ["30", "[20]"] in rows   # trick [game] honour
    assert "result: we +13 each, they -13 each" in lines


@pytest.mark.rules("PRIFFE-CONV-07", "PRIFFE-CONV-22", "PRIFFE-CONV-06", "PRIFFE-CONV-15")
def test_conv_the_rule_bot_invites_and_answers_by_the_conventions():
    from interpreter.bots.rule import RuleBot

    bot = RuleBot(seed=1)
    # three aces and stoppers in every suit for A: a big invitation (spader); C answers with priffe
    hands = swap(swap(SPLIT, "AS", "6C"), "AH", "3H")
    st = deal(hands=hands)
    assert st.action_text(bot.choose(st)) == "bid spader"
    act(st, (A, "bid spader"), (B, "pass"))
    assert st.action_text(bot.choose(st)) == "bid priffe"
    # a hand with nothing to open with passes (PRIFFE-CONV-15)
    weak = deal(hands=swap(swap(SPLIT, "AC", "3C"), "KS", "2S"))
    assert weak.action_text(bot.choose(weak)) in ("pass", "bid nolla")
