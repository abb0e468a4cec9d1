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

Figures a contract names in `must_declare` are declared for the declarer when the round opens.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.context import Ctx
from interpreter.engine.figures import GAME, FigureRT, allowed, card_of
from interpreter.engine.phases.base import ALWAYS, NEVER, Phase
from interpreter.model.limits import DEFAULT_KONTRA_MAX

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.state import State

GAME_CODE, BASE_CODE, FIGURE_CODE = 0, 1, 2     # item codes in an ITEM_KONTRA action
# ANNOUNCE arguments: 0 = pass (a turn without statements), 1 + i = declare figure i, and the two other
# ends of a turn; each action has one spelling whatever the state
PASS, DONE, OPEN = 0, 1 << 16, (1 << 16) | 1
BY_OWNER = 1 << 24                              # ITEM_KONTRA flag: a personal chain's call by the game's declarer


@dataclass
class AnnounceSettings:
    present: bool
    when: Any
    first: Any | None
    opener: str
    passes: int
    declare: Any
    kontra: bool                    # kontras may be said at all
    levels: list[str]
    max: int
    kontra_when: Any
    personal: Any
    answered: bool                  # `by = alternate`: the sides answer in turn; else the other side says every call
    items: bool = True              # `scope = game`: only the game has a chain, the figures none
    figures: list[FigureRT] = field(default_factory=list)


def settings(doc: dict, comp: Compiler, figures: dict[str, FigureRT]) -> AnnounceSettings:
    an = doc.get("announce") or {}
    kt = an.get("kontra")
    x = comp.text
    mx = (kt or {}).get("max")
    return AnnounceSettings(
        present="announce" in doc, when=x(an["when"]) if "when" in an else ALWAYS,
        first=x(an["first"]) if "first" in an else None, opener=str(an.get("opener") or "ready"),
        passes=int(an.get("passes", 3)), declare=x(an["declare"]) if "declare" in an else NEVER,
        kontra=kt is not None, levels=list((kt or {}).get("levels", ["kontra"])),
        max=mx if isinstance(mx, int) and not isinstance(mx, bool) else DEFAULT_KONTRA_MAX,
        kontra_when=x(kt["when"]) if kt and "when" in kt else ALWAYS,
        personal=x(kt["personal"]) if kt and "personal" in kt else
        (ALWAYS if (kt or {}).get("scope") == "personal" else NEVER),
        answered=(kt or {}).get("by", "alternate") == "alternate", items=(kt or {}).get("scope") != "game",
        figures=sorted(figures.values(), key=lambda f: f.index))


def absent() -> AnnounceSettings:
    """The settings of a rule file without a declaration round."""
    return AnnounceSettings(False, NEVER, None, "ready", 3, NEVER, False, ["kontra"], DEFAULT_KONTRA_MAX, NEVER,
                            NEVER, True)


@dataclass
class AnnounceState:
    declared: dict[str, int] = field(default_factory=dict)     # figure -> the seat that declared it
    # (item, owner, other) -> the seats that said each call; side-wide chains have owner = other = -1,
    # item = the figure's name or GAME; personal chains name the game's contract and the two seats
    chains: dict[tuple, tuple[int, ...]] = field(default_factory=dict)
    in_row: int = 0                     # passes in a row
    spoke: bool = False                 # the seat to act has said something this turn
    opening: bool = False               # the opener's first turn is under way
    personal: bool = False
    games: tuple = ()                   # (item code, owner seat, contract name) of each game in play
    passed: tuple[int, ...] = ()        # seats that have passed at least once in the round
    given: dict | None = None           # an outcome-only deal: the figures made and attempted, by side

    def copy(self) -> AnnounceState:
        return AnnounceState(dict(self.declared), dict(self.chains), self.in_row, self.spoke, self.opening,
                             self.personal, self.games, self.passed, self.given)


def kontra_action(code: int, level: int, other: int = -1, by_owner: bool = False) -> int:
    return A.make(A.ITEM_KONTRA, (BY_OWNER if by_owner else 0) | code << 16 | (other + 1) << 8 | level)


