"""A disagreement between OpenSpiel and a rule file, shown to a person and written as a scenario file
(docs/scenarios.md) that reproduces it: the same deal, the moves so far, and OpenSpiel's view as the
expectation (a `legal:` or `turn:` step, or the scores), so `stichwort test FILE` fails until the two
agree. Written beside a rule file's own scenarios, it becomes the regression test of the fix."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from interpreter.adapters.conformance import Disagreement, Pair, Report, natural

_PLAIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _./+-]*")


def seat_names(n: int) -> list[str]:
    return [chr(ord("A") + s) for s in range(n)]


def describe(pair: Pair, d: Disagreement, seed: int | str) -> str:
    """The deal, the moves so far and both sides' view, for a person."""
    names = seat_names(pair.n)
    lines = [f"DISAGREEMENT {pair.label}, config {d.config}, seed {seed}, deal {d.deal}: {d.detail} ({d.kind})",
             f"  options {d.setup.options}, dealer {names[d.setup.dealer]}"]
    lines += [f"  {names[s]}: {' '.join(h)}" for s, h in enumerate(d.setup.hands)]
    lines.append(f"  talon: {' '.join(d.setup.talon)}")
    lines.append("  moves: " + (", ".join(f"{names[s]}: {t}" for s, t in d.moves) or "none"))
    if d.kind == "legal":
        lines.append(f"  OpenSpiel: {', '.join(d.openspiel)}")
        lines.append(f"  stichwort: {', '.join(d.stichwort)}")
        only_os = sorted(set(d.openspiel) - set(d.stichwort), key=natural)
        only_sw = sorted(set(d.stichwort) - set(d.openspiel), key=natural)
        lines.append(f"  only OpenSpiel: {', '.join(only_os) or '-'}; only stichwort: {', '.join(only_sw) or '-'}")
    else:
        lines.append(f"  OpenSpiel: {_seat_or(d.openspiel, names)}")
        lines.append(f"  stichwort: {_seat_or(d.stichwort, names)}")
    return "\n".join(lines)


def _seat_or(v: Any, names: list[str]) -> str:
    if _is_seat(v, names):
        return f"{names[v]} to act"
    if isinstance(v, list):
        return ", ".join(f"{names[s]} {_num(x)}" for s, x in enumerate(v))
    return "nobody to act" if v is None else str(v)


def _is_seat(v: Any, names: list[str]) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(names)


def _num(x: Any) -> str:
    f = float(x)
    return str(int(f)) if f == int(f) else str(f)


def _q(text: str) -> str:
    """A YAML scalar: plain when safe, else JSON-quoted (a valid YAML double-quoted string)."""
    return text if _PLAIN.fullmatch(text) and text.strip() == text and not _looks_special(text) else json.dumps(text)


def _looks_special(text: str) -> bool:
    return text.lower() in {"true", "false", "yes", "no", "on", "off", "null", "none", "~"}


def _flow(items: list[str]) -> str:
    return "[" + ", ".join(_q(x) for x in items) + "]"


def _rules_ref(pair: Pair, target: Path) -> str:
    """The rule file as the scenario names it: a built-in game by name, else its absolute path."""
    from interpreter.resources import builtin_games

    path = Path(pair.config.rules)
    if not path.is_file():
        return pair.config.rules
    known = builtin_games().get(path.stem)
    if known is not None and known.resolve() == path.resolve():
        return path.stem
    return str(path.resolve())


def scenario_text(pair: Pair, d: Disagreement, seed: int | str, target: Path) -> str:
    names = seat_names(pair.n)
    out = [f"# A disagreement found by tools/conformance.py: OpenSpiel's {pair.mapping.game} {pair.config.params}",
           f"# against this rule file (config {d.config}, seed {seed}, deal {d.deal}): {d.detail}.",
           "# The expectations are OpenSpiel's, so `stichwort test` fails on this file until the two agree.",
           f"rules: {_q(_rules_ref(pair, target))}"]
    if d.setup.options:
        out.append("options: {" + ", ".join(f"{k}: {_scalar(v)}" for k, v in d.setup.options.items()) + "}")
    out += [f"seats: {_flow(names)}", f"dealer: {names[d.setup.dealer]}", "deals:", "  - hands:"]
    out += [f"      {names[s]}: {_flow(h)}" for s, h in enumerate(d.setup.hands)]
    out.append(f"    talon: {_flow(d.setup.talon)}")
    if d.kind == "deal":
        out.append(f"    # the rule file refuses this deal: {d.stichwort}")
        out.append("    rest: unplayed")
        return "\n".join(out) + "\n"
    out.append("    actions:")
    out += [f"      - {names[s]}: {_q(t)}" for s, t in d.moves]
    if d.kind == "legal":
        out.append(f"      - legal: {{{names[d.seat or 0]}: {_flow(d.openspiel)}}}   # OpenSpiel's; the rule file has "
                   f"{_flow(d.stichwort)}")
        out.append("    rest: unplayed")
    elif d.kind in ("turn", "end"):
        theirs = names[d.openspiel] if _is_seat(d.openspiel, names) else "nobody"
        out.append(f"      - turn: {theirs}   # OpenSpiel's; the rule file: {_seat_or(d.stichwort, names)}")
        out.append("    rest: unplayed")
    else:
        out.append("    expect:")
        out += _expect_returns(pair, d, names)
    return "\n".join(out) + "\n"


def _expect_returns(pair: Pair, d: Disagreement, names: list[str]) -> list[str]:
    kind, account = pair.mapping.returns
    keys = [(g, "/".join(names[s] for s in g)) for g in d.groups] if d.groups else [((s,), names[s]) for s in
                                                                                  range(pair.n)]
    row = "{" + ", ".join(f"{k}: {_num(d.openspiel[g[0]])}" for g, k in keys) + "}"
    mine = "{" + ", ".join(f"{k}: {_num(d.stichwort[g[0]])}" for g, k in keys) + "}"
    if kind == "account":
        return ["      accounts:", f"        {account}: {row}   # OpenSpiel's; the rule file: {mine}"]
    if kind == "payments":
        return [f"      payments: {row}   # OpenSpiel's; the rule file: {mine}"]
    return [f"      # OpenSpiel's returns {row}, the rule file's result {mine} (session.result cannot be stated",
            "      # in a scenario; the deal as played is kept)",
            "      contract: " + _q(str(pair.rs.contracts[0]))]


def _scalar(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    return _q(str(v))


def write_scenario(pair: Pair, d: Disagreement, seed: int | str, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / f"conformance-{pair.mapping.game}-{_slug(d.config)}-seed{_slug(str(seed))}-deal{d.deal}.yaml"
    target.write_text(scenario_text(pair, d, seed, target), encoding="utf-8")
    return target


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "_", text)[:40]


def summary(pair: Pair, report: Report) -> str:
    rate = report.deals / report.seconds if report.seconds else 0.0
    verdict = "agree" if not report.disagreements else f"{len(report.disagreements)} disagreement(s)"
    mix = ""
    if len(report.contracts) > 1:
        total = sum(report.contracts.values())
        mix = "\n  contracts played: " + ", ".join(f"{name} {count / total:.1%}" for name, count in
                                                  sorted(report.contracts.items(), key=lambda kv: -kv[1]))
    return (f"{pair.label} [config {report.config}]: {report.deals} deals, {report.decisions} decisions compared, "
            f"{verdict} ({report.seconds:.1f} s, {rate:.0f} deals/s both engines together){mix}")
