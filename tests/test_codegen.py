"""The generated code (interpreter/codegen) against the reference interpreter: random deals of
every built-in playable game through both, step by step — the same legal actions at every step, the
same action texts, payments, accounts and results — and `simulate` gives the same summary and log.
The generated source is built from the checked tree only, and the cache survives a read-only folder."""
from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from interpreter import backends as codegen
from interpreter import load
from interpreter.codegen import cache
from interpreter.engine import actions as A
from interpreter.engine import deal_cards
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State
from interpreter.resources import builtin_games


def playable_games() -> list[str]:
    out = []
    for name in builtin_games():
        try:
            load(name)
        except Exception:  # needs a mechanism the engine does not implement yet
            continue
        out.append(name)
    return out


# the built-in games, and the test games with per-contract rankings and the called card's duties (tests/rankings)
RANKINGS = sorted(str(p.relative_to(Path.cwd())) if p.is_relative_to(Path.cwd()) else str(p)
                  for p in (Path(__file__).parent / "rankings").glob("*.stw"))
GAMES = playable_games() + RANKINGS
DEALS = int(os.environ.get("STICHWORT_CODEGEN_DEALS", "120"))


def _choose(legal: list[int], rng: random.Random, eager: bool) -> int:
    """Random, or (eager) preferring anything but a pass, so that deals reach contracts and play."""
    if eager:
        others = [a for a in legal if A.kind_of(a) != A.PASS]
        if others and rng.random() < 0.8:
            return others[rng.randrange(len(others))]
    return legal[rng.randrange(len(legal))]


def _both(name: str):
    rs = load(name)
    return compile_rules(rs, engine="interpreter"), compile_rules(rs, engine="generated")


@pytest.mark.parametrize("name", GAMES)
def test_generated_code_plays_as_the_interpreter(name):
    ref, gen = _both(name)
    assert ref.generated is None and gen.generated is not None
    steps = 0
    for i in range(DEALS):
        dealer = i % ref.n_seats
        hands, talon = deal_cards(ref, random.Random(f"deal:{i}"), dealer)
        states = [State(R, dealer, hands, talon, deal_number=i) for R in (ref, gen)]
        rng = random.Random(f"policy:{i}")
        eager = i % 2 == 1
        while not states[0].is_over():
            legal = [st.legal_actions() for st in states]
            assert legal[0] == legal[1], f"{name} deal {i} step {len(states[0].log)}"
            assert states[0].current_player() == states[1].current_player()
            a = _choose(legal[0], rng, eager)
            for st in states:
                st.apply(a)
            steps += 1
            if steps % 7 == 0:       # a clone plays on as the original does
                states[1] = states[1].clone()
        assert states[1].is_over()
        a, b = states
        assert [a.action_text(x) for _, x in a.log] == [b.action_text(x) for _, x in b.log]
        assert a.result() == b.result()
        assert a.payments == b.payments
        assert a.accounts == b.accounts
    assert steps > DEALS


@pytest.mark.parametrize("name", GAMES)
def test_simulate_gives_the_same_summary_and_log(name, tmp_path, monkeypatch):
    """The rule bots reach what random play rarely does (invitations, negotiation, after-purchases)."""
    from interpreter.harness.runner import simulate

    deals = 40 if name == "wien" else 12
    out = {}
    for engine in codegen.ENGINES:
        monkeypatch.setenv(codegen.ENV, engine)
        log = tmp_path / f"{engine}.jsonl"
        summary = simulate(name, deals, 5, 1, {}, "rule", str(log), None)
        summary.pop("_elapsed", None)
        out[engine] = (json.dumps(summary, sort_keys=True), log.read_text())
    assert out["generated"] == out["interpreter"]
    assert out["generated"][1].count("\n") == deals


def test_the_engine_is_chosen_by_argument_or_environment(monkeypatch):
    monkeypatch.setenv(codegen.ENV, "interpreter")
    assert codegen.engine_mode() == "interpreter"
    assert codegen.engine_mode("generated") == "generated"
    monkeypatch.setenv(codegen.ENV, "bogus")
    with pytest.raises(ValueError, match="STICHWORT_ENGINE"):
        codegen.engine_mode()


def test_the_source_is_built_from_the_checked_tree():
    """Rule-file text reaches the module only through repr: in comments and string literals."""
    R = compile_rules(load("wien"), engine="generated")
    src = R.generated.source
    compile(src, "<check>", "exec")
    assert "def P0(st, me):" in src and "def E0(c):" in src
    # a description with a quote, a newline or code in it would be escaped: every comment line is one line
    for line in src.splitlines():
        assert "\n" not in line
    # a rule file with a hostile string: the string is a literal of the module, never code
    from interpreter.codegen.expr import ExprGen
    from interpreter.model.nodes import Bin, Name, Str
    gen = ExprGen(R.compiler, {}, {}, {}, 3, 10)
    hostile = "x')\nimport os #"
    g = gen.expr(Bin("==", Str(hostile), Name("declarer")))
    assert g.src == f"({hostile!r} == st._declarer)"
    assert eval(compile(g.src.replace("st._declarer", "None"), "<x>", "eval")) is False


def test_a_read_only_or_missing_cache_only_costs_a_compile(tmp_path, monkeypatch):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        monkeypatch.setenv("XDG_CACHE_HOME", str(ro / "missing"))
        code = cache.compiled("X = 1\n", "<t>")
        ns: dict = {}
        exec(code, ns)
        assert ns["X"] == 1
    finally:
        ro.chmod(0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    cache.compiled("Y = 2\n", "<t>")
    stored = list((tmp_path / "c" / "stichwort" / "codegen").glob("*.code"))
    assert len(stored) == 1
    stored[0].write_bytes(b"damaged")
    ns = {}
    exec(cache.compiled("Y = 2\n", "<t>"), ns)
    assert ns["Y"] == 2


def test_compile_show_prints_the_generated_module(capsys, tmp_path, monkeypatch):
    from interpreter.cli import main

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["compile", "wien", "--show"]) == 0
    shown = capsys.readouterr().out
    mod = compile_rules(load("wien"), engine="generated").generated
    assert shown.startswith(mod.source) and shown == mod.complete()
    assert "def P0(st, me):" in shown and "def S0(st):" in shown
    # the payment rows of every contract, made otherwise at its first settlement, are shown too
    assert "def S0_0(st):" in shown and "# made at the first settlement under" in shown
    assert main(["compile", "wien"]) == 0
    said = capsys.readouterr().out
    assert "17 of 17 contracts" in said and str(tmp_path) in said
    assert main(["compile", "no-such-game"]) == 2


def test_a_calls_attribute_is_read_without_the_property():
    """`final.X` and `high.X` read the call itself (templates.call_attr), as attr() of the property does;
    `high != none` asks whether there is a call."""
    from interpreter.codegen.templates import call_attr
    from interpreter.engine.compile import attr

    R = compile_rules(load("wien"))
    assert "call_attr(st.final_call, 'category')" in R.generated.source
    assert "(st.auction.high_call is not None)" in R.generated.source     # auction.ends: `high != none`
    assert call_attr(None, "category") is None
    for call in R.calls:
        for name in ("category", "name", "rank", "nothing"):
            assert call_attr(call, name) == attr(call.ref, name)
