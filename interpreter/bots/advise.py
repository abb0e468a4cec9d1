"""What a hand is worth: the mean value of each legal call, over sampled deals.

The seat's hand is fixed; the other hands and the talon are dealt at random from the remaining cards
(`samples` deals, seeded). The auction so far, if given, is replayed in each deal, and it conditions the
deals where the rules make the calls informative: a call of another seat that had a choice (two or more
legal actions) is explained by a rule-bot model of that seat holding the sampled cards — a pass by a
hand the model would pass with, a bid or a hold by one it would bid with, any other answer (going along,
kontra…) by the one the model would give. A deal is kept only if every such call is explained; after
`tries` deals without one, the deal that explains the most calls is kept (and counted apart). Then every
legal call is tried in every sampled deal (the same deals for every call, so the comparison is paired):
the seat plays on with the search bot (or, with `playouts=0`, the rule bot), the other seats with rule
bots, and the deal's value to the seat is averaged. The answer is each call's mean value with a 95%
interval.
"""
from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from typing import Any

from interpreter.bots.rule import RuleBot
from interpreter.bots.sampler import explains
from interpreter.bots.search import SearchBot
from interpreter.bots.value import reckoning
from interpreter.engine import actions as A
from interpreter.engine import compile_rules, new_game
from interpreter.engine.deals import cards_each
from interpreter.engine.text import parse

Z95 = 1.959963984540054


def read_hand(ruleset: Any, text: str) -> list[str]:
    """Card codes from text such as 'AH KH 10S 7C' (commas allowed); ValueError naming a bad card."""
    codes = [c for c in text.replace(",", " ").split() if c]
    upper = {code.upper(): code for code in ruleset.card_index}
    out = []
    for c in codes:
        code = upper.get(c.upper())
        if code is None:
            raise ValueError(f"'{c}' is not a card of {ruleset.name} (cards are like {', '.join(list(ruleset.card_index)[:4])}, …)")
        if code in out:
            raise ValueError(f"{code} is named twice")
        out.append(code)
    if len(out) != ruleset.hand_size and not (_varies(ruleset) and 0 < len(out) < ruleset.hand_size):
        raise ValueError(f"a hand of {ruleset.name} has {ruleset.hand_size} cards, not {len(out)}")
    return out


def _varies(ruleset: Any, options: dict | None = None) -> bool:
    """The hand changes from deal to deal (`deal.hand`)."""
    return compile_rules(ruleset, options).deal_hand is not None


def deal_for(ruleset: Any, cards: int, dealer: int, options: dict | None = None, deal_number: int | None = None) -> int:
    """The deal's number in the session: `deal_number` if given, checked against the hand's size; else 0,
    or for a game whose hand changes from deal to deal the first deal with `cards` cards."""
    rules = compile_rules(ruleset, options)
    if deal_number is not None and deal_number < 0:
        raise ValueError("--deal must be 0 or more")
    if rules.deal_hand is None:
        return deal_number or 0
    sizes = [cards_each(rules, dealer, d) for d in range(_SCHEDULE)]
    if deal_number is not None:
        size = cards_each(rules, dealer, deal_number)
        if size != cards:
            raise ValueError(f"in deal {deal_number} of {ruleset.name} a hand has {size} card{'s' * (size != 1)}, "
                             f"not {cards}")
        return deal_number
    if cards not in sizes:
        shown = ", ".join(str(x) for x in dict.fromkeys(sizes))
        raise ValueError(f"no deal of {ruleset.name} gives a hand of {cards} cards (the hands: {shown})")
    return sizes.index(cards)


_SCHEDULE = 200         # the deals searched for a hand's size


def _deal(ruleset: Any, hand: list[str], seat: int, dealer: int, rng: random.Random) -> dict:
    each = len(hand)                # every seat is dealt as many cards (`deal.hand` may make it fewer than all)
    rest = [c.code for c in ruleset.cards if c.code not in hand]
    rng.shuffle(rest)
    n = ruleset.seats
    hands: list[list[str]] = []
    pos = 0
    for s in range(n):
        if n > ruleset.players and s == dealer:
            hands.append([])
        elif s == seat:
            hands.append(list(hand))
        else:
            hands.append(rest[pos:pos + each])
            pos += each
    return {"hands": hands, "talon": rest[pos:]}


