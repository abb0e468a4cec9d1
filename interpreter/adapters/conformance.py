"""Move for move with OpenSpiel: a rule file checked against OpenSpiel's C++ implementation of the same
game, deal by deal (needs `pyspiel`, part of the `[test]` and `[rl]` extras).

For each deal OpenSpiel draws its chance outcomes (the number of tricks, the dealer, the cards, the
turned-up card …); the mapping file (`conformance_map.py`) turns them into a stated deal, which the rule
file is given through the public API (`new_game(rules, deal=…, dealer=…, options=…)`). Then, at every
decision, the seat to act and the two legal move sets are compared through the mapping's action texts;
one move is chosen with a seeded random.Random and applied to both; at the end OpenSpiel's returns are
compared with the rule file's result. The first difference in a deal ends it as a `Disagreement`, which
`conformance_report` prints and writes as a scenario file that reproduces it.

    pair = Pair(load_mapping(path), "4")
    report = run(pair, deals=2000, seed=1)        # report.disagreements, report.decisions
    rows = bench(pair, deals=500, rounds=3, seed=1)
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from interpreter.adapters.conformance_map import Config, Mapping, card_codes

TOLERANCE = 1e-9
MAX_DECISIONS = 100_000      # a deal longer than this is a disagreement (one engine never ends)


class ConformanceError(ValueError):
    """The pair cannot be compared as mapped: a game that will not load, a mapping that does not fit what
    OpenSpiel does (a chance node after the first decision, too few chance outcomes …). Bad input: exit 2."""


@dataclass
class Setup:
    """A deal as the rule file is given it: table options, the dealer's seat, hands by seat and the talon."""
    options: dict
    dealer: int
    hands: list[list[str]]
    talon: list[str]


@dataclass
class Disagreement:
    config: str
    deal: int
    kind: str                  # deal, turn, legal, end, returns
    detail: str
    setup: Setup
    moves: list[tuple[int, str]]
    openspiel: Any             # what OpenSpiel says: a legal set, a seat, returns by seat
    stichwort: Any             # what the rule file says, in the same form
    seat: int | None = None    # the seat to act (a legal-set disagreement)
    groups: list[tuple[int, ...]] | None = None   # the partnerships of an account kept per team (returns)


@dataclass
class Report:
    config: str
    deals: int = 0
    decisions: int = 0
    seconds: float = 0.0
    disagreements: list[Disagreement] = field(default_factory=list)
    contracts: dict = field(default_factory=dict)     # the contracts played to the end, by name: how often


