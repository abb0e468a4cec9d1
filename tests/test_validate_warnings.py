"""Warnings of `validate` that do not make a file invalid."""
from __future__ import annotations

import contextlib
import io

from interpreter import cli
from interpreter.model.limits import DEFAULT_KONTRA_MAX


def _validate(path) -> tuple[int, str]:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = cli.main(["validate", str(path)])
    return code, out.getvalue()


def test_a_kontra_chain_without_maximum_is_valid_but_warned(tmp_path):
    f = tmp_path / "endless.stw"
    f.write_text('extends "croatian"\n\nkontra { max = none }\n', encoding="utf-8")
    code, out = _validate(f)
    assert code == 0
    assert f"endless.stw:3:1: W340 the kontra chain has no maximum; it ends after {DEFAULT_KONTRA_MAX} calls" in out


def test_a_written_maximum_silences_the_warning(tmp_path):
    f = tmp_path / "bounded.stw"
    f.write_text('extends "croatian"\n\nkontra { max = 4 }\n', encoding="utf-8")
    code, out = _validate(f)
    assert code == 0 and "W340" not in out


def test_the_engine_cuts_the_chain_where_the_checker_says():
    from interpreter.engine import DEFAULT_KONTRA_MAX as engine_default

    assert engine_default == DEFAULT_KONTRA_MAX


def test_strict_makes_warnings_fail_and_leaves_clean_files_alone(tmp_path, capsys):
    warned = tmp_path / "opt.stw"
    warned.write_text('extends "wien"\noption bonus { default = 5 }\n', encoding="utf-8")
    clean = tmp_path / "clean.stw"
    clean.write_text('extends "wien"\ntitle = "ours"\n', encoding="utf-8")
    assert cli.main(["validate", str(warned)]) == 0
    assert cli.main(["validate", str(warned), "--strict"]) == 1
    out = capsys.readouterr()
    assert "W334" in out.out and "--strict: the warnings above fail the check" in out.err
    assert cli.main(["validate", str(clean), "--strict"]) == 0
    assert cli.main(["validate", "wien", "--strict"]) == 0
    assert cli.main(["validate", "croatian", "--strict"]) == 1    # its endless kontra chain is cut (W340)


def test_a_folder_stands_for_the_rule_files_under_it(tmp_path, capsys):
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "a.stw").write_text('extends "wien"\ntitle = "a"\n', encoding="utf-8")
    (tmp_path / "house" / "b.stw").write_text('extends "wien"\ncontract one { rnak = 1 }\n', encoding="utf-8")
    (tmp_path / "house" / "deal.yaml").write_text("not: a rule file\n", encoding="utf-8")   # a scenario, say
    assert cli.main(["validate", str(tmp_path / "house")]) == 1
    out = capsys.readouterr().out
    assert "ok   " in out and "a.stw" in out and "FAIL" in out and "b.stw" in out and "deal.yaml" not in out
    assert out.rstrip().endswith("1 valid, 1 invalid")
    (tmp_path / "empty").mkdir()
    assert cli.main(["validate", str(tmp_path / "empty")]) == 2
    assert "no .stw rule file" in capsys.readouterr().err


def test_simulate_and_compare_say_the_warnings_of_the_users_own_files(tmp_path, capsys):
    house = tmp_path / "house.stw"
    house.write_text('extends "wien-hearts"\ncontract.hearts.value = 12\n', encoding="utf-8")
    assert cli.main(["simulate", str(house), "--deals", "5", "--seed", "1", "--json"]) == 0
    out = capsys.readouterr()
    assert "warning: " in out.err and "W333" in out.err and "W333" not in out.out      # --json stays clean
    assert cli.main(["compare", "wien-hearts", str(house), "--deals", "5", "--json"]) == 0
    assert capsys.readouterr().err.count("W333") == 1
    assert cli.main(["simulate", "croatian", "--deals", "3", "--json"]) == 0
    assert "warning" not in capsys.readouterr().err        # a built-in game's known warning is not repeated