def unpack(arg: int) -> tuple[int, int, int]:
    """(item code, level, other seat or -1) of an ITEM_KONTRA argument."""
    return arg >> 16 & 0xFF, arg & 0xFF, (arg >> 8 & 0xFF) - 1


def end_of_turn(st: State) -> int:
    """The action that ends the turn of the seat to act: the opener's word, `done` or `pass`."""
    an = st.announce
    return A.make(A.ANNOUNCE, OPEN if an.opening else DONE if an.spoke else PASS)


def _side_of(st: State, seat: int) -> tuple[int, ...]:
    return st.declarers if seat in st.declarers else st.defenders


def _game_side(st: State) -> tuple[int, ...]:
    """The side whose terms the game is: the declaring side, unless the other side declared a multiplier."""
    an = st.announce
    for fig in st.R.announce.figures:
        seat = an.declared.get(fig.name)
        if fig.multiplier and seat is not None and seat not in st.declarers:
            return st.defenders
    return st.declarers


def _opens(st: State, me: int, item: Any) -> bool:
    c = Ctx(st, me)
    c.vars["item"] = item
    return bool(st.R.announce.kontra_when(c))


def _next_level(st: State, me: int, key: tuple, item: Any, item_side: tuple[int, ...]) -> int:
    """The level `me` may say next in the chain `key`, 0 if none."""
    S = st.R.announce
    said = st.announce.chains.get(key, ())
    if len(said) >= S.max:
        return 0
    if not said:
        return 1 if me not in item_side and _opens(st, me, item) else 0
    if not S.answered:                      # every call by the side against the item
        return len(said) + 1 if me not in item_side else 0
    last_side = _side_of(st, said[-1])
    return len(said) + 1 if me not in last_side else 0


def _personal_level(st: State, me: int, owner: int, other: int, name: str, item: Any) -> int:
    said = st.announce.chains.get((name, owner, other), ())
    if len(said) >= st.R.announce.max:
        return 0
    if not said:
        return 1 if me == other and _opens(st, me, item) else 0
    return len(said) + 1 if me == (owner if said[-1] == other else other) else 0


def kontra_options(st: State, me: int) -> list[int]:
    """Every kontra-chain call `me` may make now."""
    S = st.R.announce
    an = st.announce
    if not S.kontra:
        return []
    out = []
    con_refs = st.R.contracts
    if an.personal:
        for code, owner, name in an.games:
            item = con_refs[name].ref
            others = [me] if me != owner else [s for s in st.active if s != owner]
            for other in others:
                if other == owner:
                    continue
                level = _personal_level(st, me, owner, other, name, item)
                if level:
                    out.append(kontra_action(code, level, other, me == owner))
    else:
        level = _next_level(st, me, (GAME, -1, -1), st.contract, _game_side(st))
        if level:
            out.append(kontra_action(GAME_CODE, level))
    for fig in S.figures if S.items else ():
        seat = an.declared.get(fig.name)
        if seat is None:
            continue
        level = _next_level(st, me, (fig.name, -1, -1), fig.ref, _side_of(st, seat))
        if level:
            out.append(kontra_action(FIGURE_CODE + fig.index, level))
    return out


def _reveal(st: State, seat: int) -> None:
    """A statement by the partner (a declaration or a kontra-chain call) shows the partnership to the
    table (KR-ANN-18, KR-AMB-12)."""
    if seat in st.declarers and seat != st.declarer:
        sides.reveal(st)


