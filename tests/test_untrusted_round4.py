"""Issue 38, what was left: a read of a value not known yet when its field is worked out is refused at
validate (the fuzz mutant of simple with `auction.first = next(declarer)` validated and then failed at
play), a seat of none where a round starts has a defined meaning in both backends, a named pipe given
as a file is refused without waiting on it, the web table's save files are locked as `play --save`'s
are, and an internal error exits 2 as the docs say."""
from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.pipeline import check, load
from interpreter.resources import games_dir
from tools.fuzz import play_both

SIMPLE = games_dir() / "simple" / "simple.stw"
DOCS = Path(__file__).resolve().parent.parent / "docs"


def run(argv, capsys) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


def layer(tmp_path: Path, base: str, body: str, name: str = "variant.stw") -> Path:
    path = tmp_path / name
    path.write_text(f'extends "{base}"\n{body}\n', encoding="utf-8")
    return path


def errors(path: Path) -> list:
    report = check(str(path))
    return [d for d in report.diagnostics if d.severity == "error"]


# ---- reads too early --------------------------------------------------------------------------------

@pytest.mark.rules("SIMPLE-AUC-02")
def test_the_fuzz_mutant_first_equals_next_declarer_is_refused_at_its_line(tmp_path, capsys):
    """Mutant 9516 of `tools/fuzz.py --seed 1`: the auction's and the defence's `first` lines swapped."""
    text = SIMPLE.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    a = next(i for i, t in enumerate(lines) if t.strip().startswith("first = forehand"))
    d = next(i for i, t in enumerate(lines) if t.strip().startswith("first = next(declarer)"))
    lines[a], lines[d] = lines[d], lines[a]
    path = tmp_path / "mutant.stw"
    path.write_text("".join(lines), encoding="utf-8")
    code, out = run(["validate", str(path)], capsys)
    assert code == 1, out
    col = lines[a].index("declarer") + 1
    assert f"mutant.stw:{a + 1}:{col}: E402 auction.first is worked out in the auction, before it ends, so it " \
           "cannot read 'declarer'" in out, out


@pytest.mark.parametrize("body, field, name", [
    ("auction { first = next(declarer) }", "auction.first", "declarer"),
    ("auction { first = host }", "auction.first", "host"),
    ("auction { ends = passes == players or contract != none }", "auction.ends", "contract"),
    ("auction { allowed = tricks(declarers) == 0 }", "auction.allowed", "declarers"),
    ("deal { start = next(declarer) }", "deal.start", "declarer"),
    ("deal { start = holder }", "deal.start", "holder"),
    ("call one { allowed = final == none }", "call.allowed", "final"),
    ("auction { all_pass { contract = if made then one else none } }", "auction.all_pass.contract", "made"),
])
def test_a_value_not_known_yet_is_refused_where_it_is_read(tmp_path, body, field, name):
    found = errors(layer(tmp_path, "simple", body))
    assert [d.code for d in found] == ["E402"], found
    d = found[0]
    assert d.message.startswith(f"{field} is worked out ") and f"cannot read '{name}'" in d.message, d.message
    line = body
    assert d.span is not None and d.span.line == 2 and d.span.col == line.index(name) + 1, d.span


def test_a_let_read_too_early_is_followed(tmp_path):
    found = errors(layer(tmp_path, "simple", "let left = next(declarer)\nlet start = left\nauction { first = start }"))
    assert [d.code for d in found] == ["E402"], found
    assert "cannot read 'declarer' (through 'let start')" in found[0].message
    assert found[0].span.line == 4


@pytest.mark.parametrize("body", [
    "auction { first = next(dealer) }", "auction { first = me }", "auction { ends = passes == players and high == none }",
    "defence { first = next(next(declarer)) }", "play { lead = next(declarer) }",
])
def test_values_known_in_time_are_accepted(tmp_path, body):
    assert errors(layer(tmp_path, "simple", body)) == []


def test_every_built_in_game_reads_nothing_too_early():
    from interpreter.resources import builtin_games

    for name in builtin_games():
        assert not [d for d in check(name).diagnostics if "is worked out" in d.message and "cannot read" in d.message], name


# ---- a seat of none where a round starts ------------------------------------------------------------

def _states(path: Path, dealer: int = 0):
    rs = load(str(path))
    out = []
    for engine in ("interpreter", "generated"):
        R = compile_rules(rs, engine=engine)
        hands, talon = deal_cards(R, random.Random("none-seat"), dealer)
        out.append(State(R, dealer, hands, talon))
    return rs, out


