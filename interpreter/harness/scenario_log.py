"""Turning a saved game into a scenario file: `stichwort scenario-from-log LOG`.

A `play --save` file (a header line, then one line per deal of one session) becomes a scenario of all
its deals, in order. A `simulate --log` file holds independent deals, one per line; `line` picks the
one to turn into a scenario (its deal number is kept as `first_deal`, so a rule file whose hands
depend on the deal number deals the same hands). Either way every action is written out and the
expectations are filled in by running the new file (as `stichwort test --update` would).
"""
from __future__ import annotations

import io
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span

SAVE_FORMAT = "stichwort-save"       # the header of a `play --save` file (present/terminal.py)


def _fail(shown: str, message: str, line: int | None = None) -> DiagnosticError:
    span = Span(line, 1, line, 2) if line else None
    return DiagnosticError([Diagnostic("E505", message, shown, span)])


def seat_names(n: int) -> list[str]:
    return [chr(ord("A") + s) for s in range(n)] if n <= 26 else [f"P{s}" for s in range(n)]


def read_deals(path: Path, line: int = 1) -> tuple[dict, list[dict], int]:
    """(header with rules and options, the deal records, the number of the first deal)."""
    from interpreter.harness import logs

    shown = str(path)
    lines = [(i, text) for i, text in enumerate(logs.lines_of(path, "log"), 1) if text.strip()]
    if not lines:
        raise _fail(shown, "the file holds no deals")
    records = [(i, logs.record(text, logs.Where(shown, i))) for i, text in lines]
    first_line, first = records[0]
    if first.get("format") == SAVE_FORMAT:
        deals = [rec for _, rec in records[1:]]
        if not deals:
            raise _fail(shown, "the save file holds no deal yet", first_line)
        return {"rules": first.get("rules"), "options": first.get("options") or {}}, deals, 0
    if not 1 <= line <= len(records):
        raise _fail(shown, f"the log has {len(records)} deals; --line must be from 1 to {len(records)}")
    where, rec = records[line - 1]
    number = rec.get("deal", 0)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise _fail(shown, "the deal number of this line is not a whole number", where)
    return {"rules": rec.get("rules"), "options": rec.get("options") or {}}, [rec], number


def build(path: Path, line: int = 1) -> dict:
    """The scenario as data (without expectations)."""
    from interpreter.harness.scenario_steps import named_text
    from interpreter.pipeline import load

    shown = str(path)
    header, deals, first_deal = read_deals(path, line)
    rules = header["rules"]
    if not isinstance(rules, str) or not rules:
        raise _fail(shown, "the log does not say which 'rules' it was played by")
    rs = load(rules)
    names = seat_names(rs.seats)
    out: dict = {"rules": rules}
    if header["options"]:
        out["options"] = dict(header["options"])
    out["seats"] = names
    dealer = deals[0].get("dealer", 0)
    if not isinstance(dealer, int) or not 0 <= dealer < len(names):
        raise _fail(shown, "the first deal names no valid dealer")
    out["dealer"] = names[dealer]
    if first_deal:
        out["first_deal"] = first_deal
    scenario_deals = []
    for k, rec in enumerate(deals, 1):
        hands, talon, actions = rec.get("hands"), rec.get("talon"), rec.get("actions")
        if not isinstance(hands, list) or len(hands) != len(names) or not isinstance(talon, list) \
                or not isinstance(actions, list):
            raise _fail(shown, f"deal {k} lacks its hands, talon or actions")
        steps = []
        for item in actions:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)
                    and 0 <= item[0] < len(names) and isinstance(item[1], str)):
                raise _fail(shown, f"deal {k}: an action is not a [seat, action] pair")
            steps.append({names[item[0]]: named_text(item[1], names)})   # a seat in the text by its name
        scenario_deals.append({"hands": {names[s]: list(h) for s, h in enumerate(hands) if h},
                               "talon": list(talon), "actions": steps})
    out["deals"] = scenario_deals
    return out


def write(path: Path, target: Path, line: int = 1) -> int:
    """Write the scenario for `path` to `target` with its expectations filled in; the deals written."""
    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from interpreter.files import write_atomic
    from interpreter.harness.scenario import run_file

    data = build(path, line)
    doc = CommentedMap()
    for key, value in data.items():
        if key == "deals":
            seq = CommentedSeq()
            for deal in value:
                d = CommentedMap()
                hands = CommentedMap()
                for seat, cards in deal["hands"].items():
                    hands[seat] = _flow(cards)
                d["hands"] = hands
                d["talon"] = _flow(deal["talon"])
                acts = CommentedSeq()
                for step in deal["actions"]:
                    m = CommentedMap(step)
                    m.fa.set_flow_style()
                    acts.append(m)
                d["actions"] = acts
                seq.append(d)
            doc[key] = seq
        elif isinstance(value, list):
            doc[key] = _flow(value)
        elif isinstance(value, dict):
            m = CommentedMap(value)
            m.fa.set_flow_style()
            doc[key] = m
        else:
            doc[key] = value
    doc.yaml_set_start_comment(f"Made from {path.name} by `stichwort scenario-from-log`; the expectations are what "
                               "the engine gave. Check them against the rules before relying on them.")
    yaml = YAML()
    yaml.width = 4096
    buf = io.StringIO()
    yaml.dump(doc, buf)
    write_atomic(target, buf.getvalue(), "scenario file")
    outcome = run_file(target, update=True)
    return outcome.deals


def _flow(items):
    from ruamel.yaml.comments import CommentedSeq

    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def command(args) -> int:
    """`stichwort scenario-from-log LOG [-o FILE] [--line N]`."""
    from interpreter.files import printable

    source = Path(args.log)
    target = Path(args.output) if args.output else source.with_suffix(".yaml")
    if target.exists() and not args.force:
        raise DiagnosticError([Diagnostic("E505", f"{target} exists; give another -o FILE or --force", str(target))])
    deals = write(source, target, args.line)
    print(printable(f"wrote {target} ({deals} deal{'s' if deals != 1 else ''}, expectations filled in); "
                    f"`stichwort test {target}` runs it"))
    return 0