class AnnouncePhase(Phase):
    name = "announce"

    def start(self, st: State) -> bool:
        S = st.R.announce
        if not S.present or st.con is None or st.declarer is None:
            return False
        c = Ctx(st)
        if not S.when(c):
            return False
        an = st.announce
        an.personal = bool(S.personal(c))
        from interpreter.engine.builtins import VALUES
        games: list[tuple] = [(GAME_CODE, st.declarer, st.con.name)]
        base_bidder = VALUES["base_bidder"](c) if "base_bidder" in VALUES else None
        base_contract = VALUES["base_contract"](c) if "base_contract" in VALUES else None
        if base_bidder is not None and base_contract is not None:
            games.append((BASE_CODE, base_bidder, str(base_contract)))
        an.games = tuple(games)
        for name in st.con.ref.rec.get("must_declare") or ():
            if str(name) in st.R.figures:
                an.declared.setdefault(str(name), st.declarer)
        first = S.first(c) if S.first is not None else st.declarer
        st.to_act = first if first in st.active else st.declarer
        an.opening, an.spoke, an.in_row = True, False, 0
        return True

    def legal(self, st: State) -> list[int]:
        me = st.to_act
        S = st.R.announce
        an = st.announce
        out = []
        c = Ctx(st, me)
        for fig in S.figures:
            if fig.name in an.declared:
                continue
            c.vars["item"] = fig.ref
            card = card_of(st, fig) if fig.by_holder else -1
            if fig.by_holder and not (card >= 0 and st.hands[me] >> card & 1):
                continue
            if allowed(c, fig) and S.declare(c):
                out.append(A.make(A.ANNOUNCE, 1 + fig.index))
        out += kontra_options(st, me)
        out.append(end_of_turn(st))
        return out

    def apply(self, st: State, action: int) -> None:
        me = st.to_act
        an = st.announce
        kind, arg = A.kind_of(action), A.arg_of(action)
        if kind == A.ITEM_KONTRA:
            code, level, other = unpack(arg)
            key = _chain_key(st, code, other)
            an.chains[key] = an.chains.get(key, ()) + (me,)
            an.spoke = True
            _reveal(st, me)
            return
        if PASS < arg < DONE:
            fig = st.R.announce.figures[arg - 1]
            an.declared[fig.name] = me
            an.spoke = True
            _reveal(st, me)
            return
        # the end of a turn
        if an.spoke or an.opening:
            an.in_row = 0
        else:
            an.in_row += 1
            if me not in an.passed:
                an.passed = an.passed + (me,)
        an.spoke = an.opening = False
        if an.in_row >= max(1, st.R.announce.passes):
            st.to_act = -1
            st._advance()
            return
        st.to_act = st.seat_after(me)


def _chain_key(st: State, code: int, other: int) -> tuple:
    an = st.announce
    if code >= FIGURE_CODE:
        return (st.R.announce.figures[code - FIGURE_CODE].name, -1, -1)
    if an.personal:
        for c, owner, name in an.games:
            if c == code:
                return (name, owner, other)
    return (GAME, -1, -1)


def item_name(st: State, code: int) -> str:
    if code >= FIGURE_CODE:
        return st.R.announce.figures[code - FIGURE_CODE].name
    for c, _owner, name in st.announce.games:
        if c == code:
            return name
    return st.con.name if st.con is not None else "game"


def text(st: State, action: int) -> str:
    """The one spelling of a declaration-round action."""
    R = st.R
    S = R.announce
    W = R.words
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.ITEM_KONTRA:
        code, level, other = unpack(arg)
        word = S.levels[level - 1] if level <= len(S.levels) else f"{S.levels[-1]} {level}"
        out = f"{word} {item_name(st, code)}"
        if other >= 0 and arg & BY_OWNER:
            out += f" @{other}"
        return out
    if arg == OPEN:
        return S.opener
    if arg == DONE:
        return W.get("done", "done")
    if arg == PASS:
        return W["pass"]
    return f"{W['declare']} {S.figures[arg - 1].name}"


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


def summary(st: State) -> list[str]:
    """The declaration round as the table saw it: the figures declared and the calls of each chain."""
    an = st.announce
    S = st.R.announce
    out = []
    if an.declared:
        out.append("declared: " + ", ".join(f"{name} (seat {seat})" for name, seat in an.declared.items()))
    calls = []
    for (item, owner, other), said in an.chains.items():
        if not said:
            continue
        word = S.levels[len(said) - 1] if len(said) <= len(S.levels) else f"{S.levels[-1]} {len(said)}"
        name = st.con.name if item == GAME and st.con is not None else item
        pair = f" (seats {owner} and {other})" if owner >= 0 else ""
        calls.append(f"{name} {word}{pair}")
    if calls:
        out.append("kontras: " + ", ".join(calls))
    return out
