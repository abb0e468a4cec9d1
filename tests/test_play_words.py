"""`play` speaks the table's words and takes a long discard card by card (issue 10, item 4)."""
from __future__ import annotations

import io

from interpreter import load
from interpreter.engine import actions as A
from interpreter.engine import new_game
from interpreter.engine.text import parse
from interpreter.present import choose
from interpreter.present.terminal import play


class Lines:
    """Typed input: the given lines, then '1' (the first menu entry) for every other question."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.asked = 0

    def readline(self, _limit):
        self.asked += 1
        if self.asked > 300:
            return ""
        return self.lines.pop(0) + "\n" if self.lines else "1\n"


def test_menus_and_action_texts_use_the_words():
    st = new_game(load("wien"), seed=3)
    texts = [st.action_text(a) for a in st.legal_actions()]
    assert "bid five without purchase" in texts and "bid five_wp" not in texts
    assert parse(st, "bid five_wp") == parse(st, "bid five without purchase")   # the name is still accepted


def test_a_long_discard_is_entered_card_by_card():
    # seed 5, seat 0: bidding two, then four, seat 0 becomes the declarer and buys the talon
    out = io.StringIO()
    inp = Lines(["1", "1", "qc", "xx", "QC", "KD", "q"])
    play(load("wien"), {}, seat=0, seed=5, deals=1, inp=inp, out=out)
    text = out.getvalue()
    assert "discard 2 cards, one at a time; possible: 8\u2663 J\u2663 Q\u2663" in text     # 8C JC QC
    assert "discard 8C JC" not in text.split("one at a time")[0]         # the 66 discards are not listed
    assert "'xx' is neither a card nor a choice above" in text
    assert "QC is chosen already" in text
    assert "(so far: Q\u2663)" in text


def test_narrowing_ends_at_one_discard():
    st = new_game(load("wien"), seed=5)
    while A.kind_of(st.legal_actions()[0]) != A.DISCARD:
        st.apply(st.legal_actions()[-1] if st.phase == "auction" and st.current_player() != 1 else st.legal_actions()[0])
    legal = st.legal_actions()
    assert choose.is_long(st, legal) and choose.size(st, legal) == 2
    cards = sorted(choose.cards_of(st, legal[0]))
    chosen, action, problem = choose.step(st, legal, [], cards[0])
    assert action is None and problem is None and chosen == [cards[0]]
    chosen, action, problem = choose.step(st, legal, chosen, cards[1])
    assert problem is None and action == legal[0]


def test_a_discard_typed_whole_may_name_its_cards_in_any_order():
    out = io.StringIO()
    inp = Lines(["1", "1", "discard KD QC", "q"])
    play(load("wien"), {}, seat=0, seed=5, deals=1, inp=inp, out=out)
    text = out.getvalue()
    assert "is neither a card nor a choice" not in text
    assert "discard 2 cards, one at a time" in text and text.count("discard 2 cards, one at a time") == 1


def test_help_and_a_hint_from_the_rule_bot_leave_the_deal_as_it_was(tmp_path):
    import json

    from interpreter.bots import make_bot
    from interpreter.present.terminal import HELP

    rs = load("wien")
    out = io.StringIO()
    save = tmp_path / "game.save"
    play(rs, {}, seat=1, seed=5, deals=1, inp=Lines(["?", "hint", "hint", "1", "q"]), out=out, save=str(save))
    text = out.getvalue()
    flat = " ".join(text.split())
    assert " ".join(HELP.split()) in flat
    # seat 1 is forehand (dealer 0): the first question is its first call, on the deal of seed 5
    st = new_game(rs, seed="5:0", dealer=0)
    assert st.current_player() == 1
    hand_line = next(line for line in text.splitlines() if line.startswith("your hand:"))
    from interpreter.present.table_text import unsymbol

    assert sorted(unsymbol(c) for c in hand_line.split()[2:]) == sorted(rs.codes(st.hands[1]))     # K♥ is KH
    want = st.action_text(make_bot("rule", "5:0:hint").choose(st))
    assert flat.count(f"the rule bot would choose: {want}") == 2       # asked twice, the same answer
    # the hints played nothing: the seat's first recorded action is the '1' typed after them
    record = json.loads(save.read_text(encoding="utf-8").splitlines()[1])
    mine = [text for seat, text in record["actions"] if seat == 1]
    assert mine[0] == st.action_text(st.legal_actions()[0])
    assert len(record["actions"]) == 3                                # seat 1, then the two bots' calls


def test_the_hand_is_not_shown_before_the_cut_or_the_knock():
    # KR-DEAL-07: the seat on the dealer's left cuts or knocks before any card is seen
    out = io.StringIO()
    play(load("koenigrufen"), {}, seat=3, seed=2, deals=1, inp=Lines(["2", "q"]), out=out)
    first, _, rest = out.getvalue().partition("your choice")
    assert "your hand: not dealt yet" in first and "knock" in first
    assert "not dealt yet" not in rest
    shown = rest.split("your hand: ")[1].split("\n")[0].split()     # after the cut, at the first bid
    assert len(shown) == 12 and all(c in rest for c in ("bid", "pass"))


def test_an_empty_line_asks_again_and_quitting_says_how_to_go_on(tmp_path):
    import json

    rs = load("wien")
    out = io.StringIO()
    save = tmp_path / "game.save"
    play(rs, {}, seat=1, seed=5, deals=1, inp=Lines(["", "  ", "1", "q"]), out=out, save=str(save))
    text = out.getvalue()
    assert "is not a legal action" not in text                          # the blank lines were no error
    assert text.count("your choice (number or text, ? for help):") == 4    # asked again after each
    said = f"stopped; `stichwort play wien --resume {save}` goes on"
    assert "".join(said.split()) in "".join(text.split())              # (the console may fold a long path)
    record = json.loads(save.read_text(encoding="utf-8").splitlines()[1])
    assert [seat for seat, _ in record["actions"]].count(1) == 1          # only the '1' was played
    out = io.StringIO()
    play(rs, {}, seat=1, seed=5, deals=1, inp=Lines(["quit"]), out=out)
    assert out.getvalue().rstrip().endswith("stopped")
