"""An OpenSpiel python game for any rule file (needs the extra `stichwort[rl]`, which brings open_spiel).

    import pyspiel
    import interpreter.adapters.openspiel_game  # registers "python_stichwort"
    game = pyspiel.load_game("python_stichwort", {"rules": NAME, "dealer": 0})   # a built-in name or a .stw path

The deal is a run of chance nodes, one card at a time (hands in seat order, then the talon), so
OpenSpiel's samplers, `random_sim_test` and tree algorithms see an ordinary stochastic game. The deal
has the shape the engine gives this dealer (who sits out, how many cards each active seat holds, the
talon). Player actions are numbered by the rule file's action catalogue
(interpreter/adapters/encoding.py); a discard the catalogue offers card by card is a run of the same
seat's decisions, lowest card first, and the engine applies it when the set is complete. The
information-state tensor is the seat's view encoded seat-relative; the information-state string is
the seat's dealt hand with the whole public history (another seat's discards face down) and its own
cards picked so far; the observation string is the current view in words. `resample_from_infostate` draws a deal consistent
with the seat's view with the search bot's sampler, so OpenSpiel's ISMCTS bot runs on the game.
Returns are each seat's value of the deal (money, or the change in the session's reckoning).
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from interpreter.adapters.encoding import ActionCatalog, Encoder, describe, load_rules
from interpreter.bots.sampler import Sampler, bits
from interpreter.bots.value import deal_values
from interpreter.bots.view import seat_view
from interpreter.engine import new_game
from interpreter.engine.deals import DealError
from interpreter.resources import builtin_games

DEFAULT_RULES = next(iter(builtin_games()), "")   # the parameter needs a default: the first built-in game
MAX_UTILITY = 1e7                      # kontra chains multiply; random play reaches far
_LOADED: dict[str, Any] = {}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_stichwort",
    long_name="stichwort: any rule file (trick-taking card games with bidding)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"rules": DEFAULT_RULES, "dealer": 0},
)


def _ruleset(name: str) -> Any:
    if name not in _LOADED:
        _LOADED[name] = load_rules(name)
    return _LOADED[name]


class StichwortGame(pyspiel.Game):
    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        rs = _ruleset(str(params.get("rules", DEFAULT_RULES)))
        self.ruleset = rs
        self.catalog = ActionCatalog(rs)
        self.encoder = Encoder(rs, self.catalog)
        n = self.seats = self.catalog.seats
        self.dealer = int(params.get("dealer", 0)) % n
        # the shape of this dealer's deal, as the engine deals it: the active seats' hands, then the talon
        probe = new_game(rs, seed=0, dealer=self.dealer)
        self.owners: list[int] = [s for s in range(n) for _ in bits(probe.dealt_hands[s])]
        self.owners += [-1] * (rs.deck_size - len(self.owners))
        steps = self.catalog.rules.max_actions * self.catalog.longest_discard
        info = pyspiel.GameInfo(
            num_distinct_actions=self.catalog.size,
            max_chance_outcomes=rs.deck_size,
            num_players=n,
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=None,
            max_game_length=rs.deck_size + steps,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> StichwortState:
        return StichwortState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> StichwortObserver:
        return StichwortObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class _Box:
    """Holds an engine state; a deep copy (OpenSpiel's clone of a python state) clones it cheaply."""

    def __init__(self, state: Any = None, shared: bool = False):
        self.state = state
        self.shared = shared

    def __deepcopy__(self, memo: dict) -> _Box:
        if self.shared or self.state is None:
            return self
        return _Box(self.state.clone())


class StichwortState(pyspiel.State):
    def __init__(self, game: StichwortGame):
        super().__init__(game)
        self.dealt: list[int] = []
        self.chosen = 0                  # the cards picked so far towards a discard offered card by card
        self._engine = _Box()
        self._start = _Box(shared=True)

    @property
    def g(self) -> Any:
        return self.get_game()

    @property
    def engine(self) -> Any:
        return self._engine.state

    @property
    def start(self) -> Any:
        return self._start.state

    # ---- the deal as chance nodes -----------------------------------------------------------------
    def _owner(self, k: int) -> int:
        """Who gets the k-th card dealt: seats in order, hand by hand, then the talon (-1)."""
        return self.g.owners[k]

    def _build(self) -> None:
        rs = self.g.ruleset
        codes = [c.code for c in rs.cards]
        hands: list[list[str]] = [[] for _ in range(self.g.seats)]
        talon: list[str] = []
        for k, c in enumerate(self.dealt):
            who = self._owner(k)
            (talon if who < 0 else hands[who]).append(codes[c])
        self._engine = _Box(new_game(rs, deal={"hands": hands, "talon": talon}, dealer=self.g.dealer))
        self._start = _Box(self.engine.clone(), shared=True)

    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.engine.current_player())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(self.g.ruleset.deck_size)) - set(self.dealt))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine is None or self.engine.is_over() or player != self.engine.current_player():
            return []
        return self.g.catalog.legal_indices(self.engine.legal_actions(), self.chosen)

    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            self.dealt.append(int(action))
            if len(self.dealt) == self.g.ruleset.deck_size:
                self._build()
            return
        engine_action, self.chosen = self.g.catalog.advance(self.engine.legal_actions(), self.chosen, int(action))
        if engine_action is not None:
            self.engine.apply(engine_action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.engine is None:
            return f"deal {self.g.ruleset.cards[int(action)].code}"
        return str(self.engine.action_text(self.g.catalog.to_action(int(action))))

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.g.seats
        return [float(v) for v in deal_values(self.start, self.engine)]

    def __str__(self) -> str:
        rs = self.g.ruleset
        if self.engine is None:
            return "dealing: " + " ".join(rs.cards[c].code for c in self.dealt)
        hands = " / ".join(" ".join(rs.cards[c].code for c in bits(h)) for h in self.engine.hands)
        moves = "; ".join(f"{s}:{self.engine.action_text(a)}" for s, a in self.engine.log)
        picked = " | picked " + " ".join(rs.cards[c].code for c in bits(self.chosen)) if self.chosen else ""
        return f"hands {hands} | {moves}{picked}"

    # ---- information sets -------------------------------------------------------------------------
    def resample_from_infostate(self, player: int, probability_sampler: Any = None) -> StichwortState:
        """A state with the same information set for `player`, hidden cards drawn consistently."""
        if self.engine is None:
            return self.clone()
        seed = int(abs(hash((player, len(self.engine.log), tuple(self.dealt)))) % (1 << 31))
        if probability_sampler is not None:
            try:
                seed = int(probability_sampler() * (1 << 31))
            except TypeError:
                pass
        rng = random.Random(seed)
        sampler = Sampler(seat_view(self.engine, player))
        for _ in range(200):
            try:
                world = sampler.sample(rng)
            except DealError as e:
                raise RuntimeError(f"{self.g.ruleset.name}: the search bot's sampler (interpreter/bots/sampler.py) "
                                   f"cannot deal this game's hidden cards: {e}") from e
            if world is not None and sampler.last_deal is not None:
                return self._rebuild(sampler.last_deal, world.log)
        return self.clone()

    def _rebuild(self, deal: dict, log: list) -> StichwortState:
        idx = self.g.ruleset.card_index
        out = StichwortState(self.g)
        hands = [list(h) for h in deal["hands"]]
        talon = list(deal["talon"])
        for owner in self.g.owners:
            out.apply_action(idx[(talon if owner < 0 else hands[owner]).pop(0)])
        for _s, a in log:
            for i in self.g.catalog.indices_of(out.engine.legal_actions(), a):
                out.apply_action(i)
        for c in bits(self.chosen):               # the seat's own picks towards a discard
            out.apply_action(self.g.catalog.single[c])
        return out


class StichwortObserver:
    """Observer for OpenSpiel's PyObserver interface: the seat's view as a tensor and a string."""

    def __init__(self, game: StichwortGame, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.g = game
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: StichwortState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is None:
            for k, c in enumerate(state.dealt):
                if state._owner(k) == player:
                    self.tensor[c] = 1.0               # the hand slot comes first in the layout
            return
        self.tensor[:] = self.g.encoder.encode(seat_view(state.engine, player), self._chosen(state, player))

    @staticmethod
    def _chosen(state: StichwortState, player: int) -> int:
        """The cards `player` has picked towards a discard (nobody else sees them)."""
        engine = state.engine
        return state.chosen if engine is not None and not engine.is_over() and engine.current_player() == player else 0

    def string_from(self, state: StichwortState, player: int) -> str:
        rs = self.g.ruleset
        if state.engine is None:
            mine = [rs.cards[c].code for k, c in enumerate(state.dealt) if state._owner(k) == player]
            return f"seat {player} | dealing | hand so far {' '.join(mine)}"
        view = seat_view(state.engine, player)
        chosen = self._chosen(state, player)
        if not self.perfect_recall:
            return describe(view, rs, chosen)
        dealt = " ".join(rs.cards[c].code for c in range(rs.deck_size) if view.dealt >> c & 1)
        moves = "; ".join(f"{s}:{'discard ?' if a is None else state.engine.action_text(a)}" for s, a, _ in view.history)
        extra = ""
        if view.exposed_talon:
            extra += " | talon " + " ".join(rs.cards[c].code for c in range(rs.deck_size) if view.exposed_talon >> c & 1)
        for s, m in sorted(view.open_hands.items()):
            extra += f" | open {s} " + " ".join(rs.cards[c].code for c in range(rs.deck_size) if m >> c & 1)
        if chosen:
            extra += " | picked " + " ".join(rs.cards[c].code for c in bits(chosen))
        return f"seat {player} | dealt {dealt} | {moves}{extra}"


pyspiel.register_game(_GAME_TYPE, StichwortGame)
