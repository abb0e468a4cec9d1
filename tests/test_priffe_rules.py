"""The Priffe rule files against their catalog (../shared/rules/priffe.md): the cards, the seats and the
deal of games/priffe/priffe.stw (PRIFFE-DECK, PRIFFE-SEAT, PRIFFE-DEAL), the five-player file priffe-5 and
its rotation schedule (PRIFFE-SESS-08..15), the bid ladder and contracts, and how the four scoring variants
(PRIFFE-VAR-01..04) differ from the base file. What the engine does with them — auctions, play, scores,
sits and rubbers — is tested in tests/test_priffe_engine.py and the scenario files."""
from __future__ import annotations

import contextlib
import io
import json
from itertools import combinations

import pytest

from interpreter import cli, load
from interpreter.engine.seating import seats_by_draw
from interpreter.model.ruleset import thaw

FILES = ["priffe", "priffe-5", "priffe-honours50", "priffe-half-honours", "priffe-double-slam",
         "priffe-second-game-40"]
SCORING_VARIANTS = {"priffe-honours50": "honour_points", "priffe-half-honours": "honour_points",
                    "priffe-double-slam": "slam_points", "priffe-second-game-40": "target"}
PLAY_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

# PRIFFE-SESS-15: players at S0 (first dealer's seat), S1 (its left), S2 (opposite), S3 (its right).
SESS_15 = [[1, 3, 2, 4], [1, 3, 5, 2], [1, 5, 4, 2], [1, 5, 3, 4], [5, 2, 3, 4]]
SITS_OUT = [5, 4, 3, 2, 1]


@pytest.fixture(scope="module")
def base():
    return load("priffe", playable=False)


@pytest.fixture(scope="module")
def five():
    return load("priffe-5", playable=False)


def step(rs, role: str) -> int:
    """A role as a seat index 0..3 with the dealer at 0 (four at the table)."""
    return rs.roles[role] % 4


# ---- DECK ----------------------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-DECK-01")
def test_deck_01_standard_pack_of_52(base):
    assert base.deck_size == 52
    assert len(base.suits) == 4
    assert all(bin(base.suit_mask[s]).count("1") == 13 for s in base.suits)
    assert len({c.code for c in base.cards}) == 52


@pytest.mark.rules("PRIFFE-DECK-02")
def test_deck_02_ace_high_two_low_in_every_suit(base):
    for suit in base.suits:
        ranks = [c.rank for c in sorted((c for c in base.cards if c.suit == suit), key=lambda c: c.order)]
        assert ranks == PLAY_ORDER
    assert base.cards[base.card_index["AH"]].order > base.cards[base.card_index["KH"]].order
    assert base.cards[base.card_index["2S"]].order == 0


@pytest.mark.rules("PRIFFE-DECK-03", "PRIFFE-DEAL-06")
def test_deck_03_deal_06_second_deck_is_a_custom(base):
    customs = base.doc["customs"]
    assert any("PRIFFE-DECK-03" in c and "PRIFFE-DEAL-06" in c for c in customs)
    assert base.talon_size == 0 and "talon" not in base.doc    # the second deck is never part of a deal


# ---- SEAT ----------------------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-SEAT-01")
def test_seat_01_four_players_in_two_partnerships_of_two(base):
    assert base.players == 4 and base.seats == 4
    teams = base.doc["seating"]["teams"]
    assert len(teams) == 2 and all(len(t) == 2 for t in teams)
    assert sorted(s % 4 for t in teams for s in t) == [0, 1, 2, 3]


@pytest.mark.rules("PRIFFE-SEAT-02")
def test_seat_02_partners_sit_opposite(base):
    for a, b in base.doc["seating"]["teams"]:
        assert (a - b) % 4 == 2
        # each player has one opponent on his right and the other on his left
        assert {(a + 1) % 4, (a - 1) % 4}.isdisjoint({a % 4, b % 4})


