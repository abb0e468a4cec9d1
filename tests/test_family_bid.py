"""Issue 34, the decision and auction side of the engine: ladders of calls, the duel auction, decisions
(`choice`, `chose`), the talon and the all-pass contract given by an expression, a contract's `allowed`, and
`partner.allowed` — each run by both engines on small complete rule files (tests/family_bid/duel-skat.stw:
Skat's bidding and decisions over a plain play)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.text import parse
from tests.helpers import act, legal_texts

HERE = Path(__file__).parent / "family_bid"
DUEL = str(HERE / "duel-skat.stw")
F, M, R = 1, 2, 0           # dealer 0: forehand on his left, middlehand, and the dealer is rearhand


def deal(seed: int = 1, **options):
    return new_game(load(DUEL), seed=seed, dealer=0, options=options or None)


def bids(st) -> list[str]:
    return sorted((t for t in legal_texts(st) if t.startswith("bid ")), key=lambda t: int(t.split()[1]))


@pytest.mark.rules("SKAT-BID-02", "SKAT-BID-03")
def test_a_ladder_makes_one_call_per_level_spoken_as_the_level(engine):
    st = deal()
    R_ = st.R
    steps = [c for c in R_.calls if c.ref.rec.get("ladder") == "bid"]
    assert [c.name for c in steps[:3]] == ["bid_18", "bid_20", "bid_22"]
    assert [c.rank for c in steps[:3]] == [1, 2, 3]
    assert [c.ref.rec["level"] for c in steps] == [18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48]
    assert st.action_text(steps[0].action) == "bid 18"
    assert parse(st, "bid bid_20") == steps[1].action          # the step's name is accepted too


@pytest.mark.rules("SKAT-BID-04", "SKAT-BID-05", "SKAT-BID-06", "SKAT-BID-08")
def test_middlehand_bids_to_forehand_then_rearhand_to_the_one_left(engine):
    st = deal()
    assert st.phase == "auction" and st.current_player() == M
    assert bids(st)[:3] == ["bid 18", "bid 20", "bid 22"] and "yes" not in legal_texts(st)
    assert len(bids(st)) == 15                                  # any value: jumps are allowed
    act(st, "bid 18")
    assert st.current_player() == F and legal_texts(st) == {"yes", "pass"}
    act(st, "yes")
    assert st.current_player() == M and bids(st)[0] == "bid 20"
    act(st, "bid 23")                                           # a jump
    act(st, "pass")                                             # forehand leaves
    assert st.current_player() == R and bids(st)[0] == "bid 24" and "yes" not in legal_texts(st)
    act(st, "bid 24")
    assert st.current_player() == M and legal_texts(st) == {"yes", "pass"}
    act(st, "yes")
    assert st.current_player() == R
    act(st, "pass")
    assert st.phase == "skat" and st.declarer == M              # the survivor, at the value he held
    assert st.final_call.name == "bid_24" and st.ctx().st.final.rec["level"] == 24


@pytest.mark.rules("SKAT-BID-07")
def test_middlehand_may_pass_at_once_and_rearhand_bids_to_forehand(engine):
    st = deal()
    act(st, "pass")
    assert st.current_player() == R
    act(st, "bid 18")
    assert st.current_player() == F
    act(st, "pass")
    assert st.phase == "skat" and st.declarer == R


@pytest.mark.rules("SKAT-BID-09", "SKAT-BID-12")
def test_nobody_bids_forehand_may_open_at_18_or_the_deal_is_passed_in(engine):
    st = deal()
    act(st, "pass")
    act(st, "pass")
    assert st.current_player() == F and legal_texts(st) == {"bid 18", "pass"}
    act(st, "bid 18")
    assert st.phase == "skat" and st.declarer == F
    st = deal()
    for _ in range(3):
        act(st, "pass")
    assert st.is_over() and st.result()["all_passed"] and st.result()["contract"] is None


@pytest.mark.rules("SKAT-BID-12", "SKAT-VAR-03")
def test_the_all_pass_contract_given_by_an_expression_reads_the_table_option(engine):
    st = deal(play_ramsch=True)
    for _ in range(3):
        act(st, "pass")
    assert st.phase == "play" and st.con.name == "ramsch" and st.declarer is None


def _to_skat(st, declarer_bids: str = "bid 18"):
    act(st, declarer_bids)      # middlehand to forehand
    act(st, "pass")             # forehand
    act(st, "pass")             # rearhand: middlehand declares
    assert st.phase == "skat" and st.current_player() == M


@pytest.mark.rules("SKAT-CON-02", "SKAT-CON-03", "SKAT-CON-04")
def test_picking_up_the_skat_takes_it_and_lays_two_away(engine):
    st = deal()
    _to_skat(st)
    assert legal_texts(st) == {"pick up", "hand"}
    assert st.ctx().st.chosen == {}
    act(st, "pick up")
    assert st.chosen == {"skat": "pick_up"}
    assert st.phase == "talon" and bin(st.hands[M]).count("1") == 12
    act(st, st.action_text(st.legal_actions()[0]))
    assert st.phase == "contract" and bin(st.hands[M]).count("1") == 10
    names = {st.action_text(a) for a in st.legal_actions()}
    assert "declare clubs ouvert" not in names                 # ouvert only in a hand game (SKAT-CON-08)
    assert {"declare null", "declare null ouvert", "declare grand"} <= names


@pytest.mark.rules("SKAT-CON-05", "SKAT-CON-07", "SKAT-CON-08")
def test_a_hand_game_leaves_the_skat_and_may_be_announced(engine):
    st = deal()
    _to_skat(st)
    skat = list(st.talon)
    act(st, "hand")
    assert st.phase == "contract" and bin(st.hands[M]).count("1") == 10 and st.talon == skat
    assert "declare clubs ouvert" in legal_texts(st)
    act(st, "declare clubs")
    assert st.phase == "announcement" and legal_texts(st) == {"no announcement", "schneider announced"}
    act(st, "schneider")                                        # an option by its name
    assert st.chosen == {"skat": "hand", "announcement": "schneider"} and st.phase == "play"


@pytest.mark.rules("SKAT-CON-07")
def test_a_decision_whose_when_fails_is_not_asked_and_reads_none(engine):
    st = deal()
    _to_skat(st)
    act(st, "pick up")
    act(st, st.action_text(st.legal_actions()[0]))
    act(st, "declare clubs")
    assert st.phase == "play" and "announcement" not in st.chosen
    assert st.R.compiler.text("chose(announcement) == none")(st.ctx()) is True


@pytest.mark.rules("SKAT-BID-11", "SKAT-AMB-04")
def test_null_may_be_named_only_where_its_value_reaches_the_bid(engine):
    st = deal()
    _to_skat(st, "bid 24")                                      # 24: null (23) is too little, null ouvert (46) not
    act(st, "pick up")
    act(st, st.action_text(st.legal_actions()[0]))
    names = legal_texts(st)
    assert "declare null" not in names and "declare null ouvert" in names
    st = deal()
    _to_skat(st, "bid 24")
    act(st, "hand")                                             # null hand is worth 35
    assert "declare null" in legal_texts(st)


def test_a_decision_is_logged_observed_and_read_back(engine):
    st = deal()
    _to_skat(st)
    [hand] = [a for a in st.legal_actions() if st.action_text(a) == "hand"]
    assert A.kind_of(hand) == A.CHOOSE
    for spelling in ("hand", "skat hand", "HAND"):
        assert parse(st, spelling) == hand
    st.apply(hand)
    assert st.observation(F)["chosen"] == {"skat": "hand"}      # said aloud: every seat sees it
    assert st.action_text(hand) == "hand"                       # a later state still spells it


def _random_deals(n: int, seed: int, **options) -> list[tuple]:
    rs = load(DUEL)
    out = []
    for d in range(n):
        rng = random.Random(seed + d)
        st = new_game(rs, seed=seed + d, dealer=d % 3, options=options or None)
        while not st.is_over():
            legal = st.legal_actions()
            passes = [a for a in legal if A.kind_of(a) == A.PASS]
            st.apply(passes[0] if passes and rng.random() < 0.5 else legal[rng.randrange(len(legal))])
        out.append((st.log, st.result(), dict(st.chosen), st.accounts.get("list")))
    return out


@pytest.mark.parametrize("options", [{}, {"play_ramsch": True}])
def test_both_engines_play_the_same_deals(monkeypatch, options):
    from interpreter.engine.rules import _compile_cached

    monkeypatch.setenv("STICHWORT_ENGINE", "interpreter")
    _compile_cached.cache_clear()
    reference = _random_deals(60, 7, **options)
    monkeypatch.delenv("STICHWORT_ENGINE")
    _compile_cached.cache_clear()
    assert _random_deals(60, 7, **options) == reference
    assert any(c for _, _, c, _ in reference) and any(r["all_passed"] for _, r, _, _ in reference)


def _at_partner_call(rs, seeds=range(200)):
    """A deal of `rs` brought to the partner call by random play, its declarer holding a king."""
    for seed in seeds:
        rng = random.Random(seed)
        st = new_game(rs, seed=seed)
        while not st.is_over() and st.phase != "partner":
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        if st.phase == "partner" and st.hands[st.declarer] & st.R.partner.group:
            return st
    raise AssertionError("no deal reached the partner call")


@pytest.mark.rules("KR-CON-11")
def test_partner_allowed_says_which_cards_of_the_group_may_be_called(engine, tmp_path):
    path = tmp_path / "no-own-king.stw"
    path.write_text('extends "koenigrufen"\npartner { allowed = not holds(me, this) and suit_of(this) != D }\n',
                    encoding="utf-8")
    base, variant = load("koenigrufen"), load(str(path))
    st = _at_partner_call(base)
    group, own = st.R.partner.group, st.hands[st.declarer] & st.R.partner.group
    called = {A.arg_of(a) for a in st.legal_actions() if A.arg_of(a) < 1 << 20}
    assert own and called & {c for c in range(len(st.R.codes)) if own >> c & 1}   # `self`: his own may be called
    st = _at_partner_call(variant)
    own = st.hands[st.declarer] & group
    called = {st.R.codes[A.arg_of(a)] for a in st.legal_actions() if A.arg_of(a) < 1 << 20}
    held = {st.R.codes[c] for c in range(len(st.R.codes)) if own >> c & 1}
    assert called == {k for k in ("KC", "KS", "KH") if k not in held}


@pytest.mark.rules("SKAT-BID-11", "SKAT-BID-08")
def test_the_rule_bot_bids_ladder_calls_only_as_high_as_its_game_is_worth(engine):
    from interpreter.bots.rule import RuleBot

    rs = load(DUEL)
    bots = [RuleBot(seed=s) for s in range(3)]
    played = overbid = 0
    for seed in range(120):
        st = new_game(rs, seed=seed, dealer=seed % 3)
        while not st.is_over():
            st.apply(bots[st.to_act].choose(st))
        if st.declarer is not None:
            played += 1
            overbid += bool(st.R.compiler.lets["overbid"](st.ctx()))
            assert st.chosen["skat"] == "pick_up"       # of equally good options, the first written
    assert played >= 12 and overbid <= played // 20


def test_the_adapters_catalogue_numbers_every_decision_and_step():
    from interpreter.adapters.encoding import ActionCatalog

    rs = load(DUEL)
    catalog = ActionCatalog(rs)
    seen = set()
    for seed in range(30):
        st, rng = new_game(rs, seed=seed), random.Random(seed)
        while not st.is_over():
            legal = st.legal_actions()
            seen |= {A.kind_of(a) for a in legal}
            assert all(catalog.to_action(catalog.to_index(a)) == a for a in legal)
            st.apply(legal[rng.randrange(len(legal))])
    assert {A.CHOOSE, A.BID, A.HOLD} <= seen
