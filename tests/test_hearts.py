"""Hearts: the pass before the play (phase pass_cards), the obligations over sets of cards (must_play, avoid),
holder_of, a game without bidding (play.contract), the checks that guard them, both engines, and the bots.
The worked deals are the scenario files of games/hearts/scenarios."""
from __future__ import annotations

import random

import pytest

from interpreter import load
from interpreter.bots.random_bot import RandomBot
from interpreter.bots.rule import RuleBot
from interpreter.cli import main
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.resources import builtin_games


@pytest.fixture(scope="module")
def rs():
    return load("hearts")


@pytest.fixture(scope="module")
def os_rs():
    return load("hearts-openspiel")


def cards(st, mask):
    return set(st.R.rs.codes(mask))


def pass_three(st, seat):
    for _ in range(3):
        assert st.current_player() == seat
        st.apply(st.legal_actions()[-1])


@pytest.mark.rules("HRT-PASS-01", "HRT-PASS-03")
def test_nobody_sees_what_is_passed_to_him_before_he_has_passed(rs):
    st = new_game(rs, seed=3, dealer=3)          # deal 0: to the left, seat 0 first
    dealt = list(st.hands)
    pass_three(st, 0)
    given = st.passed[0]
    assert bin(given).count("1") == 3 and st.hands[0] == dealt[0] & ~given
    view = st.observation(1)                     # the receiver, still to pass
    assert not cards(st, given) & set(view["hand"]) and "received" not in view and "passed" not in view
    assert all(A.kind_of(a) == A.PASS_CARD and not (given >> A.arg_of(a)) & 1 for a in st.legal_actions())
    for seat in (1, 2, 3):
        pass_three(st, seat)
    assert st.phase == "play"
    assert st.hands[1] & given == given and set(st.observation(1)["received"]) == cards(st, given)
    assert sum(bin(h).count("1") for h in st.hands) == 52 and all(bin(h).count("1") == 13 for h in st.hands)


@pytest.mark.rules("HRT-PASS-02")
@pytest.mark.parametrize("deal_number, step", [(0, 1), (1, -1), (2, 2), (3, None), (4, 1), (5, -1), (6, 2), (7, None)])
def test_the_direction_goes_left_right_across_and_then_no_pass(rs, deal_number, step):
    st = new_game(rs, seed=deal_number, dealer=3, deal_number=deal_number)
    if step is None:
        assert st.phase == "play" and st.passed == ()
        return
    assert st.phase == "pass_cards" and st.current_player() == 0      # the dealer's left passes first
    assert st.pass_to == tuple((s + step) % 4 for s in range(4))


@pytest.mark.rules("HRT-PLAY-01")
def test_the_holder_of_the_two_of_clubs_leads_it(rs):
    for seed in range(20):
        st = new_game(rs, seed=seed, dealer=seed % 4, deal_number=3)
        two = rs.card_index["2C"]
        holder = next(s for s in range(4) if st.hands[s] >> two & 1)
        assert st.current_player() == holder
        assert [st.action_text(a) for a in st.legal_actions()] == ["play 2C"]


def _points_of_deal(st):
    return [st.points(s) for s in range(4)]


@pytest.mark.rules("HRT-SCORE-01", "HRT-SCORE-02", "HRT-PLAY-02", "HRT-PLAY-04", "HRT-PLAY-05")
@pytest.mark.parametrize("engine", ["generated", "interpreter"])
def test_random_playouts_keep_every_card_in_one_place_and_26_points_a_deal(rs, engine):
    """random_sim_test in the style of OpenSpiel: at every step each card lies in exactly one place (a hand,
    set aside by its passer, the trick, a seat's tricks); the point cards add up to 26 in every deal, and the
    scores to 26, or to 78 when someone has taken all 26 (the moon)."""
    R = compile_rules(rs, engine=engine)
    rng = random.Random(f"hearts/{engine}")
    moons = 0
    for deal in range(150):
        dealt = new_game(rs, seed=deal, dealer=deal % 4, deal_number=deal)
        st = State(R, deal % 4, list(dealt.dealt_hands), [], deal_number=deal)
        start = list(st.accounts["score"])
        while not st.is_over():
            places = list(st.hands) + [sum(1 << c for _, c in st.trick)] + list(st.play.won_cards)
            places += list(st.passed) if st.phase == "pass_cards" else []
            seen = 0
            for m in places:
                assert seen & m == 0
                seen |= m
            assert seen == R.full_mask
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        points = _points_of_deal(st)
        assert sum(points) == 26
        change = [a - b for a, b in zip(st.accounts["score"], start)]
        moon = 26 in points
        moons += moon
        assert sum(change) == (78 if moon else 26)
        if moon:
            assert sorted(change) == [0, 26, 26, 26]
        else:
            assert change == points
    assert moons < 15


@pytest.mark.rules("HRT-OS-01", "HRT-OS-06")
def test_openspiel_returns_add_up_to_78_or_26_for_a_moon(os_rs):
    rng = random.Random(5)
    for deal in range(60):
        st = new_game(os_rs, seed=deal, dealer=3, options={"pass_dir": deal % 4})
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        moon = 26 in _points_of_deal(st)
        assert sum(st.accounts["reward"]) == (26 if moon else 78)