@pytest.mark.rules("PRIFFE-SEAT-03", "PRIFFE-SESS-01", "PRIFFE-SESS-05")
def test_seat_03_a_sit_lasts_until_a_second_game_then_players_reseat(base):
    sit = base.doc["session"]["sit"]
    assert sit["ends"] == "any(account(games, t) >= 2 for t in sides)"
    assert sit["per_rubber"] == 3
    assert [r["after"] for r in sit["reseat"]] == [1, 2, 2]               # moves after the first and second sit
    assert "PRIFFE-SEAT-03" in sit["rule"]


@pytest.mark.rules("PRIFFE-SEAT-04")
def test_seat_04_seats_are_drawn(base):
    assert base.doc["seating"]["first_dealer"] == "draw"
    assert tuple(base.doc["seating"]["draw"]["compare"]) == ("rank", "suit")


@pytest.mark.rules("PRIFFE-SEAT-05")
def test_seat_05_draw_ranks_king_high_ace_low(base):
    ranks = [str(r) for r in base.doc["seating"]["draw"]["ranks"]]
    assert ranks[-1] == "K" and ranks[0] == "A"
    assert ranks == ["A"] + PLAY_ORDER[:-1]
    assert sorted(ranks) == sorted(PLAY_ORDER)               # every rank once


@pytest.mark.rules("PRIFFE-SEAT-06")
def test_seat_06_draw_suits_hearts_diamonds_spades_clubs(base):
    suits = list(base.doc["seating"]["draw"]["suits"])
    assert suits[::-1] == ["H", "D", "S", "C"]                # high to low


@pytest.mark.rules("PRIFFE-SEAT-05", "PRIFFE-SEAT-06", "PRIFFE-SEAT-07", "PRIFFE-SEAT-08", "PRIFFE-SEAT-09")
def test_seat_07_08_09_lowest_two_partner_lowest_deals_r3_left_r4_right(base):
    # ace lowest, king highest, equal kings by suit: AS < 2D < KC < KH
    seats = seats_by_draw(base, {"Anna": "KH", "Bo": "AS", "Cia": "KC", "Dan": "2D"})
    assert base.doc["seating"]["draw"]["dealer"] == "lowest"
    assert seats[0] == "Bo"                                    # r1 deals (PRIFFE-SEAT-08)
    assert seats[2] == "Dan"                                   # r2 opposite, his partner (PRIFFE-SEAT-07, -08)
    assert seats[step(base, "forehand")] == "Cia"              # r3 on the dealer's left (PRIFFE-SEAT-09)
    assert seats[(0 - 1) % 4] == "Anna"                        # r4 on the dealer's right
    teams = [{s % 4 for s in t} for t in base.doc["seating"]["teams"]]
    assert {0, 2} in teams                                     # the two lowest play together


@pytest.mark.rules("PRIFFE-SEAT-10", "PRIFFE-SESS-10", "PRIFFE-AMB-06")
def test_seat_10_with_five_the_highest_card_sits_out_first(five, base):
    assert five.seats == 5 and five.players == 4
    assert five.doc["seating"]["sit_out"] == "rotation"
    first = list(five.doc["seating"]["rotation"][0])
    assert 5 not in first                                      # player 5 drew the highest card
    # the other four sit as at four: player n is the n-th lowest card
    seats = seats_by_draw(five, {1: "AC", 2: "3C", 3: "9D", 4: "QH", 5: "KS"})
    assert 5 not in seats.values()
    assert [seats[i] for i in range(4)] == first
    assert five.doc["seating"]["draw"] == base.doc["seating"]["draw"]


# ---- DEAL ----------------------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-DEAL-01")
@pytest.mark.parametrize("name", FILES)
def test_deal_01_clockwise(name):
    assert load(name, playable=False).direction == "clockwise"


@pytest.mark.rules("PRIFFE-DEAL-02")
def test_deal_02_player_on_the_dealers_right_cuts(base):
    assert base.doc["deal"]["cut"] == "prev(dealer)"           # clockwise: the right is the previous seat


@pytest.mark.rules("PRIFFE-DEAL-03")
@pytest.mark.parametrize("name", ["priffe", "priffe-5"])
def test_deal_03_thirteen_each_one_at_a_time_no_talon(name):
    rs = load(name, playable=False)
    assert rs.hand_size == 13 and rs.talon_size == 0
    packets = rs.doc["deal"]["packets"]
    assert [dict(p) for p in packets] == [{"to": "each", "cards": 1, "repeat": 13}]
    assert rs.hand_size * rs.players == rs.deck_size
    assert "talon" not in rs.doc["procedure"]


