"""The search bot: it decides from its seat's information set only, deterministically, and its
samples agree with everything the seat has seen."""
from __future__ import annotations

import random

import pytest

from interpreter.bots import IsmctsBot, SearchBot, make_bot, parse_bots, seat_view
from interpreter.bots.rule import RuleBot
from interpreter.bots.sampler import Sampler, bits
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.pipeline import load


@pytest.fixture(scope="module")
def wien():
    return load("wien")


def _codes(rs, mask):
    return [rs.cards[i].code for i in bits(mask)]


def _play_until(rs, seed, stop, dealer=0):
    """A rule-bot deal played until `stop(state)` holds; returns the state there."""
    st = new_game(rs, seed=seed, dealer=dealer)
    bots = [RuleBot(f"{seed}:{s}") for s in range(st.n)]
    while not st.is_over() and not stop(st):
        st.apply(bots[st.current_player()].choose(st))
    return st


def _in_play(st, tricks=3):
    return st.phase == "play" and len([1 for _, a in st.log if A.kind_of(a) == A.PLAY]) >= 3 * tricks


def test_view_hides_other_hands(wien):
    st = _play_until(wien, 3, lambda s: _in_play(s, 2))
    me = st.current_player()
    view = seat_view(st)
    assert view.seat == me and view.dealt == st.dealt_hands[me]
    for s, a, kind in view.history:
        if s != me and kind == A.DISCARD:
            assert a is None                       # another seat's discard is face down
    assert set(view.legal) == set(st.legal_actions())


@pytest.mark.parametrize("seed", [3, 11, 19])
def test_decision_ignores_hidden_cards(wien, seed):
    """Two deals with the same public history and the same hand for the seat to act, but different
    cards in the other hands: the bot's decision and every score it computed are identical."""
    rng = random.Random(seed)
    st = _play_until(wien, seed, lambda s: _in_play(s, 2))
    assert st.phase == "play"                      # the seeds are chosen so that the deal is played
    me = st.current_player()
    # rebuild the deal with two same-suit cards exchanged between the other seats, then re-run the log
    hands = [list(_codes(wien, h)) for h in st.dealt_hands]
    talon_codes = [wien.cards[c].code for c in _dealt_talon(st)]
    played = 0
    for _, a in st.log:
        if A.kind_of(a) == A.PLAY:
            played |= 1 << A.arg_of(a)
    others = [s for s in st.active if s != me]
    swapped = False
    for suit in wien.suits:
        ma = st.hands[others[0]] & st.dealt_hands[others[0]] & wien.suit_mask[suit] & ~played
        mb = st.hands[others[1]] & st.dealt_hands[others[1]] & wien.suit_mask[suit] & ~played
        if ma and mb:
            ca, cb = rng.choice(bits(ma)), rng.choice(bits(mb))
            a_codes, b_codes = hands[others[0]], hands[others[1]]
            a_codes[a_codes.index(wien.cards[ca].code)] = wien.cards[cb].code
            b_codes[b_codes.index(wien.cards[cb].code)] = wien.cards[ca].code
            swapped = True
            break
    assert swapped
    other = new_game(wien, deal={"hands": hands, "talon": talon_codes}, dealer=st.dealer)
    for _, a in st.log:
        other.apply(a)                             # the same public (and private) history is legal there
    assert other.hands != st.hands and other.hands[me] == st.hands[me]
    for make in (lambda: SearchBot(seed, playouts=24), lambda: IsmctsBot(seed, iterations=24)):
        b1, b2 = make(), make()
        assert b1.choose(st) == b2.choose(other)
        assert b1.last == b2.last and b1.last is not None


def _dealt_talon(st):
    """The talon as dealt: its cards now, plus what the declarer took from it."""
    taken = 0
    if st.declarer is not None:
        taken = (st.hands[st.declarer] | st.discards | _played_by(st, st.declarer)) & ~st.dealt_hands[st.declarer]
    return bits(taken) + list(st.talon)


def _played_by(st, seat):
    m = 0
    for s, a in st.log:
        if s == seat and A.kind_of(a) == A.PLAY:
            m |= 1 << A.arg_of(a)
    return m


class _Guard:
    """A state that answers only what the seat to act may know; any other read fails the test."""

    _ALLOWED = {"observation", "log", "legal_actions", "current_player", "R", "deal_number", "start_accounts"}

    def __init__(self, state):
        object.__setattr__(self, "_s", state)

    def __getattr__(self, name):
        if name == "dealt_hands":
            st = self._s
            me = st.current_player()
            return _OwnOnly(st.dealt_hands, me)
        if name not in self._ALLOWED:
            raise AssertionError(f"the search bot read state.{name}")
        if name == "observation":
            me = self._s.current_player()

            def obs(seat):
                assert seat == me, "the search bot asked for another seat's observation"
                return self._s.observation(seat)
            return obs
        return getattr(self._s, name)


