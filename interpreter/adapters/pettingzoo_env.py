"""A PettingZoo AEC environment for any rule file (needs the extra `stichwort[rl]`).

    from interpreter.adapters.pettingzoo_env import env
    e = env(NAME, seed=1)          # a built-in game's name, a .stw path, or a loaded Ruleset
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

One episode is one deal. Agents are `seat_0` … `seat_{n-1}`; the dealer moves on each reset. Each
observation is a dict: `observation` (the seat's information state, interpreter/adapters/encoding.py)
and `action_mask` (1 for the legal actions of the catalogue). A discard the catalogue offers card by
card is a run of the same seat's steps, lowest card first; the engine applies it once the set is
complete (`chosen` holds the cards picked so far, and the seat's observation shows them). At the end every seat is rewarded with
the deal's value to it: its money, or the change in the session's reckoning for score-sheet games.
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from interpreter.adapters.encoding import ActionCatalog, Encoder, describe, load_rules
from interpreter.bots.value import deal_values
from interpreter.bots.view import seat_view
from interpreter.engine import new_game


class StichwortEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "stichwort_v0", "is_parallelizable": False}

    def __init__(self, rules: Any, options: dict | None = None, render_mode: str | None = None,
                 seed: int | None = None):
        super().__init__()
        rules = load_rules(rules)
        self.ruleset = rules
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.catalog = ActionCatalog(rules, self.options)
        self.encoder = Encoder(rules, self.catalog)
        self.possible_agents = [f"seat_{s}" for s in range(self.catalog.seats)]
        self.agents = self.possible_agents[:]
        # seeded spaces sample reproducibly (PettingZoo's api_test draws its moves from them)
        self.action_spaces = {a: spaces.Discrete(self.catalog.size, seed=None if seed is None else seed + s)
                              for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.catalog.size,), dtype=np.int8),
        }) for a in self.possible_agents}
        self._rng = random.Random(seed)
        self._deals = 0
        self.state: Any = None
        self._start: Any = None
        self.chosen = 0               # cards picked so far towards a discard offered card by card

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ---- the episode ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = self._deals % self.catalog.seats
        self._deals += 1
        self.state = new_game(self.ruleset, seed=self._rng.getrandbits(64), options=self.options, dealer=dealer)
        self._start = self.state.clone()
        self.chosen = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._acting_agent()

    def _acting_agent(self) -> str:
        return self.possible_agents[self.state.current_player()]

    def _mine(self, seat: int) -> bool:
        return not self.state.is_over() and self.state.current_player() == seat

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        view = seat_view(self.state, seat)
        chosen = self.chosen if self._mine(seat) else 0
        obs = np.asarray(self.encoder.encode(view, chosen), dtype=np.float32)
        mask = np.zeros(self.catalog.size, dtype=np.int8)
        if self._mine(seat):
            mask[self.catalog.legal_indices(self.state.legal_actions(), self.chosen)] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.state.legal_actions()
        if int(action) not in self.catalog.legal_indices(legal, self.chosen):
            text = self.state.action_text(self.catalog.to_action(int(action))) if 0 <= int(action) < self.catalog.size else "?"
            raise ValueError(f"{agent}: action {int(action)} ({text}) is not legal now")
        self._cumulative_rewards[agent] = 0.0
        engine_action, self.chosen = self.catalog.advance(legal, self.chosen, int(action))
        if engine_action is not None:
            self.state.apply(engine_action)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.state.is_over():
            values = deal_values(self._start, self.state)
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = float(values[s])
                self.infos[a] = {"result": self.state.result()}
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
            # every agent gets its final observation and reward once, in seat order
            self.agent_selection = self.possible_agents[0]
        else:
            self._accumulate_rewards()
            self.agent_selection = self._acting_agent()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        seat = max(0, self.state.current_player())
        return describe(seat_view(self.state, seat), self.ruleset, self.chosen if self._mine(seat) else 0)

    def close(self) -> None:
        pass


def env(rules: Any, **kwargs: Any) -> StichwortEnv:
    """The environment for a rule file (a built-in name, a path, or a loaded Ruleset)."""
    return StichwortEnv(rules, **kwargs)