@pytest.mark.rules("PRIFFE-DEAL-04")
def test_deal_04_forehand_first_then_second_third_rear_hand_the_dealer(base):
    assert base.doc["deal"]["start"] == "forehand"
    assert [step(base, r) for r in ("forehand", "second_hand", "third_hand", "rear_hand")] == [1, 2, 3, 0]
    assert base.roles["rear_hand"] == 0                         # rear hand is the dealer


@pytest.mark.rules("PRIFFE-DEAL-05", "PRIFFE-SEAT-01", "PRIFFE-SEAT-02")
def test_deal_05_forehand_with_third_hand_second_hand_with_the_dealer(base):
    teams = [sorted(s % 4 for s in t) for t in base.doc["seating"]["teams"]]
    assert sorted(teams) == sorted([sorted([step(base, "forehand"), step(base, "third_hand")]),
                                    sorted([step(base, "second_hand"), step(base, "rear_hand")])])
    assert [list(t) for t in base.doc["seating"]["teams"]] == [[1, 3], [2, 0]]


@pytest.mark.rules("PRIFFE-DEAL-07", "PRIFFE-AMB-05")
def test_deal_07_turn_to_deal_passes_clockwise(base):
    assert base.doc["session"]["dealer"] == "next(dealer)"
    assert base.doc["settle"]["pay"]                            # the score is recorded before the deal ends


# ---- SESSION: the five-player rotation ---------------------------------------------------------

@pytest.mark.rules("PRIFFE-SESS-08", "PRIFFE-SESS-15", "PRIFFE-SESS-22")
def test_sess_15_rotation_rows_match_the_derived_table(five):
    rows = [list(r) for r in five.doc["seating"]["rotation"]]
    assert rows == SESS_15
    assert len(rows) == five.doc["session"]["sit"]["per_rubber"] == 5
    assert five.doc["session"]["ends"] == "sits >= 5"
    assert [({1, 2, 3, 4, 5} - set(r)).pop() for r in rows] == SITS_OUT


@pytest.mark.rules("PRIFFE-SESS-15")
def test_sess_15_every_pair_partners_once_everyone_sits_out_once(five):
    rows = five.doc["seating"]["rotation"]
    pairs = []
    for r in rows:
        assert sorted(r) == sorted(set(r)) and len(r) == 4
        pairs += [frozenset((r[0], r[2])), frozenset((r[1], r[3]))]   # partners sit opposite
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, (frozenset(p) for p in combinations(range(1, 6), 2))))
    out = [({1, 2, 3, 4, 5} - set(r)).pop() for r in rows]
    assert sorted(out) == [1, 2, 3, 4, 5]


@pytest.mark.rules("PRIFFE-SESS-09", "PRIFFE-SESS-15")
def test_sess_09_pinnen_keeps_his_seat_and_partners_the_returning_player(five):
    rows = five.doc["seating"]["rotation"]
    assert [r[0] for r in rows[:4]] == [1, 1, 1, 1]
    for before, after in zip(rows[:3], rows[1:4]):
        returning = (set(after) - set(before)).pop()
        assert after[2] == returning                             # opposite pinnen at S0


def moved(before, after) -> dict[int, tuple]:
    """Who sits where, before → after, for players whose seat changed (None = out)."""
    where = lambda row, p: row.index(p) if p in row else None
    return {p: (where(before, p), where(after, p)) for p in range(1, 6) if where(before, p) != where(after, p)}


