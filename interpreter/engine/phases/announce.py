"""The declaration round: figures declared, and kontra chains on each item (the game and every
declared figure), each chain standing apart from the others.

    announce {
      first = declarer            # who opens the round; his first turn is no pass
      opener = "I am ready"       # the word that ends the opener's first turn
      passes = 3                  # the round ends after this many passes in a row
      declare = …                 # may `me` declare the figure `item` now?
      kontra { levels = [kontra, rekontra, subkontra]  max = 3  when = …  personal = … }
    }

A turn is any number of statements (declare a figure, say the next level of a chain) closed by one
end-of-turn action: the opener's word on his first turn, `pass` when nothing was said, else `done`.
Only a turn without statements counts as a pass (the opener's first turn never does), and a pass
does not stop a seat from speaking on a later turn.

Chains. Side-wide (the default): the side opposite the item's side opens it and the sides answer in
turn up to `max` calls. The item's side is the side of the seat that declared a figure, and for the
game the declaring side, unless the other side has declared a figure that multiplies the game
(`multiplier`): then the game's terms are theirs, and the declaring side opens its chain. `when`
judges the opening call of a chain (`me`, `item` bound): who may open a chain on which item.
Personal (`personal` true for the contract): each game (the declarer's, and with a joining call the
base bidder's too) has one chain per opponent, opened by that opponent, answered by the game's
declarer only and answered back by that opponent only (contra ad personam).

Figures a contract names in `must_declare` are the declarer's to declare: at his first turn they are
his only legal statements, one after the other, until he has declared them all (then he may declare
more and end his turn as usual); nobody else may declare them. The declaration is his own action, in
the log and at the table like any other.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import interpreter.engine.builtins as B
from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.context import Ctx
from interpreter.engine.figures import FigureRT, card_of
from interpreter.engine.phases.base import ALWAYS, NEVER, Phase
from interpreter.engine.phases.conditions import Condition, condition, plan_holds
from interpreter.model.limits import DEFAULT_KONTRA_MAX

if TYPE_CHECKING:
    from collections.abc import Mapping

    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State
    from interpreter.model.phases import Announce

from interpreter.engine.phases.announce_chains import (
    _GAME_OPEN,
    _figure_calls,
    _next_level,
    _personal_level,
    _Turn,
    game_side,
    start_tracking,
    track,
    view_of,
)
from interpreter.engine.phases.announce_plans import (
    BASE_CODE,
    DONE,
    FIGURE_CODE,
    GAME_CODE,
    GAME_KEY,
    OPEN,
    PASS,
    ROUND_READS,
    PerContract,
    kontra_action,
    per_contract,
    unpack,
)
from interpreter.engine.phases.announce_state import AnnounceSettings, AnnounceState


def settings(an: Announce, lets: Mapping[str, Any], comp: Compiler, figures: dict[str, FigureRT]) -> AnnounceSettings:
    kt = an.kontra
    x = comp.text
    mx = kt.max if kt is not None else None
    S = AnnounceSettings(
        present=an.present, when=x(an.when) if an.when is not None else ALWAYS,
        first=x(an.first) if an.first is not None else None, opener=an.opener,
        passes=an.passes, declare=x(an.declare) if an.declare is not None else NEVER,
        kontra=kt is not None, levels=list(kt.levels if kt is not None else ("kontra",)),
        max=mx if isinstance(mx, int) and not isinstance(mx, bool) else DEFAULT_KONTRA_MAX,
        kontra_when=x(kt.when) if kt is not None and kt.when is not None else ALWAYS,
        personal=x(kt.personal) if kt is not None and kt.personal is not None else
        (ALWAYS if kt is not None and kt.scope == "personal" else NEVER),
        answered=(kt.by if kt is not None else "alternate") == "alternate",
        items=(kt.scope if kt is not None else None) != "game",
        figures=sorted(figures.values(), key=lambda f: f.index))
    if an.declare is not None:
        S.declare_if = condition(comp, an.declare, lets, ("contract", "item"), "item", ROUND_READS, _kept)
    if kt is not None and kt.when is not None:
        S.opens_if = condition(comp, kt.when, lets, ("contract", "item"), "item", ROUND_READS, _kept)
    if an.when is not None:
        S.when_if = condition(comp, an.when, lets, ("contract",), "")
    if kt is not None and kt.personal is not None:
        S.personal_if = condition(comp, kt.personal, lets, ("contract",), "")
    S.multipliers = tuple(f.name for f in S.figures if f.multiplier)
    S.ends_after = max(1, S.passes)
    S.figure_index = {f.name: i for i, f in enumerate(S.figures)}
    return S


def end_of_turn(st: State) -> int:
    """The action that ends the turn of the seat to act: the opener's word, `done` or `pass`."""
    an = st.announce
    return _OPEN_ACTION if an.opening else _DONE_ACTION if an.spoke else _PASS_ACTION