class _OwnOnly:
    def __init__(self, values, seat):
        self.values, self.seat = values, seat

    def __getitem__(self, i):
        assert i == self.seat, "the search bot read another seat's dealt hand"
        return self.values[i]


@pytest.mark.parametrize("make", [lambda: SearchBot(1, playouts=16), lambda: IsmctsBot(1, iterations=16)],
                         ids=["pimc", "ismcts"])
def test_bot_reads_only_its_information_set(wien, make):
    st = _play_until(wien, 5, lambda s: _in_play(s, 1))
    bot = make()
    a = bot.choose(_Guard(st))
    assert a in st.legal_actions() and bot.last is not None
    # in the auction too
    st2 = new_game(wien, seed=8, dealer=2)
    a2 = make().choose(_Guard(st2))
    assert a2 in st2.legal_actions()


def test_samples_agree_with_what_the_seat_saw(wien):
    st = _play_until(wien, 7, lambda s: _in_play(s, 4))
    view = seat_view(st)
    sampler = Sampler(view)
    rng = random.Random(1)
    worlds = [w for w in (sampler.sample(rng) for _ in range(40)) if w is not None]
    assert len(worlds) >= 20
    me = view.seat
    for w in worlds:
        assert w.hands[me] == st.hands[me]
        assert [x for x in w.log if A.kind_of(x[1]) == A.PLAY] == [x for x in st.log if A.kind_of(x[1]) == A.PLAY]
        assert set(w.legal_actions()) == set(st.legal_actions())
    # the samples differ in the hidden cards (they are samples, not the truth)
    assert len({tuple(w.hands) for w in worlds}) > 1


def test_voids_are_learned_from_the_rules():
    """A seat that did not follow suit is never given that suit again in later samples."""
    rs = load("wien")
    for seed in range(40):
        st = _play_until(rs, seed, lambda s: s.phase == "play" and s.current_player() == 0 and len(s.play.history) >= 4)
        if st.phase != "play" or st.current_player() != 0:
            continue
        view = seat_view(st)
        # find a trick where another seat failed to follow the led suit
        voids = []
        for trick, _winner in st.play.history:          # (seat, card) pairs in the order played
            led = rs.cards[trick[0][1]].suit
            voids += [(s, led) for s, c in trick[1:] if s != 0 and rs.cards[c].suit != led]
        if not voids:
            continue
        sampler = Sampler(view)
        rng = random.Random(seed)
        worlds = [w for w in (sampler.sample(rng) for _ in range(60)) if w is not None]
        assert worlds
        for w in worlds:
            for s, suit in voids:
                assert not (w.hands[s] & rs.suit_mask[suit]), f"seat {s} showed a void in {suit}"
        # and the sampler learned it (later samples are drawn without those cards, not just rejected)
        assert all(sampler.exclusions.get(s, 0) & rs.suit_mask[suit] for s, suit in voids)
        return
    pytest.fail("no deal with a shown void among the seeds")


@pytest.mark.parametrize("make", [lambda: SearchBot("x", playouts=16), lambda: IsmctsBot("x", iterations=16)],
                         ids=["pimc", "ismcts"])
def test_search_is_deterministic(wien, make):
    st = new_game(wien, seed=21, dealer=1)
    picks = []
    for _ in range(2):
        bot = make()
        s = st.clone()
        seq = []
        while not s.is_over() and len(seq) < 12:
            a = bot.choose(s) if s.current_player() == 0 else RuleBot(len(seq)).choose(s)
            seq.append(a)
            s.apply(a)
        picks.append(seq)
    assert picks[0] == picks[1]


def test_make_bot_and_parse_bots():
    assert isinstance(make_bot("search:12", 1), SearchBot) and make_bot("search:12").playouts == 12
    assert isinstance(make_bot("ismcts:5"), IsmctsBot) and make_bot("ismcts:5").iterations == 5
    assert parse_bots("search,rule,random", 3) == ["search", "rule", "random"]
    assert parse_bots("rule", 4) == ["rule"] * 4
    with pytest.raises(ValueError, match="3 seats"):
        parse_bots("rule,rule", 3)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever")