@pytest.mark.rules("PRIFFE-SESS-11", "PRIFFE-SESS-12", "PRIFFE-SESS-13", "PRIFFE-SESS-14")
def test_sess_11_to_14_the_moves_of_each_sit(five):
    r = five.doc["seating"]["rotation"]
    seat = lambda row, p: row.index(p)
    # sit 2: 4 out, 2 takes 4's seat, 5 comes in at 2's old seat
    assert moved(r[0], r[1]) == {4: (seat(r[0], 4), None), 2: (seat(r[0], 2), seat(r[0], 4)),
                                 5: (None, seat(r[0], 2))}
    # sit 3: 3 out, 5 takes 3's seat, 4 comes in at 5's old seat
    assert moved(r[1], r[2]) == {3: (seat(r[1], 3), None), 5: (seat(r[1], 5), seat(r[1], 3)),
                                 4: (None, seat(r[1], 5))}
    # sit 4: 2 out, 4 takes 2's seat, 3 comes in at 4's old seat
    assert moved(r[2], r[3]) == {2: (seat(r[2], 2), None), 4: (seat(r[2], 4), seat(r[2], 2)),
                                 3: (None, seat(r[2], 4))}
    # sit 5: 1 out, 2 comes in at 5's seat, 5 takes 1's seat
    assert moved(r[3], r[4]) == {1: (seat(r[3], 1), None), 5: (seat(r[3], 5), seat(r[3], 1)),
                                 2: (None, seat(r[3], 5))}


@pytest.mark.rules("PRIFFE-SESS-16")
def test_sess_16_a_game_is_one_rubber(base, five):
    assert base.doc["session"]["ends"] == "sits >= 3" and base.doc["session"]["sit"]["per_rubber"] == 3
    assert five.doc["session"]["sit"]["per_rubber"] == 5


# ---- AUCTION and CONTRACTS -----------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-AUC-01", "PRIFFE-AUC-02", "PRIFFE-AUC-04", "PRIFFE-AUC-09", "PRIFFE-CON-01",
                   "PRIFFE-CON-03", "PRIFFE-CON-04")
def test_auc_speak_once_ladder_and_passnolla(base):
    au = base.doc["auction"]
    assert au["style"] == "once" and au["first"] == "forehand" and au["raise"] == "higher"
    assert list(base.calls) == ["klover", "spader", "ruter", "hjarter", "nolla", "priffe"]
    assert [base.call(c)["rank"] for c in base.calls] == [1, 2, 3, 4, 5, 6]
    assert au["all_pass"]["contract"] == "passnolla"
    for c in ("klover", "spader"):
        assert list(base.call(c)["contracts"]) == ["passnolla"]
    for c in ("ruter", "hjarter", "nolla", "priffe"):
        assert list(base.call(c)["contracts"]) == [c]
    assert base.contract("passnolla")["side"] == "no_declarer"
    assert "passnolla" not in base.calls                       # cannot be bid


@pytest.mark.rules("PRIFFE-CON-05", "PRIFFE-CON-06", "PRIFFE-CON-07", "PRIFFE-CON-09", "PRIFFE-CON-10",
                   "PRIFFE-CON-11", "PRIFFE-PLAY-06")
def test_con_11_trumps_and_honours(base):
    assert [base.contract(c)["trump"] for c in ("ruter", "hjarter", "nolla", "priffe", "passnolla")] == \
        ["D", "H", None, None, None]
    hon = {c: set(base.codes(base.mask(base.contract(c)["honours"]))) for c in base.contracts}
    assert hon["ruter"] == {"AD", "KD", "QD", "JD"}
    assert hon["hjarter"] == {"AH", "KH", "QH", "JH"}
    assert hon["priffe"] == {"AC", "AS", "AD", "AH"}
    assert hon["nolla"] == hon["passnolla"] == {"2C", "2S", "2D", "2H"}


# ---- SCORE ---------------------------------------------------------------------------------------

# PRIFFE-SCORE-12: s = the declaring side's stick → (trick points, honour points) of the side that scores,
# for positive contracts and for nolla; True = the declaring side scores.
SCORE_12 = {
    13: ((True, 70, 20), (False, 70, 90)), 12: ((True, 60, 10), (False, 60, 70)),
    11: ((True, 50, 0), (False, 50, 50)), 10: ((True, 40, 0), (False, 40, 40)),
    9: ((True, 30, 0), (False, 30, 30)), 8: ((True, 20, 0), (False, 20, 20)),
    7: ((True, 10, 0), (False, 10, 10)), 6: ((False, 10, 10), (True, 10, 0)),
    5: ((False, 20, 20), (True, 20, 0)), 4: ((False, 30, 30), (True, 30, 0)),
    3: ((False, 40, 40), (True, 40, 0)), 2: ((False, 50, 50), (True, 50, 0)),
    1: ((False, 60, 70), (True, 60, 10)), 0: ((False, 70, 90), (True, 70, 20)),
}