@pytest.mark.rules("HRT-PLAY-01", "HRT-PLAY-04", "HRT-PLAY-05", "HRT-PASS-01", "HRT-OS-04", "HRT-OS-05")
def test_both_engines_give_the_same_legal_moves(rs, os_rs):
    """The reference interpreter and the generated code (must_play and avoid written out, holder_of inlined)."""
    for rules, options in ((rs, {}), (os_rs, {"can_lead_hearts_instead_of_qs": True, "can_lead_any_club": True})):
        R_ref, R_gen = (compile_rules(rules, options, engine=e) for e in ("interpreter", "generated"))
        assert R_gen.generated is not None and R_ref.generated is None
        rng = random.Random(11)
        for deal in range(40):
            dealt = new_game(rules, seed=deal, dealer=deal % 4, options=options)
            ref, gen = (State(R, deal % 4, list(dealt.dealt_hands), [], deal_number=deal) for R in (R_ref, R_gen))
            while not gen.is_over():
                mine, theirs = gen.legal_actions(), ref.legal_actions()
                assert sorted(mine) == sorted(theirs), (deal, gen.phase, gen.action_text(mine[0]))
                a = mine[rng.randrange(len(mine))]
                gen.apply(a)
                ref.apply(a)
            assert ref.is_over() and ref.accounts == gen.accounts


@pytest.mark.rules("HRT-PASS-01")
def test_the_rule_bot_passes_the_queen_and_the_high_spades(rs):
    deal = {"hands": [["QS", "AS", "KS", "2C", "3C", "4C", "5C", "2D", "3D", "4D", "2H", "3H", "4H"],
                      ["6C", "7C", "8C", "9C", "10C", "JC", "QC", "5D", "6D", "7D", "5H", "6H", "7H"],
                      ["KC", "AC", "8D", "9D", "10D", "JD", "QD", "2S", "3S", "4S", "8H", "9H", "10H"],
                      ["KD", "AD", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "JH", "QH", "KH", "AH"]], "talon": []}
    st = new_game(rs, deal=deal, dealer=3)
    bot = RuleBot(seed=1)
    for _ in range(3):
        st.apply(bot.choose(st))
    assert cards(st, st.passed[0]) == {"QS", "AS", "KS"}


def test_the_rule_bot_takes_fewer_points_than_random_players(rs):
    """Playing sensibly: passing its dangerous cards and ducking, one rule bot among three random players takes
    well under a quarter of the 26 points a deal."""
    taken = []
    for deal in range(120):
        st = new_game(rs, seed=deal, dealer=deal % 4, deal_number=deal)
        bots = [RuleBot(seed=deal), RandomBot(seed=deal + 1), RandomBot(seed=deal + 2), RandomBot(seed=deal + 3)]
        while not st.is_over():
            st.apply(bots[st.current_player()].choose(st))
        taken.append(st.accounts["score"][0])
    assert sum(taken) / len(taken) < 4.0


def test_simulate_plays_2000_deals(capsys):
    assert main(["simulate", "hearts", "--deals", "2000"]) == 0
    out = capsys.readouterr().out
    assert "Hearts — 2000 deals" in out or "Hearts — 2,000 deals" in out


def _variant(tmp_path, old, new):
    text = builtin_games()["hearts"].read_text()
    assert old in text
    bad = tmp_path / "bad.stw"
    bad.write_text(text.replace(old, new, 1))
    return bad


@pytest.mark.parametrize("old,new,code,message", [
    ("  contract = round ", "  contract = rond ", "E301", "rond"),
    ("  contract = round ", "  # ", "E306", "nothing settles the contract"),
    ("procedure = [pass_cards, play, settle]", "procedure = [play, settle]", "E307", "pass_cards"),
    ("{ rule = avoid ", "{ rule = avoidd ", "E204", "avoid"),
    ("lead = holder_of(2C)", "lead = holder_of(2C, 3C)", "E", "holder_of"),
])
def test_mistakes_in_the_pass_and_the_play_are_located(tmp_path, capsys, old, new, code, message):
    bad = _variant(tmp_path, old, new)
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert code in out and message in out and "bad.stw:" in out


def test_the_conformance_mapping_names_a_card_passed_and_played(tmp_path):
    from interpreter.adapters.conformance import Pair
    from interpreter.adapters.conformance_map import load_mapping

    pair = Pair(load_mapping(builtin_games()["hearts"].parent / "openspiel.yml"), "default")
    assert pair.text(0, "pass_cards") == "pass 2C" and pair.text(51, "play") == "play AS"
    assert pair.text(2, "play") == "play 2H" and pair.text(2, "auction") is None


@pytest.mark.rules("HRT-DEAL-01")
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_the_whole_pack_is_dealt_one_card_at_a_time_from_the_dealers_left(rs, dealer):
    from interpreter.engine.session import Session

    st = Session(rs, {}, dealer=dealer).start(rng=random.Random(f"hearts-{dealer}"))
    deck = list(range(52))
    random.Random(f"hearts-{dealer}").shuffle(deck)               # the same shuffle, dealt by hand
    for k in range(4):                                            # card 0 to the dealer's left, card 1 to the next …
        seat = (dealer + 1 + k) % 4
        assert st.hands[seat] == sum(1 << c for c in deck[k::4])
    assert all(bin(h).count("1") == 13 for h in st.hands) and not st.talon


@pytest.mark.rules("HRT-SEAT-03")
@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_any_seat_may_deal_first_and_the_deal_passes_to_the_left(rs, first):
    from interpreter.engine.session import Session

    sess = Session(rs, {}, dealer=first)
    rng = random.Random(first)
    dealers, first_to_pass = [], []
    for _ in range(6):
        st = sess.start(rng=rng)
        dealers.append(st.dealer)
        first_to_pass.append(st.current_player() if st.phase == "pass_cards" else None)
        while not st.is_over():
            st.apply(rng.choice(st.legal_actions()))
        sess.finish(st)
    assert dealers == [(first + k) % 4 for k in range(6)]
    # the dealer's left passes first (deal 3 of every four has no pass)
    assert first_to_pass == [(first + k + 1) % 4 if k % 4 != 3 else None for k in range(6)]
