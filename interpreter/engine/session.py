"""A session: deals played one after another, with everything the rule file says carries over —
accounts (pot, score columns, doubling counters), the dealer's rotation, the end of the game and the
final reckoning. Generic: the rule file's `session` and `account` sections say what happens."""
from __future__ import annotations

import random
from fractions import Fraction

from interpreter.engine import reseating
from interpreter.engine.rules import compile_rules
from interpreter.engine.state import State, _copy_accounts


class Session:
    def __init__(self, ruleset, options=None, dealer: int = 0, accounts=None):
        self.rs = ruleset
        self.R = compile_rules(ruleset, options)
        self.options = dict(options or {})
        self.dealer = dealer
        self.accounts = accounts
        self.deals: list[dict] = []
        self.last: State | None = None
        self.ended = False
        self.final: dict | None = None
        # who sits where, sits and rubbers (engine/reseating.py)
        self.table = reseating.new_table(self.R)

    @property
    def deal_number(self) -> int:
        return len(self.deals)

    def start(self, hands=None, talon=None, rng: random.Random | None = None) -> State:
        from interpreter.engine import deal_cards

        if hands is None:
            hands, talon = deal_cards(self.R, rng or random.Random(), self.dealer, self.deal_number, self.accounts)
        return State(self.R, self.dealer, hands, talon, accounts=self.accounts, deal_number=self.deal_number,
                     seat_player=self.table.seat_player, table=self.table)

    def finish(self, state: State) -> dict:
        """Record a finished deal, carry its accounts, move the deal on and check the end. Returns the
        deal's result as its play left it: the session's own steps after it (a sit's reckoning, the final
        reckoning when the game ends) are booked on the same state and would change `state.result()`,
        so a log line records, and `replay` checks, this one (harness/sessionlog.py)."""
        r = state.result()
        sheet = []
        c = state.ctx()
        for s in range(state.n):
            c.vars["s"] = s
            sheet.append([_norm(f(c)) for _, f in self.R.sheet])
        self.deals.append({"dealer": state.dealer, "declarer": r["declarer"], "contract": r["contract"],
                           "tricks": r["tricks"], "payments": r["payments"], "all_passed": r["all_passed"],
                           "accounts": _copy_accounts(state.accounts), "made": r["made"], "sheet": sheet,
                           "seats": state.seat_player, "teams": sorted(set(state.teams.values())),
                           "transfers": list(state.payments)})
        self.accounts = _copy_accounts(state.accounts)
        self.last = state
        nxt = self.R.session_rows.dealer
        if nxt is not None:
            self.dealer = nxt(state.ctx())
        elif state.dealer in state.active:
            self.dealer = state.seat_after(state.dealer)
        else:
            self.dealer = (state.dealer + 1) % state.n
        if reseating.sit_over(state):
            record = reseating.close_sit(state, self.table)
            self.accounts = _copy_accounts(state.accounts)
            record["moves"] = reseating.next_sit(self.R, self.table, self.dealer, self.accounts, self.deal_number)
            record["deals"] = len(self.deals)
            self.deals[-1]["sit_end"] = record
        ends = self.R.session_rows.ends
        if ends is not None and ends(state.ctx()):
            self.close()
        return r

    def close(self) -> dict:
        """The final reckoning: apply its rows once and read each seat's result."""
        if self.final is not None:
            return self.final
        self.ended = True
        st = self.last
        if st is None:
            self.final = {}
            return self.final
        st._apply_rows(self.R.session_rows.reckoning, record=True)
        self.accounts = _copy_accounts(st.accounts)
        result = self.R.session_rows.result
        out = {}
        c = st.ctx()
        if result is not None and any(spec.per == "player" for spec in self.R.accounts.values()):
            # results by player, not by seat: each player is judged in his seat of the last deal, and a
            # player on the bench as if he sat in the first seat
            seated = st.seat_player
            for p in range(self.table.people):
                st.seat_player = seated if p in seated else (p,) + seated[1:]
                c.vars["s"] = st.seat_player.index(p)
                out[p] = _norm(result(c))
            st.seat_player = seated
            self.final = out
            return out
        for s in range(st.n):
            c.vars["s"] = s
            out[s] = _norm(result(c)) if result is not None else _norm(st.accounts.get("money", [0] * st.n)[s])
        self.final = out
        return out


def _norm(v):
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def sheet_tables(session: Session) -> list[tuple[str, list[str], list[list[str]]]]:
    """The sheet as players keep it: with `session.sheet` columns, one table per player; else one table."""
    R = session.R
    if not R.sheet:
        return _money_tables(session)
    out = []
    for s in range(R.n_seats):
        headers = ["deal", "contract", "declarer"] + [t for t, _ in R.sheet]
        rows = [[str(i), d["contract"] or ("all pass" if d["all_passed"] else "–"),
                 "–" if d["declarer"] is None else str(d["declarer"])] + [_fmt(v) for v in d["sheet"][s]]
                for i, d in enumerate(session.deals, 1)]
        out.append((f"seat {s}", headers, rows))
    return out


def _money_tables(session: Session) -> list[tuple[str, list[str], list[list[str]]]]:
    """Without `session.sheet`: per player, what he has paid and received so far and his balance, with
    his other accounts and the table's (the pot)."""
    R = session.R
    per_seat = [a for a, spec in R.accounts.items() if spec.per in ("seat", "team") and a != "money"]
    per_game = [a for a, spec in R.accounts.items() if spec.per == "game"]
    out = []
    for s in range(R.n_seats):
        headers = ["deal", "contract", "declarer", "paid", "received", "balance"] + per_seat + per_game
        rows = []
        for i, d in enumerate(session.deals, 1):
            acc = d["accounts"]
            row = [str(i), d["contract"] or ("all pass" if d["all_passed"] else "–"),
                   "–" if d["declarer"] is None else str(d["declarer"]),
                   _fmt(acc.get("_paid", [0] * R.n_seats)[s]), _fmt(acc.get("_received", [0] * R.n_seats)[s]),
                   _fmt(acc.get("money", [0] * R.n_seats)[s])]
            row += [_fmt(acc.get(a, [0] * R.n_seats)[s]) if isinstance(acc.get(a), list) else "" for a in per_seat]
            row += [_fmt(acc.get(a, 0)) for a in per_game]
            rows.append(row)
        out.append((f"seat {s}", headers, rows))
    return out


def _fmt(v) -> str:
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{float(v):.2f}"
    return str(v)