_OPEN_ACTION, _DONE_ACTION, _PASS_ACTION = (A.make(A.ANNOUNCE, a) for a in (OPEN, DONE, PASS))
_ENDS = frozenset((_PASS_ACTION, _DONE_ACTION, _OPEN_ACTION))    # the actions that end a turn
_SHIFT, _ARG, _ITEM_KONTRA = A.SHIFT, A.ARG, A.ITEM_KONTRA



def _kept(st: State) -> dict:
    """The parts judged in the round `st` is in (AnnounceState.kept: the state's own in the round)."""
    return st.announce.kept


def _judge(cond: Condition | None, plan: tuple | None, c: Ctx) -> bool:
    return plan is not None and (not plan or cond is not None and cond.holds(c, plan, {}))


def _game_item(pc: PerContract, con: Any) -> tuple:
    """A game's ref and the plan of `kontra.when` for the chain on it (None, None: no such contract)."""
    return (None, None) if con is None else (con.ref, pc.game(con.ref))


def _games(st: State, pc: PerContract, declarer: int, base_bidder: Any, base_contract: Any) -> tuple:
    """AnnounceState.games of a round under pc's contract with this declarer and base bid (the same for
    every such round: PerContract.started keeps it)."""
    games: list[tuple] = [(GAME_CODE, declarer, pc.name)]
    if base_bidder is not None and base_contract is not None:
        games.append((BASE_CODE, base_bidder, str(base_contract)))
    con_refs = st.R.contracts
    return tuple((code, owner, name, *_game_item(pc, con_refs.get(name)),
                  tuple(kontra_action(code, 1, s, False) for s in range(st.n))) for code, owner, name in games)


