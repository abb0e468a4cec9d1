"""Königrufen's declaration round through the engine: who opens, declares and may say which kontra on
which item, each chain on its own, the round's end, and what settlement reads from it. Every test deals
explicit hands (dealer seat 0, so forehand is seat 1 and the order of play is 1, 2, 3, 0) and drives the
engine with legal actions in their text form."""
from __future__ import annotations

import pytest

from interpreter import load
from interpreter.bots.rule import RuleBot
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.context import Ctx
from interpreter.engine.phases.announce import end_of_turn
from interpreter.engine.phases.announce_text import summary
from interpreter.engine.text import parse

RS = load("koenigrufen")

# forehand (1) is strong in taroks and holds the pagat's neighbours; seat 2 holds the king of hearts
# and the pagat, seat 3 the king of diamonds
DEAL = {
    1: "SK T21 T20 T19 T18 T17 T16 KS KC 7S 8C 9C",
    2: "KH QH CH JH 1H 2H T1 T2 T3 T4 T5 7C",
    3: "KD QD CD JD 1D 2D 3D T6 T7 T8 T9 10C",
    0: "QS CS JS 10S 9S 8S QC CC JC T10 T11 T12",
    "talon": "4D 3H 4H T13 T14 T15",
}


def game(deal: dict = DEAL):
    hands = [deal.get(s, "").split() for s in range(RS.seats)]
    return new_game(RS, deal={"hands": hands, "talon": deal["talon"].split()}, dealer=0)


def act(st, seat: int, *texts: str) -> None:
    for text in texts:
        assert st.current_player() == seat, (st.phase, st.current_player(), seat, text)
        st.apply(parse(st, text))


def legal(st) -> set[str]:
    return {st.action_text(a) for a in st.legal_actions()}


def to_round(call: str, king: str | None = None, choose: str | None = None, deal: dict = DEAL):
    """Forehand (1) bids `call`, the others pass; he calls `king` and buys the first packet, discarding
    the first cards the rules allow, or chooses `choose` after mein spiel; the round then opens."""
    st = game(deal)
    act(st, 3, "cut")
    act(st, 1, "bid " + ("mein_spiel" if choose else call))
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    if choose:
        st.apply(A.make(A.DECLARE, st.R.contract_index[choose]))
    if king:
        act(st, 1, "call " + king)
    while st.phase == "talon":
        st.apply(st.legal_actions()[0])
    return st


def end_turn(st, seat: int) -> None:
    assert st.current_player() == seat
    st.apply(end_of_turn(st))


# ---- the round ------------------------------------------------------------------------------------

@pytest.mark.rules("KR-ANN-01", "KR-ANN-25", "KR-ANN-26", "KR-ANN-28", "KR-AMB-13")
def test_the_declarer_opens_after_the_buy_and_three_passes_in_a_row_end_the_round():
    st = to_round("rufer", "KH")
    assert st.phase == "announce" and st.current_player() == 1
    assert "I am ready" in legal(st) and "pass" not in legal(st)    # his opening statement is no pass
    passed = st.R.compiler.text("[passed(1), passed(2), passed(3)]")
    assert passed(Ctx(st)) == (False, False, False)                # the round's passes, none yet
    act(st, 1, "I am ready")
    act(st, 2, "pass")
    act(st, 3, "pass")
    assert passed(Ctx(st)) == (False, True, True)
    assert st.phase == "announce"                                  # two passes only
    act(st, 0, "pass")
    assert st.phase == "play"                                      # the third in a row ends it


@pytest.mark.rules("KR-ANN-27", "KR-ANN-17", "KR-ANN-19", "KR-ANN-18", "KR-AMB-10", "KR-CON-09", "KR-AMB-12")
def test_a_seat_that_passed_may_declare_later_and_the_partners_declaration_shows_the_side():
    st = to_round("rufer", "KH")
    act(st, 1, "declare grammeln", "I am ready")
    assert "declare kung_ultimo" not in legal(st) or st.current_player() == 2
    act(st, 2, "pass")                                             # the partner (holds KH) passes …
    act(st, 3, "kontra grammeln", "done")                          # … a kontra resets the count
    act(st, 0, "pass")
    act(st, 1, "pass")
    assert "declare kung_ultimo" in legal(st)                      # only the king's holder (KR-ANN-18)
    assert not st.revealed
    act(st, 2, "declare kung_ultimo", "done")                      # … declares on a later turn
    assert st.revealed and st.announce.declared["kung_ultimo"] == 2 and st.announce.declared["grammeln"] == 1
    c = Ctx(st)
    assert st.R.compiler.text("declared_by(kung_ultimo, declarers) and declared_by(grammeln, declarers)")(c)
    obs = st.observation(0)
    assert obs["phase"] == "announce"


