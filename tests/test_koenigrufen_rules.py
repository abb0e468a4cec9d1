"""The Königrufen rule files against their catalog (../shared/rules/koenigrufen.md): the cards, the seat
draw and the deal of games/koenigrufen/koenigrufen.stw (KR-DECK, KR-SEAT, KR-DEAL), the five-player file
koenigrufen-5 (KR-VAR-01), the bidding and game tables, the figures table, and the scoring expressions of
the rule file (trischaken, negative and positive games, the table count of tricks) read by a small
reference evaluator on finished deals."""
from __future__ import annotations

import contextlib
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import cli, load
from interpreter.engine.seating import draw_key, seats_by_draw
from interpreter.language.expressions import parse_text
from interpreter.model.ruleset import thaw
from interpreter.model.values import constant

FILES = ["koenigrufen", "koenigrufen-5"]
BLACK = ["7", "8", "9", "10", "J", "C", "Q", "K"]
RED = ["4", "3", "2", "1", "J", "C", "Q", "K"]
TAROKS = [f"T{i}" for i in range(1, 22)] + ["SK"]


@pytest.fixture(scope="module")
def base():
    return load("koenigrufen", playable=False)


@pytest.fixture(scope="module")
def five():
    return load("koenigrufen-5", playable=False)


def card(rs, code):
    return rs.cards[rs.card_index[code]]


def suit_ranks(rs, suit):
    return [c.rank for c in sorted((c for c in rs.cards if c.suit == suit), key=lambda c: c.order)]


def base_points(rs, code):
    return card(rs, code).points - Fraction(1, 3)


# ---- validation ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", FILES)
def test_stichwort_validate_accepts(name):
    """Well formed and checked; refused only for the mechanisms the engine does not implement yet (E410),
    and the sweep over the built-in games lists it as in development."""
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate", name, "--json"]) == 1
    [report] = json.loads(out.getvalue())
    codes = {d["code"] for d in report["diagnostics"] if d["severity"] == "error"}
    assert codes == {"E410"}, out.getvalue()
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate"]) == 0
    assert any(line.split()[:2] == ["dev", name] for line in out.getvalue().splitlines())