@pytest.mark.parametrize("base, body", [
    ("simple", "auction { first = none }"),
    ("simple", "auction { first = partner_of(dealer) }"),
    ("wien", "auction { first = none }"),
    ("skat", "auction { first = none }"),
    ("bridge", "auction { first = none }"),
    ("simple", "defence { first = none }"),
    ("simple", "defence { first = host }"),
    ("croatian", "defence { first = partner_of(declarer) }"),
    ("koenigrufen", "deal { knock { choose = none } }"),
])
def test_a_seat_of_none_starts_the_round_and_both_backends_agree(tmp_path, base, body):
    path = layer(tmp_path, base, body)
    assert errors(path) == []
    assert play_both(load(str(path)), 6, 11) is None            # no exception, the same actions and results


@pytest.mark.rules("SIMPLE-AUC-02")
def test_an_auction_from_no_seat_starts_on_the_dealers_left(tmp_path):
    path = layer(tmp_path, "simple", "auction { first = none }")
    for dealer in range(3):
        _, states = _states(path, dealer)
        for st in states:
            assert st.current_player() == (dealer + 1) % 3      # clockwise: the dealer's left (SIMPLE-DEAL-02)


@pytest.mark.rules("KR-DEAL-08")
def test_a_knock_with_no_chooser_hands_the_piles_from_the_dealers_left_for_every_dealer(tmp_path):
    """The first position after a knock is kept per rule set: with `choose = none` it must name the dealer."""
    from interpreter.engine import actions as A

    path = layer(tmp_path, "koenigrufen", "deal { knock { choose = none } }")
    for engine in ("interpreter", "generated"):
        R = compile_rules(load(str(path)), engine=engine)
        for dealer in (0, 1, 2, 3, 1):
            hands, talon = deal_cards(R, random.Random(f"knock{dealer}"), dealer)
            st = State(R, dealer, hands, talon)
            assert st.phase == "knock"
            st.apply(A.make(A.KNOCK, 1))
            assert st.current_player() == st.seat_after(dealer), (engine, dealer)


def test_a_defence_from_the_declarer_asks_the_defender_on_his_left(tmp_path):
    """`defence { first = declarer }` used to ask the declarer whether he goes along (SIMPLE-AMB-08 asks the
    defender on the declarer's left first): a seat that is no defender passes to the next defender."""
    path = layer(tmp_path, "simple", "defence { first = declarer }")
    R = compile_rules(load(str(path)), engine="interpreter")
    rng = random.Random(3)
    asked = []
    for deal in range(60):
        hands, talon = deal_cards(R, random.Random(f"d{deal}"), 0)
        st = State(R, 0, hands, talon)
        while not st.is_over():
            if st.phase == "defence" and st.defence.stage == "ask":
                assert st.current_player() in st.defenders
                if len(st.defence.queue) == len(st.defenders):      # the first asked
                    asked.append(st.current_player() == (st.declarer + 1) % 3)
            legal = st.legal_actions()
            st.apply(legal[rng.randrange(len(legal))])
    assert asked and all(asked)


# ---- named pipes ------------------------------------------------------------------------------------