def _explained(model: Any, st: Any, action: int) -> bool:
    """Whether the rule-bot model, in the seat to act with its sampled cards, would have made `action`
    (in the auction: passed when it passed, bid or held when it did so); a forced step always is."""
    return len(st.legal_actions()) < 2 or explains(model, st, action)


def _replay(ruleset: Any, deal: dict, seat: int, dealer: int, auction: list[str], options: dict | None,
            model: Any, deal_number: int = 0) -> tuple[Any, int]:
    """The deal with the auction replayed, and how many informative calls of the others it fails to
    explain; ValueError when the auction does not fit the rules or does not lead to `seat`'s turn."""
    st = new_game(ruleset, deal=deal, options=options, dealer=dealer, deal_number=deal_number)
    if not auction or not _fits(st, auction[0]):
        _cut(st)
    misses = 0
    for step, text in enumerate(auction):
        if st.is_over():
            raise ValueError(f"the deal is over before step {step + 1} ('{text}')")
        a = parse(st, text)
        if st.current_player() != seat and model is not None and not _explained(model, st, a):
            misses += 1
        st.apply(a)
    if st.is_over() or st.current_player() != seat:
        who = "nobody" if st.is_over() else f"seat {st.current_player()}"
        raise ValueError(f"after the auction given it is {who}'s turn, not seat {seat}'s")
    return st, misses


def _fits(st: Any, text: str) -> bool:
    try:
        parse(st, text)
    except ValueError:
        return False
    return True


def _cut(st: Any) -> None:
    """The deck is cut (phase `knock`, before anyone has seen a card: nobody's hand can inform it), unless
    the calls given start with the cut or a knock."""
    while st.phase == "knock":
        legal = st.legal_actions()
        cut = A.make(A.KNOCK, 0)
        st.apply(cut if cut in legal else legal[0])


def first_to_speak(ruleset: Any, dealer: int, options: dict | None = None, deal_number: int = 0) -> int:
    """The seat that speaks first when `dealer` deals (after the cut): forehand, in the direction of play."""
    st = new_game(ruleset, seed=0, options=options, dealer=dealer, deal_number=deal_number)
    _cut(st)
    return st.current_player()


def sample_deals(ruleset: Any, hand: list[str], seat: int, dealer: int, auction: list[str], samples: int,
                 rng: random.Random, options: dict | None = None, condition: bool = True,
                 tries: int = 60, deal_number: int = 0, deals: list[dict] | None = None) -> tuple[list[Any], int]:
    """`samples` states at `seat`'s turn after `auction`, each from a deal consistent with the calls
    (when `condition`), and how many of them explain every informative call; the deal of each state is
    appended to `deals`, if given."""
    model = RuleBot("advise-model") if condition and auction else None
    states, consistent = [], 0
    for _ in range(samples):
        best: tuple[Any, int] | None = None
        best_deal: dict = {}
        for _t in range(tries if model is not None else 1):
            deal = _deal(ruleset, hand, seat, dealer, rng)
            got = _replay(ruleset, deal, seat, dealer, auction, options, model, deal_number)
            if best is None or got[1] < best[1]:
                best, best_deal = got, deal
            if got[1] == 0:
                break
        assert best is not None
        states.append(best[0])
        if deals is not None:
            deals.append(best_deal)
        consistent += best[1] == 0
    return states, consistent


