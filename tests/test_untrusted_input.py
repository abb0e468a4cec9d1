"""Issue 38, hostile rule files: each case below ended in an internal error, or validated and then
failed (or differed between the backends) at play. Every one is now a located diagnostic at validate,
or plays the same through the generated code and the reference interpreter."""
from __future__ import annotations

import json
import os

import pytest

from interpreter.cli import main


def run(argv, capsys) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


def no_internal_error(output: str) -> None:
    assert "internal error" not in output and "Traceback" not in output, output


# ---- 1. a let function whose body is YAML null ------------------------------------------------------

def test_a_let_function_with_a_null_body_is_refused_at_its_line(tmp_path, capsys):
    path = tmp_path / "nullbody.yaml"
    path.write_text('extends: simple\nlet:\n  f:\n    params: [a]\n    body: null\n', encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    assert code == 1
    assert ":5:11: E203 let.f.body must be" in out and "not none" in out
    code, out = run(["simulate", str(path), "--deals", "1"], capsys)
    no_internal_error(out)
    assert code == 1


def test_a_plain_null_let_is_none_for_both_backends(tmp_path, capsys, monkeypatch):
    """`let x = null` in YAML is the language's `none`: it validates and plays the same either way."""
    path = tmp_path / "nulllet.yaml"
    path.write_text('extends: simple\nlet:\n  x: null\n', encoding="utf-8")
    assert run(["validate", str(path)], capsys)[0] == 0
    outs = {}
    for engine in ("generated", "interpreter"):
        monkeypatch.setenv("STICHWORT_ENGINE", engine)
        code, outs[engine] = run(["simulate", str(path), "--deals", "3", "--json", "--seed", "4"], capsys)
        assert code == 0, outs[engine]
    assert _summary(outs["generated"]) == _summary(outs["interpreter"])


def _summary(text: str) -> dict:
    data = json.loads(text)
    data.pop("_elapsed", None)
    data.pop("deals_per_second", None)
    return data


# ---- 2. numbers are ASCII digits ---------------------------------------------------------------------

@pytest.mark.parametrize("value, shown, ascii_form", [
    ("３", "'３'", "3"), ("\u0661" * 5000, "'" + "\u0661" * 12 + "…'", "111111111111…"),
    ("1\u0660\u0660\u0660\u0660\u0660\u0660000000000000", "'1" + "\u0660" * 6, "100000000000…")])
def test_digits_of_other_scripts_are_a_located_error(tmp_path, capsys, value, shown, ascii_form):
    path = tmp_path / "digits.stw"
    path.write_text(f'extends "simple"\noption stake {{ default = {value} }}\n', encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    no_internal_error(out)
    assert code == 1
    assert "digits.stw:2:" in out and "E111" in out and shown in out, out
    assert "numbers are written with the ASCII digits 0-9" in out and f"help: write {ascii_form}\n" in out


def test_a_full_width_player_count_is_refused_with_the_ascii_form(tmp_path, capsys):
    path = tmp_path / "fw.stw"
    path.write_text('extends "simple"\nplayers = ３\n', encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    assert code == 1
    assert "fw.stw:2:11: E111 '３' is not a number" in out and "help: write 3" in out


def test_card_codes_and_names_with_digits_stay_names():
    """Only the number token changed: 7C and 10H are names, a decimal is still exact."""
    from interpreter.language.document import build
    from interpreter.language.parser import parse

    doc, _ = build(parse('a = [7C, 10H]\nb = 0.5\nc = x３\n'), "<t>")
    assert doc["a"] == ["7C", "10H"] and doc["c"] == "x３"
    assert doc["b"] == "0.5"


def test_validate_dir_reports_every_file(tmp_path, capsys):
    """A bad file (formerly an internal error that stopped the run) does not hide the others, nor do
    links that loop, lead nowhere or to a device."""
    (tmp_path / "a_bad.stw").write_text('extends "simple"\noption stake { default = ' + "\u0661" * 5000 + " }\n",
                                        encoding="utf-8")
    (tmp_path / "b_good.stw").write_text('extends "simple"\n', encoding="utf-8")
    (tmp_path / "c_fw.stw").write_text('extends "simple"\nplayers = ３\n', encoding="utf-8")
    os.symlink("nowhere.stw", tmp_path / "d_dangling.stw")
    os.symlink("e_loop.stw", tmp_path / "e_loop.stw")
    os.symlink("/dev/zero", tmp_path / "f_device.stw")
    code, out = run(["validate", str(tmp_path)], capsys)
    no_internal_error(out)
    assert code == 2
    assert "1 valid, 5 invalid" in out
    assert "ok   " in out and "b_good.stw" in out
    assert "d_dangling.stw: E100 cannot read the rule file: a symbolic link to nothing" in out
    assert "e_loop.stw: E100 cannot read the rule file: a symbolic link that goes round in a loop" in out
    assert "f_device.stw: E100 cannot read the rule file: a symbolic link to a device" in out


def test_a_check_that_fails_inside_is_that_files_error_only(tmp_path, capsys, monkeypatch):
    """Should a check still hit a bug, `validate DIR` says so for that file (E190, exit 2) and goes on."""
    import interpreter.pipeline as pipeline

    real = pipeline.check

    def flaky(target, positions=False):
        if target.endswith("a.stw"):
            raise ValueError("a bug")
        return real(target, positions)

    monkeypatch.setattr(pipeline, "check", flaky)
    (tmp_path / "a.stw").write_text('extends "simple"\n', encoding="utf-8")
    (tmp_path / "b.stw").write_text('extends "simple"\n', encoding="utf-8")
    code, out = run(["validate", str(tmp_path)], capsys)
    assert code == 2
    assert "E190 internal error while checking this file (ValueError: a bug)" in out
    assert "1 valid, 1 invalid" in out


def test_other_number_inputs_take_ascii_digits_only(capsys):
    from interpreter.bots import make_bot

    for spec in ("search:²", "ismcts:" + "9" * 5000, "search:３"):
        with pytest.raises(ValueError, match="unknown bot"):
            make_bot(spec, 1)
    from interpreter.harness.scenario_steps import as_number

    assert as_number("\u0663") is None and as_number("3") == 3 and as_number("41 2/3") * 3 == 125


# ---- 3. the backends agree on a record's numbers -------------------------------------------------------

VARIANTS = ["figure trull { declared = 3.5 }", "figure trull { declared = 1/2 }", "figure trull { silent = 2 + 1 }",
            "figure four_kings { silent = 0.25  declared = 7/3 }"]


@pytest.mark.rules("KR-SCORE-32")
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_figures_points_written_as_a_constant_play_the_same_in_both_backends(variant, tmp_path):
    import random

    from interpreter import load
    from interpreter.engine import deal_cards
    from interpreter.engine.rules import compile_rules
    from interpreter.engine.state import State

    path = tmp_path / "trull.stw"
    path.write_text(f'extends "koenigrufen"\n{variant}\n', encoding="utf-8")
    rs = load(str(path))
    ref, gen = compile_rules(rs, engine="interpreter"), compile_rules(rs, engine="generated")
    declared_points = False
    for i in range(60):
        hands, talon = deal_cards(ref, random.Random(f"deal:{i}"), i % 4)
        states = [State(R, i % 4, hands, talon, deal_number=i) for R in (ref, gen)]
        rng = random.Random(i)
        while not states[0].is_over():
            legal = [st.legal_actions() for st in states]
            assert legal[0] == legal[1]
            a = max(legal[0], key=lambda x: (states[0].action_text(x).startswith(("trull", "four")), rng.random()))
            for st in states:
                st.apply(a)
        assert states[0].result() == states[1].result()
        assert states[0].payments == states[1].payments
        declared_points |= bool(states[0].announce.declared)
    assert declared_points, "no deal declared a figure: the variant's points were never paid"


def test_a_figures_points_over_a_table_option_are_refused(tmp_path, capsys):
    path = tmp_path / "opt.stw"
    path.write_text('extends "simple"\noption bonus { default = 2 }\nfigure f { goal = made  silent = bonus }\n'
                    'contract hearts { figures = [f] }\n', encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    assert code == 1
    assert "E402 figure f: 'silent' must be a number written in the file" in out


# ---- found by the differential fuzz (tools/fuzz.py): files that validated and then failed or differed ----

FOUND = [
    # a let function whose parameter was renamed: its body reads `s` from wherever it is used
    ('{"extends": "priffe", "let": {"reaches": {"params": ["active"]}}}', "json",
     "E401 'let reaches' reads 's', which is no parameter of it"),
    ('extends "simple"\nlet x = tricks(s)\n', "stw", "E401 'let x' reads 's'"),
    # a row without `each` naming s: none in every deal
    ('{"extends": "simple", "session": {"before_deal": [{"from": "account(money, s)", "to": "pot", '
     '"amount": "stake"}]}}', "json", "E401 's' in a payment row without `each`"),
    # an account's starting value that is a contract, not a number
    ('{"extends": "croatian", "account": {"refa": {"initial": "game"}}}', "json",
     "E402 account.initial must give a number"),
    # a props value that is a text where the other contracts hold numbers
    ('{"extends": "simple", "contract": {"premium": {"props": {"bonus": "３"}}}}', "json",
     "E402 props 'bonus' is a number in contract"),
    # a call whose contracts are a number, a payment to a number
    ('{"extends": "simple", "call": {"premium": {"contracts": "0.25"}}}', "json",
     "E402 call.contracts must give a list"),
    ('{"extends": "simple", "settle": {"pay": [{"from": "declarer", "to": "2 + 1", "amount": "1"}]}}', "json",
     "E402 settle.pay.to names who pays or is paid"),
    ('{"extends": "simple", "settle": {"pay": [{"from": "declarer", "to": 3, "amount": "1"}]}}', "json",
     "E402 settle.pay.to names who pays or is paid (a seat or an account), not a number"),
]


@pytest.mark.parametrize("text, suffix, message", FOUND)
def test_files_the_fuzz_found_are_refused_at_validate(text, suffix, message, tmp_path, capsys):
    path = tmp_path / f"found.{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    assert code == 1 and message in out, out


def test_a_decimal_prop_is_a_number_for_both_backends(tmp_path, capsys, monkeypatch):
    path = tmp_path / "decimal.stw"
    path.write_text('extends "simple"\ncontract game_d { props { bonus = 0.5 } }\n', encoding="utf-8")   # paid whenever game_d is played
    outs = {}
    for engine in ("generated", "interpreter"):
        monkeypatch.setenv("STICHWORT_ENGINE", engine)
        code, outs[engine] = run(["simulate", str(path), "--deals", "40", "--json", "--seed", "2"], capsys)
        assert code == 0, outs[engine]
    assert _summary(outs["generated"]) == _summary(outs["interpreter"])


# ---- lesser: a file that validates plays ------------------------------------------------------------

def test_a_power_beyond_what_the_engine_works_out_is_refused(tmp_path, capsys):
    path = tmp_path / "power.stw"
    path.write_text('extends "simple"\nlet P = 999999999999999 ^ 64\n', encoding="utf-8")   # P: the pot paid
    code, out = run(["validate", str(path)], capsys)
    assert code == 1 and "E322 999999999999999 ^ 64" in out and "larger than 2 ^ 64" in out, out


DEAL_BY_OPTION = '''extends "simple"
option hand {{ default = 10  min = 1  max = {top} }}
deal.packets = table {{
  | to    | cards         |
  | each  | hand          |
  | talon | 32 - 3 * hand |
}}
'''


def test_every_option_value_the_deal_allows_deals_the_deck(tmp_path, capsys):
    path = tmp_path / "deal.stw"
    path.write_text(DEAL_BY_OPTION.format(top=20), encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    assert code == 1 and "E303 with hand = 11 (which the options allow) the deal cannot be made" in out, out
    path.write_text(DEAL_BY_OPTION.format(top=10), encoding="utf-8")
    assert run(["validate", str(path)], capsys)[0] == 0


def test_an_option_without_bounds_that_breaks_the_deal_is_said_in_words(tmp_path, capsys):
    path = tmp_path / "deal.stw"
    path.write_text(DEAL_BY_OPTION.format(top=20).replace("min = 1  max = 20", ""), encoding="utf-8")
    code, out = run(["simulate", str(path), "--deals", "1", "--set", "hand=12"], capsys)
    no_internal_error(out)
    assert code == 1 and "the rules fail at play: with these table options the deal cannot be made" in out