@pytest.mark.rules("KR-ANN-22", "KR-ANN-21", "KR-ANN-23", "KR-DEF-09", "KR-DEF-01", "KR-AMB-12")
def test_an_opponent_declares_only_once_his_side_is_known():
    st = to_round("rufer", "KH")
    act(st, 1, "I am ready")
    act(st, 2, "pass")
    assert not any(t.startswith("declare") for t in legal(st))     # 3's side is not known yet
    act(st, 3, "kontra rufer")                                     # (iii) his own kontra shows it
    assert "declare trull" in legal(st) and "declare kung_ultimo" not in legal(st)
    act(st, 3, "declare trull", "done")
    assert "declare trull" not in legal(st)                        # binds both opponents: declared once
    act(st, 0, "pass")
    assert {"rekontra rufer", "kontra trull"} <= legal(st)         # the declarer answers and doubles theirs
    act(st, 1, "kontra trull", "done")


@pytest.mark.rules("KR-ANN-22", "KR-AMB-12")
def test_without_a_partner_the_opponents_may_declare_at_once():
    st = to_round("dreier")
    act(st, 1, "I am ready")
    assert "declare trull" in legal(st)                            # (i) the declarer plays alone


@pytest.mark.rules("KR-DEF-06", "KR-EX-03", "KR-DEF-03", "KR-DEF-10", "KR-DEF-11", "KR-DEF-12", "KR-AMB-14",
                   "KR-CON-19", "KR-CON-03")
def test_each_item_has_its_own_chain_up_to_subkontra():
    st = to_round("pagatrufer", "KH")
    assert st.announce.declared == {} and legal(st) == {"declare pagat_ultimo"}   # the bid bird: his first statement
    act(st, 1, "declare pagat_ultimo")
    assert st.announce.declared == {"pagat_ultimo": 1}
    act(st, 1, "I am ready")
    act(st, 2, "pass")
    assert {"kontra pagatrufer", "kontra pagat_ultimo"} <= legal(st)
    act(st, 3, "kontra pagat_ultimo", "done")
    act(st, 0, "pass")
    assert "rekontra pagat_ultimo" in legal(st) and "kontra pagatrufer" not in legal(st)
    act(st, 1, "rekontra pagat_ultimo", "done")
    act(st, 2, "pass")
    act(st, 3, "subkontra pagat_ultimo", "done")
    act(st, 0, "pass")
    assert not any("pagat_ultimo" in t for t in legal(st))         # no call past subkontra
    act(st, 1, "pass")
    c = Ctx(st)
    kontras = st.R.compiler.text("[kontras(pagat_ultimo), kontras(contract), kontras_by(3), kontras_by(1)]")(c)
    assert kontras == (3, 0, 2, 1)
    assert summary(st) == ["declared: pagat_ultimo (seat 1)", "kontras: pagat_ultimo subkontra"]


@pytest.mark.rules("KR-DEF-02", "KR-ANN-24", "KR-DEF-14", "KR-AMB-16")
def test_valat_goes_with_the_game_and_the_opponents_valat_takes_the_game_from_them():
    st = to_round("dreier")
    act(st, 1, "I am ready")
    act(st, 2, "declare valat", "done")
    assert not any(t.endswith(" valat") and not t.startswith("declare") for t in legal(st))   # no kontra on valat
    assert "declare valat" not in legal(st)                       # one side only
    act(st, 3, "pass")
    assert "kontra dreier" not in legal(st)                       # they may no longer kontra the game
    act(st, 0, "pass")
    assert "kontra dreier" in legal(st)                           # the declarer may …
    act(st, 1, "kontra dreier", "done")
    assert "rekontra dreier" in legal(st)                         # … and they answer
    act(st, 2, "rekontra dreier", "done")


@pytest.mark.rules("KR-DEF-05", "KR-DEF-07", "KR-AMB-15", "KR-ANN-14")
def test_in_a_negative_game_each_opponent_has_his_own_chain_with_the_declarer():
    st = to_round("piccolo")
    assert st.phase == "announce"
    act(st, 1, "I am ready")
    assert legal(st) == {"kontra piccolo", "pass"}                # only the game, no figures
    act(st, 2, "kontra piccolo", "done")
    act(st, 3, "pass")
    act(st, 0, "kontra piccolo", "done")
    assert legal(st) == {"rekontra piccolo @2", "rekontra piccolo @0", "pass"}
    act(st, 1, "rekontra piccolo @0", "done")
    assert legal(st) == {"pass"}                                  # 2 may not answer 0's chain
    act(st, 2, "pass")
    act(st, 3, "pass")
    assert "subkontra piccolo" in legal(st)
    c = Ctx(st)
    pairs = st.R.compiler.text("[kontras_between(declarer, 2), kontras_between(declarer, 0), kontras_between(declarer, 3)]")
    assert pairs(c) == (1, 2, 0)


