"""Determinization: deals consistent with what one seat has seen, rebuilt through the public API.

A sample is a whole deal (every hand and the talon as dealt) that agrees with the seat's view: its own
hand, every card played (each in the hand of the seat that played it), hands lying open, an exposed
talon, the cards the seat itself took from a hidden talon, and the inferences learned so far. The deal
is then replayed with `new_game(...)` and `apply` through the public history; another seat's face-down
discard is chosen among the legal discards that keep the cards that seat plays later. A history step that
is illegal in the sample rejects it and teaches the sampler why: when a seat played a card while the
rules would have forced one of the cards `L` it held in the sample (follow suit, trump, overtake…), that
seat held none of `L` at the time, and later samples respect it. No suit or obligation is known by name:
the rules themselves say what was forced.
"""
from __future__ import annotations

import random
from typing import Any

from interpreter.bots.view import SeatView
from interpreter.engine import State
from interpreter.engine import actions as A
from interpreter.engine.cards import bits
from interpreter.engine.deals import validate_deal
from interpreter.engine.rules import compile_rules


def popcount(m: int) -> int:
    return bin(m).count("1")


class Sampler:
    """Samples deals consistent with `view`; `exclusions` (seat -> mask of cards it cannot hold) is
    shared with the caller so that what one move learned serves the next."""

    def __init__(self, view: SeatView, exclusions: dict[int, int] | None = None, model: Any = None,
                 mismatch: float = 1.0):
        """`model` (a bot with `choose(state)`) and `mismatch` < 1 weigh each sample by how well it explains
        the other seats' public decisions (calls, answers, kontras): each one the model would have made
        otherwise multiplies the sample's weight (`last_weight`) by `mismatch`."""
        self.view = view
        rs = view.ruleset
        self.rs = rs
        self.exclusions: dict[int, int] = exclusions if exclusions is not None else {}
        self.rules = compile_rules(rs, view.options)     # what new_game() compiles for every replay, once
        n = self.rules.n_seats      # the chairs the engine deals to (five players, four chairs)
        self.n = n
        active = [s for s in range(n) if not (n > rs.players and s == view.dealer)]
        hand_size = popcount(view.dealt) or rs.hand_size     # the hands of this deal (deal.hand may vary them)
        talon_size = rs.deck_size - hand_size * len(active)
        me = view.seat
        played = [0] * n
        self.hidden_discards = [0] * n
        mine = view.dealt | view.hand | view.discards_seen
        for s, a, kind in view.history:
            if a is None:
                self.hidden_discards[s] += 1
            elif kind == A.PLAY:
                played[s] |= 1 << A.arg_of(a)
            elif kind == A.DISCARD and s == me:
                mine |= A.arg_of(a)
        mine |= played[me]
        # cards this seat has held but was not dealt came from the talon (or a discard it picked up)
        extra = mine & ~view.dealt
        known = [0] * n
        for s in active:
            if s != me:
                known[s] = (played[s] | view.open_hands.get(s, 0)) & ~extra & ~view.exposed_talon
        known[me] = view.dealt
        self.known_talon = view.exposed_talon | extra
        self.known = known
        self.active = active
        self.others = [s for s in active if s != me]
        self.capacity = {s: hand_size - popcount(known[s]) for s in self.others}
        self.capacity[-1] = talon_size - popcount(self.known_talon)
        taken = self.known_talon
        for s in range(n):
            taken |= known[s]
        self.unknown = bits(((1 << rs.deck_size) - 1) & ~taken)
        self.ok = all(c >= 0 for c in self.capacity.values()) and sum(self.capacity.values()) == len(self.unknown)
        # for each history step, the cards its seat still plays face up afterwards (kept by a discard)
        later = [0] * n
        self.keep_after: list[int] = [0] * len(view.history)
        for i in range(len(view.history) - 1, -1, -1):
            s, a, kind = view.history[i]
            self.keep_after[i] = later[s] | view.open_hands.get(s, 0)
            if a is not None and kind == A.PLAY:
                later[s] |= 1 << A.arg_of(a)
        # the steps whose call the model is asked to explain (another seat's, neither a card nor a discard)
        self._judged = [s != me and kind not in (A.PLAY, A.DISCARD) for s, _a, kind in view.history]
        self.attempts = 0
        self.failures = 0
        self.replays = 0                         # deals replayed (samples, repairs, earlier deals again)
        self._last_cards: tuple | None = None    # the hands and talon (card indices) of the last sample
        turned = view.obs.get("turned_up") if view.obs else None
        self._turned = rs.card_index[turned] if turned is not None else None
        self._full = (1 << rs.deck_size) - 1
        self._valid_sizes: set[tuple[int, ...]] = set()    # the card counts of deals validate_deal accepted
        self.last_assignment: tuple[list[int], int] | None = None   # its hands and talon as masks, for `again`
        self.model = model
        # the model's call at a step of the auction, by the step and the caller's hand: with the history
        # fixed, a seat's call depends only on its own cards (it sees no other), so a deal replayed again
        # with other cards elsewhere (a repair's exchange) asks the model only about the seats it changed
        self.calls_explained: dict[tuple[int, int, int], bool] = {}
        self.mismatch = mismatch
        self.last_weight = 1.0
        self.last_misses = 0                     # the calls of the last sample the model did not explain
        self.max_misses: int | None = None       # a replay that leaves more calls unexplained is given up

    @property
    def last_deal(self) -> dict | None:
        """The deal of the last sample (card codes), for adapters."""
        if self._last_cards is None:
            return None
        hands, talon = self._last_cards
        codes = [c.code for c in self.rs.cards]
        return {"hands": [[codes[i] for i in bits(h)] for h in hands], "talon": [codes[i] for i in talon]}

    # ---- one deal ---------------------------------------------------------------------------------
    def _assign(self, rng: random.Random) -> tuple[list[int], int] | None:
        hands = list(self.known)
        talon = self.known_talon
        others = self.others
        excl = self.exclusions
        ex = [excl.get(s, 0) for s in others]           # by position in `others`, as are caps and quota
        caps = [self.capacity[s] for s in others]
        cap_talon = self.capacity[-1]
        quota = [2 * self.hidden_discards[s] for s in others]
        cards = list(self.unknown)
        rng.shuffle(cards)
        if any(ex):                 # the cards most seats cannot hold first (a stable sort: ties keep their order)
            cards.sort(key=lambda c: -sum(m >> c & 1 for m in ex))
        seats = range(len(others))
        for c in cards:
            places: list[int] = []
            weights: list[int] = []
            for j in seats:
                cap = caps[j]
                if cap <= 0 or (ex[j] >> c & 1 and quota[j] <= 0):
                    continue
                places.append(j)
                weights.append(cap)
            if cap_talon > 0:
                places.append(-1)
                weights.append(cap_talon)
            if not places:
                return None
            where = rng.choices(places, weights)[0] if len(places) > 1 else places[0]
            if where == -1:
                cap_talon -= 1
                talon |= 1 << c
            else:
                caps[where] -= 1
                hands[others[where]] |= 1 << c
                if ex[where] >> c & 1:
                    quota[where] -= 1
        return hands, talon

    def sample(self, rng: random.Random, repair: int = 0) -> Any | None:
        """One consistent deal replayed to the seat's decision point, or None (rejected). With a model
        and `repair` > 0, a deal that leaves calls unexplained is improved by up to `repair` exchanges."""
        self.attempts += 1
        if not self.ok:
            self.failures += 1
            return None
        got = self._assign(rng)
        if got is None:
            self.failures += 1
            return None
        hands, talon_mask = got
        world = self._replay(hands, talon_mask, rng)
        if repair and world is not None and self.last_misses:
            world = self._repair(hands, talon_mask, world, repair, rng)
        elif world is not None:
            self.last_assignment = (hands, talon_mask)
        if world is None:
            self.failures += 1
        return world

    def again(self, assignment: tuple[list[int], int], rng: random.Random) -> Any | None:
        """The deal of an earlier sample (`last_assignment`), replayed to this view's decision point, or
        None when the history since has made it impossible."""
        hands, talon_mask = assignment
        if talon_mask & self.known_talon != self.known_talon:
            return None
        for s in self.others:
            if hands[s] & self.known[s] != self.known[s]:
                return None
        world = self._replay(list(hands), talon_mask, rng)
        if world is not None:
            self.last_assignment = (list(hands), talon_mask)
        return world

    def _repair(self, hands: list[int], talon_mask: int, world: Any, steps: int, rng: random.Random) -> Any:
        """Hill-climb towards a deal the model explains: exchange two unknown cards between the hidden
        places (another seat's hand or the talon) and keep the exchange when the replay stays legal and
        leaves no more calls unexplained, for at most `steps` exchanges."""
        hands = list(hands)
        misses, weight = self.last_misses, self.last_weight
        cap = self.max_misses
        excl = self.exclusions
        for _ in range(steps):
            if not misses or len(self.unknown) < 2:
                break
            a, b = rng.sample(self.unknown, 2)
            pa = -1 if talon_mask >> a & 1 else next(s for s in self.others if hands[s] >> a & 1)
            pb = -1 if talon_mask >> b & 1 else next(s for s in self.others if hands[s] >> b & 1)
            if pa == pb:
                continue
            if (pb >= 0 and excl.get(pb, 0) >> a & 1) or (pa >= 0 and excl.get(pa, 0) >> b & 1):
                continue
            swap = (1 << a) | (1 << b)
            new_hands = list(hands)
            new_talon = talon_mask
            for p in (pa, pb):
                if p == -1:
                    new_talon ^= swap
                else:
                    new_hands[p] ^= swap
            self.max_misses = misses
            got = self._replay(new_hands, new_talon, rng)
            if got is not None:
                hands, talon_mask, world = new_hands, new_talon, got
                misses, weight = self.last_misses, self.last_weight
        self.max_misses = cap
        self.last_misses, self.last_weight = misses, weight
        self.last_assignment = (hands, talon_mask)
        return world

    def _replay(self, hands: list[int], talon_mask: int, rng: random.Random) -> Any | None:
        self.replays += 1
        v = self.view
        talon = bits(talon_mask)
        rng.shuffle(talon)
        turned = self._turned
        if turned is not None:                      # the card turned up after the deal stays on top
            talon.remove(turned)
            talon.insert(0, turned)
        self._last_cards = (tuple(hands), talon)
        world = self._deal(hands, talon)
        weight = 1.0
        misses = 0
        infer = self.model is not None
        judged = self._judged
        for i, (s, a, kind) in enumerate(v.history):
            if world.to_act != s:                   # over (no seat to act) or another seat's turn
                return None
            legal = world.legal_actions()
            if a is None:
                a = self._face_down(world, legal, s, i, rng)
                if a is None:
                    return None
            elif a not in legal:
                if kind == A.PLAY and s != v.seat:
                    forced = 0
                    for b in legal:
                        if A.kind_of(b) == A.PLAY:
                            forced |= 1 << A.arg_of(b)
                    self.exclusions[s] = self.exclusions.get(s, 0) | (forced & ~self.keep_after[i])
                return None
            if infer and judged[i] and len(legal) > 1 and not self._explains(world, i, s, a):
                weight *= self.mismatch
                misses += 1
                if self.max_misses is not None and misses > self.max_misses:
                    return None
            world.apply_unchecked(a)
        self.last_weight = weight
        self.last_misses = misses
        if world.is_over() or world.current_player() != v.seat:
            return None
        if v.legal and set(world.legal_actions()) != set(v.legal):
            return None
        return world

    def _deal(self, hands: list[int], talon: list[int]) -> Any:
        """new_game(deal=...) of these hands (masks) and talon (card indices, in order). validate_deal reads
        only how many cards each place holds and whether every card is dealt once (the rest is this view's:
        the rules, dealer, deal number and accounts), so a deal of counts it accepted before goes straight
        to the State; any other is checked (and raises DealError) as new_game would check it."""
        v = self.view
        sizes = (*[popcount(h) for h in hands], len(talon))
        union = 0
        for h in hands:
            union |= h
        for c in talon:
            union |= 1 << c
        if sizes not in self._valid_sizes or union != self._full or sum(sizes) != self.rs.deck_size:
            codes = [c.code for c in self.rs.cards]
            validate_deal(self.rules, [[codes[i] for i in bits(h)] for h in hands], [codes[i] for i in talon],
                          v.dealer, v.deal_number, _copy(v.accounts))
            self._valid_sizes.add(sizes)
        return State(self.rules, v.dealer, hands, talon, accounts=_copy(v.accounts), deal_number=v.deal_number)

    def _explains(self, world: Any, i: int, s: int, a: int) -> bool:
        """explains(), kept per auction step and the caller's hand (calls_explained)."""
        if world.phase != "auction":
            return explains(self.model, world, a)
        key = (i, world.hands[s], a)
        got = self.calls_explained.get(key)
        if got is None:
            got = self.calls_explained[key] = explains(self.model, world, a)
        return got

    def _face_down(self, world: Any, legal: list[int], s: int, i: int, rng: random.Random) -> int | None:
        """Another seat's discard: any legal one that keeps what it plays later and lays away
        what the inferences say it no longer held."""
        keep = self.keep_after[i]
        held = 0
        for b in legal:
            held |= A.arg_of(b)
        must = held & self.exclusions.get(s, 0) & ~keep
        fits = [b for b in legal if A.kind_of(b) == A.DISCARD and not A.arg_of(b) & keep and A.arg_of(b) & must == must]
        if not fits:
            return None
        return fits[rng.randrange(len(fits))]


def explains(model: Any, world: Any, action: int) -> bool:
    """Whether `model` (a bot), in the seat to act of `world`, would have made `action`: in the auction,
    whether it passes when the seat passed and bids or holds when the seat did (the strength a call
    shows, not the exact call); elsewhere the same action."""
    if world.phase == "auction":
        passes = model.passes(world) if hasattr(model, "passes") else A.kind_of(model.choose(world)) == A.PASS
        return passes == (A.kind_of(action) == A.PASS)
    return model.choose(world) == action


def _copy(acc: dict | None) -> dict | None:
    if acc is None:
        return None
    return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in acc.items()}