def test_calls_weigh_the_samples(wien):
    """With a model of the other seats (the rule bot), a sample whose hands would not have produced the
    calls seen weighs less; without one every sample weighs 1."""
    from interpreter.bots.rule import RuleBot as Model

    for seed in range(30):
        st = _play_until(wien, seed, lambda s: s.phase == "play")
        if st.phase == "play" and any(s != st.current_player() and A.kind_of(a) == A.BID for s, a in st.log):
            break
    view = seat_view(st)
    rng = random.Random(3)
    weighed = Sampler(view, model=Model(0), mismatch=0.25)
    weights = []
    for _ in range(40):
        if weighed.sample(rng) is not None:
            weights.append(weighed.last_weight)
    assert weights and min(weights) < 1 and all(w in (1, 0.25, 0.0625, 0.015625) or w < 0.02 for w in weights)
    plain = Sampler(view)
    assert all(plain.sample(rng) is None or plain.last_weight == 1 for _ in range(10))
    assert SearchBot(1, playouts=16, infer=0.25).choose(st) in st.legal_actions()


def _kontra_decision(rs):
    """A rule-bot deal of `rs` stopped where a defender may say kontra (with a choice)."""
    for seed in range(200):
        st = _play_until(rs, seed, lambda s: s.phase == "kontra" and s.current_player() != s.declarer
                         and len(s.legal_actions()) > 1, dealer=seed % 3)
        if not st.is_over() and st.phase == "kontra":
            return st
    pytest.fail("no kontra decision in 200 deals")


def test_repaired_samples_explain_the_calls():
    """Conditioned on the calls: exchanging cards between the hidden hands turns samples that the rule-bot
    model does not explain (the declarer's bid, the other defender's answer) into ones it does, and the
    search bot reports how many of its deals explain every call."""
    rs = load("croatian")
    st = _kontra_decision(rs)
    view = seat_view(st)

    def explained(repair):
        rng = random.Random(5)
        sampler = Sampler(view, {}, model=RuleBot("m"))
        ok = 0
        for _ in range(30):
            if sampler.sample(rng, repair) is not None and sampler.last_misses == 0:
                ok += 1
        return ok

    plain, repaired = explained(0), explained(40)
    assert repaired >= plain + 5
    bot = SearchBot(2, playouts=16)
    assert bot.choose(st) in st.legal_actions()
    assert bot.last is not None and 0 < bot.last["explained"] <= bot.last["worlds"]
    plain_bot = SearchBot(2, playouts=16, condition=0)
    plain_bot.choose(st)
    assert plain_bot.last is not None and plain_bot.last["explained"] == plain_bot.last["worlds"]


def test_an_earlier_deal_is_replayed_while_it_fits(wien):
    """`again` replays the deal of an earlier sample to the new decision point, and refuses it once the
    history contradicts it (a card played that the deal gave to another seat)."""
    st = _play_until(wien, 5, lambda s: _in_play(s, 1))
    view = seat_view(st)
    sampler = Sampler(view)
    rng = random.Random(1)
    w = next(x for x in (sampler.sample(rng) for _ in range(40)) if x is not None)
    assignment = sampler.last_assignment
    assert assignment is not None
    again = sampler.again(assignment, rng)
    assert again is not None and again.hands == w.hands
    hands, talon = assignment
    played = [(s, A.arg_of(a)) for s, a in st.log if A.kind_of(a) == A.PLAY and s != view.seat]
    s, c = played[0]
    other = next(o for o in sampler.others if o != s)
    wrong = list(hands)
    wrong[s] &= ~(1 << c)
    wrong[other] |= 1 << c
    assert sampler.again((wrong, talon), rng) is None


@pytest.mark.parametrize("name", ["priffe-5", "koenigrufen-5"])
def test_samples_deal_to_the_engines_chairs_when_someone_sits_out(name):
    """Five players at four chairs (a rotation) or the dealer on the bench: the sampled deals have the
    engine's shape, so the search bot can decide; found when priffe-5 gave 'the deal must give 4 hands'."""
    rs = load(name)
    st = _play_until(rs, 3, lambda s: s.phase == "play" and any(A.kind_of(a) == A.PLAY for _, a in s.log))
    assert not st.is_over()
    view = seat_view(st)
    worlds = [w for w in (Sampler(view).sample(random.Random(i)) for i in range(10)) if w is not None]
    assert worlds
    for w in worlds:
        assert len(w.hands) == len(st.hands)
        assert w.hands[view.seat] == st.hands[view.seat]
        assert set(w.legal_actions()) == set(st.legal_actions())
    assert SearchBot(seed=1, playouts=4).choose(st) in st.legal_actions()
