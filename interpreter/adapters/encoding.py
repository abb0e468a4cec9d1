"""A fixed, small action catalogue and an information-state encoding for any rule file, shared by the
OpenSpiel and PettingZoo adapters.

Engine actions are ints (a kind and an argument, interpreter/engine/actions.py); learning libraries want
a fixed range 0..N-1. `ActionCatalog` numbers every action the rule file can offer, kind by kind, with
the arguments the engine's own encoding allows under the compiled rules: each card (play, discard one
card, call a partner), each call, contract and suit, the answers, the kontra levels up to the chain's
maximum, the declaration round's figures and per-item kontra calls, number bids, offers, knock and
packet choices. Kinds a rule file never uses get no entries. A discard of several cards is one entry
only when all combinations of that size fit a small budget (`COMBINATIONS`); otherwise the adapter
offers it card by card, lowest card first (`legal_indices` / `advance`), and applies the engine's
discard once the set is complete. So the catalogue is small for every rule file by design, never an
enumeration of C(deck, k).

`Encoder.encode` turns what one seat knows (interpreter/bots/view.py, built on the engine's
`observation(seat)` and the public log with other seats' discards face down) into a flat vector in
[0, 1], seat-relative so that one policy can play every seat.
"""
from __future__ import annotations

from itertools import combinations
from math import comb
from typing import Any

from interpreter.bots.sampler import bits
from interpreter.bots.view import SeatView
from interpreter.engine import actions as A
from interpreter.engine.phases import PHASES as ENGINE_PHASES
from interpreter.engine.phases import announce as AN
from interpreter.engine.phases.number_bids import MAX_NUMBER
from interpreter.engine.phases.partner import FOURTH
from interpreter.engine.rules import compile_rules

PHASES = tuple(ENGINE_PHASES)    # the engine's phases, in its order
COMBINATIONS = 1024          # a multi-card discard is one action only while C(deck, k) stays within this
MAX_CATALOGUE = 20000        # a rule file whose catalogue would be larger is refused


def load_rules(rules: Any) -> Any:
    """The Ruleset of a built-in name or a path (a Ruleset passes through). A file the engine cannot play
    yet, or an invalid one, is refused with one clear message (ValueError)."""
    if not isinstance(rules, str):
        return rules
    from interpreter.diagnostics import DiagnosticError
    from interpreter.pipeline import NotPlayable, load

    try:
        return load(rules)
    except NotPlayable as e:
        raise ValueError(f"the game-AI adapters cannot run {e.summary}") from e
    except DiagnosticError as e:
        raise ValueError(f"the game-AI adapters cannot run {rules}: the rule file is invalid\n{e}") from e


def _lowest(m: int) -> int:
    return m & -m