class AnnouncePhase(Phase):
    name = "announce"

    def start(self, st: State) -> bool:
        S = st.R.announce
        con, declarer = st._con, st._declarer      # (behind the properties `con` and `declarer`)
        if not S.present or con is None or declarer is None:
            return False
        pc = per_contract(st)
        if pc.when is None:             # the round's `when` fails under this contract whatever the state
            return False
        c = Ctx(st)
        if not _judge(S.when_if, pc.when, c):
            return False
        an = st.announce = st.announce.copy()   # the state's own (a blank is shared before the round)
        an.pc = pc
        an.personal = _judge(S.personal_if, pc.personal, c)
        VALUES = B.VALUES
        base_bidder = VALUES["base_bidder"](c) if "base_bidder" in VALUES else None
        base_contract = VALUES["base_contract"](c) if "base_contract" in VALUES else None
        key = (declarer, base_bidder, base_contract)
        games = pc.started.get(key)
        if games is None:
            games = pc.started[key] = _games(st, pc, declarer, base_bidder, base_contract)
        an.games = games
        an.view = pc.view(an.declared)
        start_tracking(st, an, pc)
        first = S.first(c) if S.first is not None else declarer
        st.to_act = first if first in st.active else declarer
        an.opening, an.spoke, an.in_row = True, False, 0
        return True

    def legal(self, st: State) -> list[int]:
        me = st.to_act
        an = st.announce
        pc = an.pc
        if pc is None:
            pc = per_contract(st)
        owed = _owed(st, pc) if pc.must_declare else ()
        if owed:
            if me == st._declarer:      # the bid figures first, his own statements (must_declare)
                return [owed[0]]
            return [a for a in self._legal(st, me, an, pc) if a not in owed]
        return self._legal(st, me, an, pc)

    def _legal(self, st: State, me: int, an: AnnounceState, pc: PerContract) -> list[int]:
        out: list[int] = []
        c: Ctx | None = None
        if pc.declarable:
            view = an.view
            if view is None or view.count != len(an.declared):
                view = view_of(an, pc)
            if view.left:           # some figure the contract lists is not declared yet
                cond = st.R.announce.declare_if
                assert cond is not None
                if pc.simple:
                    c = Ctx(st, me)
                    memo0: dict = {}
                    common = pc.common
                    if not common or cond.holds(c, common, memo0):
                        for plan, acts, part in view.runs:
                            if not plan or (part(c) if part is not None else cond.holds(c, plan, memo0)):
                                out += acts
                else:
                    memo: dict = {}     # the parts of `declare` that do not read the item, judged once
                    common = pc.common
                    for holder, allowed, ref, plan, action in view.left:
                        if holder is not None:
                            card = card_of(st, holder)
                            if not (card >= 0 and st.hands[me] >> card & 1):
                                continue
                        if c is None:
                            c = Ctx(st, me)
                            vars_ = c.vars
                        vars_["item"] = ref
                        if allowed is not None and not allowed(c):
                            continue
                        if common:
                            if not cond.holds(c, common, memo):
                                break
                            common = ()
                        if not plan or cond.holds(c, plan, memo):
                            out.append(action)
        if pc.kontra:       # the kontra-chain calls `me` may make now (`kontra.when`'s plan for an opening
            # call judged at once in the activation, as conditions.plan_holds() judges it)
            chains = an.chains
            t = an.entries      # the chains tracked, for a seat on a side (its index in each entry)
            side = 1 if me in st.declarers else 0 if me in st.defenders else -1
            if t is not None and (side < 0 or t[-1] != len(an.declared)):
                t = None
            said = None
            if an.personal:     # each game's personal chains
                mx = st.R.announce.max
                for code, owner, name, item, plan, opening in an.games:
                    if me != owner:         # the chain between the game's declarer and me
                        said = chains.get((name, owner, me)) if chains else None
                        if not said:
                            if mx > 0 and plan is not None:
                                if plan:
                                    if c is None:
                                        c = Ctx(st, me)
                                    c.vars["item"] = item
                                    if plan_holds(c, plan):
                                        out.append(opening[me])
                                else:
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
                said = None
            elif not chains or not (said := chains.get(GAME_KEY)):
                # not opened: the side opposite the game's side may, as `when` says
                if st.R.announce.max > 0 and me not in (t[-2] if t is not None else game_side(st)):
                    plan = pc.game_plan
                    if plan:
                        if c is None:
                            c = Ctx(st, me)
                        c.vars["item"] = pc.con         # pc.con: the contract being played (per_contract)
                        if plan_holds(c, plan):
                            out.append(_GAME_OPEN)
                    elif plan is not None:
                        out.append(_GAME_OPEN)
            elif t is None:
                level = _next_level(st, me, said, None)
                if level:
                    out.append(kontra_action(GAME_CODE, level))
            if t is not None:
                if t[-1] or said:       # else nothing declared and the game's chain not opened: nothing to call
                    out.extend(filter(None, t[side:-2:2]))
            elif an.declared and st.R.announce.items:
                _figure_calls(st, _Turn(st, me, c), pc, out)
        out.append(_OPEN_ACTION if an.opening else _DONE_ACTION if an.spoke else _PASS_ACTION)
        return out

    def apply(self, st: State, action: int) -> None:
        me = st.to_act
        an = st.announce
        if action in _ENDS:     # the end of a turn (most actions: a pass)
            if an.spoke or an.opening:
                an.in_row = 0
            else:
                an.in_row += 1
                if me not in an.passed:
                    an.passed = an.passed + (me,)
            an.spoke = an.opening = False
            if an.in_row >= st.R.announce.ends_after:
                st.to_act = -1
                st._advance()
                return
            ring = st._seat_ring        # (st.seat_after(me), its table read here: `me` is a seat)
            st.to_act = ring[1][me] if ring[0] is st.active else st.seat_after(me)
            return
        arg = action & _ARG
        if action >> _SHIFT == _ITEM_KONTRA:
            pc = an.pc or per_contract(st)
            hit = pc.chain_of.get(action)       # a side-wide chain's call: (its key, its index in track())
            if hit is None or an.personal and hit[1] < 0:
                code, _level, other = unpack(arg)
                key = _chain_key(st, code, other)
                hit = None
            else:
                key = hit[0]
            chains = an.chains
            chains[key] = chains.get(key, ()) + (me,)
            if hit is not None and an.entries is not None:
                track(st, an, pc, hit[1])
        elif PASS < arg < DONE:     # a declaration
            fig = st.R.announce.figures[arg - 1]
            an.declared[fig.name] = me
            pc = an.pc or per_contract(st)
            an.view = pc.view(an.declared)
            if an.entries is not None:
                track(st, an, pc, fig.index, True)
        else:               # any other action ends the turn, as those above do
            self.apply(st, _PASS_ACTION)
            return
        an.spoke = True
        # a statement by the partner (a declaration or a kontra-chain call) shows the partnership to the
        # table (KR-ANN-18, KR-AMB-12)
        if me in st.declarers and me != st._declarer:
            sides.reveal(st)


def _owed(st: State, pc: PerContract) -> list[int]:
    """The declarations of the contract's `must_declare` figures the declarer has not made yet, in order."""
    declared = st.announce.declared
    index = st.R.announce.figure_index
    return [A.make(A.ANNOUNCE, 1 + index[name]) for name in pc.must_declare if name not in declared]


def _chain_key(st: State, code: int, other: int) -> tuple:
    an = st.announce
    if code >= FIGURE_CODE:
        return (st.R.announce.figures[code - FIGURE_CODE].name, -1, -1)
    if an.personal:
        for c, owner, name, _ref, _plan, _opening in an.games:
            if c == code:
                return (name, owner, other)
    return GAME_KEY


def max_actions(R: Any) -> int:
    """The most actions one declaration round can take: every figure declared once, every chain called
    to its end (each call in a turn of its own), and a full round of passes after each statement."""
    S = R.announce
    if not S.present:
        return 0
    seats = R.n_seats
    chains = len(S.figures) + 2 * seats if S.kontra else 0
    statements = len(S.figures) + chains * (S.max if S.kontra else 0)
    return statements * (seats + 1) + seats + 1