def advise(ruleset: Any, hand: list[str], seat: int | None = None, dealer: int | None = None,
           auction: list[str] | None = None, samples: int = 40, playouts: int = 8, seed: int = 0,
           options: dict | None = None, progress: Callable[[int], None] | None = None,
           condition: bool = True, deal_number: int | None = None, workers: int = 1,
           target: str | None = None) -> dict:
    """Mean value per legal action of `seat` holding `hand` after `auction` (texts), over `samples` deals
    (conditioned on the auction unless `condition` is False), in deal `deal_number` of a session (deal_for).
    With `workers` > 1 the sampled deals are played out in as many processes, each loading the rules from
    `target` (a rule file or built-in name); the answer is the same for any number of workers."""
    n = ruleset.seats
    number = deal_for(ruleset, len(hand), dealer or 0, options, deal_number)
    if dealer is None:                               # the dealer for whom `seat` speaks first
        dealer = next((d for d in range(n) if seat is not None and first_to_speak(ruleset, d, options, number) == seat),
                      0 if seat is None else (seat - 1) % n)
        number = deal_for(ruleset, len(hand), dealer, options, deal_number)
    if seat is None:
        seat = first_to_speak(ruleset, dealer, options, number)    # forehand
    if n > ruleset.players and seat == dealer:
        raise ValueError(f"seat {seat} deals and sits out this deal; choose another --seat or --dealer")
    rng = random.Random(f"advise:{seed}")
    deals: list[dict] = []
    states, consistent = sample_deals(ruleset, hand, seat, dealer, list(auction or []), samples, rng, options,
                                      condition, deal_number=number, deals=deals)
    legal_ref = states[0].legal_actions()
    texts = {a: states[0].action_text(a) for a in legal_ref}
    values: dict[int, list[float]] = {a: [] for a in legal_ref}
    rolls = [rng.getrandbits(32) for _ in states]
    done = 0

    def collect(got: list[float]) -> None:
        nonlocal done
        for a, v in zip(legal_ref, got):
            values[a].append(v)
        done += 1
        if progress:
            progress(done)

    if workers > 1 and target is not None:
        import concurrent.futures as cf

        jobs = [(target, options, deal, seat, dealer, list(auction or []), number, legal_ref, roll, playouts)
                for deal, roll in zip(deals, rolls)]
        with cf.ProcessPoolExecutor(max_workers=workers) as pool:
            for got in pool.map(_play_out_job, jobs):     # in the order of the samples
                collect(got)
    else:
        for st, roll in zip(states, rolls):
            collect(play_out(st, seat, legal_ref, roll, playouts))
    rows: list[dict[str, Any]] = []
    for a in legal_ref:
        v = values[a]
        m = statistics.fmean(v)
        half = Z95 * statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else math.inf
        rows.append({"action": texts[a], "mean": round(m, 4), "low": round(m - half, 4), "high": round(m + half, 4),
                     "n": len(v)})
    rows.sort(key=lambda r: -r["mean"])
    if rows:
        best = next(a for a in legal_ref if texts[a] == rows[0]["action"])
        for r in rows:
            a = next(x for x in legal_ref if texts[x] == r["action"])
            d = [x - y for x, y in zip(values[a], values[best])]
            sd = statistics.stdev(d) if len(d) > 1 else 0.0
            r["vs_best"] = round(statistics.fmean(d), 4)
            r["vs_best_half"] = round(Z95 * sd / math.sqrt(len(d)), 4) if len(d) > 1 else None
    return {"rules": ruleset.name, "seat": seat, "dealer": dealer, "deal": number, "hand": list(hand),
            "auction": list(auction or []),
            "samples": samples, "playouts": playouts, "seed": seed, "conditioned": bool(condition and auction),
            "consistent": consistent if condition and auction else None, "calls": rows}


def play_out(st: Any, seat: int, legal: list[int], roll: int, playouts: int) -> list[float]:
    """The value to `seat` of each action of `legal` in the sampled deal `st`, played out: the seat by the
    search bot (or the rule bot with no playouts), the others by rule bots, all seeded from `roll`."""
    base = reckoning(st)[seat]
    n = st.R.n_seats
    out = []
    for a in legal:
        sim = st.clone()
        sim.apply(a)
        bots = [SearchBot(f"{roll}:{s}", playouts=playouts, min_worlds=1) if s == seat and playouts > 0
                else RuleBot(roll + s) for s in range(n)]
        while not sim.is_over():
            sim.apply_unchecked(bots[sim.current_player()].choose(sim))
        out.append(reckoning(sim)[seat] - base)
    return out


_LOADED: dict[str, Any] = {}


def _play_out_job(job: tuple) -> list[float]:
    """play_out() in a worker process: the sampled deal rebuilt from its cards and the calls so far."""
    target, options, deal, seat, dealer, auction, number, legal, roll, playouts = job
    ruleset = _LOADED.get(target)
    if ruleset is None:
        from interpreter.pipeline import load

        ruleset = _LOADED[target] = load(target)
    st, _misses = _replay(ruleset, deal, seat, dealer, auction, options, None, number)
    return play_out(st, seat, legal, roll, playouts)
