"""The declaration round's kontra chains (phases/announce.py): the call a seat may make next on each chain.

Tracked chains. Where `kontra.when` decides the opening of each figure's chain from the contract and the
figure alone (its plan is () or None for every figure: PerContract.tracked), the call a chain on a
declared figure allows next reads nothing but what has been said on it, who declared the figure and the
sides, none of which a seat's turn changes. The round then keeps, per figure, the call a seat of each side
may make next on its chain (AnnounceState.entries), and those calls in the figures' order per side
(AnnounceState.calls), brought up to date when a figure is declared or a call is said on its chain
(track()), so that listing a seat's choices reads them instead of walking the chains.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.context import Ctx
from interpreter.engine.figures import GAME
from interpreter.engine.phases.announce_plans import GAME_CODE, PerContract, kontra_action, per_contract

if TYPE_CHECKING:
    from interpreter.engine.phases.announce import AnnounceState
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


def kontra_options(st: State, me: int) -> list[int]:
    """Every kontra-chain call `me` may make now."""
    out: list[int] = []
    if st.R.announce.kontra:
        kontras(st, me, None, per_contract(st), out)
    return out


def kontras(st: State, me: int, c: Ctx | None, pc: PerContract, out: list[int]) -> None:
    """Append every kontra-chain call `me` may make now to `out` (the round has kontras; `c`: an activation
    for `me` if one was made)."""
    S = st.R.announce
    an = st.announce
    turn = None
    if an.personal:
        turn = _Turn(st, me, c)
        _personal_calls(st, turn, out)
    else:
        said = an.chains.get(_GAME_KEY) if an.chains else None
        if said:
            level = _next_level(st, me, said, None)
            if level:
                out.append(kontra_action(GAME_CODE, level))
        elif S.max > 0 and me not in (game_side(st) if an.declared else st.declarers):
            plan = pc.game_plan     # not opened: the side opposite the game's side may, as `when` says
            if plan is not None:
                if plan:
                    if c is None:
                        c = Ctx(st, me)
                    c.vars["item"] = st.contract
                    cond = S.opens_if
                    assert cond is not None
                    if cond.judge(c, plan):
                        out.append(_GAME_OPEN)
                else:
                    out.append(_GAME_OPEN)
    if S.items and an.declared:
        calls = an.calls
        if calls is not None and calls[0] == len(an.declared):
            if me in st.declarers:
                out += calls[2]
                return
            if me in st.defenders:
                out += calls[1]
                return
        _figure_calls(st, turn or _Turn(st, me, c), pc, out)


def _personal_calls(st: State, turn: _Turn, out: list[int]) -> None:
    """The calls on the personal chains of each game in play."""
    S = st.R.announce
    chains = st.announce.chains
    me = turn.me
    for code, owner, name, item, plan, opening in st.announce.games:
        if me != owner:         # the chain between the game's declarer and me
            said = chains.get((name, owner, me)) if chains else None
            if not said:
                if S.max > 0 and turn.opens(item, plan):
                    out.append(opening[me])
                continue
            level = _personal_level(st, me, owner, me, name)
            if level:
                out.append(kontra_action(code, level, me, False))
            continue
        for other in st.active:
            if other == owner:
                continue
            level = _personal_level(st, me, owner, other, name)
            if level > 0:
                out.append(kontra_action(code, level, other, True))


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


def track(st: State, an: AnnounceState, pc: PerContract, index: int = -1) -> None:
    """Bring the tracked chains up to date (see the module's doc) after a figure (its index) was declared
    or a call said on its chain; -1: the round starts, with the figures declared for the declarer."""
    if not pc.tracked:
        return
    if index < 0:
        blank = (0,) * len(pc.figure_chains)
        entries: tuple = (blank, blank)
        for name in an.declared:
            entries = _entry(st, an, pc, st.R.announce.figure_index[name], entries)
    else:
        entries = _entry(st, an, pc, index, an.entries)
    an.entries = entries
    an.calls = (len(an.declared), tuple(filter(None, entries[0])), tuple(filter(None, entries[1])))


def _entry(st: State, an: AnnounceState, pc: PerContract, i: int, entries: tuple) -> tuple:
    """`entries` with the call a defender and a declarer may make next on figure i's chain (0: none)."""
    name, key, _ref, plan, calls = pc.figure_chains[i]
    said = an.chains.get(key)
    n = len(said) if said else 0
    call = 0 if n >= st.R.announce.max or not n and plan is None else calls[n]
    by = said[-1] if said and st.R.announce.answered else an.declared[name]    # the side that may not call
    for_def, for_decl = entries
    if by in st.declarers:
        return for_def[:i] + (call,) + for_def[i + 1:], for_decl[:i] + (0,) + for_decl[i + 1:]
    return for_def[:i] + (0,) + for_def[i + 1:], for_decl[:i] + (call,) + for_decl[i + 1:]


_GAME_KEY = (GAME, -1, -1)
_GAME_OPEN = kontra_action(GAME_CODE, 1)