class ActionCatalog:
    """Every action a rule file can offer, numbered 0..size-1, and card-by-card discards."""

    def __init__(self, ruleset: Any, options: dict | None = None):
        rs = ruleset
        R = compile_rules(rs, options)
        self.rules = R
        # the seats of one deal as the engine runs it (a rotation at five plays each deal at four seats)
        self.seats = R.n_seats
        d, n = rs.deck_size, self.seats
        tricks = d // max(1, rs.players)
        acts: list[int] = [A.make(A.PLAY, c) for c in range(d)]
        acts += [A.make(A.DISCARD, 1 << c) for c in range(d)]
        self.discard_sizes = sorted(k for k in self._discard_sizes(R, rs) if k > 1 and comb(d, k) <= COMBINATIONS)
        for k in self.discard_sizes:
            acts += [A.make(A.DISCARD, sum(1 << c for c in combo)) for combo in combinations(range(d), k)]
        acts += [A.make(A.BID, i) for i in range(len(rs.calls))]
        acts += [A.make(A.PASS, 0), A.make(A.HOLD, 0)]
        acts += [A.make(A.DOUBLE, k) for k in range(1, len(R.auction.doubles) + 1)]   # calls on the bid
        acts += [A.make(kind, i) for kind in (A.DECLARE, A.REVEAL) for i in range(len(rs.contracts))]
        acts += [A.make(A.TRUMP, s) for s in range(len(rs.suits))]
        acts += [A.make(kind, v) for kind in (A.DEFEND, A.INVITE, A.AFTER) for v in (0, 1)]
        acts += [A.make(A.KONTRA, v) for v in range(R.kontra.max + 1)]
        if R.play.negotiate is not None:
            acts += [A.make(A.NEGOTIATE, v) for v in (A.ACCEPT, A.REFUSE)]
            acts += [A.make(A.NEGOTIATE, A.OFFER + k) for k in range(tricks + 1)]
        if R.number_bids is not None:
            acts += [A.make(A.NUMBER, k) for k in range(MAX_NUMBER + 1)]
        if R.pass_cards is not None:
            acts += [A.make(A.PASS_CARD, c) for c in range(d)]
        if R.partner.present:
            acts += [A.make(A.PARTNER_CALL, c) for c in range(d)] + [A.make(A.PARTNER_CALL, FOURTH)]
        if R.knock.present or R.talons:
            packets = max([n] + [t.packets or 0 for t in R.talons.values()])
            acts += [A.make(A.PACKET, i) for i in range(packets)]
            acts += [A.make(kind, v) for kind in (A.KNOCK, A.GIVE_UP) for v in (0, 1)]
        for choice in R.choices.values():       # the options of each decision (engine/phases/choice.py)
            acts += list(choice.actions)
        an = R.announce
        if an.present:
            acts += [A.make(A.ANNOUNCE, v) for v in (AN.PASS, AN.DONE, AN.OPEN)]
            acts += [A.make(A.ANNOUNCE, 1 + f.index) for f in an.figures]
            if an.kontra:
                codes = [AN.GAME_CODE, AN.BASE_CODE] + [AN.FIGURE_CODE + f.index for f in an.figures]
                acts += [AN.kontra_action(code, level, other, owner) for code in codes for owner in (False, True)
                         for other in range(-1, n) for level in range(1, an.max + 1)]
        if len(acts) > MAX_CATALOGUE:
            raise ValueError(f"{rs.name}: its action catalogue would hold {len(acts)} "
                             f"actions (more than {MAX_CATALOGUE}); the adapters refuse it")
        self.actions = list(dict.fromkeys(acts))
        self.index = {a: i for i, a in enumerate(self.actions)}
        self.size = len(self.actions)
        self.single = [self.index[A.make(A.DISCARD, 1 << c)] for c in range(d)]
        self.longest_discard = max([1, *self._discard_sizes(R, rs)])

    @staticmethod
    def _discard_sizes(R: Any, rs: Any) -> set[int]:
        """How many cards one discard action lays away, for each way the rules discard at once."""
        talon = max(0, rs.deck_size - rs.hand_size * rs.players)
        sizes = set()
        for t in R.talons.values():
            if t.card_by_card or t.kind not in ("exchange", "halves"):
                continue
            whole = t.take if t.kind == "exchange" and t.take is not None else talon // max(1, t.packets or 1)
            sizes.add(int(t.discard if t.discard is not None else whole))
        if R.after_purchase.present:
            sizes.add(int(R.after_purchase.discard))
        return sizes

    def to_index(self, action: int) -> int:
        try:
            return self.index[action]
        except KeyError:
            raise ValueError(f"action {A.KIND_NAMES[A.kind_of(action)] if A.kind_of(action) < len(A.KIND_NAMES) else '?'}"
                             f" {A.arg_of(action)} is outside the catalogue of this rule file") from None

    def to_action(self, index: int) -> int:
        return self.actions[index]

    def mask(self, legal: list[int]) -> list[int]:
        out = [0] * self.size
        for a in legal:
            out[self.to_index(a)] = 1
        return out

    # ---- card-by-card discards ---------------------------------------------------------------------
    def composed(self, legal: list[int]) -> list[int]:
        """The discard masks among `legal` that are offered card by card (empty when every legal action
        has its own entry)."""
        masks = [A.arg_of(a) for a in legal if A.kind_of(a) == A.DISCARD]
        if any(a not in self.index for a in legal if A.kind_of(a) == A.DISCARD):
            return masks
        return []

    def legal_indices(self, legal: list[int], chosen: int = 0) -> list[int]:
        """The catalogue indices the seat may choose now; `chosen` is the mask of the cards already picked
        towards a discard offered card by card."""
        masks = self.composed(legal)
        if not masks:
            return sorted(self.to_index(a) for a in legal)
        low = (1 << chosen.bit_length()) - 1 if chosen else 0      # the cards up to the highest chosen
        nxt = {_lowest(m & ~chosen).bit_length() - 1 for m in masks if m & low == chosen and m & ~chosen}
        out = {self.single[c] for c in nxt}
        if not chosen:
            out.update(self.to_index(a) for a in legal if A.kind_of(a) != A.DISCARD)
        return sorted(out)

    def advance(self, legal: list[int], chosen: int, index: int) -> tuple[int | None, int]:
        """(the engine action to apply or None, the cards chosen so far) after choosing `index`."""
        if index not in self.legal_indices(legal, chosen):
            raise ValueError(f"action {index} is not legal now")
        masks = self.composed(legal)
        action = self.to_action(index)
        if not masks or A.kind_of(action) != A.DISCARD:
            return action, 0
        chosen |= A.arg_of(action)
        if chosen in masks:
            return A.make(A.DISCARD, chosen), 0
        return None, chosen

    def indices_of(self, legal: list[int], action: int) -> list[int]:
        """The catalogue indices that make up the engine action `action` (a composed discard: its cards,
        lowest first)."""
        if A.kind_of(action) == A.DISCARD and self.composed(legal):
            return [self.single[c] for c in bits(A.arg_of(action))]
        return [self.to_index(action)]


