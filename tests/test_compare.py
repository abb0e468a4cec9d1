"""`stichwort compare`: the same deals under several rule files, paired differences with 95% intervals,
and the HTML report carrying the same figures as --json."""
from __future__ import annotations

import json
import math

import pytest

from interpreter.cli import main
from interpreter.harness.compare import compare, diff_ci, mean_ci, paired_rate_diff, rate_ci, sign_test
from interpreter.harness.runner import simulate
from interpreter.present.report import embedded_data, to_html


def test_interval_helpers():
    m = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m["mean"] == 2.5 and m["n"] == 4
    half = 1.959963984540054 * math.sqrt(5 / 3) / 2
    assert m["low"] == pytest.approx(2.5 - half) and m["high"] == pytest.approx(2.5 + half)
    r = rate_ci(0, 20)
    assert r["rate"] == 0 and r["low"] == 0 and 0.1 < r["high"] < 0.2      # Wilson: not a zero-width interval
    d = diff_ci([0, 0, 0, 0], [1, 1.5, 0.5, 1])
    assert d["mean"] == 1 and d["significant"]
    assert not diff_ci([0, 1, 0, 1], [1, 0, 1, 0])["significant"]
    # four deals out of 2000 moved one way: the normal interval would exclude zero, the exact test does not
    a, b = [0.0] * 2000, [0.0] * 1996 + [1.0] * 4
    assert diff_ci(a, b)["significant"] and not paired_rate_diff(a, b)["significant"]
    assert paired_rate_diff(a, [0.0] * 1990 + [1.0] * 10)["significant"]
    assert sign_test([0] * 6, [1] * 6) == pytest.approx(2 / 64)


def test_same_rules_same_deals_no_difference():
    out = compare(["wien", "wien"], 40, 3, ["rule"] * 3)
    d = out["differences"][0]
    assert all(x["mean"] == 0 for x in d["value_per_seat"])
    assert d["deal_length"]["mean"] == 0 and not out["findings"]


def test_value_is_the_money_simulate_reports():
    """For a game that pays as it goes, the value per seat is simulate's money per seat, deal for deal."""
    out = compare(["wien", "wien-hearts"], 60, 5, ["rule"] * 3)
    sim = simulate("wien", 60, 5)
    for s in range(3):
        assert out["per_target"][0]["value_per_seat"][s]["mean"] == pytest.approx(sim["money_per_seat"][s]["mean"], abs=1e-3)


def test_score_sheet_game_is_measured_by_its_reckoning():
    """Croatian moves no money in a deal; its value is the change in the final reckoning (ten times the
    declarer column, plus juhas won, minus juhas conceded): a made contract is worth more than it concedes."""
    out = compare(["croatian", "slovenian"], 40, 2, ["rule"] * 3, keep_records=True)
    recs = out["records"][0]
    played = [r for r in recs if r["declarer"] is not None and r["made"] is not None]
    assert len(played) >= 10
    for r in played:
        v = r["value"][r["declarer"]]
        assert (v > 0) if r["made"] else (v < 0), r


def test_house_rule_difference_is_found():
    """Serbian plays a plain two without a kontra (croatian needs one): on the same deals its deals are
    longer, and compare flags that with an interval that excludes zero."""
    out = compare(["croatian", "serbian"], 200, 1, ["rule"] * 3)
    d = out["differences"][0]["deal_length"]
    assert d["significant"] and d["low"] > 0
    assert any("actions per deal" in f for f in out["findings"])
    # the same cards under both: the all-pass deals (decided before any contract rule) coincide
    assert out["differences"][0]["all_pass"]["mean"] == 0


def _run(capsys, argv):
    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_cli_json_and_report_agree(tmp_path, capsys):
    page = tmp_path / "r.html"
    args = ["compare", "wien", "wien-hearts", "--deals", "60", "--seed", "1", "--bots", "rule,rule,random"]
    code, out, _ = _run(capsys, args + ["--json"])
    assert code == 0
    data = json.loads(out)
    code, out, _ = _run(capsys, args + ["--report", str(page)])
    assert code == 0 and "report written" in out
    text = page.read_text(encoding="utf-8")
    assert embedded_data(text) == data
    # the tables show the same figures
    for c, rec in data["per_target"][0]["contracts"].items():
        assert f"{100 * rec['share']['rate']:.1f}%" in text, c
    for s, v in enumerate(data["per_target"][1]["value_per_seat"]):
        assert f"{v['mean']:+.3f} [{v['low']:+.3f}, {v['high']:+.3f}]" in text, s
    d = data["differences"][0]["all_pass"]
    assert f"{100 * d['mean']:+.1f} [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}] pts" in text
    pytest.importorskip("matplotlib")
    assert text.count("data:image/png;base64,") >= 3


