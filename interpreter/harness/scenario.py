"""Scenario files: example deals with expected outcomes, kept next to the rule files.

    rules: mygame                 # built-in name, or a path relative to this file
    options: {stake: 10}
    seats: [A, B, C]              # in order of play
    dealer: C
    accounts: {pot: 10}           # optional: the table's accounts before the first deal
    deals:
      - hands: {A: [AH, KH, …], B: […], C: […]}
        talon: [7C, 8C]
        actions:
          - A: bid one
          - B: pass
          - legal: [play 10H]     # a check: exactly these actions are legal now
        expect: {declarer: A, contract: four, tricks: {A: 6, B: 2, C: 2}, payments: {…}, pot: 20}

`stichwort test` runs them; a mismatch prints a diff (exit 1); `--update` rewrites `expect`
in place, keeping comments (ruamel.yaml round trip). Unknown cards, seats or actions are errors at
their line (exit 2).
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from interpreter.harness.scenario_cards import explicit_cards
from interpreter.harness.scenario_files import find_scenarios  # noqa: F401  (the runner's files; cli imports it from here)
from interpreter.harness.scenario_input import span_of
from interpreter.harness.scenario_outcome import settle_outcome
from interpreter.harness.scenario_rows import deal_rows, unexpected_rows

MAX_BYTES = 2 * 1024 * 1024


@dataclass
class Outcome:
    file: str
    deals: int = 0
    failures: list[str] = field(default_factory=list)
    updated: bool = False

    @property
    def ok(self) -> bool:
        return not self.failures


_span = span_of   # the place of a YAML key or list item, as the shape checks find it


def _err(file, message, span=None, help=None, suggestions=()):
    return DiagnosticError([Diagnostic("E501", message, file, span, help=help, suggestions=list(suggestions))])


def _plain(v):
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return v
    if isinstance(v, float):
        return v
    return str(v)


def load_yaml(path: Path):
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from interpreter.files import read_text
    from interpreter.harness import scenario_input as shape

    shown = str(path)
    text = read_text(path, "scenario file", MAX_BYTES)
    checker = shape.Checker(shown)
    shape.count_aliases(text, checker)
    yaml = YAML(typ="rt")
    try:
        data = yaml.load(text)
    except YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        span = Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2) if mark else None
        raise _err(shown, f"not valid YAML: {getattr(err, 'problem', err)}", span) from None
    except RecursionError:
        raise _err(shown, "the YAML nests too deeply") from None
    except (ValueError, OverflowError) as err:
        raise _err(shown, f"not valid YAML: {err}") from None
    if not isinstance(data, dict):
        raise _err(shown, "a scenario file must be a mapping with 'rules', 'seats' and 'deals'", Span(1, 1, 1, 2))
    shape.check_expansion(data, checker)
    return yaml, data, text


def actual_outcome(state, seat_names, people=None) -> dict:
    """What the deal came to, seats named by who sits there; `per = player` accounts by `people` (every
    player of the session, in number order) when players change seats."""
    r = state.result()
    name = lambda s: seat_names[s] if s is not None else None
    out = {
        "declarer": name(r["declarer"]),
        "contract": r["contract"],
        "tricks": {name(s): n for s, n in r["tricks"].items()},
        "payments": {name(s): _plain(v) for s, v in r["payments"].items()},
        "pot": _plain(r["pot"]),
        "rows": deal_rows(state.payments, name),
    }
    if r["made"] is not None:
        out["made"] = r["made"]
    from interpreter.harness.scenario_outcome import facts  # card points, partner, figures
    out.update(facts(state, name))
    for acc in state.R.accounts:
        if acc in ("pot", "money"):
            continue
        v = state.accounts.get(acc)
        if isinstance(v, list) and people is not None and state.R.accounts[acc].per == "player":
            out.setdefault("accounts", {})[acc] = {people[p]: _plain(x) for p, x in enumerate(v) if p < len(people)}
        elif isinstance(v, list):
            out.setdefault("accounts", {})[acc] = {name(s): _plain(x) for s, x in enumerate(v)}
        elif isinstance(v, dict):
            out.setdefault("accounts", {})[acc] = {"/".join(str(name(k)) for k in key): _plain(x) for key, x in v.items()}
        elif v is not None:
            out.setdefault("accounts", {})[acc] = _plain(v)
    return out


def _compare(expected, actual, path="") -> list[str]:
    """Differences between the expected values (only keys the file states) and the actual ones; a 0 also
    matches an entry never written, and `{}` means every entry is zero (harness/scenario_steps.py)."""
    from interpreter.harness.scenario_steps import compare

    return compare(expected, actual, path)


def _as_number(v):
    from interpreter.harness.scenario_steps import as_number

    return as_number(v)


def run_file(path: Path, update: bool = False, on_deal=None) -> Outcome:
    """Run one scenario file. A file that is wrong raises DiagnosticError (E501); so does one on which the
    engine fails (E502, with what failed), so that a runner of many files can go on with the next."""
    try:
        return _run_file(path, update, on_deal)
    except DiagnosticError:
        raise
    except (KeyboardInterrupt, SystemExit, MemoryError):
        raise
    except Exception as err:  # any failure of one file is reported, never a traceback
        raise DiagnosticError([Diagnostic("E502", f"the scenario could not be run: {type(err).__name__}: {err}",
                                          str(path), Span(1, 1, 1, 2),
                                          help="the engine failed on this file; the other files still run")]) from None


def _run_file(path: Path, update: bool = False, on_deal=None) -> Outcome:
    from interpreter.engine import new_game
    from interpreter.harness import scenario_steps as steps
    from interpreter.pipeline import load

    yaml, data, _ = load_yaml(path)
    shown = str(path)
    out = Outcome(shown)
    from interpreter.files import check_path, is_file
    from interpreter.harness import scenario_input as shape

    checker = shape.Checker(shown)
    rules_name = data.get("rules")
    if not isinstance(rules_name, str) or not rules_name:
        raise _err(shown, "the scenario does not say which 'rules' it uses", _span(data, "rules") or Span(1, 1, 1, 2))
    try:
        check_path(rules_name, "rule file")
    except DiagnosticError as err:
        raise _err(shown, err.diagnostics[0].message, _span(data, "rules")) from None
    target = str(path.parent / rules_name) if is_file(path.parent / rules_name) else rules_name
    rs = load(target)
    options = shape.options(rs, data, checker)
    seats = shape.seats(rs, data, checker)
    dealer_name = checker.scalar(data.get("dealer", seats[-1]), "'dealer'", _span(data, "dealer"))
    if dealer_name not in seats:
        raise _err(shown, f"unknown dealer seat '{dealer_name}'", _span(data, "dealer"), suggestions=best_matches(dealer_name, seats))
    dealer = seats.index(dealer_name)
    first_deal = checker.whole(data.get("first_deal", 0), "'first_deal' (the number of the first deal, from 0)",
                               _span(data, "first_deal"), 0, 10**9)
    accounts = None
    from interpreter.harness import scenario_expect

    if "draw" in data:
        shape.draw(data, checker)
        scenario_expect.check_draw(rs, data, out.failures, checker)
        if "deals" not in data:
            return out
    deals = data.get("deals")
    if not isinstance(deals, list) or not deals:
        raise _err(shown, "the scenario has no 'deals'", _span(data, "deals") or Span(1, 1, 1, 2))
    if len(deals) > shape.MAX_DEALS:
        raise _err(shown, f"more than {shape.MAX_DEALS} deals in one scenario file", _span(data, "deals"))
    for di, deal in enumerate(deals):
        shape.deal(rs, deal, di, seats, checker, deals)
    for key in ("expect_final",):
        checker.mapping(data, key)
    from interpreter.engine.rules import compile_rules
    from interpreter.engine.session import Session
    from interpreter.engine.state import initial_accounts

    R = compile_rules(rs, options)
    for deal in deals:
        scenario_expect.check_outcome(R, deal.get("outcome"), deal, checker)
        scenario_expect.check_expect(R, deal, checker, unplayed=deal.get("rest") == "unplayed")
    from interpreter.engine.reseating import new_table

    seated = new_table(R).seat_player       # who sits where in the first sit (the players are `seats`)
    if dealer not in seated:
        raise _err(shown, f"'{dealer_name}' sits out the first sit and cannot deal", _span(data, "dealer"))
    dealer = seated.index(dealer)
    accounts = initial_accounts(R, dealer)
    accounts.update(shape.accounts(R, data, seats, checker))
    _team_accounts(R, accounts, dealer)
    changed = False
    session = Session(rs, options, dealer=dealer, accounts=accounts)
    for di, deal in enumerate(deals):
        if not isinstance(deal, dict):
            raise _err(shown, f"deal {di + 1} must be a mapping", _span(deals, index=di))
        explicit = None
        here = [seats[p] for p in session.table.seat_player]     # the players in the seats, in order of play
        if "hands" in deal:
            explicit = explicit_cards(rs, deal, seats, here, shown, _err)
        from interpreter.engine.deals import DealError

        try:
            state = new_game(rs, seed=deal.get("seed", di), deal=explicit, options=options, dealer=dealer,
                             accounts=accounts, deal_number=first_deal + di,
                             seat_player=session.table.seat_player, table=session.table)
        except DealError as err:
            raise _err(shown, f"deal {di + 1} is not one the rules could deal: {err}",
                       _span(deal, "hands") or _span(deals, index=di)) from None
        if "outcome" in deal and not deal.get("actions"):
            settle_outcome(state, deal["outcome"], here, shown, deal, _err)
        for ai, entry in enumerate(deal.get("actions") or []):
            if not isinstance(entry, dict) or len(entry) != 1:
                raise _err(shown, "each action is written 'SEAT: action'", _span(deal.get("actions"), index=ai))
            (who, text), = entry.items()
            who = str(who)
            span = _span(deal.get("actions"), index=ai)
            if who in steps.STEP_CHECKS:
                # a check, not an action: what is legal, whose turn it is, what a seat sees
                try:
                    found = steps.check_step(state, who, text, here)
                except steps.StepError as err:
                    raise _err(shown, str(err), span, suggestions=err.suggestions) from None
                out.failures += [f"deal {di + 1}, step {ai + 1}: {f}" for f in found]
                continue
            if who not in here:
                if who in seats:
                    raise _err(shown, f"'{who}' sits out this deal", span)
                raise _err(shown, f"unknown seat '{who}'", span, suggestions=best_matches(who, seats))
            if state.is_over():
                raise _err(shown, f"the deal is already over; '{who}: {text}' has nothing to act on", span)
            if here.index(who) != state.current_player():
                raise _err(shown, f"it is {here[state.current_player()]}'s turn, not {who}'s", span)
            try:
                state.apply(steps.parse_action(state, str(text), here))
            except ValueError as err:
                raise _err(shown, str(err), span) from None
        if "outcome" in deal and deal.get("actions"):     # the auction played, the rest stated by its outcome
            if state.is_over() or state.phase != "play" or state.play.history or state.trick:
                raise _err(shown, "an outcome after actions states the play: the actions must end the auction, "
                           "before any card", _span(deal, "outcome"))
            settle_outcome(state, deal["outcome"], here, shown, deal, _err)
        rest = deal.get("rest")
        if rest == "bots" and not state.is_over():
            _play_rest(state, deal.get("seed", di))
        if rest == "unplayed" and not state.is_over():
            if di != len(deals) - 1:
                raise _err(shown, "only the last deal may be left unplayed ('rest: unplayed')", _span(deal, "rest"))
            _check_unplayed(state, deal, di, here, out, update)
            out.deals += 1
            break
        if not state.is_over():
            legal = ", ".join(state.action_text(a) for a in state.legal_actions()[:20])
            raise _err(shown, f"deal {di + 1} is not finished: {here[state.current_player()]} is to act ({legal})",
                       _span(deal, "actions") or _span(deals, index=di))
        actual = actual_outcome(state, here, seats)
        if on_deal:
            on_deal(di, state, actual)
        expect = deal.get("expect")
        session.finish(state)
        actual.update(_after_finish(session, here))
        if session.deals and session.deals[-1].get("sit_end"):
            # the deal ended a sit: the accounts as the sit's reckoning left them (engine/reseating.py)
            actual["accounts"] = actual_outcome(state, here, seats).get("accounts", {})
        if update:
            if expect is None or _compare(expect, actual) or unexpected_rows(expect, actual):
                _update_expect(deal, actual)
                changed = True
        elif expect is not None:
            for d in _compare(expect, actual) + unexpected_rows(expect, actual):
                out.failures.append(f"deal {di + 1}: {d}")
        out.deals += 1
        accounts = session.accounts
        dealer = session.dealer
    final_expect = data.get("expect_final")
    if final_expect is not None or update:
        final = session.close()
        named = {seats[k]: _plain(v) for k, v in final.items()}
        if update and final_expect is not None and _compare(final_expect, named):
            data["expect_final"] = named
            changed = True
        elif final_expect is not None:
            for d in _compare(final_expect, named):
                out.failures.append(f"final reckoning: {d}")
    if update and changed:
        buf = io.StringIO()
        yaml.width = 4096               # a long `legal:` list stays on one line, never broken mid-item
        yaml.dump(data, buf)
        from interpreter.files import write_atomic

        write_atomic(path, buf.getvalue(), "scenario file")
        out.updated = True
    return out


def _play_rest(state, seed) -> None:
    """`rest: bots`: the rule bots play the deal to its end, seeded from the deal's seed."""
    from interpreter.bots import make_bot

    bots = [make_bot("rule", f"scenario:{seed}:{s}") for s in range(state.n)]
    for _ in range(state.R.max_actions + 1):
        if state.is_over():
            return
        state.apply(bots[state.current_player()].choose(state))


