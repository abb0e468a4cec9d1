"""Playing in the terminal against bots (rich): your sorted hand, the numbered legal actions, the
trick on the table, and the score sheet between deals.

The save file is the log: a header line, then one JSON line per deal (cards, dealer, actions so far).
It is rewritten atomically after every action, and `--resume` replays it before play goes on.
"""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

from interpreter.bots import make_bot, parse_bots
from interpreter.diagnostics import Diagnostic, DiagnosticError, Span
from interpreter.engine.session import Session
from interpreter.files import printable, write_atomic
from interpreter.harness.scenario_steps import parse_action
from interpreter.present import choose, outcome
from interpreter.present import table_text as T
from interpreter.present.protocol import has_protocol, protocol_lines

FORMAT = "stichwort-save"
HELP = ("type the number of a choice or its text (a card such as 'QH' or 'Q\u2665', 'pass', 'bid two'); "
        "'status': the contract, trumps, declarer, bidding, tricks and score; "
        "'hint': what the rule bot would choose in your place (it sees only your hand and the table); "
        "'q': quit (with --save the game is kept and --resume goes on)")
VERSION = 1
BOT_KINDS = ("rule", "random", "search")

MAX_SAVE = 16 * 1024 * 1024


def _bots_ok(text: str, rs) -> bool:
    try:
        parse_bots(text, rs.seats if rs is not None else len(text.split(",")))
    except ValueError:
        return False
    return True