@pytest.mark.rules("PRIFFE-SCORE-19", "PRIFFE-SCORE-20", "PRIFFE-SCORE-21", "PRIFFE-SCORE-22", "PRIFFE-SCORE-23",
                   "PRIFFE-SCORE-29", "PRIFFE-SCORE-30", "PRIFFE-SCORE-31", "PRIFFE-SCORE-32", "PRIFFE-SCORE-33",
                   "PRIFFE-SCORE-34", "PRIFFE-SESS-19", "PRIFFE-SESS-20",
                   "PRIFFE-SESS-21", "PRIFFE-AMB-08", "PRIFFE-AMB-10")
def test_protocol_chips_and_new_rubber_are_recorded_as_customs(base):
    """How the score is written down or counted in chips does not change it: these ids are customs,
    shown in the booklet and never enforced."""
    customs = " ".join(base.doc["customs"])
    for n in (19, 20, 21, 22, 23, 29, 30, 31, 32, 33, 34):
        assert f"PRIFFE-SCORE-{n:02d}" in customs
    for n in (19, 20, 21):
        assert f"PRIFFE-SESS-{n:02d}" in customs
    assert "PRIFFE-SESS-06" in base.doc["option"]["new_rubber"]["doc"]     # a rule now: the new_rubber option
    assert "PRIFFE-AMB-08" in customs and "PRIFFE-AMB-10" in customs
    assert set(base.doc["account"]) == {"score", "partial", "games", "row", "sits"}   # no chip accounts


@pytest.mark.rules("PRIFFE-SESS-02", "PRIFFE-SESS-03", "PRIFFE-SESS-04")
def test_sess_02_to_04_four_player_reseating_is_data(base):
    rows = base.doc["session"]["sit"]["reseat"]
    assert all(len(r["swap"]) == 2 for r in rows)             # rows the engine runs, not prose
    assert [r["rule"].split(":")[0] for r in rows] == ["PRIFFE-SEAT-03, PRIFFE-SESS-02", "PRIFFE-SESS-03",
                                                       "PRIFFE-SESS-03, PRIFFE-SESS-04"]
    assert "tvångsbyte" in rows[2]["rule"]
    assert "rotation" not in base.doc["seating"]              # four players reseat by rule, not by schedule


# ---- VARIANTS ------------------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-VAR-01", "PRIFFE-VAR-02", "PRIFFE-VAR-03", "PRIFFE-VAR-04")
@pytest.mark.parametrize("name, let", sorted(SCORING_VARIANTS.items()))
def test_variants_change_only_their_scoring_rule(base, name, let):
    d, b = thaw(load(name, playable=False).doc), thaw(base.doc)
    assert d["let"][let] != b["let"][let]
    for doc in (d, b):
        doc.pop("title")
        doc["let"].pop(let)
    assert d == b


@pytest.mark.rules("PRIFFE-VAR-05", "PRIFFE-VAR-06")
def test_var_05_06_are_customs_not_rule_changes(base):
    customs = " ".join(base.doc["customs"])
    assert "PRIFFE-VAR-05" in customs and "PRIFFE-VAR-06" in customs
    assert base.contract("passnolla") and not any(base.contract(c).get("trump") in ("C", "S") for c in base.contracts)


# ---- every file validates ------------------------------------------------------------------------

@pytest.mark.rules("PRIFFE-DECK-01", "PRIFFE-SEAT-01", "PRIFFE-DEAL-03")
@pytest.mark.parametrize("name", FILES)
def test_file_validates(name):
    """Every Priffe file validates without an error: nothing in it is pending (E410) any more."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate", name, "--json"]) == 0, out.getvalue()
    [report] = json.loads(out.getvalue())
    assert not [d for d in report["diagnostics"] if d["severity"] == "error"]