def _check_unplayed(state, deal, di, seats, out, update) -> None:
    """`rest: unplayed`: the deal stops here; `expect` may state what is settled so far."""
    expect = deal.get("expect")
    actual = {"declarer": seats[state.declarer] if state.declarer is not None else None,
              "contract": state.con.name if state.con is not None else None,
              "turn": seats[state.current_player()], "phase": state.phase,
              "tricks": {seats[s]: n for s, n in enumerate(state.play.tricks_won) if s in state.active}}
    if expect is None:
        return
    for key in expect:
        if str(key) not in actual:
            raise _err(str(out.file), f"an unplayed deal has no '{key}' yet; it can state {', '.join(actual)}",
                       _span(expect, key))
    if not update:
        out.failures += [f"deal {di + 1}: {d}" for d in _compare(expect, actual)]


def _after_finish(session, seats) -> dict:
    """What the session knows once it has taken a deal: whether the game is over, and the score sheet."""
    out: dict = {"game_over": bool(session.ended)}
    R = session.R
    if R.sheet and session.deals:
        rows = session.deals[-1]["sheet"]
        out["sheet"] = {seats[s]: {title: _plain(v) for (title, _), v in zip(R.sheet, rows[s])}
                        for s in range(len(seats))}
    return out


def _team_accounts(R, accounts: dict, dealer: int) -> None:
    """A `per = team` account given seat by seat is kept per partnership: the first seat's number counts
    for its partnership (partners are given the same number)."""
    from interpreter.engine.seating import team_map

    teams = team_map(R, dealer, tuple(range(R.n_seats)))
    for name, spec in R.accounts.items():
        value = accounts.get(name)
        if spec.per == "team" and isinstance(value, list):
            accounts[name] = {}
            for seat, v in enumerate(value):
                accounts[name].setdefault(teams.get(seat, (seat,)), v)


def _update_expect(deal, actual):
    from ruamel.yaml.comments import CommentedMap

    expect = deal.get("expect")
    if not isinstance(expect, dict):
        expect = CommentedMap()
        deal["expect"] = expect
    for k, v in actual.items():
        if k in expect or k in ("declarer", "contract", "tricks", "payments", "pot", "accounts"):
            expect[k] = v