def test_report_without_matplotlib_still_has_tables(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_mpl(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *a, **k)

    result = compare(["simple", "simple"], 20, 1, ["rule"] * 3)
    result.pop("_elapsed")
    monkeypatch.setattr(builtins, "__import__", no_mpl)
    page = to_html(result)
    assert "Charts need matplotlib" in page and "stichwort[analysis]" in page
    assert "data:image/png" not in page and "<table>" in page


@pytest.mark.parametrize("argv, message", [
    (["compare", "wien"], "at least two"),
    (["compare", "wien", "wien-4", "--deals", "5"], "seats"),
    (["compare", "wien", "wien-hearts", "--deals", "5", "--bots", "rule,rule"], "3 seats"),
    (["compare", "wien", "wien-hearts", "--deals", "5", "--bots", "genius"], "unknown bot"),
    (["compare", "wien", "wien-hearts", "--deals", "1"], "at least 2"),
    (["compare", "wien", "wien-hearts", "--deals", "5", "--report", "/nonexistent/folder/r.html"], "does not exist"),
])
def test_bad_usage_exits_2(capsys, argv, message):
    code, _, err = _run(capsys, argv)
    assert code == 2 and message in err and "Traceback" not in err


def test_search_bot_seat_in_compare():
    out = compare(["simple", "simple"], 4, 1, ["search:8", "rule", "rule"])
    assert out["per_target"][0]["deals"] == 4 and out["bots"][0] == "search:8"


def test_bot_margin_numbers_the_deals(monkeypatch):
    """Deal i is deal number i, so a game whose hands change with the deal number (Oh Hell's hand sizes)
    is measured over its whole cycle, not its first deal over and over."""
    import interpreter.engine as engine
    from interpreter.harness.compare import bot_margin

    seen = []
    real = engine.new_game

    def spy(*args, **kw):
        seen.append(kw.get("deal_number"))
        return real(*args, **kw)

    monkeypatch.setattr(engine, "new_game", spy)
    bot_margin("oh-hell", 3, 1, ["rule", "random"])
    assert sorted(set(seen)) == [0, 1, 2]


def test_bot_margin_pairs_the_deals():
    from interpreter.harness.compare import bot_margin

    same = bot_margin("simple", 12, 4, ["rule", "rule"])
    assert same["margins"][0]["mean"] == 0 and same["margins"][0]["low"] == 0     # same bot, same deals, same seeds
    out = bot_margin("wien", 12, 4, ["rule", "random"])
    m = out["margins"][0]
    assert m["n"] == 12 and m["better"] == "rule" and m["than"] == "random"
    assert m["mean"] == pytest.approx(out["value"]["rule"]["mean"] - out["value"]["random"]["mean"], abs=1e-5)


def test_workers_give_the_same_figures():
    one = compare(["croatian", "serbian"], 24, 9, ["rule"] * 3)
    two = compare(["croatian", "serbian"], 24, 9, ["rule"] * 3, workers=2)
    one.pop("_elapsed")
    two.pop("_elapsed")
    assert json.dumps(one) == json.dumps(two)          # also the order of the contracts


def test_tied_contracts_are_listed_by_name():
    from interpreter.harness.compare import summarise

    recs = [{"contract": c, "made": True, "declarer": 0, "all_passed": False, "actions": 1, "value": [0, 0, 0],
             "forehand": 1, "dealer": 0} for c in ["zeta", "alpha", "mu", "alpha"]]
    assert list(summarise(recs, 3)["contracts"]) == ["alpha", "mu", "zeta"]


def test_simulate_report_agrees_with_simulate_json(tmp_path, capsys):
    """`simulate --report` plays simulate's own deals: the page's contract mix, made rates, all-pass rate,
    deal length and money per seat are the figures `simulate --json` prints, and the page has charts."""
    page = tmp_path / "s.html"
    args = ["simulate", "wien", "--deals", "80", "--seed", "4", "--bots", "rule,random,rule"]
    code, out, _ = _run(capsys, args + ["--json"])
    assert code == 0
    sim = json.loads(out)
    code, out2, _ = _run(capsys, args + ["--json", "--report", str(page)])
    assert code == 0 and json.loads(out2) == sim            # the summary itself is unchanged by --report
    text = page.read_text(encoding="utf-8")
    data = embedded_data(text)
    assert data["kind"] == "simulate" and data["deals"] == sim["deals"] == 80
    per = data["per_target"][0]
    for name, c in sim["contracts"].items():
        assert per["contracts"][name]["share"]["k"] == c["played"]
        assert per["contracts"][name]["made"]["k"] == (c["made"] or 0)
        # a contract nobody declares is neither made nor lost: no made rate on either
        judged = 0 if c["made"] is None else c.get("judged", c["played"])
        assert per["contracts"][name]["made"]["n"] == judged
    assert any(c["made"] is None for c in sim["contracts"].values())        # wien's ausfechten
    assert set(per["contracts"]) == set(sim["contracts"])
    assert per["all_pass"]["rate"] == pytest.approx(sim["all_pass_rate"], abs=1e-4)
    assert per["deal_length"]["mean"] == pytest.approx(sim["actions_per_deal"], abs=0.01)
    for s, row in enumerate(sim["money_per_seat"]):
        assert data["money_per_seat"][s]["mean"] == pytest.approx(row["mean"], abs=1e-3)
        assert per["value_per_seat"][s]["mean"] == pytest.approx(row["mean"], abs=1e-3)
        assert data["money_per_seat"][s]["low"] < row["mean"] < data["money_per_seat"][s]["high"]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "Charts need matplotlib" in text
    else:
        assert text.count("<img") >= 3 and "Contract mix" in text and "Made rate" in text


def test_simulate_report_refuses_what_it_cannot_do(tmp_path, capsys):
    code, _, err = _run(capsys, ["simulate", "wien", "--deals", "4", "--session", "2", "--report", str(tmp_path / "x.html")])
    assert code == 2 and "--report" in err
    code, _, err = _run(capsys, ["simulate", "wien", "--deals", "4", "--report", str(tmp_path / "nope" / "x.html")])
    assert code == 2 and "does not exist" in err
