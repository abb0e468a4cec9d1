"""Playing in the terminal against bots (rich): your sorted hand, the numbered legal actions, the
trick on the table, and the score sheet between deals.

The save file is the log: a header line, then one JSON line per deal (cards, dealer, actions so far).
It is rewritten atomically after every action, and `--resume` replays it before play goes on.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.engine.bots import RandomBot, RuleBot
from interpreter.engine.session import Session, sheet_tables
from interpreter.engine.text import parse
from interpreter.files import write_atomic

FORMAT = "stichwort-save"


def _sorted_hand(state, seat):
    R = state.R
    cards = sorted((c for c in range(len(R.cards)) if state.hands[seat] >> c & 1),
                   key=lambda c: (R.suit_of[c], R.order_of[c]))
    return " ".join(R.codes[c] for c in cards)


def _write_atomic(path: Path, lines: list[str]) -> None:
    write_atomic(path, "\n".join(lines) + "\n", "save file")


def read_save(path: Path) -> tuple[dict, list[dict]]:
    """The header and deal records of a save file; any damage is a clear error with its line."""
    shown = str(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise DiagnosticError([Diagnostic("E100", f"cannot read the save file: {err}", shown)]) from None
    if not lines:
        raise DiagnosticError([Diagnostic("E504", "the save file is empty", shown)])
    records = []
    for i, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as err:
            raise DiagnosticError([Diagnostic("E504", f"the save file is damaged: {err.msg}", shown,
                                              Span(i, err.colno, i, err.colno + 1),
                                              help="the file was cut off or edited; start a new game or repair the line")]) from None
        if not isinstance(rec, dict):
            raise DiagnosticError([Diagnostic("E504", "the save file is damaged: a line is not a record", shown, Span(i, 1, i, 2))])
        records.append(rec)
    header = records[0]
    if header.get("format") != FORMAT or not isinstance(header.get("rules"), str):
        raise DiagnosticError([Diagnostic("E504", "not a stichwort save file (no header line)", shown, Span(1, 1, 1, 2))])
    for i, rec in enumerate(records[1:], 2):
        if not all(k in rec for k in ("dealer", "hands", "talon", "actions")):
            raise DiagnosticError([Diagnostic("E504", "the save file is damaged: a deal record lacks its cards or actions",
                                              shown, Span(i, 1, i, 2))])
    return header, records[1:]


def play(rs, options, seat=0, seed=None, bots="rule", deals=1, inp=None, out=None, save=None, resume=None) -> int:
    from rich.console import Console
    from rich.table import Table

    from interpreter.engine import deal_cards

    inp = inp or sys.stdin
    console = Console(file=out or sys.stdout, highlight=False)
    records: list[dict] = []
    if resume is not None:
        header, records = read_save(Path(resume))
        if header["rules"] != rs.name and header["rules"] != rs.path:
            raise DiagnosticError([Diagnostic("E504", f"the save file is for '{header['rules']}', not '{rs.name}'", str(resume), Span(1, 1, 1, 2))])
        options = header.get("options") or options
        seat, seed, bots = header.get("seat", seat), header.get("seed", seed), header.get("bots", bots)
        deals = max(deals, header.get("deals", deals))
        save = save or resume
    sess = Session(rs, options, dealer=0)
    R = sess.R
    if not 0 <= seat < R.n_seats:
        console.print(f"seat must be between 0 and {R.n_seats - 1}")
        return 2
    seed = seed if seed is not None else random.randrange(1 << 30)
    header = {"format": FORMAT, "version": 1, "rules": rs.name, "options": options, "seat": seat, "seed": seed,
              "bots": bots, "deals": deals}
    save_path = Path(save) if save else None

    def persist():
        if save_path:
            _write_atomic(save_path, [json.dumps(header, ensure_ascii=False)] + [json.dumps(r, ensure_ascii=False) for r in records])

    d = 0
    while d < deals and not sess.ended:
        if d < len(records):
            rec = records[d]
            idx = rs.card_index
            try:
                hands = [sum(1 << idx[c] for c in h) for h in rec["hands"]]
                talon = [idx[c] for c in rec["talon"]]
            except (KeyError, TypeError) as err:
                raise DiagnosticError([Diagnostic("E504", f"the save file names an unknown card {err}", str(resume or save), Span(d + 2, 1, d + 2, 2))]) from None
            sess.dealer = int(rec["dealer"])
            state = sess.start(hands=hands, talon=talon)
            for step, (who, text) in enumerate(rec["actions"]):
                if state.is_over() or who != state.current_player():
                    raise DiagnosticError([Diagnostic("E504", f"the save file does not fit the rules at deal {d + 1}, step {step + 1}",
                                                      str(resume or save), Span(d + 2, 1, d + 2, 2))])
                try:
                    state.apply(parse(state, text))
                except ValueError as err:
                    raise DiagnosticError([Diagnostic("E504", f"deal {d + 1}, step {step + 1}: {err}", str(resume or save), Span(d + 2, 1, d + 2, 2))]) from None
            if state.is_over():
                sess.finish(state)
                d += 1
                continue
            console.print(f"[dim]resumed deal {d + 1} after {len(rec['actions'])} actions[/]")
        else:
            hands, talon = deal_cards(R, random.Random(f"{seed}:{d}"), sess.dealer)
            state = sess.start(hands=list(hands), talon=list(talon))
            rec = {"dealer": sess.dealer, "hands": [rs.codes(h) for h in hands], "talon": [R.codes[c] for c in talon], "actions": []}
            records.append(rec)
            persist()
        players = [(RuleBot if bots == "rule" else RandomBot)(f"{seed}:{d}:{s}") for s in range(R.n_seats)]
        console.rule(f"{rs.title} — deal {d + 1}, dealer seat {state.dealer}, you are seat {seat}")
        while not state.is_over():
            who = state.current_player()
            if who != seat:
                a = players[who].choose(state)
                console.print(f"seat {who}: [bold]{state.action_text(a)}[/]")
            else:
                if state.trick:
                    console.print("on the table: " + ", ".join(f"{s}:{R.codes[c]}" for s, c in state.trick))
                console.print(f"your hand: [bold]{_sorted_hand(state, seat)}[/]")
                legal = state.legal_actions()
                for i, a in enumerate(legal, 1):
                    console.print(f"  {i:>2}. {state.action_text(a)}")
                a = None
                while a is None:
                    console.print("your choice (number or text, q to quit): ", end="")
                    line = inp.readline()
                    if not line:
                        console.print("\nend of input; the game is saved" if save_path else "\nend of input")
                        return 0
                    text = line.strip()
                    if text in ("q", "quit"):
                        return 0
                    if text.isdigit() and 1 <= int(text) <= len(legal):
                        a = legal[int(text) - 1]
                    else:
                        try:
                            a = parse(state, text)
                        except ValueError as err:
                            console.print(f"[red]{err}[/]")
            rec["actions"].append([who, state.action_text(a)])
            state.apply(a)
            persist()
        r = state.result()
        console.print(f"contract {r['contract']}, declarer {r['declarer']}, tricks {r['tricks']}")
        sess.finish(state)
        for title, headers, rows in sheet_tables(sess):
            t = Table(*headers, title=title)
            for row in rows:
                t.add_row(*row)
            console.print(t)
        d += 1
    if sess.ended or d >= deals:
        final = sess.close()
        console.print("final result: " + ", ".join(f"seat {s}: {v}" for s, v in final.items()))
    return 0