@pytest.mark.rules("KR-DEF-08", "KR-AUC-19")
def test_trischaken_has_no_declaration_round():
    st = to_round("", choose="trischaken")
    assert st.phase == "play" and st.announce.declared == {} and st.announce.chains == {}


@pytest.mark.rules("KR-ANN-16", "KR-AMB-19", "KR-AMB-20", "KR-CON-28")
def test_farben_games_allow_only_grammeln_grossgrammeln_and_valat():
    short = to_round("farbensolo")      # five side-suit cards: lost at once, no round (KR-AMB-20)
    assert short.given_up and short.phase != "announce"
    st = to_round("farbensolo", deal={**DEAL, 1: DEAL[0], 0: DEAL[1]})
    assert st.phase == "announce"
    declarable = {t.split()[1] for t in legal(st) if t.startswith("declare")}
    assert declarable == {"grammeln", "grossgrammeln", "valat"}


# ---- what settlement reads ------------------------------------------------------------------------

@pytest.mark.rules("KR-ANN-02", "KR-ANN-03", "KR-ANN-20", "KR-SCORE-33", "KR-SCORE-36", "KR-SCORE-02",
                   "KR-SCORE-05", "KR-SCORE-06", "KR-DECK-11")
def test_a_played_deal_settles_every_figure_and_the_sides_points_add_to_70():
    for seed in range(12):
        st = new_game(RS, seed=seed, dealer=seed % 4)
        bots = [RuleBot(seed * 4 + i) for i in range(4)]
        while not st.is_over():
            st.apply(bots[st.current_player()].choose(st))
        pay = st.result()["payments"]
        assert sum(pay.values()) == 0
        kind = st.contract.rec.get("kind") if st.contract is not None else None
        if kind == "positive" and not st.given_up:
            assert st.points(st.declarers) + st.points(st.defenders) == 70


@pytest.mark.rules("KR-CON-09", "KR-AMB-12")
def test_the_partner_stays_hidden_in_the_other_seats_observations_until_he_speaks():
    st = to_round("rufer", "KH")
    act(st, 1, "I am ready")
    assert st.observation(3)["declarers"] == [1] and st.observation(2)["declarers"] == [1, 2]
    act(st, 2, "declare uhu", "done")
    assert st.revealed and st.observation(3)["declarers"] == [1, 2]


@pytest.mark.rules("KR-ANN-29", "KR-DEF-13", "KR-CON-35")
def test_a_bei_round_is_opened_by_the_base_bidder_and_the_declarers_kontra_each_other():
    st = game()
    act(st, 3, "cut")
    act(st, 1, "bid piccolo")
    act(st, 2, "bid piccolo_bei_p")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "pass")
    assert st.phase == "announce" and st.declarer == 2 and st.base_bidder == 1
    assert st.current_player() == 1                                # the base bidder opens
    assert legal(st) == {"kontra piccolo_bei_p", "I am ready"}
    act(st, 1, "kontra piccolo_bei_p", "I am ready")
    assert "kontra piccolo" in legal(st) and "rekontra piccolo_bei_p @1" in legal(st)
    act(st, 2, "kontra piccolo", "done")
    c = Ctx(st)
    assert st.R.compiler.text("[kontras_between(declarer, base_bidder), kontras_between(base_bidder, declarer)]")(c) == (1, 1)


@pytest.mark.rules("KR-DEF-15", "KR-CON-15", "KR-AMB-07", "KR-SCORE-21")
def test_a_game_given_up_has_no_round_and_pays_the_lost_game():
    deal = {**DEAL, 3: "4D QD CD JD 1D 2D 3D T6 T7 T8 T9 10C", "talon": "KD 3H 4H T13 T14 T15"}
    st = game(deal)
    act(st, 3, "cut")
    act(st, 1, "bid rufer")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    act(st, 1, "call KD")                                          # the called king lies in the talon
    act(st, 1, "give up")
    assert st.is_over() and st.announce.declared == {} and st.announce.chains == {}
    assert st.result()["payments"] == {0: 1, 1: -3, 2: 1, 3: 1}


def test_a_round_whose_kontra_covers_the_game_only_offers_no_chain_on_figures(tmp_path):
    path = tmp_path / "game-only.stw"
    path.write_text('extends "koenigrufen"\nannounce { kontra { scope = game } }\n', encoding="utf-8")
    rs = load(str(path))
    hands = [DEAL.get(s, "").split() for s in range(rs.seats)]
    st = new_game(rs, deal={"hands": hands, "talon": DEAL["talon"].split()}, dealer=0)
    act(st, 3, "cut")
    act(st, 1, "bid dreier")
    act(st, 2, "pass")
    act(st, 3, "pass")
    act(st, 0, "pass")
    while st.phase == "talon":
        st.apply(st.legal_actions()[0])
    act(st, 1, "declare grammeln", "I am ready")
    assert "kontra dreier" in legal(st) and "kontra grammeln" not in legal(st)