class Encoder:
    """The information-state vector of a seat: its view, relative to the seat."""

    def __init__(self, ruleset: Any, catalog: ActionCatalog | None = None):
        rs = ruleset
        self.rs = rs
        self.catalog = catalog or ActionCatalog(rs)
        self.n = self.catalog.seats
        self.d = rs.deck_size
        self.contracts = {name: i for i, name in enumerate(rs.contracts)}
        # what a seat may say besides a card: its own column in the "said" block
        self.said = {a: i for i, a in enumerate(a for a in self.catalog.actions
                                                if A.kind_of(a) not in (A.PLAY, A.DISCARD))}
        n, d = self.n, self.d
        self.layout = [
            ("hand", d), ("chosen to discard", d), ("own discards", d), ("played", n * d), ("trick", n * d),
            ("exposed talon", d), ("open hands", n * d), ("phase", len(PHASES) + 1), ("dealer", n), ("to act", n),
            ("said", n * len(self.said)), ("contract", len(rs.contracts) + 1), ("declarer", n + 1), ("tricks", n),
        ]
        self.size = sum(k for _, k in self.layout)

    def encode(self, view: SeatView, chosen: int = 0) -> list[float]:
        """`chosen`: the cards this seat has picked so far towards a discard offered card by card."""
        n, d, me = self.n, self.d, view.seat
        obs = view.obs
        rel = lambda s: (s - me) % n
        out = [0.0] * self.size
        pos = 0

        def put(offset: int, i: int, value: float = 1.0) -> None:
            out[pos + offset + i] = value

        for block in (view.hand, chosen, view.discards_seen):
            for c in bits(block):
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
        width = len(self.said)
        for s, a, _kind in view.history:
            if a is not None and a in self.said:
                put(rel(s) * width, self.said[a])
        pos += n * width
        con = obs.get("contract")
        put(0, self.contracts[con] if con in self.contracts else len(self.contracts))
        pos += len(self.contracts) + 1
        decl = obs.get("declarer")
        put(0, rel(decl) if decl is not None else n)
        pos += n + 1
        most = max(1, self.d // max(1, self.rs.players))
        for s, t in (obs.get("tricks") or {}).items():
            put(0, rel(int(s)), min(1.0, t / most))
        pos += n
        return out


def describe(view: SeatView, ruleset: Any, chosen: int = 0) -> str:
    """The view as one line of text (OpenSpiel's observation string)."""
    obs = view.obs
    codes = [ruleset.cards[c].code for c in bits(view.hand)]
    parts = [f"seat {view.seat}", f"dealer {view.dealer}", f"phase {obs.get('phase')}", "hand " + " ".join(codes)]
    if chosen:
        parts.append("discarding " + " ".join(ruleset.cards[c].code for c in bits(chosen)))
    if obs.get("calls"):
        parts.append("calls " + ", ".join(f"{s}:{c}" for s, c in obs["calls"]))
    if obs.get("number_bids"):
        parts.append("numbers " + " ".join("-" if v is None else str(v) for v in obs["number_bids"]))
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
