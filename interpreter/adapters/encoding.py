"""A fixed action catalogue and an information-state encoding for any rule file, shared by the
OpenSpiel and PettingZoo adapters.

Engine actions are ints (a kind and an argument); learning libraries want a fixed range 0..N-1.
`ActionCatalog` enumerates every action the rule file can ever offer (each card, call, contract,
suit, discard of the sizes its talons and after-purchases lay away, answers, kontra levels,
concession offers) and maps both ways. `encode` turns what one seat knows (interpreter/bots/view.py:
its hand, the public history, an exposed talon, open hands) into a flat vector of numbers in
[0, 1], seat-relative so that one policy can play every seat.
"""
from __future__ import annotations

from itertools import combinations
from typing import Any

from interpreter.bots.sampler import bits
from interpreter.bots.view import SeatView
from interpreter.engine import actions as A

PHASES = ("auction", "talon", "contract", "after_purchase", "defence", "kontra", "play")
KONTRA_LEVELS = 16


class ActionCatalog:
    """Every action a rule file can offer, numbered 0..size-1."""

    def __init__(self, ruleset: Any):
        rs = ruleset
        doc = rs.doc
        n_active = rs.players
        talon_size = rs.deck_size - rs.hand_size * n_active
        sizes = set()
        for proc in (doc.get("talon") or {}).values():
            if proc.get("kind") == "exchange":
                take = proc.get("take", talon_size)
                sizes.add(int(proc.get("discard", take)))
        ap = doc.get("after_purchase") or {}
        if ap.get("discard"):
            sizes.add(int(ap["discard"]))
        acts: list[int] = [A.make(A.PLAY, c) for c in range(rs.deck_size)]
        acts += [A.make(A.BID, i) for i in range(len(rs.calls))]
        acts += [A.make(A.PASS, 0), A.make(A.HOLD, 0)]
        for k in sorted(sizes):
            acts += [A.make(A.DISCARD, sum(1 << c for c in combo)) for combo in combinations(range(rs.deck_size), k)]
        acts += [A.make(kind, i) for kind in (A.DECLARE, A.REVEAL) for i in range(len(rs.contracts))]
        acts += [A.make(A.TRUMP, s) for s in range(len(rs.suits))]
        acts += [A.make(kind, v) for kind in (A.DEFEND, A.INVITE, A.AFTER) for v in (0, 1)]
        acts += [A.make(A.KONTRA, v) for v in range(KONTRA_LEVELS + 1)]
        acts += [A.make(A.NEGOTIATE, v) for v in (A.ACCEPT, A.REFUSE)]
        acts += [A.make(A.NEGOTIATE, A.OFFER + k) for k in range(rs.hand_size + 1)]
        if "number_bids" in (doc.get("procedure") or ()):
            acts += [A.make(A.NUMBER, k) for k in range(rs.hand_size + 1)]
        self.actions = acts
        self.index = {a: i for i, a in enumerate(acts)}
        self.size = len(acts)

    def to_index(self, action: int) -> int:
        try:
            return self.index[action]
        except KeyError:
            raise ValueError(f"action {action} is outside the catalogue of this rule file") from None

    def to_action(self, index: int) -> int:
        return self.actions[index]

    def mask(self, legal: list[int]) -> list[int]:
        out = [0] * self.size
        for a in legal:
            out[self.to_index(a)] = 1
        return out


class Encoder:
    """The information-state vector of a seat: its view, relative to the seat."""

    def __init__(self, ruleset: Any):
        rs = ruleset
        self.rs = rs
        self.n = rs.seats
        self.d = rs.deck_size
        self.calls = {name: i for i, name in enumerate(rs.calls)}
        self.contracts = {name: i for i, name in enumerate(rs.contracts)}
        n, d = self.n, self.d
        self.layout = [
            ("hand", d), ("played", n * d), ("trick", n * d), ("exposed talon", d), ("open hands", n * d),
            ("phase", len(PHASES) + 1), ("dealer", n), ("to act", n), ("calls", n * (len(rs.calls) + 2)),
            ("contract", len(rs.contracts) + 1), ("declarer", n + 1), ("tricks", n),
        ]
        self.size = sum(k for _, k in self.layout)

    def encode(self, view: SeatView) -> list[float]:
        n, d, me = self.n, self.d, view.seat
        obs = view.obs
        rel = lambda s: (s - me) % n
        out = [0.0] * self.size
        pos = 0

        def put(offset: int, i: int, value: float = 1.0) -> None:
            out[pos + offset + i] = value

        for c in bits(view.hand):
            put(0, c)
        pos += d
        for s, a, kind in view.history:
            if a is not None and kind == A.PLAY:
                put(rel(s) * d, A.arg_of(a))
        pos += n * d
        idx = self.rs.card_index
        for s, code in obs.get("trick", []):
            put(rel(s) * d, idx[code])
        pos += n * d
        for c in bits(view.exposed_talon):
            put(0, c)
        pos += d
        for s, m in view.open_hands.items():
            for c in bits(m):
                put(rel(s) * d, c)
        pos += n * d
        phase = obs.get("phase")
        put(0, PHASES.index(phase) if phase in PHASES else len(PHASES))
        pos += len(PHASES) + 1
        put(0, rel(view.dealer))
        pos += n
        if obs.get("to_act") is not None and obs["to_act"] >= 0:
            put(0, rel(obs["to_act"]))
        pos += n
        width = len(self.calls) + 2
        for s, call in obs.get("calls", []):
            name = call if isinstance(call, str) else getattr(call, "name", str(call))
            if name in self.calls:
                put(rel(s) * width, self.calls[name])
            else:
                put(rel(s) * width, len(self.calls) + (0 if name == "pass" else 1))
        pos += n * width
        con = obs.get("contract")
        put(0, self.contracts[con] if con in self.contracts else len(self.contracts))
        pos += len(self.contracts) + 1
        decl = obs.get("declarer")
        put(0, rel(decl) if decl is not None else n)
        pos += n + 1
        hand_size = max(1, self.rs.hand_size)
        for s, t in (obs.get("tricks") or {}).items():
            put(0, rel(int(s)), min(1.0, t / hand_size))
        pos += n
        return out


def describe(view: SeatView, ruleset: Any) -> str:
    """The view as one line of text (OpenSpiel's observation string)."""
    obs = view.obs
    codes = [ruleset.cards[c].code for c in bits(view.hand)]
    parts = [f"seat {view.seat}", f"dealer {view.dealer}", f"phase {obs.get('phase')}", "hand " + " ".join(codes)]
    if obs.get("calls"):
        parts.append("calls " + ", ".join(f"{s}:{c}" for s, c in obs["calls"]))
    if obs.get("contract"):
        parts.append(f"contract {obs['contract']} by {obs.get('declarer')}")
    if view.exposed_talon:
        parts.append("talon " + " ".join(ruleset.cards[c].code for c in bits(view.exposed_talon)))
    plays = [f"{s}:{ruleset.cards[A.arg_of(a)].code}" for s, a, k in view.history if a is not None and k == A.PLAY]
    if plays:
        parts.append("played " + " ".join(plays))
    if obs.get("tricks"):
        parts.append("tricks " + " ".join(f"{s}:{t}" for s, t in obs["tricks"].items()))
    return " | ".join(parts)
