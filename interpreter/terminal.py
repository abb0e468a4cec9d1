"""Playing in the terminal against bots (rich): your sorted hand, the numbered legal actions and
the trick on the table."""
from __future__ import annotations

import random
import sys

from .engine.bots import RandomBot, RuleBot
from .engine.rules import compile_rules
from .engine.state import State
from .engine.text import parse


def _sorted_hand(state, seat):
    R = state.R
    cards = sorted(R.rs.codes(state.hands[seat]) and
                   [c for c in range(len(R.cards)) if state.hands[seat] >> c & 1],
                   key=lambda c: (R.suit_of[c], R.order_of[c]))
    return " ".join(R.codes[c] for c in cards)


def play(rs, options, seat=0, seed=None, bots="rule", deals=1, inp=None, out=None) -> int:
    from rich.console import Console

    from .engine import deal_cards

    inp = inp or sys.stdin
    console = Console(file=out or sys.stdout, highlight=False)
    R = compile_rules(rs, options)
    if not 0 <= seat < R.n_seats:
        console.print(f"seat must be between 0 and {R.n_seats - 1}")
        return 2
    seed = seed if seed is not None else random.randrange(1 << 30)
    accounts = None
    dealer = 0
    for d in range(deals):
        hands, talon = deal_cards(R, random.Random(f"{seed}:{d}"), dealer)
        state = State(R, dealer, hands, talon, accounts=accounts, deal_number=d)
        players = [(RuleBot if bots == "rule" else RandomBot)(f"{seed}:{d}:{s}") for s in range(R.n_seats)]
        console.rule(f"{rs.title} — deal {d + 1}, seed {seed}, dealer seat {dealer}, you are seat {seat}")
        while not state.is_over():
            who = state.current_player()
            if who != seat:
                a = players[who].choose(state)
                console.print(f"seat {who}: [bold]{state.action_text(a)}[/]")
                state.apply(a)
                continue
            if state.trick:
                console.print("on the table: " + ", ".join(f"{s}:{R.codes[c]}" for s, c in state.trick))
            console.print(f"your hand: [bold]{_sorted_hand(state, seat)}[/]")
            legal = state.legal_actions()
            for i, a in enumerate(legal, 1):
                console.print(f"  {i:>2}. {state.action_text(a)}")
            while True:
                console.print("your choice (number or text, q to quit): ", end="")
                line = inp.readline()
                if not line:
                    console.print("\nend of input")
                    return 0
                text = line.strip()
                if text in ("q", "quit"):
                    return 0
                if text.isdigit() and 1 <= int(text) <= len(legal):
                    state.apply(legal[int(text) - 1])
                    break
                try:
                    state.apply(parse(state, text))
                    break
                except ValueError as err:
                    console.print(f"[red]{err}[/]")
        r = state.result()
        console.print(f"contract {r['contract']}, declarer {r['declarer']}, tricks {r['tricks']}")
        console.print(f"payments {r['payments']}, pot {r['pot']}")
        accounts = state.accounts
        dealer = (dealer + 1) % R.n_seats
    return 0
