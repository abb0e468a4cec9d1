"""Issue 36, contract bridge: the auction's shapes as generic mechanisms (a pass that is not final, double and
redouble as calls on the bid, the declarer by strain), run by both engines on games/bridge/bridge.stw."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import new_game
from tests.helpers import act, legal_texts

ENGINES = ("generated", "interpreter")
N, E, S, W = 0, 1, 2, 3


def deal(seed: int = 1, dealer: int = N, name: str = "bridge", **options):
    return new_game(load(name), seed=seed, dealer=dealer, options=options or None)


def calls(st, *texts: str) -> None:
    for t in texts:
        act(st, t)


@pytest.mark.rules("BRIDGE-AUC-01", "BRIDGE-AUC-03", "BRIDGE-AUC-05")
def test_the_dealer_opens_with_any_of_the_35_bids_or_a_pass(engine):
    st = deal(dealer=E)
    assert st.phase == "auction" and st.current_player() == E
    texts = legal_texts(st)
    assert len(texts) == 36 and "pass" in texts and "double" not in texts
    assert {"bid 1C", "bid 1NT", "bid 7NT"} <= texts


@pytest.mark.rules("BRIDGE-AUC-05", "BRIDGE-AUC-08", "BRIDGE-AUC-09")
def test_double_only_by_an_opponent_redouble_only_by_the_bidders_side(engine):
    st = deal()
    act(st, "bid 1S")
    assert "double" in legal_texts(st) and "bid 1S" not in legal_texts(st) and "bid 1NT" in legal_texts(st)
    act(st, "pass")                                     # East passes
    assert "double" not in legal_texts(st)              # South may not double his partner's bid
    assert "redouble" not in legal_texts(st)
    act(st, "pass")
    act(st, "double")                                   # West doubles North's bid
    assert st.current_player() == N
    assert "double" not in legal_texts(st) and "redouble" in legal_texts(st)
    act(st, "pass")
    assert "redouble" not in legal_texts(st) and "double" not in legal_texts(st)   # East: the double is his side's
    act(st, "pass")
    act(st, "redouble")                                 # South redoubles his side's bid, doubled by West
    assert not {"double", "redouble"} & legal_texts(st)  # nothing more on a redoubled bid
    act(st, "bid 2C")                                   # West: a new bid makes them void
    assert "double" in legal_texts(st) and "redouble" not in legal_texts(st)


@pytest.mark.rules("BRIDGE-AUC-11", "BRIDGE-AUC-12")
def test_double_level_reads_the_calls_standing_on_the_final_bid(engine):
    for said, level in (([], 0), (["double"], 1), (["double", "redouble"], 2)):
        st = deal()
        calls(st, "bid 2H", *said, "pass", "pass", "pass")
        assert st.phase == "play"
        c = st.ctx()
        assert st.R.compiler.text("double_level")(c) == level
        assert [str(x) for x in (st.final_call.name,)] == ["bid_2H"]


@pytest.mark.rules("BRIDGE-AUC-07", "BRIDGE-AUC-12", "BRIDGE-AUC-13")
def test_three_passes_after_a_call_end_the_auction_four_at_the_start_pass_it_out(engine):
    st = deal()
    calls(st, "pass", "pass", "pass")
    assert st.phase == "auction" and st.current_player() == W
    act(st, "pass")
    assert st.is_over() and st.all_passed
    st = deal()
    calls(st, "pass", "bid 1D", "pass", "pass", "double", "pass", "pass")
    assert st.phase == "auction"                        # two passes after the double: not yet
    act(st, "pass")
    assert st.phase == "play" and st.declarer == E and st.current_player() == S


@pytest.mark.rules("BRIDGE-AUC-15", "BRIDGE-PLAY-01")
def test_the_declarer_is_the_first_of_the_side_to_name_the_strain(engine):
    st = deal()
    calls(st, "bid 1H", "pass", "bid 2H", "pass", "bid 4H", "pass", "pass", "pass")
    assert st.declarer == N and set(st.declarers) == {N, S}
    st = deal()
    calls(st, "bid 1C", "pass", "bid 1H", "pass", "bid 2H", "pass", "bid 4H", "pass", "pass", "pass")
    assert st.declarer == S and st.current_player() == W
    st = deal()                                          # North's hearts do not count for East–West
    calls(st, "bid 1H", "pass", "pass", "bid 2H", "pass", "bid 3H", "pass", "pass", "pass")
    assert st.declarer == W


def test_both_engines_agree_on_random_auctions(monkeypatch):
    seen = {}
    for name in ENGINES:
        if name == "interpreter":
            monkeypatch.setenv("STICHWORT_ENGINE", "interpreter")
        else:
            monkeypatch.delenv("STICHWORT_ENGINE", raising=False)
        out = []
        for seed in range(40):
            st, rng = deal(seed=seed, dealer=seed % 4), random.Random(seed)
            while st.phase == "auction":
                legal = st.legal_actions()
                out.append(tuple(sorted(legal)))
                st.apply(rng.choice(legal))
            out.append((st.declarer, st.final_call.name if st.final_call else None))
        seen[name] = out
    assert seen["generated"] == seen["interpreter"]


def _to_play(engine_name=None):
    """A deal whose auction is over: 4H by South (North bid clubs first, South hearts), West to lead."""
    st = deal()
    calls(st, "bid 1C", "pass", "bid 1H", "pass", "bid 2H", "pass", "bid 4H", "pass", "pass", "pass")
    assert st.declarer == S and st.phase == "play"
    return st


@pytest.mark.rules("BRIDGE-PLAY-02")
def test_dummy_is_shown_to_every_other_seat_after_the_opening_lead(engine):
    st = _to_play()
    assert st.dummy == N and st.dummy_by == S
    assert all("open_hands" not in st.observation(s) for s in range(4))     # before the lead: hidden
    assert st.observation(E)["dummy"] == N
    st.apply(st.legal_actions()[0])                                          # West leads
    north = set(st.R.rs.codes(st.hands[N]))
    for s in (E, S, W):
        assert set(st.observation(s)["open_hands"][N]) == north
    assert "open_hands" not in st.observation(N)                             # his own hand is his hand
    assert set(st.observation(E)["open_hands"]) == {N}                       # nobody else's


@pytest.mark.rules("BRIDGE-PLAY-03", "BRIDGE-AMB-02")
def test_the_declarer_plays_dummys_cards_at_dummys_turn(engine):
    st = _to_play()
    st.apply(st.legal_actions()[0])                                          # West leads
    assert st.to_act == N and st.current_player() == S                      # dummy's turn, the declarer acts
    assert st.observation(S)["to_act"] == S and st.observation(E)["to_act"] == S
    legal = st.legal_actions()
    assert legal and all(st.hands[N] >> (a & ((1 << 64) - 1)) & 1 for a in legal)   # dummy's cards only
    st.apply(legal[0])
    assert st.log[-1][0] == N                                                # the log names the dummy's seat
    assert st.current_player() == E == st.to_act
    plays = {S: 0, E: 0, W: 0, N: 0}
    rng = random.Random(3)
    while not st.is_over():
        plays[st.current_player()] += 1
        st.apply(rng.choice(st.legal_actions()))
    assert plays[N] == 0 and plays[S] == 25 and plays[E] == 13 and plays[W] == 12   # the dummy never acts


def test_the_web_view_offers_the_declarer_dummys_cards():
    from interpreter.web import load_games
    from interpreter.web.hub import Hub
    from interpreter.web.views import view

    hub = Hub(load_games(["bridge"]), delay=0, seed=5)
    table = hub.open("bridge", ["person", "person", "person", "person"], deals=1)
    st = table.state
    for t in ("bid 1C", "pass", "bid 1H", "pass", "bid 2H", "pass", "bid 4H", "pass", "pass", "pass"):
        act(st, t)
    st.apply(st.legal_actions()[0])
    table.version += 1
    south, east = view(table, S), view(table, E)
    north = set(st.R.rs.codes(st.hands[N]))
    assert south["to_act"] == S and south["legal"] and all(t.split()[1] in north for t in south["legal"])
    assert set(south["open_hands"][str(N)]) == north and south["more"]["dummy"] == N
    assert east["legal"] == [] and set(east["open_hands"][str(N)]) == north


def test_the_rule_bot_bids_by_points_to_contracts_of_every_weight():
    from interpreter.bots import make_bot

    levels, passed = set(), 0
    for seed in range(120):
        st = deal(seed=seed, dealer=seed % 4)
        bots = [make_bot("rule", f"{seed}:{s}") for s in range(4)]
        while not st.is_over():
            st.apply(bots[st.current_player()].choose(st))
        if st.final_call is None:
            passed += 1
        else:
            levels.add(st.final_call.ref.rec["level"])
    assert passed < 0.2 * 120                       # most deals are bid
    assert {1, 3, 4} <= levels                      # part scores and games
    from interpreter.bots.rule_strains import _points
    st = deal(seed=1)
    R = st.R
    hand = sum(1 << R.rs.card_index[c] for c in ["AS", "KS", "QS", "JS", "10S", "9S", "AH", "KH", "2D", "3D", "4D", "2C", "3C"])
    assert _points(R, hand)[0] == 4 + 3 + 2 + 1 + 4 + 3 + 2     # 17 high-card points, two for the six spades


@pytest.mark.rules("BRIDGE-AUC-03", "BRIDGE-AUC-13")
def test_the_rule_bot_reaches_every_level_from_one_to_seven_and_rarely_passes_out():
    from interpreter.harness.runner import simulate

    summary = simulate("bridge", 2000, 1)
    levels = summary["levels"]                      # the final call's level, tallied by simulate
    assert set(levels) == {str(lv) for lv in range(1, 8)}
    assert sum(row["played"] for row in levels.values()) + round(summary["all_pass_rate"] * 2000) == 2000
    assert summary["all_pass_rate"] < 0.2
    assert all(row["made"] is not None and row["made"] <= row["played"] for row in levels.values())


def test_the_partners_bids_show_points_by_the_levels_they_reached():
    from interpreter.bots.rule_strains import _partner_shown

    st = deal(seed=3, dealer=N)
    for call in ["pass", "pass"]:
        act(st, call)
    opener = st.to_act                              # South
    act(st, "bid_3S")                               # nothing credited to North (he passed): 3S shows 23
    act(st, "pass")
    assert _partner_shown(st, st.to_act) == (["S"], 23)
    act(st, "bid_6S")                               # North counted South 23 + 2: 6S shows 33 - 25 = 8
    act(st, "pass")
    assert st.to_act == opener and _partner_shown(st, opener) == (["S"], 8)


@pytest.mark.rules("BRIDGE-OS-05", "BRIDGE-OS-06", "BRIDGE-OS-08", "BRIDGE-OS-09", "BRIDGE-OS-10", "BRIDGE-OS-11",
                   "BRIDGE-OS-12")
def test_move_for_move_with_openspiels_bridge_over_2000_deals():
    pytest.importorskip("pyspiel")
    from interpreter.adapters.conformance import Pair, run
    from interpreter.adapters.conformance_map import load_mapping

    mapping = load_mapping(Path(__file__).resolve().parent.parent / "games" / "bridge" / "openspiel.yml")
    config = next(c for c in mapping.configs if c.name == "both-vulnerable")
    report = run(Pair(mapping, config), 2000, seed="bridge-2000")
    assert report.deals == 2000 and not report.disagreements, report.disagreements[:1]
    assert report.decisions > 2000 * 52               # every card of every deal played, and the calls