@pytest.fixture
def fifo(tmp_path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    path = tmp_path / "pipe.stw"
    os.mkfifo(path)
    return path


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    return subprocess.run([sys.executable, "-m", "interpreter", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("command", [["validate"], ["explain"], ["fmt"], ["replay"], ["scenario-from-log", "-o", "x.yaml"],
                                     ["play", "simple", "--resume"], ["test"]])
def test_a_named_pipe_is_refused_not_waited_on(tmp_path, fifo, command):
    target = fifo
    if command == ["test"]:
        target = tmp_path / "pipe.yaml"
        os.mkfifo(target)
    args = [*command[:1], str(target), *command[1:]] if command[0] in ("scenario-from-log",) else [*command, str(target)]
    done = _cli(args, tmp_path)             # before: replay, scenario-from-log and play --resume waited for a writer
    assert done.returncode == 2, done.stderr
    said = done.stdout + done.stderr
    assert "named pipe (FIFO)" in said and "Traceback" not in said, said


def test_a_named_pipe_in_a_folder_is_reported_not_skipped(tmp_path, fifo, capsys):
    (tmp_path / "simple.stw").write_text(SIMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    code, out = run(["validate", str(tmp_path)], capsys)
    assert code == 2, out
    assert "pipe.stw" in out and "named pipe (FIFO)" in out and "1 valid, 1 invalid" in out, out


# ---- the web table's save files are locked --------------------------------------------------------------

def test_a_web_table_locks_its_save_and_serve_resume_of_a_locked_save_exits_2(tmp_path, capsys):
    pytest.importorskip("starlette")
    from interpreter.files import FileLock
    from interpreter.present.terminal import play
    from interpreter.web import load_games
    from interpreter.web.hub import Hub

    games = load_games(["simple"])
    hub = Hub(games, save_dir=tmp_path, seed=1)
    table = hub.open("simple", ["person", "rule", "rule"])
    table.persist()
    save = tmp_path / f"{table.id}.save"
    assert save.exists() and table.lock is not None
    rs = games["simple"].rs
    with pytest.raises(Exception, match="another game is writing this save file"):
        play(rs, {}, resume=str(save), inp=io.StringIO("q\n"), out=io.StringIO())
    hub.close()                              # the server stops: the save is free again
    assert play(rs, {}, resume=str(save), inp=io.StringIO("q\n"), out=io.StringIO()) == 0
    held = FileLock(save, "save file")       # now a game in the terminal holds it
    held.acquire()
    try:
        code, out = run(["serve", "--resume", str(save), "simple", "--port", "1"], capsys)
    finally:
        held.release()
    assert code == 2 and "another game is writing this save file right now" in out, out


def test_serve_force_resumes_a_locked_save_and_writes_it_as_play_force_does(tmp_path, capsys):
    pytest.importorskip("starlette")
    from interpreter.files import FileLock
    from interpreter.web import load_games
    from interpreter.web.hub import Hub
    from interpreter.web.table import open_save

    games = load_games(["simple"])
    hub = Hub(games, save_dir=tmp_path, seed=1)
    first = hub.open("simple", ["person", "rule", "rule"])
    first.persist()
    save = tmp_path / f"{first.id}.save"
    hub.close()
    held = FileLock(save, "save file")       # a game in the terminal holds it
    held.acquire()
    try:
        with pytest.raises(Exception, match="another game is writing this save file"):
            open_save(save, games)
        table = open_save(save, games, force=True)
        save.write_text(save.read_text(encoding="utf-8") + "\n", encoding="utf-8")     # changed by the other game
        table.persist()
        assert table.save_path == save and table.lock is None
        assert save.read_text(encoding="utf-8") == table.save_text()                    # written all the same
        assert "no longer saved" not in capsys.readouterr().err
        code, out = run(["serve", "--resume", str(save), "--force", "simple", "--host", "256.0.0.1"], capsys)
        assert code == 2 and "cannot serve on 256.0.0.1" in out, out     # past the lock: no such address here
    finally:
        held.release()


def test_two_web_tables_on_one_save_the_second_stops_saving(tmp_path, capsys):
    pytest.importorskip("starlette")
    from interpreter.web import load_games
    from interpreter.web.table import Table

    games = load_games(["simple"])
    first = Table(games["simple"], ["person", "rule", "rule"], seed=1, save_path=tmp_path / "same.save")
    first.persist()
    before = (tmp_path / "same.save").read_text(encoding="utf-8")
    second = Table(games["simple"], ["person", "rule", "rule"], seed=2, save_path=tmp_path / "same.save")
    second.persist()
    assert second.save_path is None and "another game is writing this save file" in capsys.readouterr().err
    assert (tmp_path / "same.save").read_text(encoding="utf-8") == before       # the first's game stays
    first.close()


# ---- an internal error exits 2, as documented ---------------------------------------------------------

def test_an_internal_error_exits_2_in_one_line_and_the_docs_say_so(monkeypatch, capsys):
    import interpreter.cli as cli

    def broken(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(cli, "cmd_validate", broken)
    parser = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _with(parser(), "validate", broken))
    code, out = run(["validate", "simple"], capsys)
    assert code == 2, out
    assert out.strip() == "stichwort: internal error (RuntimeError: a bug); please report it", out
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    assert "3 an internal error" not in text
    assert "internal error (…); please report it" in text and "no command exits with any other code" in text


def _with(parser, command: str, func):
    """The parser with `command` running `func`."""
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.choices[command].set_defaults(func=func)
    return parser
