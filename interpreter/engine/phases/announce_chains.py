"""The declaration round's kontra chains (phases/announce.py): the call a seat may make next on each chain.

Tracked chains. Where `kontra.when` decides the opening of each figure's chain from the contract and the
figure alone (its plan is () or None for every figure: PerContract.tracked), the call a chain on a
declared figure allows next reads nothing but what has been said on it, who declared the figure and the
sides, none of which a seat's turn changes. The round then keeps, per figure, the call a seat of each side
may make next on its chain (AnnounceState.entries), brought up to date when a figure is declared or a
call is said on its chain (track()), so that listing a seat's choices reads them instead of walking the
chains. The game's side-wide chain, once opened, is tracked the same way (its opening call is judged
when a seat's choices are listed, since `kontra.when` may read the state there), and so is the game's
side (game_side()), which only a declaration changes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.phases.announce_plans import GAME_CODE, GAME_KEY, PerContract, kontra_action

if TYPE_CHECKING:
    from interpreter.engine.phases.announce_state import AnnounceState
    from interpreter.engine.state import State


def _side_of(st: State, seat: int) -> tuple[int, ...]:
    return st.declarers if seat in st.declarers else st.defenders


def game_side(st: State) -> tuple[int, ...]:
    """The side whose terms the game is: the declaring side, unless the other side declared a multiplier."""
    declared = st.announce.declared
    if not declared:
        return st.declarers
    for name in st.R.announce.multipliers:
        seat = declared.get(name)
        if seat is not None and seat not in st.declarers:
            return st.defenders
    return st.declarers


class _Turn:
    """What listing one seat's choices shares: one activation (made on first need), and a memo of the
    parts of `kontra.when` that do not read the item."""
    __slots__ = ("st", "me", "c", "memo")

    def __init__(self, st: State, me: int, c: Ctx | None = None):
        self.st, self.me, self.c = st, me, c
        self.memo: dict | None = None   # made on first need

    def opens(self, item: Any, plan: tuple | None) -> bool:
        """`kontra.when` for the chain on `item` (its plan for the contract and item)."""
        if plan is None:
            return False
        if not plan:
            return True
        c = self.c
        if c is None:
            c = self.c = Ctx(self.st, self.me)
        c.vars["item"] = item
        cond = self.st.R.announce.opens_if
        assert cond is not None
        memo = self.memo
        if memo is None:
            memo = self.memo = {}
        return cond.holds(c, plan, memo)


def _next_level(st: State, me: int, said: tuple[int, ...], item_side: tuple[int, ...] | None) -> int:
    """The level `me` may say next in a side-wide chain where `said` has been said, 0 if none; a chain
    not yet opened gives -1 when `me` is not on the item's side (`item_side`, None: the game's side):
    then `kontra.when` decides."""
    n = len(said)
    S = st.R.announce
    if n >= S.max:
        return 0
    if n and S.answered:
        return n + 1 if me not in _side_of(st, said[-1]) else 0
    if me in (game_side(st) if item_side is None else item_side):
        return 0
    return n + 1 if n else -1


def _personal_level(st: State, me: int, owner: int, other: int, name: str) -> int:
    """As _next_level, for the personal chain between `owner` and `other` on the game `name`."""
    said = st.announce.chains.get((name, owner, other), ())
    if len(said) >= st.R.announce.max:
        return 0
    if not said:
        return -1 if me == other else 0
    return len(said) + 1 if me == (owner if said[-1] == other else other) else 0


def _figure_calls(st: State, turn: _Turn, pc: PerContract, out: list[int]) -> None:
    """The calls on the chains of the declared figures, each chain judged now."""
    S = st.R.announce
    an = st.announce
    chains = an.chains
    declared = an.declared
    me = turn.me
    mx = S.max
    answered = S.answered
    declarers = st.declarers
    me_decl = me in declarers      # `me in` a side: the declaring side, else the defending side
    me_def = me in st.defenders
    for name, key, ref, plan, calls in view_of(an, pc).chains:
        said = chains.get(key)
        if said:
            n = len(said)
            if n >= mx:
                continue
            if answered:
                if me_decl if said[-1] in declarers else me_def:
                    continue
            elif me_decl if declared[name] in declarers else me_def:
                continue
            out.append(calls[n])
        elif (mx > 0 and not (me_decl if declared[name] in declarers else me_def) and plan is not None
              and (not plan or turn.opens(ref, plan))):
            out.append(calls[0])


def view_of(an: AnnounceState, pc: PerContract) -> Any:
    """The round's Declared (announce_plans.py) for the figures declared now: the one the round keeps
    (start and apply set it), else looked up; never written here, since legal_actions() changes nothing."""
    view = an.view
    if view is None or view.count != len(an.declared):
        view = pc.view(an.declared)
    return view


def start_tracking(st: State, an: AnnounceState, pc: PerContract) -> None:
    """Track the chains as the round starts (see the module's doc), the figures declared for the
    declarer among them; AnnounceState.entries None: not tracked."""
    an.entries = None
    if pc.tracked:
        an.entries = pc.blank + (st.declarers, 0)
        for name in an.declared:
            track(st, an, pc, st.R.announce.figure_index[name], True)


def track(st: State, an: AnnounceState, pc: PerContract, index: int, declared: bool = False) -> None:
    """Bring the tracked chains up to date (see the module's doc) after a call on the chain on figure
    `index` (-1: the game's side-wide chain), or (`declared`) after that figure's declaration: then the
    game's side and the number of figures declared too, and the game's chain once it is opened and
    called by one side (the declaration may give the game to the other side's terms)."""
    S = st.R.announce
    t = an.entries
    assert t is not None
    said: tuple | None
    if index < 0:
        said = an.chains[GAME_KEY]
        n = len(said)
        call = pc.game_calls[n] if n < S.max else 0
        by_declarers = said[-1] in st.declarers if S.answered else t[-2] == st.declarers
    else:   # the side that may not call: the last caller's, else the figure's
        name, key, _ref, plan, calls = pc.figure_chains[index]
        said = an.chains.get(key)
        if said:
            n = len(said)
            call = calls[n] if n < S.max else 0
            by_declarers = (said[-1] if S.answered else an.declared[name]) in st.declarers
        else:
            call = calls[0] if S.max > 0 and plan is not None else 0
            by_declarers = an.declared[name] in st.declarers
    j = 2 * index + 2
    if not declared:
        an.entries = t[:j] + ((call, 0) if by_declarers else (0, call)) + t[j + 2:]
        return
    an.entries = (t[:j] + ((call, 0) if by_declarers else (0, call)) + t[j + 2:-2]
                  + (game_side(st) if S.figures[index].multiplier else t[-2], len(an.declared)))
    if not S.answered and GAME_KEY in an.chains:
        track(st, an, pc, -1)


_GAME_OPEN = kontra_action(GAME_CODE, 1)
