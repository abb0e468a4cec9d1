"""`stichwort new FILE --extends BASE`: a variant that changes nothing yet, with the statements an author
starts from listed for that base, each valid as it stands."""
from __future__ import annotations

import pytest

from interpreter.cli import main
from interpreter.pipeline import check, load
from interpreter.resources import builtin_games
from tests.games_support import IN_DEVELOPMENT


@pytest.mark.parametrize("base", sorted(builtin_games()))
def test_new_variant_validates_and_every_listed_line_does_too(base, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["new", "club.stw", "--extends", base]) == 0
    text = (tmp_path / "club.stw").read_text(encoding="utf-8")
    dev = base in IN_DEVELOPMENT            # a variant of a game in development is in development too

    def valid(report) -> bool:
        return report.ok or (dev and report.only_pending)

    assert f'extends "{base}"' in text and valid(check("club.stw"))
    assert load("club.stw", playable=not dev).title.endswith(": club")
    listed = [ln[2:] for ln in text.splitlines() if ln.startswith("# option ") or ln.startswith("# settle.pay[")]
    assert listed                                   # every built-in game has an option at least
    for k, line in enumerate(listed):                # each line, uncommented, repeats the base
        one = tmp_path / f"one{k}.stw"
        one.write_text(text.replace("# " + line, line, 1), encoding="utf-8")
        report = check(str(one))
        assert valid(report), (line, [d.message for d in report.diagnostics])
        assert load(str(one), playable=not dev).doc == load("club.stw", playable=not dev).doc, line


def test_new_refuses_to_overwrite_and_names_a_base_file_relative_to_the_new_one(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules").mkdir()
    assert main(["new", "rules/base.stw", "--extends", "wien"]) == 0
    assert main(["new", "rules/base.stw", "--extends", "wien"]) == 2
    assert "exists" in capsys.readouterr().err
    assert main(["new", "rules/base.stw", "--extends", "simple", "--force"]) == 0
    assert 'extends "simple"' in (tmp_path / "rules" / "base.stw").read_text(encoding="utf-8")
    (tmp_path / "house").mkdir()
    assert main(["new", "house/ours.stw", "--extends", "rules/base.stw"]) == 0
    assert 'extends "../rules/base.stw"' in (tmp_path / "house" / "ours.stw").read_text(encoding="utf-8")
    assert check("house/ours.stw").ok
    assert main(["new", "ours.yaml", "--extends", "wien"]) == 2
    assert main(["new", "x.stw", "--extends", "no-such-game"]) == 2
    assert not (tmp_path / "x.stw").exists()