class Pair:
    """One config of a mapping made ready: OpenSpiel's game, the rule set, the card and action tables."""

    def __init__(self, mapping: Mapping, config: Config | str):
        from interpreter.pipeline import load

        self.mapping = mapping
        self.config = mapping.config(config) if isinstance(config, str) else config
        try:
            import pyspiel
        except ImportError:
            raise ConformanceError("pyspiel is not installed (pip install -e '.[test]' or the [rl] extra)") from None
        try:
            self.game = pyspiel.load_game(mapping.game, self.config.params)
        except Exception as err:  # pyspiel reports unknown games and parameters as RuntimeError or SpielError
            raise ConformanceError(f"OpenSpiel cannot load {mapping.game} {self.config.params}: {err}") from None
        self.rs = load(self.config.rules)
        self.cards = card_codes(self.config.cards or mapping.cards)
        self.n = self.game.num_players()
        self.seat_of: list[int] = list(range(self.n)) if isinstance(mapping.seats, str) else list(mapping.seats)
        if len(self.seat_of) != self.n or self.rs.seats != self.n:
            raise ConformanceError(f"OpenSpiel's {mapping.game} {self.config.params} has {self.n} players, the rule "
                                   f"file {self.config.rules} {self.rs.seats} seats (and the mapping names "
                                   f"{len(self.seat_of)})")
        if not set(self.cards) <= set(self.rs.card_index):
            unknown = sorted(set(self.cards) - set(self.rs.card_index))
            raise ConformanceError(f"the mapping names cards the rule file's deck does not have: {unknown[:5]}")
        from interpreter.harness.inputs import BadInput, check_options

        try:
            check_options(self.rs, self.config.options)
        except BadInput as err:
            raise ConformanceError(f"config {self.config.name}: {err}") from None
        self._texts: dict[tuple, str | None] = {}
        self._matching = any(r.match is not None for r in mapping.actions)

    @property
    def label(self) -> str:
        return f"{self.mapping.game}{self.config.params or ''} vs {Path(self.config.rules).name}"

    def text(self, action: int, phase: str | None = None, os_state: Any = None) -> str | None:
        """The rule file's text for OpenSpiel's action id (None: the mapping has none), in the rule file's
        `phase`; a range with `match` reads OpenSpiel's string of the action in `os_state`."""
        said = None
        if self._matching and os_state is not None:
            said = os_state.action_to_string(os_state.current_player(), action)
        key = (action, phase, said)
        if key not in self._texts:
            self._texts[key] = self._text(action, phase, said)
        return self._texts[key]

    def game_for(self, rng: random.Random) -> Any:
        """OpenSpiel's game for one deal: the pair's own, or, when OpenSpiel shuffles inside (`seed_param`),
        one loaded with a seed drawn from the deal's generator, so that each deal can be played again alone."""
        param = self.mapping.seed_param
        if param is None:
            return self.game
        import pyspiel

        return pyspiel.load_game(self.mapping.game, {**self.config.params, param: rng.randrange(2**31)})

    def _text(self, action: int, phase: str | None, said: str | None) -> str | None:
        size = len(self.cards)
        for r in self.mapping.actions:
            if r.phase is not None and r.phase != phase:
                continue
            if r.match is not None and (said is None or not r.match.search(said)):
                continue
            start = size if r.start == "cards" else int(r.start)
            count = None if r.count is None else size if r.count == "cards" else int(r.count)
            n = action - start
            if n < 0 or (count is not None and n >= count):
                continue
            if "{card}" in r.text and n >= size:
                continue
            return (r.text.replace("{n}", str(n)).replace("{n+1}", str(n + 1))
                    .replace("{card}", self.cards[n] if "{card}" in r.text else ""))
        return None

    def setup(self, outcomes: list[int], os_state: Any = None) -> Setup:
        """The deal OpenSpiel's chance outcomes describe (or its state, after them), as the rule file is given it."""
        options = dict(self.config.options)
        dealer = self.mapping.dealer if self.config.dealer is None else self.config.dealer
        hands: list[list[str]] = [[] for _ in range(self.n)]
        talon: list[str] = []
        rest = list(outcomes)
        for kind, value in self.mapping.chance:
            if kind == "option":
                options[value] = self._take(rest, 1, kind)[0]
            elif kind == "dealer":
                dealer = self._take(rest, 1, kind)[0]
            elif kind == "hands":
                each = value["each"]
                each = options.get(each) if isinstance(each, str) else each
                if not isinstance(each, int):
                    raise ConformanceError(f"hands: each names '{value['each']}', which no earlier step sets")
                packet = value.get("packet", 1)
                if each % packet:
                    raise ConformanceError(f"hands: {each} cards each do not go in packets of {packet}")
                first = dealer if value.get("from") == "dealer" else 0
                for i, card in enumerate(self._take(rest, each * self.n, kind)):
                    hands[(first + i // packet) % self.n].append(self._card(card))
            elif kind == "talon":
                talon += [self._card(c) for c in self._take(rest, len(rest) if value == "rest" else value, kind)]
            elif kind == "state":
                if os_state is None:
                    raise ConformanceError("the chance step 'state' needs OpenSpiel's state after the deal")
                for p in range(self.n):
                    hands[p] += [self._card(c) for c in getattr(os_state, value["hands"])(p)]
                talon += [self._card(c) for c in getattr(os_state, value["talon"])()]
                rest = []            # the outcomes were only the shuffle's
        if rest:
            raise ConformanceError(f"OpenSpiel drew {len(rest)} chance outcomes the mapping's steps do not take")
        dealt = {c for h in hands for c in h} | set(talon)
        talon += [c for c in self.cards if c not in dealt]
        by_seat: list[list[str]] = [[] for _ in range(self.n)]
        for p, cards in enumerate(hands):
            by_seat[self.seat_of[p]] = cards
        return Setup(options, self.seat_of[dealer], by_seat, talon)

    def _take(self, rest: list[int], k: int, kind: str) -> list[int]:
        if len(rest) < k:
            raise ConformanceError(f"the chance step '{kind}' needs {k} outcomes, OpenSpiel drew {len(rest)} more")
        taken = rest[:k]
        del rest[:k]
        return taken

    def _card(self, card: int) -> str:
        if not 0 <= card < len(self.cards):
            raise ConformanceError(f"OpenSpiel dealt card {card}; the mapping has cards 0 to {len(self.cards) - 1}")
        return self.cards[card]


def chance_prefix(state: Any, rng: random.Random) -> list[int]:
    """Draw OpenSpiel's chance outcomes (by their probabilities) up to the first decision."""
    outcomes = []
    while state.is_chance_node():
        a = draw(state.chance_outcomes(), rng)
        outcomes.append(a)
        state.apply_action(a)
    return outcomes


def draw(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    x = rng.random()
    for action, p in outcomes:
        x -= p
        if x < 0:
            return action
    return outcomes[-1][0]


def deal_rng(seed: int | str, index: int) -> random.Random:
    """The generator of deal `index` of a run: each deal can be played again on its own."""
    return random.Random(f"{seed}/{index}")


def run(pair: Pair, deals: int, seed: int | str = 0, first: int = 0, keep_going: bool = False) -> Report:
    """Play `deals` deals (numbered from `first`) on both engines; stop at the first disagreement unless
    `keep_going`."""
    report = Report(pair.config.name)
    t0 = time.perf_counter()
    for i in range(first, first + deals):
        found, steps = play_deal(pair, deal_rng(seed, i), i, report.contracts)
        report.deals += 1
        report.decisions += steps
        if found is not None:
            report.disagreements.append(found)
            if not keep_going:
                break
    report.seconds = time.perf_counter() - t0
    return report


def play_deal(pair: Pair, rng: random.Random, index: int,
              contracts: dict | None = None) -> tuple[Disagreement | None, int]:
    """One deal on both engines: (the first disagreement or None, decisions compared); the contract played
    is counted in `contracts` when given."""
    from interpreter.engine import new_game
    from interpreter.engine.deals import DealError
    from interpreter.engine.errors import RuleRuntimeError

    os_state = pair.game_for(rng).new_initial_state()
    setup = pair.setup(chance_prefix(os_state, rng), os_state)
    moves: list[tuple[int, str]] = []

    def disagree(kind: str, detail: str, theirs: Any, ours: Any, seat: int | None = None) -> Disagreement:
        return Disagreement(pair.config.name, index, kind, detail, setup, list(moves), theirs, ours, seat)

    try:
        state = new_game(pair.rs, deal={"hands": setup.hands, "talon": setup.talon}, dealer=setup.dealer,
                         options=setup.options)
    except (DealError, RuleRuntimeError, ValueError) as err:
        return disagree("deal", f"the rule file refuses OpenSpiel's deal: {err}", "the deal", str(err)), 0
    start = state.clone()
    steps = 0
    while not os_state.is_terminal():
        if os_state.is_chance_node():
            raise ConformanceError(f"{pair.mapping.game} has a chance node after the first decision (deal {index}); "
                                   "the mapping has no way to say it")
        seat = pair.seat_of[os_state.current_player()]
        if state.is_over() or state.current_player() != seat:
            return disagree("turn", "a different seat is to act", seat,
                            None if state.is_over() else state.current_player()), steps
        ids = sorted(os_state.legal_actions())
        phase = state.phase
        theirs = {pair.text(a, phase, os_state): a for a in ids}
        ours = {state.action_text(a): a for a in state.legal_actions()}
        if None in theirs or set(theirs) != set(ours):
            shown = sorted((t if t is not None else f"<unmapped {a}>" for t, a in theirs.items()), key=natural)
            return disagree("legal", "the legal moves differ", shown, sorted(ours, key=natural), seat), steps
        action = choose(ids, theirs, pair.config.weights, rng)
        text = pair.text(action, phase, os_state)
        assert text is not None
        os_state.apply_action(action)
        state.apply(ours[text])
        moves.append((seat, text))
        steps += 1
        if steps > MAX_DECISIONS:
            return disagree("end", "the deal does not end", "over", "going on"), steps
    if not state.is_over():
        return disagree("end", "OpenSpiel's deal is over, the rule file's is not", None,
                        state.current_player()), steps
    if contracts is not None:
        name = str(state.result().get("contract"))
        contracts[name] = contracts.get(name, 0) + 1
    theirs_r = [0.0] * pair.n
    for p, r in enumerate(os_state.returns()):
        theirs_r[pair.seat_of[p]] = float(r)
    ours_r = values(pair, start, state)
    if any(abs(float(a) - b) > TOLERANCE for a, b in zip(ours_r, theirs_r)):
        found = disagree("returns", "the scores differ", theirs_r, ours_r)
        kept = state.accounts.get(pair.mapping.returns[1])
        if isinstance(kept, dict):
            found.groups = sorted(k for k in kept if isinstance(k, tuple))
        return found, steps
    return None, steps


def choose(ids: list[int], texts: dict, weights: dict, rng: random.Random) -> int:
    """One of the legal ids at random: uniformly, or by the config's weights of their texts (others 1), so that
    a run can steer towards the less likely parts of a game (the low contracts of an auction)."""
    if not weights:
        return ids[rng.randrange(len(ids))]
    by_id = {a: weights.get(t, 1) for t, a in texts.items()}
    x = rng.randrange(sum(by_id[a] for a in ids))
    for a in ids:
        x -= by_id[a]
        if x < 0:
            return a
    return ids[-1]


def natural(text: str) -> tuple:
    """Sort key: numbers inside a text by their value ("bid 2" before "bid 10")."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def values(pair: Pair, start: Any, end: Any) -> list[Any]:
    """What the deal was worth to each seat, read as the mapping's `returns` says."""
    kind, name = pair.mapping.returns
    if kind == "account":
        before, after = start.accounts.get(name), end.accounts.get(name)
        if isinstance(after, list) and isinstance(before, list):
            return [_exact(a) - _exact(b) for a, b in zip(after, before)]
        if isinstance(after, dict) and isinstance(before, dict):     # per team: each seat reads its partnership's
            return [_exact(_of_seat(after, s)) - _exact(_of_seat(before, s)) for s in range(pair.n)]
        raise ConformanceError(f"returns: the rule file has no per-seat or per-team account '{name}'")
    if kind == "payments":
        pay = end.result()["payments"]
        return [_exact(pay.get(s, 0)) for s in range(pair.n)]
    from interpreter.bots.value import deal_values

    return list(deal_values(start, end))


def _of_seat(account: dict, seat: int) -> Any:
    """A seat's entry of an account kept per partnership (keys: the partnership's seats)."""
    for key, value in account.items():
        if key == seat or (isinstance(key, tuple) and seat in key):
            return value
    return 0


def _exact(x: Any) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(x)


def bench(pair: Pair, deals: int, rounds: int, seed: int | str = 0,
          clock: Any = time.perf_counter) -> list[tuple[float, float]]:
    """Deals per second of each engine playing random moves, driven from Python, in alternating rounds:
    [(OpenSpiel, rule file), …] one pair per round. Each engine deals its own cards, chooses each move at
    random among its legal ones and reads the deal's returns at the end. The rule file's deals take their
    options and dealer (the number of tricks …) from OpenSpiel's chance outcomes, drawn before the clock
    starts. OpenSpiel's chance nodes are sampled by their probabilities, or, when every chance node of the
    warm-up deals gave its outcomes the same probability (a shuffled deck), uniformly among its legal
    actions, the same draw without reading the probabilities (`uniform_chance`). `clock`: wall time, or
    time.process_time for the process's CPU time (steadier on a loaded machine: both engines run in this one
    thread)."""
    from interpreter.engine import new_game
    from interpreter.engine.rules import compile_rules

    rng = random.Random(f"{seed}/bench")
    setups = []
    for _ in range(deals):
        s0 = pair.game_for(rng).new_initial_state()
        setups.append(pair.setup(chance_prefix(s0, rng), s0))
    for opts in {tuple(sorted(s.options.items())) for s in setups}:
        compile_rules(pair.rs, dict(opts))            # compiled before the clock starts, as OpenSpiel's game is
    uniform = uniform_chance(pair.game, random.Random(f"{seed}/uniform"))
    game = pair.game

    def openspiel(r: random.Random, count: int = deals) -> None:
        for _ in range(count):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node() and not uniform:
                    s.apply_action(draw(s.chance_outcomes(), r))
                else:
                    legal = s.legal_actions()
                    s.apply_action(legal[r.randrange(len(legal))])
            s.returns()

    def ours(r: random.Random) -> None:
        for su in setups:
            st = new_game(pair.rs, rng=r, dealer=su.dealer, options=su.options)
            while not st.is_over():
                legal = st.legal_actions()
                st.apply(legal[r.randrange(len(legal))])
            deal_returns(pair, st)

    everything = setups
    setups = list({tuple(sorted(su.options.items())): su for su in everything}.values()) * 3
    ours(random.Random(f"{seed}/warm"))                     # each option set played before the clock starts
    openspiel(random.Random(f"{seed}/warm"), len(setups))
    setups = everything
    rows = []
    for k in range(rounds):
        timed = {}
        order = (("openspiel", openspiel), ("stichwort", ours))
        for name, fn in order if k % 2 == 0 else order[::-1]:
            t0 = clock()
            fn(random.Random(f"{seed}/{name}/{k}"))
            timed[name] = deals / max(clock() - t0, 1e-9)
        rows.append((timed["openspiel"], timed["stichwort"]))
    return rows


def uniform_chance(game: Any, rng: random.Random, deals: int = 20) -> bool:
    """Whether every chance node of `deals` random deals gave all its outcomes the same probability (then a
    uniform draw among the node's legal actions is OpenSpiel's own distribution)."""
    for _ in range(deals):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                if len({p for _, p in outcomes}) > 1 or sorted(a for a, _ in outcomes) != sorted(s.legal_actions()):
                    return False
                s.apply_action(draw(outcomes, rng))
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
    return True


def deal_returns(pair: Pair, st: Any) -> list[Any]:
    """The deal's returns by seat as the mapping's `returns` reads them, from the state alone (the bench's
    counterpart of OpenSpiel's returns(); the check compares them exactly, through `values`)."""
    kind, name = pair.mapping.returns
    if kind != "account":
        return list(st.result()["payments"].values())
    before, after = st.start_accounts.get(name), st.accounts.get(name)
    if isinstance(after, dict):
        return [_of_seat(after, s) - _of_seat(before, s) for s in range(pair.n)]
    return [a - b for a, b in zip(after, before)]
