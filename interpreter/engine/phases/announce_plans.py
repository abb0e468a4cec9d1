"""The declaration round's action codes, and what its conditions leave to judge under each contract
(phases/announce.py reads these; the plans come from phases/conditions.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine.figures import GAME
from interpreter.engine.phases.base import ALWAYS
from interpreter.engine.phases.conditions import split_common

if TYPE_CHECKING:
    from interpreter.engine.phases.announce_state import AnnounceSettings
    from interpreter.engine.state import State

GAME_CODE, BASE_CODE, FIGURE_CODE = 0, 1, 2     # item codes in an ITEM_KONTRA action
# ANNOUNCE arguments: 0 = pass (a turn without statements), 1 + i = declare figure i, and the two other
# ends of a turn; each action has one spelling whatever the state
PASS, DONE, OPEN = 0, 1 << 16, (1 << 16) | 1
GAME_KEY = (GAME, -1, -1)                       # the chain key of the game's side-wide chain
BY_OWNER = 1 << 24                              # ITEM_KONTRA flag: a personal chain's call by the game's declarer


# what the declaration round cannot change, read by a rule expression: the built-in values and functions
# that read only the deal, the contract and the sides (engine/builtins.py; the round writes its own state,
# the seat to act and whether the declaring side is public), and the seat roles. A part of `declare` or
# `kontra.when` that reads no more is judged once per seat in the round (phases/conditions.py STEADY).
ROUND_VALUES = frozenset({"dealer", "declarer", "me", "seats", "players", "active", "defenders", "declarers",
                          "deal_number", "contract", "trump", "honours", "called_card", "base_bidder",
                          "base_contract", "given_up"})
ROUND_FUNCTIONS = frozenset({"next", "prev", "order", "partner_of", "opponents_of", "holds", "dealt", "count_in",
                             "min", "max", "abs", "floor", "ceil", "size", "suit_of"})
ROUND_READS = (ROUND_VALUES, ROUND_FUNCTIONS)


def kontra_action(code: int, level: int, other: int = -1, by_owner: bool = False) -> int:
    return A.make(A.ITEM_KONTRA, (BY_OWNER if by_owner else 0) | code << 16 | (other + 1) << 8 | level)


def unpack(arg: int) -> tuple[int, int, int]:
    """(item code, level, other seat or -1) of an ITEM_KONTRA argument."""
    return arg >> 16 & 0xFF, arg & 0xFF, (arg >> 8 & 0xFF) - 1


class PerContract:
    """What the declaration round's conditions leave to judge under one contract (made once per rule set
    and contract): the figures it lists with `declare`'s plan for each, and `kontra.when`'s plans."""
    __slots__ = ("declarable", "common", "figure_opens", "game_opens", "con", "S", "when", "personal", "kontra",
                 "all_left", "simple", "views", "game_plan", "figure_chains", "tracked",
                 "game_calls", "chain_of", "one_part", "name", "must_declare", "started", "blank")

    def __init__(self, S: AnnounceSettings, con: Any, listed: tuple[str, ...]):
        self.S, self.con = S, con           # `listed`: the figures the contract lists
        cond = S.declare_if
        self.declarable: tuple = ()
        self.one_part: dict = {}
        self.common: tuple = ()         # the conjuncts of `declare` that hold for every figure or none
        if cond is not None:
            figs, plans = [], []
            for fig in S.figures:
                plan = cond.plan({"contract": con, "item": fig.ref}) if fig.name in listed else None
                if plan is not None:
                    figs.append(fig)
                    plans.append(plan)
            self.common, rest = split_common(plans)
            # (name, the figure if only its card's holder may declare it, its `allowed`, ref, plan, action)
            self.declarable = tuple((fig.name, fig if fig.by_holder else None, fig.allowed, fig.ref, plan,
                                     A.make(A.ANNOUNCE, 1 + fig.index)) for fig, plan in zip(figs, rest))
        # a plan of one part judged once per activation → that part (Declared.runs)
        self.one_part = {plan: plan[0][0][1] for plan in {e[4] for e in self.declarable}
                         if len(plan) == 1 and len(plan[0]) == 1 and plan[0][0][2] is True}
        self.figure_opens = [self.opens_plan(fig.ref) for fig in S.figures]
        # each figure's entry of Declared.chains, in the figures' order
        levels = range(1, max(S.max, 1) + 1)
        self.figure_chains = tuple((f.name, (f.name, -1, -1), f.ref, self.figure_opens[f.index],
                                    tuple(kontra_action(FIGURE_CODE + f.index, n) for n in levels))
                                   for f in S.figures)
        self.game_calls = tuple(kontra_action(GAME_CODE, n) for n in levels)    # the side-wide game chain's
        # `kontra.when` opens each figure's chain or not whatever the state: the round tracks the chains
        # (phases/announce_chains.py)
        self.tracked = S.kontra and S.items and all(not plan for plan in self.figure_opens)
        # a side-wide chain's call → (the chain's key, its figure's index or -1: the game's), for its apply
        self.chain_of = {call: (key, f.index) for f, (_n, key, _r, _p, calls) in zip(S.figures, self.figure_chains)
                         for call in calls}
        self.chain_of.update((call, (GAME_KEY, -1)) for call in self.game_calls)
        # the round's `when` and `kontra.personal` (a plan; () when the rule file leaves them out)
        self.when = S.when_if.plan({"contract": con}) if S.when_if is not None else ()
        self.personal = (S.personal_if.plan({"contract": con}) if S.personal_if is not None
                         else () if S.personal is ALWAYS else None)
        self.game_opens: dict = {}
        self.kontra = S.kontra
        self.game_plan = self.game(con)         # `kontra.when`'s plan for the chain on this contract's game
        # frozenset of the figures declared → its Declared (at most one per set of the figures it lists)
        self.views: dict = {}
        self.all_left = tuple(e[1:] for e in self.declarable)     # nothing declared yet
        # set by per_contract(): the contract's name, the figures it declares for the declarer as the round
        # opens (`must_declare`, those of the rule set), AnnounceState.games per (declarer, base bidder, base
        # contract) (announce.py _games), and AnnounceState.entries as the round opens (start_tracking)
        self.name: str = ""
        self.must_declare: tuple[str, ...] = ()
        self.started: dict = {}
        self.blank: tuple = ()
        # no figure limited to its card's holder or with an `allowed`, and no part of `declare` left that
        # reads the item: each figure's verdict is its plan's over parts judged once per turn (see runs)
        self.simple = all(e[1] is None and e[2] is None and all(sh for conj in e[4] for _k, _f, sh in conj)
                          for e in self.declarable)

    def view(self, declared: dict) -> Declared:
        """What the round reads of the figures declared so far (made once per set of declared figures)."""
        key = frozenset(declared)
        try:
            return self.views[key]
        except KeyError:
            out = self.views[key] = Declared(self, key)
            return out

    def opens_plan(self, item: Any) -> tuple | None:
        """The plan of `kontra.when` for the chain on `item` (() when there is no `when`)."""
        cond = self.S.opens_if
        return () if cond is None else cond.plan({"contract": self.con, "item": item})

    def game(self, item: Any) -> tuple | None:
        try:
            return self.game_opens[item]
        except KeyError:
            plan = self.game_opens[item] = self.opens_plan(item)
            return plan


class Declared:
    """One contract's round with one set of figures declared: `left`, the entries of `declarable` for the
    figures not yet declared; for a `simple` contract `runs`, their actions in order as runs of neighbours
    with the same plan: ((plan, actions, its one part), …), the part a plan of one part judged once per
    activation leaves (called at once), else None; `chains`, the chains on the declared figures in the figures'
    order: (name, chain key, ref, plan of `kontra.when`, the call of each level, the opening call first)
    each. The round keeps its current one (AnnounceState.view) and moves on to the next when a figure is
    declared."""
    __slots__ = ("count", "left", "runs", "chains")

    def __init__(self, pc: PerContract, key: frozenset):
        self.count = len(key)
        self.left = pc.all_left if not key else tuple(e[1:] for e in pc.declarable if e[0] not in key)
        runs: list = []
        for _holder, _allowed, _ref, plan, action in self.left:
            if runs and runs[-1][0] == plan:
                runs[-1] = (plan, runs[-1][1] + (action,), runs[-1][2])
            else:
                runs.append((plan, (action,), pc.one_part.get(plan)))
        self.runs = tuple(runs)
        self.chains = tuple(e for e in pc.figure_chains if e[0] in key) if key else ()


def per_contract(st: State) -> PerContract:
    S = st.R.announce
    con = st.contract
    pc = S.by_contract.get(con)
    if pc is None:
        rt = st._con
        model = st.R.rs.game.contracts[rt.name] if rt is not None else None
        pc = S.by_contract[con] = PerContract(S, con, model.figures if model is not None else ())
        if rt is not None:
            pc.name = rt.name
            figures = st.R.figures
            pc.must_declare = tuple(n for n in model.must_declare if n in figures)  # type: ignore[union-attr]
        pc.blank = (0,) * (2 * len(pc.figure_chains) + 2)
    return pc