def make_console(stream=None, **options):
    """A rich console that turns rich's own broken-pipe exit (status 1) into BrokenPipeError, which
    the command answers with a quiet exit 0, as `head` expects."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            raise BrokenPipeError

    options.setdefault("highlight", False)
    return _Console(file=stream or sys.stdout, **options)


def _sorted_hand(state, seat):
    """The hand by suit, then by rank: once the contract is known, its suits and order (a ranking's trumps
    together, cards that a ranking makes trumps among them)."""
    R = state.R
    con = state.con
    suit_of, order = (con.suit_of, con.strength) if con is not None and con.suit_of else (R.suit_of, R.order_of)
    cards = sorted((c for c in range(len(R.cards)) if state.hands[seat] >> c & 1),
                   key=lambda c: (suit_of[c], order[c]))
    return T.cards(R, [R.codes[c] for c in cards])


def _table_view(state, seat, dealt_talon=()) -> list[str]:
    """What this seat sees on the table besides its hand: the called card and the declaring side as it
    knows it, an exposed talon in packets, the packet taken, the talon's cards it took itself, discards
    laid face up, open hands."""
    obs = state.observation(seat)
    out = []
    taken = T.talon_in_hand(obs, dealt_talon)
    if taken:
        out.append(f"{T.TALON_IN_HAND}: " + T.cards(state.R, taken))
    R = state.R
    if "called_card" in obs:
        called = "the fourth" if obs.get("called_by_count") else T.card(R, obs["called_card"])
        side = ", ".join(f"seat {s}" for s in obs.get("declarers", []))
        known = "" if obs.get("partner_revealed") else " (the partner is not yet shown to the table)"
        out.append(f"called: {called}; declaring side: {side}{known}")
    if "packets" in obs:
        packets = "  |  ".join(f"{i}: {T.cards(R, p)}" for i, p in enumerate(obs["packets"], 1))
        which = f" (taken: {obs['packet_taken']})" if "packet_taken" in obs else ""
        out.append(f"talon: {packets}{which}")
    if "face_up_discards" in obs:
        out.append("discarded face up: " + T.cards(R, obs["face_up_discards"]))
    if obs.get("talon_in_tricks"):
        out.append("talon cards dealt into tricks: " + ", ".join(f"{n}: {T.card(R, c)}" for n, c in obs["talon_in_tricks"]))
    for s, cards in sorted((obs.get("open_hands") or {}).items()):
        out.append(f"seat {s}{' (dummy)' if s == obs.get('dummy') else ''} shows: " + T.cards(R, cards))
    out += T.declarations(state)         # declarations and kontras, public to all
    return out


def _write_save(path: Path, lines: list[str]) -> None:
    write_atomic(path, "\n".join(lines) + "\n", "save file", mode=0o600)


def is_save(path: Path) -> bool:
    """Whether `path` holds a stichwort save (its first line is the save header)."""
    try:
        with open(path, "rb") as f:
            first = f.readline(64 * 1024)
        return json.loads(first).get("format") == FORMAT
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


def check_save_target(path: Path, force: bool) -> None:
    """--save may replace a stichwort save or create a new file; anything else needs --force."""
    import os
    import stat

    shown = str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as err:
        raise DiagnosticError([Diagnostic("E100", f"cannot use the save file: {err.strerror or err}", shown)]) from None
    if not stat.S_ISREG(info.st_mode):
        raise DiagnosticError([Diagnostic("E100", "refusing to save over a folder, device or special file", shown)])
    if info.st_size and not force and not is_save(path):
        raise DiagnosticError([Diagnostic("E100", "refusing to replace a file that is not a stichwort save", shown,
                                          help="give another name, or add --force to replace it")])


def read_save(path: Path, rs=None) -> tuple[dict, list[dict]]:
    """The header and deal records of a save file; any damage is a clear error with its line."""
    from interpreter.harness import logs
    from interpreter.harness.inputs import BadInput, check_options, seed, whole

    shown = str(path)
    from interpreter.files import read_text

    lines = read_text(path, "save file", MAX_SAVE).splitlines()
    if not lines:
        raise DiagnosticError([Diagnostic("E504", "the save file is empty", shown)])
    records = []
    for i, line in enumerate(lines, 1):
        where = logs.Where(shown, i, "E504", "E504")
        try:
            records.append(logs.record(line, where))
        except DiagnosticError as err:
            d = err.diagnostics[0]
            raise DiagnosticError([Diagnostic("E504", f"the save file is damaged: {d.message}", shown, d.span,
                                              help="the file was cut off or edited; start a new game or repair the line")]) from None
    header = records[0]
    where = logs.Where(shown, 1, "E504", "E504")
    if header.get("format") != FORMAT or not isinstance(header.get("rules"), str):
        raise where.error("not a stichwort save file (no header line)")
    if header.get("version") != VERSION:
        raise where.error(f"save file version {header.get('version')!r} is not {VERSION}, the one this stichwort reads")
    try:
        if rs is not None:
            header["options"] = check_options(rs, header.get("options"))
            whole(header.get("seat"), "the seat", 0, rs.seats - 1)
        if header.get("seed") is not None:
            seed(header["seed"])
        whole(header.get("deals"), "the number of deals", 1, 10**6)
        if not isinstance(header.get("bots"), str) or not _bots_ok(header["bots"], rs):
            raise BadInput(f"unknown bots {header.get('bots')!r}; known: {', '.join(BOT_KINDS)} (or one per seat)")
    except BadInput as err:
        raise where.error(f"the save header is damaged: {err}") from None
    for i, rec in enumerate(records[1:], 2):
        if not all(k in rec for k in ("dealer", "hands", "talon", "actions")):
            raise logs.Where(shown, i, "E504", "E504").error(
                "the save file is damaged: a deal record lacks its cards or actions")
    return header, records[1:]


def _choice(text: str, legal: list) -> int | None:
    """A number typed at the prompt (ASCII digits only: '²' is not a number here)."""
    if re.fullmatch(r"[0-9]{1,4}", text) and 1 <= int(text) <= len(legal):
        return legal[int(text) - 1]
    return None


def play(rs, options, seat=0, seed=None, bots="rule", deals=1, inp=None, out=None, save=None, resume=None,
         force=False) -> int:
    """A game in the terminal; its save file (`save`, else `resume`) is locked while it is played, so a
    second game writing the same file is refused (unless `force`)."""
    target = save or resume
    lock = save_lock(Path(target), force) if target else None
    try:
        return _play(rs, options, seat, seed, bots, deals, inp, out, save, resume, force)
    finally:
        if lock is not None:
            lock.release()


def save_lock(path: Path, force: bool):
    """The lock on a save file for this game; None when --force plays on without it."""
    from interpreter.files import Busy, FileLock

    lock = FileLock(path, "save file")
    try:
        lock.acquire()
    except Busy:
        if force:
            return None
        raise DiagnosticError([Diagnostic("E100", "another game is writing this save file right now", str(path),
                                          help="wait for that game to end, give another name, or add --force "
                                          "to write it anyway")]) from None
    return lock


def _play(rs, options, seat, seed, bots, deals, inp, out, save, resume, force) -> int:
    from rich.markup import escape
    from rich.table import Table

    from interpreter.engine import deal_cards
    from interpreter.harness import logs

    inp = inp or sys.stdin
    console = make_console(out or sys.stdout)
    records: list[dict] = []
    if resume is not None:
        header, records = read_save(Path(resume), rs)
        if header["rules"] != rs.name and header["rules"] != rs.path:
            raise DiagnosticError([Diagnostic("E504", f"the save file is for {header['rules']!r}, not '{rs.name}'",
                                              str(resume), Span(1, 1, 1, 2))])
        options = header["options"]
        seat, seed, bots = header["seat"], header.get("seed", seed), header["bots"]
        deals = max(deals, header["deals"])
        save = save or resume
    sess = Session(rs, options, dealer=0)
    R = sess.R
    if not 0 <= seat < R.n_seats:
        console.print(f"seat must be between 0 and {R.n_seats - 1}")
        return 2
    save_path = Path(save) if save else None
    if save_path is not None and (resume is None or Path(save) != Path(resume)):
        check_save_target(save_path, force)
    seed = seed if seed is not None else random.randrange(1 << 30)
    header = {"format": FORMAT, "version": VERSION, "rules": rs.name, "options": options, "seat": seat, "seed": seed,
              "bots": bots, "deals": deals}

    def persist():
        if save_path:
            _write_save(save_path, [json.dumps(header, ensure_ascii=False)] + [json.dumps(r, ensure_ascii=False) for r in records])

    d = 0
    while d < deals and not sess.ended:
        if d < len(records):
            rec = records[d]
            where = logs.Where(str(resume or save), d + 2, "E504", "E504")
            state = logs.start(rs, rec, where, options=options, accounts=sess.accounts, deal_number=sess.deal_number,
                               seating={"seat_player": sess.table.seat_player, "table": sess.table})
            sess.dealer = state.dealer
            steps = logs.actions_of(rec, where)
            logs.play(state, steps, where)
            if state.is_over():
                sess.finish(state)
                d += 1
                continue
            console.print(f"[dim]resumed deal {d + 1} after {len(steps)} actions[/]")
            for line in T.status(state, seat, sess):      # where the table stands
                console.print(escape(printable(line)))
        else:
            hands, talon = deal_cards(R, random.Random(f"{seed}:{d}"), sess.dealer, sess.deal_number, sess.accounts)
            state = sess.start(hands=list(hands), talon=list(talon))
            rec = {"dealer": sess.dealer, "hands": [rs.codes(h) for h in hands], "talon": [R.codes[c] for c in talon], "actions": []}
            records.append(rec)
            persist()
        kinds = bots.split(",")
        players = [make_bot(kinds[s] if len(kinds) > 1 else kinds[0], f"{seed}:{d}:{s}") for s in range(R.n_seats)]
        console.rule(escape(printable(f"{rs.title} — deal {d + 1}, dealer seat {state.dealer}, you are seat {seat}")))
        while not state.is_over():
            who = state.current_player()
            if who != seat:
                a = players[who].choose(state)
                for_dummy = f" (for dummy, seat {state.to_act})" if state.to_act != who else ""
                console.print(f"seat {who}{for_dummy}: [bold]{escape(printable(T.said(state, a, seat, who)))}[/]")
            else:
                if state.trick:
                    console.print("on the table: " + ", ".join(f"seat {s} {T.card(R, R.codes[c])}" for s, c in state.trick))
                for line in _table_view(state, seat, rec["talon"]):
                    console.print(escape(printable(line)))
                if state.phase == "knock":      # nobody has seen a card before the cut or the knock
                    console.print("your hand: [dim]not dealt yet[/]")
                else:
                    console.print(f"your hand: [bold]{_sorted_hand(state, seat)}[/]")
                if state.to_act != seat:            # the dummy's turn: his cards, played by this seat
                    console.print(f"[bold]you play for seat {state.to_act} (dummy)[/]: choose one of his cards")
                legal = state.legal_actions()
                long = choose.is_long(state, legal)   # tens of discards: named card by card instead
                menu = [x for x in legal if x not in choose.discards(state, legal)] if long else legal
                chosen: list[str] = []
                for i, a in enumerate(legal, 1):   # numbers count every legal action, listed or not
                    if a in menu:
                        console.print(f"  {i:>2}. {escape(printable(T.menu_text(state, a, seat)))}")
                a = None
                while a is None:
                    if long:
                        console.print(escape(printable(choose.hint(state, legal, chosen))))
                    console.print("your choice (number or text, ? for help): ", end="")
                    try:
                        line = inp.readline(4096)
                    except (OSError, ValueError, UnicodeDecodeError):
                        line = ""
                    if not line:
                        console.print("\nend of input; the game is saved" if save_path else "\nend of input")
                        return 0
                    text = line.strip()
                    if not text:                    # an Enter alone: asked again
                        continue
                    if text in ("q", "quit"):
                        console.print(escape(f"stopped; `stichwort play {rs.name} --resume {save_path}` goes on")
                                      if save_path else "stopped")
                        return 0
                    if text in ("?", "help"):
                        console.print(escape(HELP))
                        continue
                    if text == "status":
                        for line in T.status(state, seat, sess):
                            console.print(escape(printable(line)))
                        continue
                    if text == "hint":
                        advice = make_bot("rule", f"{seed}:{d}:hint").choose(state)
                        console.print(escape(printable(f"the rule bot would choose: {T.menu_text(state, advice, seat)}")))
                        continue
                    a = _choice(text, legal)
                    if a is None:
                        text = T.unsymbol(text, R)
                        a = T.typed(state, text, legal, seat)
                    if a is None and long and text.upper() in R.codes:
                        chosen, a, problem = choose.step(state, legal, chosen, text)
                        if problem:
                            console.print(f"[red]{escape(printable(problem))}[/]")
                        continue
                    if a is None:
                        try:
                            a = parse_action(state, text)   # a discard's cards in any order
                        except ValueError as err:
                            problem = f"'{text}' is neither a card nor a choice above" if long else str(err)
                            console.print(f"[red]{escape(printable(problem))}[/]")
            whose = state.to_act                    # the seat whose card it is (a dummy's, played by `who`)
            rec["actions"].append([whose, state.action_text(a)])
            before, tricks_before = list(state.trick), sum(state.play.tricks_won)
            state.apply(a)
            taken = T.trick_taken(state, before, tricks_before, whose, a)
            if taken:
                console.print(escape(printable(taken)))
            persist()
        for line in outcome.words(state):
            console.print(escape(printable(line)))
        sess.finish(state)
        if has_protocol(sess.R):              # a partnership game in sits: its written protocol
            for line in protocol_lines(sess):
                console.print(escape(line))
        else:
            for title, headers, rows in outcome.sheets(sess):
                t = Table(*[escape(h) for h in headers], title=title)
                for row in rows:
                    t.add_row(*[escape(c) for c in row])
                console.print(t)
        d += 1
    if sess.ended or d >= deals:
        final = sess.close()
        if has_protocol(sess.R):              # players change seats: results by player, numbered from 1
            console.print("final result: " + ", ".join(f"player {p + 1}: {v}" for p, v in final.items()))
        else:
            console.print("final result: " + ", ".join(f"seat {s}: {v}" for s, v in final.items()))
    return 0
