"""Decisions in the game's own order: `choice NAME { who  options  when }`, run where its name stands in
`procedure`.

    choice pickup { who = declarer  options = [pick_up, hand]  when = declarer != none }

When the phase comes, `who` is judged (a seat; none, or a seat not taking part: nothing is asked), then
`when` with that seat as `me` (false: nothing is asked). The seat says one of the options (`CHOOSE`,
its argument the choice's index << 16 | the option's index, so that a log read later names both), which
the deal keeps (`State.chosen`, a dict replaced on every answer, never written in place); `chose(NAME)`
reads it, none while it is not given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.context import Ctx
from interpreter.engine.phases.base import Phase

if TYPE_CHECKING:
    from collections.abc import Mapping

    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import Choice

OPTION_BITS = 16
_OPTION = (1 << OPTION_BITS) - 1


@dataclass(frozen=True)
class ChoiceSettings:
    name: str
    index: int                  # the choice's place among the file's choices (in the action's argument)
    who: Any                    # compiled: the seat asked
    when: Any                   # compiled, or None: always asked
    options: tuple[str, ...]
    words: tuple[str, ...]      # each option as said (`words { pick_up = "pick up" }`), else its name
    actions: tuple[int, ...]    # each option's action


def settings(choices: Mapping[str, Choice], comp: Compiler) -> dict[str, ChoiceSettings]:
    """The file's choices, by name, in the order written."""
    out: dict[str, ChoiceSettings] = {}
    for i, (name, c) in enumerate(choices.items()):
        out[name] = ChoiceSettings(
            name=name, index=i, who=comp.text(c.who),
            when=comp.text(c.when) if c.when is not None else None, options=c.options, words=c.words,
            actions=tuple(A.make(A.CHOOSE, i << OPTION_BITS | k) for k in range(len(c.options))))
    return out


def chose(st: State, name: Any) -> str | None:
    """The option said in the decision `name`; none before it is asked or when it was not asked."""
    return st.chosen.get(name)


class ChoicePhase(Phase):
    """The phase of one decision; its name is the choice's."""

    def __init__(self, S: ChoiceSettings):
        self.name = S.name
        self.S = S

    def start(self, st: State) -> bool:
        S = self.S
        who = S.who(Ctx(st))
        if not isinstance(who, int) or isinstance(who, bool) or who not in st.active:
            return False
        if S.when is not None and not S.when(Ctx(st, who)):
            return False
        st.to_act = who
        return True

    def legal(self, st: State) -> list[int]:
        return [*self.S.actions]

    def apply(self, st: State, action: int) -> None:
        S = self.S
        st.chosen = {**st.chosen, S.name: S.options[action & _OPTION]}
        st.to_act = -1
        st._advance()


def settings_of(st: State, action: int) -> ChoiceSettings:
    """The decision a CHOOSE action answers."""
    index = (action & A.ARG) >> OPTION_BITS
    return next(S for S in st.R.choices.values() if S.index == index)


def text(st: State, action: int) -> str:
    """The option as said: its word (`words { … }`), else its name."""
    return settings_of(st, action).words[action & _OPTION]


def names(st: State, action: int) -> list[str]:
    """The spellings accepted besides the word: the option's name, and `NAME OPTION`."""
    S = settings_of(st, action)
    option = S.options[action & _OPTION]
    return [option, f"{S.name} {option}", f"{S.name} {S.words[action & _OPTION]}"]


def observe(st: State, obs: dict) -> None:
    """The decisions taken so far are said aloud: every seat sees them."""
    if st.chosen:
        obs["chosen"] = dict(st.chosen)