@pytest.mark.rules("KR-DECK-11")
def test_deck_11_a_wrong_total_is_rejected(tmp_path):
    bad = tmp_path / "kr-bad.stw"
    bad.write_text('extends "koenigrufen"\ndeck { points { total = 71 } }\n', encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert cli.main(["validate", str(bad)]) == 1
    assert "70" in out.getvalue()


# ---- DECK ----------------------------------------------------------------------------------------

@pytest.mark.rules("KR-DECK-01")
def test_deck_01_54_cards_32_suit_cards_22_taroks(base):
    assert base.deck_size == 54 and len({c.code for c in base.cards}) == 54
    assert sum(1 for c in base.cards if c.suit != "T") == 32
    assert bin(base.suit_mask["T"]).count("1") == 22
    assert base.groups["suit_cards"] == sum(base.suit_mask[s] for s in "CSDH")


@pytest.mark.rules("KR-DECK-02")
def test_deck_02_four_side_suits_of_eight(base):
    assert set(base.suits) == {"S", "C", "H", "D", "T"}
    for s in "SCHD":
        assert bin(base.suit_mask[s]).count("1") == 8


@pytest.mark.rules("KR-DECK-03")
def test_deck_03_black_suits_king_queen_cavall_jack_10_to_7(base):
    for s in "SC":
        assert suit_ranks(base, s) == BLACK
    assert card(base, "KS").order > card(base, "QS").order > card(base, "CS").order > card(base, "JS").order > card(base, "10S").order
    assert "6S" not in base.card_index and "1C" not in base.card_index


@pytest.mark.rules("KR-DECK-04")
def test_deck_04_red_suits_reverse_pips_ace_highest(base):
    for s in "HD":
        assert suit_ranks(base, s) == RED
    assert card(base, "1H").order > card(base, "2H").order > card(base, "3H").order > card(base, "4H").order
    assert card(base, "JD").order > card(base, "1D").order
    assert "5H" not in base.card_index and "10D" not in base.card_index


@pytest.mark.rules("KR-DECK-05")
def test_deck_05_taroks_are_permanent_trumps_higher_number_beats_lower(base):
    assert base.trump_suit == "T"
    orders = [card(base, f"T{i}").order for i in range(1, 22)]
    assert orders == sorted(orders) == list(range(21))


@pytest.mark.rules("KR-DECK-06")
def test_deck_06_skus_is_the_highest_trump(base):
    sk = card(base, "SK")
    assert sk.suit == "T" and sk.order == 21
    assert all(sk.order > c.order for c in base.cards if c.suit == "T" and c.code != "SK")
    assert suit_ranks(base, "T") == TAROKS


@pytest.mark.rules("KR-DECK-07")
def test_deck_07_pagat_and_mond(base):
    names = base.doc["deck"]["names"]["en"]
    assert names["T1"] == "Pagat" and names["T21"] == "Mond" and names["SK"] == "Sküs"
    assert card(base, "T1").order == 0                       # the Pagat is tarok I, the lowest


@pytest.mark.rules("KR-DECK-08")
def test_deck_08_matadors_are_skus_mond_pagat(base):
    assert set(base.codes(base.groups["matadors"])) == {"SK", "T21", "T1"}


@pytest.mark.rules("KR-DECK-09")
def test_deck_09_basic_card_values(base):
    for s in "SCHD":
        assert base_points(base, "K" + s) == 4
        assert base_points(base, "Q" + s) == 3
        assert base_points(base, "C" + s) == 2
        assert base_points(base, "J" + s) == 1
    for code in ("SK", "T21", "T1"):
        assert base_points(base, code) == 4
    for code in ["7S", "10C", "1H", "4D"] + [f"T{i}" for i in range(2, 21)]:
        assert base_points(base, code) == 0


@pytest.mark.rules("KR-DECK-10")
def test_deck_10_every_card_one_blatt_more(base):
    assert constant(base.doc["deck"]["points"]["each"]) == Fraction(1, 3)
    for c in base.cards:
        assert (c.points - Fraction(1, 3)).denominator == 1      # whole basic value plus one blatt
    assert card(base, "7C").points == Fraction(1, 3)


@pytest.mark.rules("KR-DECK-11")
def test_deck_11_seventy_points_in_all(base):
    assert base.total_points() == 70
    assert base.doc["deck"]["points"]["total"] == 70
    basic = sum(c.points for c in base.cards) - Fraction(54, 3)
    assert basic == 52


# ---- SEAT ----------------------------------------------------------------------------------------

@pytest.mark.rules("KR-SEAT-01")
@pytest.mark.parametrize("name", FILES)
def test_seat_01_play_goes_counterclockwise(name):
    rs = load(name, playable=False)
    assert rs.direction == "counterclockwise"
    assert rs.doc["session"]["dealer"] == "forehand"          # the deal too (KR-SESS-05)


@pytest.mark.rules("KR-SEAT-02")
def test_seat_02_seats_and_first_dealer_by_draw(base):
    assert base.doc["seating"]["first_dealer"] == "draw"
    assert any("KR-SEAT-02" in c for c in base.doc["customs"])


@pytest.mark.rules("KR-SEAT-03")
def test_seat_03_any_tarok_beats_any_suit_card_skus_highest(base):
    assert draw_key(base, "T1") > draw_key(base, "KH")
    assert draw_key(base, "T2") > draw_key(base, "T1")
    assert max((c.code for c in base.cards), key=lambda code: draw_key(base, code)) == "SK"
    assert tuple(base.doc["seating"]["draw"]["compare"])[0] == "trump"


@pytest.mark.rules("KR-SEAT-04", "KR-AMB-04")
def test_seat_04_red_pips_count_as_the_black_pip_in_the_same_place(base):
    pairs = [("1H", "10S"), ("2D", "9C"), ("3H", "8S"), ("4D", "7C")]
    for red, black in pairs:
        assert draw_key(base, red)[:2] == draw_key(base, black)[:2]
    for rank in "KQCJ":
        assert draw_key(base, rank + "H")[:2] == draw_key(base, rank + "C")[:2]
    assert draw_key(base, "1D")[:2] > draw_key(base, "9S")[:2]
    assert draw_key(base, "JS")[:2] > draw_key(base, "1H")[:2]


@pytest.mark.rules("KR-SEAT-05")
def test_seat_05_equal_ranks_hearts_diamonds_spades_clubs(base):
    order = sorted(["10C", "10S", "1D", "1H"], key=lambda code: draw_key(base, code), reverse=True)
    assert order == ["1H", "1D", "10S", "10C"]
    assert draw_key(base, "KH") > draw_key(base, "KD") > draw_key(base, "KS") > draw_key(base, "KC")


@pytest.mark.rules("KR-SEAT-06")
def test_seat_06_highest_card_deals_first(base):
    assert base.doc["seating"]["draw"]["dealer"] == "highest"
    seats = seats_by_draw(base, {"A": "T5", "B": "KH", "C": "SK", "D": "7C"})
    assert seats[0] == "C"


@pytest.mark.rules("KR-SEAT-07")
@pytest.mark.parametrize("name", FILES)
def test_seat_07_others_sit_counterclockwise_in_falling_order(name):
    rs = load(name, playable=False)
    cards = {"A": "T5", "B": "KH", "C": "SK", "D": "7C", "E": "1H"}
    drawn = dict(list(cards.items())[:rs.seats])
    seats = seats_by_draw(rs, drawn)
    assert len(seats) == rs.seats
    falling = sorted(drawn, key=lambda p: draw_key(rs, drawn[p]), reverse=True)
    # step k from the dealer in the direction of play (counter-clockwise) holds the (k+1)-th highest card
    assert [seats[k] for k in range(rs.seats)] == falling


@pytest.mark.rules("KR-SEAT-08")
@pytest.mark.parametrize("name", FILES)
def test_seat_08_forehand_is_the_dealers_right_and_gets_cards_first(name):
    rs = load(name, playable=False)
    assert rs.roles["forehand"] == 1                    # the next seat counter-clockwise = the dealer's right
    assert rs.doc["deal"]["start"] == "forehand"
    assert rs.doc["auction"]["first"] == "forehand"


# ---- DEAL ----------------------------------------------------------------------------------------

def packets(rs):
    return [(p["to"], p["cards"], p.get("repeat", 1)) for p in rs.doc["deal"]["packets"]]


@pytest.mark.rules("KR-DEAL-01")
def test_deal_01_the_player_on_the_dealers_left_cuts(base):
    # counter-clockwise, the previous seat is the dealer's left
    assert base.doc["deal"]["cut"] == "prev(dealer)"
    assert any("KR-DEAL-01" in c for c in base.doc["customs"])     # the dealer shuffles


@pytest.mark.rules("KR-DEAL-02")
@pytest.mark.parametrize("name", FILES)
def test_deal_02_first_round_six_each_from_forehand(name):
    rs = load(name, playable=False)
    assert packets(rs)[0] == ("each", 6, 1)
    assert rs.doc["deal"]["start"] == "forehand"


@pytest.mark.rules("KR-DEAL-03")
@pytest.mark.parametrize("name", FILES)
def test_deal_03_then_six_to_the_talon(name):
    rs = load(name, playable=False)
    assert packets(rs)[1] == ("talon", 6, 1)
    assert rs.talon_size == 6


@pytest.mark.rules("KR-DEAL-04", "KR-VAR-02")
def test_deal_04_talon_as_one_pile_traditional_layout_a_custom(base):
    assert [p for p in packets(base) if p[0] == "talon"] == [("talon", 6, 1)]
    assert any("KR-DEAL-04" in c and "KR-VAR-02" in c for c in base.doc["customs"])


@pytest.mark.rules("KR-DEAL-05")
@pytest.mark.parametrize("name", FILES)
def test_deal_05_second_round_twelve_in_every_hand(name):
    rs = load(name, playable=False)
    assert packets(rs) == [("each", 6, 1), ("talon", 6, 1), ("each", 6, 1)]
    assert rs.hand_size == 12
    assert rs.players * rs.hand_size + rs.talon_size == rs.deck_size == 54


@pytest.mark.rules("KR-DEAL-06", "KR-VAR-01", "KR-SESS-07")
def test_deal_06_five_at_the_table_the_dealer_sits_out(five, base):
    assert five.seats == 5 and five.players == 4
    assert five.doc["seating"]["sit_out"] == "dealer"
    assert base.seats == base.players == 4
    assert [Path(f).name for f in five.chain] == ["koenigrufen.stw", "koenigrufen-5.stw"]
    # the rest is inherited: same cards, same contracts, the deal still passes to forehand
    assert five.contracts == base.contracts and five.calls == base.calls
    assert five.doc["session"]["dealer"] == "forehand"
    assert list(five.doc["seating"]["draw"]["places"]) == [4, 3, 2, 1, 0]


@pytest.mark.rules("KR-DEAL-07", "KR-VAR-03")
@pytest.mark.parametrize("name", FILES)
def test_deal_07_knocking_talon_first_then_four_piles_of_twelve(name):
    rs = load(name, playable=False)
    knock = rs.doc["deal"]["knock"]
    assert knock["by"] == "prev(dealer)"                 # the player on the dealer's left, instead of cutting
    assert [(p["to"], p["cards"], p.get("repeat", 1)) for p in knock["packets"]] == [("talon", 6, 1), ("pile", 12, 4)]


@pytest.mark.rules("KR-DEAL-08")
def test_deal_08_piles_chosen_from_forehand(base):
    assert base.doc["deal"]["knock"]["choose"] == "forehand"


# ---- auction and the game table --------------------------------------------------------------------

GAME_TABLE = {   # KR-SCORE-14, KR-SCORE-15: rank, win, loss, king call, talon
    "trischaken": (0, 1, 1, "nobody", "trischaken"), "sechserdreier": (0, 3, 6, "alone", "whole"),
    "rufer": (1, 1, 1, "called", "halves"), "piccolo": (2, 2, 2, "alone", "aside"),
    "zwiccolo": (3, 2, 2, "alone", "aside"), "solorufer": (4, 2, 2, "called", "solo"),
    "bettler": (5, 3, 3, "alone", "aside"), "pagatrufer": (6, 1, 1, "called", "halves"),
    "uhurufer": (7, 1, 1, "called", "halves"), "kakadurufer": (8, 1, 1, "called", "halves"),
    "farbendreier": (9, 3, 3, "alone", "farben"), "piccolo_bei_p": (10, 2, 2, "alone", "aside"),
    "dreier": (11, 4, 4, "alone", "halves"), "bettler_bei_p": (12, 3, 3, "alone", "aside"),
    "piccolo_bei_b": (13, 2, 2, "alone", "aside"), "piccolo_ouverte": (14, 5, 5, "alone", "aside"),
    "bettler_bei_b": (15, 3, 3, "alone", "aside"), "farbensolo": (16, 6, 6, "alone", "farben_solo"),
    "bettler_ouverte": (17, 7, 7, "alone", "aside"), "solodreier": (18, 8, 8, "alone", "solo"),
}


@pytest.mark.rules("KR-AUC-12", "KR-SCORE-14", "KR-SCORE-15", "KR-SCORE-16", "KR-TAL-01", "KR-AMB-01")
def test_game_table(base):
    assert set(base.contracts) == set(GAME_TABLE)
    for name, (rank, win, loss, side, talon) in GAME_TABLE.items():
        c = base.contract(name)
        assert (c["rank"], c["props"]["win"], c["props"]["loss"], c["side"], c["talon"]) == (rank, win, loss, side, talon), name
    doubled = {n for n in base.contracts if base.contract(n)["props"].get("forehand_double")}
    assert doubled == {"farbendreier", "farbensolo"}        # KR-SCORE-17, KR-SCORE-18


@pytest.mark.rules("KR-AUC-05", "KR-AUC-06", "KR-AUC-07", "KR-AUC-08", "KR-AMB-06")
def test_mein_spiel_ranks_as_rufer_and_reaches_every_game_but_bei(base):
    ms = base.call("mein_spiel")
    assert ms["rank"] == base.call("rufer")["rank"] == 1
    assert base.call("piccolo")["rank"] == 2
    assert set(ms["contracts"]) == {n for n in base.contracts if "bei" not in n}
    for rank0 in ("trischaken", "sechserdreier"):
        assert rank0 not in base.calls                       # only through mein spiel
        assert [c for c in base.calls if rank0 in base.call(c)["contracts"]] == ["mein_spiel"]


@pytest.mark.rules("KR-AUC-13", "KR-AUC-15", "KR-AUC-16")
def test_bei_calls_join_plain_piccolo_or_bettler(base):
    joins = {c: tuple(base.call(c)["joins"]) for c in base.calls if "joins" in base.call(c)}
    assert joins == {"piccolo_bei_p": ("piccolo",), "bettler_bei_p": ("piccolo",),
                     "piccolo_bei_b": ("bettler",), "bettler_bei_b": ("bettler",)}
    assert [base.call(c)["rank"] for c in ("piccolo_bei_p", "bettler_bei_p", "piccolo_bei_b", "bettler_bei_b")] == [10, 12, 13, 15]


# ---- a reference reading of the rule file's expressions -----------------------------------------------

class Named(str):
    def __new__(cls, name, rec):
        obj = str.__new__(cls, name)
        obj.rec = rec
        return obj


class Reader:
    """Evaluates the rule file's expressions on a finished (or running) deal, independently of the engine."""

    def __init__(self, name="koenigrufen"):
        self.rs = load(name, playable=False)
        self.doc = thaw(self.rs.doc)
        self.lets = {}
        for n, body in self.doc.get("let", {}).items():
            params, text = (tuple(body["params"]), body["body"]) if isinstance(body, dict) else ((), body)
            self.lets[n] = (params, parse_text(text))
        self.named = {n: Named(n, c) for n, c in self.doc["contract"].items()}
        self.named.update({n: Named(n, c) for n, c in self.doc["call"].items() if n not in self.named})
        self.named.update({n: Named(n, f) for n, f in self.doc["figure"].items()})

    def __call__(self, text, w, **env):
        return self.ev(parse_text(text), w, env)

    def ev(self, node, w, env):
        kind = node[0]
        if kind == "num":
            return int(node[1]) if node[1].denominator == 1 else node[1]
        if kind in ("str", "const"):
            return node[1]
        if kind == "name":
            n = node[1]
            if n in env:
                return env[n]
            if n in self.lets and not self.lets[n][0]:
                return self.ev(self.lets[n][1], w, env)
            if n in self.rs.options:
                return self.rs.options[n]
            if hasattr(w, n):
                return getattr(w, n)
            if n in self.named:
                return self.named[n]
            return n
        if kind == "list":
            return tuple(self.ev(x, w, env) for x in node[1])
        if kind == "attr":
            obj = self.ev(node[1], w, env)
            rec = getattr(obj, "rec", {})
            return rec.get(node[2], (rec.get("props") or {}).get(node[2]))
        if kind == "not":
            return not self.ev(node[1], w, env)
        if kind == "neg":
            return -self.ev(node[1], w, env)
        if kind == "if":
            return self.ev(node[2] if self.ev(node[1], w, env) else node[3], w, env)
        if kind == "bin":
            op, a = node[1], self.ev(node[2], w, env)
            if op == "and":
                return bool(a) and bool(self.ev(node[3], w, env))
            if op == "or":
                return bool(a) or bool(self.ev(node[3], w, env))
            b = self.ev(node[3], w, env)
            if op == "/":
                q = Fraction(a) / Fraction(b)
                return int(q) if q.denominator == 1 else q
            return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "^": lambda: a ** b,
                    "%": lambda: a % b, "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
                    "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b,
                    "in": lambda: a in (b or ()), "not in": lambda: a not in (b or ())}[op]()
        if kind == "comp":
            _, fname, body, var, iterable, cond = node
            items = [m for m in self.ev(iterable, w, env) if cond is None or self.ev(cond, w, dict(env, **{var: m}))]
            if fname == "set":
                return tuple(items)
            values = [self.ev(body, w, dict(env, **{var: m})) for m in items]
            return {"any": any, "all": all, "sum": sum, "max": max, "min": min,
                    "count": lambda v: sum(map(bool, v))}[fname](values)
        if kind == "call":
            fname, args = node[1], node[2]
            values = [self.ev(a, w, env) for a in args]
            if fname in self.lets:
                params, body = self.lets[fname]
                return self.ev(body, w, dict(env, **dict(zip(params, values))))
            if fname in ("min", "max"):
                return {"min": min, "max": max}[fname](values)
            if fname == "size":
                return len(values[0])
            if fname == "floor":
                return int(values[0] // 1)
            if fname in ("achieved", "attempted"):
                f, side = values
                field = "goal" if fname == "achieved" else "attempt"
                if f not in (w.contract.rec.get("figures") or ()) or field not in f.rec:
                    return False
                if fname == "attempted" and w.declared_by(f, side):
                    return False
                return bool(self.ev(parse_text(f.rec[field]), w, dict(env, side=side)))
            return getattr(w, fname)(*values)
        raise AssertionError(kind)

    def pay(self, w) -> dict[int, Fraction]:
        """Apply the settle rows: net game points per seat."""
        net = dict.fromkeys(range(4), 0)
        for row in self.doc["settle"]["pay"]:
            seats = self(row["each"], w) if "each" in row else (None,)
            for s in (seats if isinstance(seats, tuple) else (seats,)):
                if "when" in row and not self(row["when"], w, s=s):
                    continue
                amount = self(row["amount"], w, s=s)
                if "from" in row:
                    net[self(row["from"], w, s=s)] -= amount
                net[self(row["to"], w, s=s)] += amount
        return net


class Deal:
    """A finished deal: seats 0..3 in the direction of play, the dealer at 0, forehand at 1."""

    dealer, forehand, tricks_total, tricks_played = 0, 1, 12, 12
    active = seats = (0, 1, 2, 3)

    def __init__(self, R, contract, declarer=None, partner=None, tricks=(0, 0, 0, 0), points=None,
                 declared=None, kontras=None, last=None, given_up=False, base_bidder=None, called_card=None):
        self.R = R
        self.contract = R.named[contract]
        self.declarer, self.partner = declarer, partner
        self.tricks_won = list(tricks)
        self.points_won = [Fraction(p) for p in (points or (0, 0, 0, 0))]
        self._declared = declared or {}         # seat → figure names it declared
        self.kontra = kontras or {}             # item name or (declarer, opponent) → calls in its kontra chain
        self.last = last or {}                  # (seat, n) → card played; ("win", n) → winning card; ("winner", n)
        self.given_up = given_up
        self.base_bidder = base_bidder
        self.base_contract = R.named["piccolo"] if base_bidder is not None else None
        self.called_card = called_card

    @property
    def declarers(self):
        if self.declarer is None:
            return ()
        return (self.declarer,) if self.partner is None else tuple(sorted((self.declarer, self.partner)))

    @property
    def defenders(self):
        return tuple(s for s in range(4) if s not in self.declarers)

    @property
    def made(self):
        goal = self.contract.rec.get("goal")
        return bool(goal) and bool(self.R(goal, self))

    def _seats(self, x):
        return (x,) if isinstance(x, int) else tuple(x)

    def next(self, s):
        return (s + 1) % 4

    def prev(self, s):
        return (s - 1) % 4

    def order(self, s):                         # bidding order from forehand
        return (s - 1) % 4

    def partner_of(self, s):
        return self.partner if s == self.declarer else self.declarer if s == self.partner else None

    def tricks(self, x):
        return sum(self.tricks_won[s] for s in self._seats(x))

    def points(self, x):
        return sum((self.points_won[s] for s in self._seats(x)), Fraction(0))

    def declared(self, f):
        return any(f in figs for figs in self._declared.values())

    def declared_by(self, f, x):
        return any(f in self._declared.get(s, ()) for s in self._seats(x))

    def kontras(self, item):
        return self.kontra.get(str(item), 0)

    def kontras_between(self, p, s):
        return self.kontra.get((p, s), 0)

    def played_card(self, s, n):
        return self.last.get((s, n))

    def winning_card(self, n):
        return self.last.get(("win", n))

    def trick_winner(self, n):
        return self.last.get(("winner", n))

    def captured(self, x, cards):
        return False                            # figures by capture are only made here through valat


_READER: Reader | None = None


def reader() -> Reader:
    global _READER
    if _READER is None:
        _READER = Reader()
    return _READER


def deal(contract, **kw) -> Deal:
    return Deal(reader(), contract, **kw)


# ---- trischaken ------------------------------------------------------------------------------------

def trischaken(points, tricks):
    return reader().pay(deal("trischaken", points=[Fraction(p) for p in points], tricks=tricks))


@pytest.mark.rules("KR-SCORE-48", "KR-SCORE-49", "KR-CON-37")
def test_trischaken_the_most_points_pays_one_to_each_other_player():
    # seat 2 has the most (not forehand, under 35/2, nobody Jungfrau)
    net = trischaken([15, 20, 25, 10], [3, 3, 3, 3])
    assert net == {0: 1, 1: 1, 2: -3, 3: 1}


@pytest.mark.rules("KR-SCORE-49", "KR-CON-38")
def test_trischaken_exact_blatt_decides_buergermeister():
    just = trischaken([Fraction(7), Fraction(7), Fraction(107, 3), Fraction(62, 3)], [3, 3, 3, 3])   # 35/2
    below = trischaken([Fraction(7), Fraction(22, 3), Fraction(106, 3), Fraction(20)], [3, 3, 3, 3])  # 35/1
    assert just[2] == -6 and below[2] == -3


@pytest.mark.rules("KR-SCORE-50", "KR-SCORE-52")
def test_trischaken_tie_with_forehand_only_forehand_loses_double():
    net = trischaken([10, 25, 25, 10], [3, 3, 3, 3])
    assert net == {0: 2, 1: -6, 2: 2, 3: 2}


@pytest.mark.rules("KR-SCORE-51", "KR-AMB-22")
def test_trischaken_tie_without_forehand_each_pays_all_others():
    net = trischaken([10, 10, 25, 25], [3, 3, 3, 3])
    assert net == {0: 2, 1: 2, 2: -2, 3: -2}
    assert sum(net.values()) == 0


@pytest.mark.rules("KR-EX-08", "KR-SCORE-53", "KR-CON-39", "KR-SCORE-52")
def test_trischaken_jungfrau_takes_the_whole_payment():
    net = trischaken([20, 0, 30, 20], [4, 0, 5, 3])       # seat 1 (forehand) took no trick: Jungfrau
    assert net == {0: 0, 1: 6, 2: -6, 3: 0}


@pytest.mark.rules("KR-SCORE-52", "KR-AMB-23")
def test_trischaken_all_doublings_and_two_jungfrauen_share():
    net = trischaken([0, 40, 0, 30], [0, 7, 0, 5])        # forehand Bürgermeister, two Jungfrauen
    assert net == {0: 12, 1: -24, 2: 12, 3: 0}


# ---- negative games, bei, early end -----------------------------------------------------------------

@pytest.mark.rules("KR-SCORE-13", "KR-DEF-05", "KR-AMB-15", "KR-CON-30")
def test_piccolo_paid_with_each_opponent_kontra_personal():
    made = reader().pay(deal("piccolo", declarer=2, tricks=[4, 4, 1, 3], kontras={(2, 3): 1}))
    assert made == {0: -2, 1: -2, 2: 8, 3: -4}
    lost = reader().pay(deal("piccolo", declarer=2, tricks=[4, 3, 2, 3]))
    assert lost == {0: 2, 1: 2, 2: -6, 3: 2}


@pytest.mark.rules("KR-SCORE-22", "KR-CON-34", "KR-CON-35", "KR-CON-36", "KR-AUC-14")
def test_bei_both_declarers_paid_separately():
    # seat 3 plays bettler bei on seat 2's piccolo: 3 takes no trick (made), 2 takes two (lost)
    net = reader().pay(deal("bettler_bei_p", declarer=3, base_bidder=2, tricks=[5, 5, 2, 0]))
    assert net == {0: -3 + 2, 1: -3 + 2, 2: -3 - 6, 3: 9 + 2}


@pytest.mark.rules("KR-PLAY-27", "KR-AMB-21")
def test_early_end_on_trick_counts():
    R = reader()
    early = R.doc["play"]["early_end"]
    w = deal("bettler", declarer=2, tricks=[1, 1, 1, 0])
    w.tricks_played = 3
    assert R(early, w)
    w = deal("piccolo", declarer=2, tricks=[2, 1, 0, 0])
    w.tricks_played = 3
    assert not R(early, w)
    w.tricks_won = [5, 6, 0, 0]
    w.tricks_played = 11                                   # one trick left, the piccolo still needs one
    assert not R(early, w)
    w.tricks_won = [6, 6, 0, 0]
    w.tricks_played = 12
    assert R(early, w)
    bei = deal("piccolo_bei_p", declarer=3, base_bidder=2, tricks=[1, 1, 0, 2])
    bei.tricks_played = 4
    assert not R(early, bei)                               # the base piccolo can still be made
    bei.tricks_won = [1, 0, 2, 2]
    bei.tricks_played = 5
    assert R(early, bei)


# ---- positive games ------------------------------------------------------------------------------

@pytest.mark.rules("KR-SCORE-08", "KR-SCORE-10", "KR-AMB-25", "KR-SCORE-07")
def test_rufer_with_partner_each_opponent_pays_one_member():
    net = reader().pay(deal("rufer", declarer=1, partner=3, tricks=[3, 3, 3, 3], called_card="KH",
                            points=[Fraction(103, 6), Fraction(107, 6), Fraction(103, 6), Fraction(107, 6)]))
    # declarers 35 2/3 exactly: won, 1 from each opponent to one declarer each
    assert net == {0: -1, 1: 1, 2: -1, 3: 1}


@pytest.mark.rules("KR-SCORE-11", "KR-SCORE-12", "KR-SCORE-19", "KR-SCORE-20", "KR-AMB-09")
def test_alone_the_declarer_settles_with_all_three():
    lost = reader().pay(deal("rufer", declarer=1, tricks=[3, 3, 3, 3], points=[20, 35, 10, 5]))
    assert lost == {0: 1, 1: -3, 2: 1, 3: 1}
    won = reader().pay(deal("dreier", declarer=0, tricks=[6, 2, 2, 2], points=[40, 10, 10, 10]))
    assert won == {0: 12, 1: -4, 2: -4, 3: -4}


@pytest.mark.rules("KR-SCORE-17", "KR-SCORE-18", "KR-SCORE-47", "KR-AMB-20")
def test_farben_lost_by_forehand_double_also_when_lost_at_once():
    fh = reader().pay(deal("farbendreier", declarer=1, tricks=[3, 3, 3, 3], points=[20, 30, 10, 10]))
    other = reader().pay(deal("farbendreier", declarer=2, tricks=[3, 3, 3, 3], points=[20, 10, 30, 10]))
    at_once = reader().pay(deal("farbensolo", declarer=1, given_up=True))
    assert fh[1] == -18 and other[2] == -9 and at_once[1] == -36


@pytest.mark.rules("KR-SCORE-21", "KR-CON-15", "KR-CON-20")
def test_giving_up_a_bird_rufer_costs_the_game_and_the_bird():
    net = reader().pay(deal("pagatrufer", declarer=1, given_up=True))
    assert net == {0: 3, 1: -9, 2: 3, 3: 3}                 # (1 + 2) to each of three


@pytest.mark.rules("KR-SCORE-23", "KR-SCORE-24", "KR-SCORE-26", "KR-SCORE-28", "KR-ANN-20", "KR-AMB-16", "KR-AMB-17")
def test_valat_factors():
    silent = reader().pay(deal("dreier", declarer=0, tricks=[12, 0, 0, 0], points=[70, 0, 0, 0]))
    assert silent[0] == 3 * 4 * 4
    declared = reader().pay(deal("dreier", declarer=0, tricks=[12, 0, 0, 0], points=[70, 0, 0, 0],
                                 declared={0: ("valat",)}, kontras={"dreier": 1}))
    assert declared[0] == 3 * 4 * 8 * 2
    failed = reader().pay(deal("sechserdreier", declarer=0, tricks=[11, 1, 0, 0], points=[66, 4, 0, 0],
                               declared={0: ("valat",)}))
    assert failed[0] == 3 * (-6 * 8 + 2)                    # KR-AMB-17: 8 × 6 per opponent; grammeln and
                                                            # großgrammeln made silently apart (KR-ANN-20)
    beaten = reader().pay(deal("dreier", declarer=0, tricks=[11, 1, 0, 0], points=[66, 4, 0, 0],
                               declared={1: ("valat",)}))
    assert beaten[0] == 3 * (4 * 8 + 2)                     # KR-AMB-16 (b): the declarer wins 8 ×


@pytest.mark.rules("KR-SCORE-34", "KR-SCORE-35", "KR-SCORE-37", "KR-SCORE-38", "KR-SCORE-45", "KR-SCORE-46")
def test_pagat_ultimo_silent_declared_and_solo():
    won_last = {(0, 12): "T1", ("win", 12): "T1", ("winner", 12): 0}
    lost_last = {(0, 12): "T1", ("win", 12): "SK", ("winner", 12): 2}
    pts = [40, 10, 10, 10]
    silent = reader().pay(deal("dreier", declarer=0, tricks=[9, 1, 1, 1], points=pts, last=won_last))
    assert silent[0] == 3 * (4 + 1)
    declared = reader().pay(deal("dreier", declarer=0, tricks=[9, 1, 1, 1], points=pts, last=won_last,
                                 declared={0: ("pagat_ultimo",)}, kontras={"pagat_ultimo": 1}))
    assert declared[0] == 3 * (4 + 2 * 2)
    attempt = reader().pay(deal("dreier", declarer=0, tricks=[9, 1, 1, 1], points=pts, last=lost_last))
    assert attempt[0] == 3 * (4 - 1)
    solo = reader().pay(deal("solodreier", declarer=0, tricks=[9, 1, 1, 1], points=pts, last=won_last,
                             declared={0: ("pagat_ultimo",)}))
    assert solo[0] == 3 * (8 + 2 * 2)


@pytest.mark.rules("KR-SCORE-30", "KR-SCORE-31", "KR-AMB-18")
def test_valat_pays_only_declared_figures_unless_silent_ones_are_worth_more():
    # rufer silent valat with partner: grammeln, großgrammeln (made automatically), pagat ultimo silent
    won_last = {(1, 12): "T1", ("win", 12): "T1", ("winner", 12): 1}
    w = deal("rufer", declarer=1, partner=3, tricks=[0, 6, 0, 6], points=[0, 35, 0, 35], last=won_last, called_card="KH")
    net = reader().pay(w)
    # silent figures 1 + 1 + 1 (+ trull and four kings, also automatic) = 5 > (4 − 1) × 1: G + S
    assert net[1] == 1 + 5
    big = reader().pay(deal("dreier", declarer=0, tricks=[12, 0, 0, 0], points=[70, 0, 0, 0], last={
        (0, 12): "T1", ("win", 12): "T1", ("winner", 12): 0}))
    assert big[0] == 3 * 4 * 4                              # 5 silent ≤ (4 − 1) × 4: valat only


# ---- the count and the figures table ------------------------------------------------------------------

@pytest.mark.rules("KR-SCORE-03", "KR-SCORE-04")
def test_counting_tricks_by_threes():
    got = [reader()(f"counted_tricks({n})", deal("rufer")) for n in range(13)]
    assert got == [0, 1, 3, 4, 5, 7, 8, 9, 11, 12, 13, 15, 16]
    assert all(abs(g - Fraction(4 * n, 3)) < 1 for n, g in enumerate(got))     # the exact blatt, rounded


@pytest.mark.rules("KR-SCORE-32", "KR-ANN-13", "KR-AMB-27")
def test_figures_table(base):
    fig = base.doc["figure"]
    want = {"trull": (1, 2), "four_kings": (1, 2), "grammeln": (1, 2), "grossgrammeln": (1, 2),
            "kung_ultimo": (1, 2), "pagat_ultimo": (1, 2), "uhu": (2, 4), "kakadu": (3, 6), "valat": (4, 8)}
    assert {n: (f["silent"], f["declared"]) for n, f in fig.items()} == want
    assert fig["valat"]["multiplier"] is True
    assert {fig[b]["card"] for b in ("pagat_ultimo", "uhu", "kakadu")} == set(base.codes(base.groups["birds"]))


@pytest.mark.rules("KR-ANN-14", "KR-ANN-15", "KR-ANN-16", "KR-AMB-19")
def test_figures_only_in_positive_games(base):
    for name in base.contracts:
        c = base.contract(name)
        figs = set(c.get("figures", ()))
        if c["kind"] != "positive":
            assert not figs, name
        elif name.startswith("farben"):
            assert figs == {"grammeln", "grossgrammeln", "valat"}
        else:
            assert ("kung_ultimo" in figs) == (c["side"] == "called"), name


@pytest.mark.rules("KR-AUC-04", "KR-AUC-11", "KR-DEF-12", "KR-AMB-14")
def test_forehand_may_not_pass_first_and_three_passes_end(base):
    au = base.doc["auction"]
    R = reader()
    w = deal("rufer")
    assert not R(au["pass"]["allowed"], w, me=1, turn=0)
    assert R(au["pass"]["allowed"], w, me=2, turn=1) and R(au["pass"]["allowed"], w, me=1, turn=4)
    assert R(au["ends"], w, passes=3, players=4) and not R(au["ends"], w, passes=2, players=4)
    assert list(base.doc["announce"]["kontra"]["levels"]) == ["kontra", "rekontra", "subkontra"]
    assert base.doc["announce"]["kontra"]["max"] == 3


@pytest.mark.rules("KR-AUC-17", "KR-AUC-18", "KR-EX-01", "KR-EX-02", "KR-AMB-05")
def test_bei_only_while_the_base_is_the_bidders_latest_call():
    R = reader()
    w = deal("rufer")
    # KR-EX-01: A(1) mein spiel, B(2) pass, C(3) piccolo, D(0) pagatrufer: A may bid piccolo bei
    latest = {1: "mein_spiel", 2: "pass", 3: "piccolo", 0: "pagatrufer"}
    w.latest = latest.get
    assert R("base_open(piccolo)", w, me=1)
    assert not R("base_open(piccolo)", w, me=3)            # not on one's own piccolo (KR-AUC-13)
    latest[3] = "pass"                                      # C has spoken again: the chance is gone
    assert not R("base_open(piccolo)", w, me=1)
    # KR-EX-02 (a): B's bettler bei is no base for another bettler bei
    latest.update({1: "piccolo", 2: "bettler_bei_p"})
    assert not R("base_open(bettler)", w, me=3)
    assert R("base_open(piccolo)", w, me=3)                 # (b) A's piccolo still is
