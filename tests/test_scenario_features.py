"""What scenario files can say (docs/scenarios.md): checks between actions, cards in any order, what 0
and {} mean, game_over and sheet marks, a deal cut short, `--update` keeping long lines, a run that
survives a broken file, and scenario-from-log."""
from __future__ import annotations

import json
import random

import pytest

from interpreter import load
from interpreter.cli import main
from interpreter.engine.session import Session
from interpreter.resources import builtin_games, games_dir

HOOK = games_dir() / "ohhell" / "scenarios" / "hook.yaml"


def run(tmp_path, text, *args, name="case.yaml"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return main(["test", *args, str(f)]), f


def hook(**changes) -> str:
    text = HOOK.read_text()
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    return text


def test_the_hook_scenario_passes_and_a_wrong_turn_or_legal_check_fails(tmp_path, capsys):
    assert run(tmp_path, hook())[0] == 0
    code, _ = run(tmp_path, hook(**{"- turn: A": "- turn: B"}))
    assert code == 1 and "it is A's turn, expected B's" in capsys.readouterr().out
    code, _ = run(tmp_path, hook(**{"legal: {D: [bid 1]}": "legal: {C: [bid 1]}"}))
    assert code == 1 and "it is D's turn, expected C's" in capsys.readouterr().out
    code, _ = run(tmp_path, hook(**{"legal: {D: [bid 1]}": "legal: {D: [bid 0, bid 1]}"}))
    assert code == 1 and "legal actions are ['bid 1'], expected ['bid 0', 'bid 1']" in capsys.readouterr().out


def test_sees_checks_a_seats_view_and_refuses_an_unknown_key(tmp_path, capsys):
    code, _ = run(tmp_path, hook(**{"turned_up: 5H}": "turned_up: 6H}"}))
    assert code == 1 and "B sees turned_up: expected '6H', got '5H'" in capsys.readouterr().out
    code, _ = run(tmp_path, hook(**{"turned_up: 5H}": "turned_upp: 5H}"}))
    out = capsys.readouterr().out
    assert code == 2 and "'turned_upp' is not part of a seat's view" in out and "case.yaml:" in out


def test_a_discard_may_name_its_cards_in_any_order(tmp_path, capsys):
    text = (games_dir() / "wien" / "scenarios" / "ex-02-lowest-bid.yaml").read_text()
    swapped = text.replace("discard 8S 7H", "discard 7H 8S", 1)
    assert swapped != text
    assert run(tmp_path, swapped)[0] == 0, capsys.readouterr().out
    wrong = text.replace("discard 8S 7H", "discard 7H 9S", 1)
    assert run(tmp_path, wrong)[0] == 2 and "not a legal action" in capsys.readouterr().out


CROATIAN = """rules: croatian
seats: [A, B, C]
dealer: C
accounts: {score: {A: -30, B: -30, C: -2}}
deals:
  - outcome: {declarer: C, contract: three, tricks: {A: 2, B: 2, C: 6}}
    expect:
      accounts: ACCOUNTS
      sheet:
        C: {declarer: 4, hat: HAT}
      game_over: OVER
"""


@pytest.mark.parametrize("accounts,hat,over,code,message", [
    ("{juha: {A/B: 0, B/A: 0, A/C: 12}}", "hat", "false", 0, ""),    # never written: 0 holds
    ("{refa: {}}", "hat", "false", 0, ""),                          # every refa zero
    ("{juha: {}}", "hat", "false", 1, "accounts.juha: expected every entry zero, got {'A/C': 12, 'B/C': 12}"),
    ("{juha: {A/B: 1}}", "hat", "false", 1, "accounts.juha.A/B: expected 1, got None"),
    ("{juha: {A/B: 0}}", '""', "false", 1, "sheet.C.hat: expected '', got 'hat'"),
    ("{juha: {A/B: 0}}", "hat", "true", 1, "game_over: expected True, got False"),
])
def test_zero_empty_mappings_sheet_marks_and_game_over(tmp_path, capsys, accounts, hat, over, code, message):
    text = CROATIAN.replace("ACCOUNTS", accounts).replace("HAT", hat).replace("OVER", over)
    assert run(tmp_path, text)[0] == code
    assert message in capsys.readouterr().out


REFA = """rules: croatian
seats: [A, B, C]
dealer: C
accounts: {score: {A: -30, B: -30, C: -2}, refa: {A: 0, B: 1, C: 1}}
deals:
  - outcome: {declarer: C, contract: three, tricks: {A: 2, B: 2, C: 6}}
    expect:
      sheet:
        C: {declarer: 10, refas: 0, refa crossed out: FIRST}
        B: {refas: 1, refa crossed out: 0}
  - outcome: {declarer: A, contract: two, tricks: {A: 6, B: 2, C: 2}, kontra: 1}
    expect:
      sheet:
        C: {refa crossed out: SECOND}
"""


@pytest.mark.rules("CRO-SESS-03", "CRO-AMB-04")
@pytest.mark.parametrize("first,second,code,message", [
    ("12", "0", 0, ""),                   # three doubled by the refa: BS 6 × 2 beside the crossed refa
    ("6", "0", 1, "sheet.C.refa crossed out: expected 6, got 12"),
    ("12", "12", 1, "deal 2: sheet.C.refa crossed out: expected 12, got 0"),   # a mark of its deal only
])
def test_a_crossed_out_refa_is_a_sheet_mark_with_the_amount_beside_it(tmp_path, capsys, first, second, code, message):
    assert run(tmp_path, REFA.replace("FIRST", first).replace("SECOND", second))[0] == code
    assert message in capsys.readouterr().out


def test_rest_bots_plays_the_deal_out_and_rest_unplayed_stops_it(tmp_path, capsys):
    cut = hook(**{"      - turn: A\n": "", "      - A: play AS\n": "", "      - B: play KS\n": "",
                  "      - C: play 2H\n": "", "      - D: play 3C\n": "", "      - turn: nobody\n": ""})
    assert run(tmp_path, cut)[0] == 2        # the deal is not finished: the file must say how it goes on
    assert "is not finished" in capsys.readouterr().out
    assert run(tmp_path, cut.replace("    expect:", "    rest: bots\n    expect:"))[0] == 0
    unplayed = cut.replace("    expect:\n", "    rest: unplayed\n    expect: {turn: A, phase: play}\n    ignored:\n")
    assert run(tmp_path, unplayed)[0] == 0, capsys.readouterr().out
    wrong = unplayed.replace("turn: A, phase", "turn: B, phase")
    assert run(tmp_path, wrong)[0] == 1 and "turn: expected 'B', got 'A'" in capsys.readouterr().out
    bad = cut.replace("    expect:", "    rest: later\n    expect:")
    assert run(tmp_path, bad)[0] == 2 and "'rest' is 'bots'" in capsys.readouterr().out


def test_update_keeps_a_long_legal_line_whole(tmp_path, capsys):
    long = "[" + ", ".join(["bid 0", "bid 1"] * 30) + "]"
    text = hook(**{"legal: {A: [bid 0, bid 1]}": f"legal: {long}", "B: 10,": "B: 11,"})
    code, f = run(tmp_path, text, "--update")
    assert code == 1                          # the legal check itself still fails, and says so
    assert f"legal: {long}" in f.read_text() and "B: 10" in f.read_text()


def test_a_broken_file_does_not_stop_the_run(tmp_path, capsys):
    rules = builtin_games()["oh-hell"].read_text().replace("  hand = top - abs(round - (top - 1))", "  hand = top + 20")
    (tmp_path / "too-many.stw").write_text(rules)
    (tmp_path / "a-crash.yaml").write_text("rules: too-many.stw\nseats: [A, B, C, D]\ndeals:\n  - seed: 1\n")
    (tmp_path / "b-bad.yaml").write_text("rules: oh-hell\nseats: [A, B]\ndeals:\n  - seed: 1\n")
    (tmp_path / "c-good.yaml").write_text(HOOK.read_text())
    assert main(["test", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "ERROR" in out and "E502" in out and "deal.hand gives 30" in out and "Traceback" not in out
    assert "ok    " in out and "c-good.yaml" in out
    assert out.rstrip().splitlines()[-1] == "1 passed, 0 failed, 2 errors (1 deals)"


def test_scenario_from_a_simulate_log_keeps_the_deal_number(tmp_path, capsys):
    log = tmp_path / "bots.jsonl"
    assert main(["simulate", "oh-hell", "--deals", "4", "--seed", "3", "--log", str(log)]) == 0
    out = tmp_path / "third.yaml"
    assert main(["scenario-from-log", str(log), "--line", "3", "-o", str(out)]) == 0
    text = out.read_text()
    assert "first_deal: 2" in text and "expect:" in text and "score:" in text
    assert main(["test", str(out)]) == 0
    assert main(["scenario-from-log", str(log), "--line", "3", "-o", str(out)]) != 0   # no overwrite
    assert "exists" in capsys.readouterr().err


def test_scenario_from_a_save_file_is_the_whole_session(tmp_path, capsys):
    rs = load("oh-hell")
    sess = Session(rs, {"top": 2})
    records = [{"format": "stichwort-save", "version": 1, "rules": "oh-hell", "options": {"top": 2}}]
    rng = random.Random(9)
    while not sess.ended:
        st = sess.start(rng=rng)
        rec = {"dealer": st.dealer, "hands": [rs.codes(h) for h in st.hands], "talon": [rs.cards[c].code for c in st.talon]}
        while not st.is_over():
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
        rec["actions"] = [[s, st.action_text(a)] for s, a in st.log]
        records.append(rec)
        sess.finish(st)
    save = tmp_path / "game.jsonl"
    save.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    out = tmp_path / "game.yaml"
    assert main(["scenario-from-log", str(save), "-o", str(out)]) == 0
    text = out.read_text()
    assert text.count("- hands:") == 3 and "options: {top: 2}" in text
    assert main(["test", str(out)]) == 0
    final = sess.close()
    for seat, name in enumerate("ABCD"):
        assert f"{name}: {final[seat]}" in text.split("score:")[-1]
