"""Playing the cards: the first lead, obligations as filters over the hand (phases/play_obligations.py),
tricks, early end, negotiation."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import deals, sides
from interpreter.engine.cards import BIT, bits, mask_of
from interpreter.engine.context import Ctx
from interpreter.engine.phases import dummy, play_extras, sits_out
from interpreter.engine.phases.base import Phase
from interpreter.engine.phases.play_obligations import AT_LEAD as AT_LEAD
from interpreter.engine.phases.play_obligations import OBLIGATIONS as OBLIGATIONS
from interpreter.engine.phases.play_obligations import Filter as Filter
from interpreter.engine.phases.play_obligations import Obligation as Obligation
from interpreter.engine.phases.play_obligations import obligations as obligations
from interpreter.engine.phases.play_obligations import trick_figures as trick_figures

if TYPE_CHECKING:
    from interpreter.engine.compile import Compiler
    from interpreter.engine.rules import ContractRT
    from interpreter.engine.state import State
    from interpreter.model.phases import Play


@dataclass
class PlaySettings:
    lead: Any | None
    negotiate: Any | None
    declarer_min: int
    defender_min: int
    contract: str | None = None     # played when no phase before the play settles one (a game without bidding)


def settings(play: Play, comp: Compiler) -> PlaySettings:
    return PlaySettings(lead=comp.text(play.lead) if play.lead is not None else None,
                        negotiate=comp.text(play.negotiate) if play.negotiate is not None else None,
                        declarer_min=play.declarer_min, defender_min=play.defender_min, contract=play.contract)


@dataclass(slots=True)
class PlayState:
    n: int
    leader: int | None = None
    # the current trick and the card winning it are the state's own (State.trick, State.win): written on
    # every card. The rest is written only when a trick is complete (or in a negotiation), after
    # own_play() has made it the state's own: copied, with its own tricks and cards won, unless no clone
    # shares it. A copy() has its own lists of tricks and cards won. The history is replaced, never
    # written in place: a list only until the first trick is complete, then a tuple
    history: Sequence = field(default_factory=list)  # (trick as a tuple, winner) of every complete trick
    tricks_won: list[int] = field(default_factory=list)
    won_cards: list[int] = field(default_factory=list)
    offer: tuple | None = None                       # (offering seat, declarer's tricks, seat to resume)
    offers: int = 0
    negotiated: bool = False
    talon_cards: tuple = ()                          # (trick number, card) of talon cards dealt into tricks
    into: int = 0                                    # the first tricks that get a talon card (talon phase)
    ring: tuple = (None, ())                         # (the seats playing, each one's next playing seat)
    # no split can be offered at a lead (the rules have no negotiation): while no offer is open, the legal
    # actions are the contract's generated listing alone (State.legal_actions calls it, and _offers at a lead)
    no_offers: bool = False
    # the declared figures each seat must keep for a trick, worked out once in the play by the generated
    # obligations that read them (the backend's); None: not worked out
    tied: tuple | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.tricks_won:
            self.tricks_won, self.won_cards = [0] * self.n, [0] * self.n

    def copy(self) -> PlayState:
        new = _new_play(PlayState)
        new.n = self.n
        new.leader = self.leader
        new.history = self.history
        new.tricks_won = self.tricks_won.copy()     # (a method: quicker than a slice)
        new.won_cards = self.won_cards.copy()
        new.offer = self.offer
        new.offers = self.offers
        new.negotiated = self.negotiated
        new.talon_cards = self.talon_cards
        new.into = self.into
        new.ring = self.ring
        new.no_offers = self.no_offers
        new.tied = self.tied
        return new


_new_play = object.__new__


def own_play(st: State) -> PlayState:
    """The play's state as the state's own to write: a copy with its own tricks and cards won, unless it
    is its own already (`_play_own`: no clone shares it since it was copied; State.clone clears it). A
    deal played without clones copies it once, at the play's start."""
    pl = st.play
    if st._play_own:
        return pl
    pl = st.play = pl.copy()
    st._play_own = True
    return pl


def card_tables(R: Any, con: ContractRT) -> tuple[tuple[int, ...], tuple]:
    """(per card, the mask of the deck's other cards: a hand less the card with no complement taken; per
    card winning a trick under `con`, per card, whether it takes the lead from it: its `beaters` as rows of
    truth values), once per rule set and contract ranking (shared by the contracts of one trump)."""
    beaters = con.beaters
    memo = R.memos.card_tables
    kept = memo.get(id(beaters))
    if kept is not None and kept[0] is beaters:
        return kept[1]
    n = len(R.suit_of)
    deck = (1 << n) - 1
    tables = (tuple(deck ^ (1 << i) for i in range(n)), tuple(tuple(bool(b >> a & 1) for a in range(n)) for b in beaters))
    memo[id(beaters)] = (beaters, tables)
    return tables


def ring(st: State) -> tuple:
    """Each seat's next seat among those playing (a seat not playing: its next playing seat), for st.playing."""
    playing = st.playing
    r = st.play.ring
    if r[0] is playing:
        return r[1]
    n = st.n
    kept = st.R.memos.play_rings     # per rule set and seats playing (a few at most)
    nxt = kept.get((n, playing))
    if nxt is None:
        out = []
        for s in range(n):
            t = s
            for k in range(1, n + 1):
                if (s + k) % n in playing:
                    t = (s + k) % n
                    break
            out.append(t)
        nxt = kept[(n, playing)] = tuple(out)
    st.play.ring = (playing, nxt)
    return nxt


def playable(st: State, me: int) -> int:
    """The cards `me` may play now: the hand filtered by the contract's obligations in order; a filter
    that would leave nothing is skipped. (The code generated per contract, `gen_playable`, gives the
    same cards as their list: PlayPhase.legal.)"""
    con = st.con
    assert con is not None
    hand = st.hands[me]
    cands = hand
    if not st.trick:
        for ob in con.obligations:
            if ob.at_lead:
                m = ob.fn(st, ob, me, hand, cands, -1, -1, con)
                if m > 0 and (ob.when is None or ob.when(Ctx(st, me))):
                    cands = m
        return cands
    led = con.suit_of[st.trick[0][1]]
    assert st.win is not None
    win = st.win[1]
    for ob in con.obligations:
        m = ob.fn(st, ob, me, hand, cands, led, win, con)
        if m > 0 and (ob.when is None or ob.when(Ctx(st, me))):
            cands = m
    return cands


def hands_open(st: State) -> bool:
    """The contract's open hands are on the table: after trick `open_after` is complete, or (`after_lead`)
    as soon as the lead to that trick is made."""
    con = st.con
    if con is None:
        return False
    done = len(st.play.history)
    if done >= con.open_after:
        return True
    return con.open_at_lead and done >= con.open_after - 1 and bool(st.trick)


class PlayPhase(Phase):
    name = "play"

    def start(self, st: State) -> bool:
        if st.given_up:             # lost without play (engine/phases/talon.py)
            return False
        pl = own_play(st)               # clones share it (State.clone)
        playing = st.playing
        if not playing:
            playing = st.playing = st.active
        if st.R.sits_out is not None:
            sits_out.start(st, st.R.sits_out)
            playing = st.playing
        if st.R.dummy is not None:
            dummy.start(st, st.R.dummy)
        declarer = st._declarer
        if declarer is not None and len(playing) == 1:
            n = st.R.defence.nobody_tricks
            if n is not None:
                pl.tricks_won[declarer] = n
            return False
        con = st._con
        if con is None and st.R.play.contract is not None:
            st.con = con = st.R.in_deal(st, st.R.contracts[st.R.play.contract])
        assert con is not None
        f = con.lead
        if f is None:
            lead = declarer
        else:                               # the backend's, reading the state alone: no activation (engine/backend.py)
            on_state = getattr(f, "on_state", None)
            lead = on_state(st) if on_state is not None else f(Ctx(st))
        if lead is None or lead not in playing:
            lead = ring(st)[lead if lead is not None else st.dealer]
        pl.leader = lead
        pl.no_offers = st.R.play.negotiate is None
        st._others, st._beats = card_tables(st.R, con)
        st.to_act = lead
        st.trick = ()
        # the talon phase is over: its count, read here once, without making the talon's state (State.peek)
        tl = st.peek("talon_state")
        pl.into = tl.into if tl is not None else 0      # (not made: no talon dealt into the tricks)
        return True

    def legal(self, st: State) -> list[int]:
        pl = st.play
        if pl.offer is not None:
            return [A.make(A.NEGOTIATE, A.ACCEPT), A.make(A.NEGOTIATE, A.REFUSE)] + self._offers(st, pl.offer[1])
        gen = st._con.gen_playable  # type: ignore[union-attr]
        # the generated obligations give the list of cards at once (the backend's, engine/backend.py)
        out = gen(st, st.to_act) if gen is not None else bits(playable(st, st.to_act))
        if st.trick or st.R.play.negotiate is None:
            return out
        offers = self._offers(st)
        return out + offers if offers else out      # (a list of its own either way)

    def _offers(self, st: State, exclude: int | None = None) -> list[int]:
        """Splits the player to act may offer, as the declarer's tricks in all."""
        S = st.R.play
        pl = st.play
        declarer = st._declarer
        if S.negotiate is None or pl.offers >= _MAX_OFFERS or st.trick or declarer is None:
            return []
        negotiate = S.negotiate
        on_state = getattr(negotiate, "on_state", None)    # generated, reading the state alone: no activation
        if not (on_state(st) if on_state is not None else negotiate(Ctx(st, st.to_act))):
            return []
        total = deals.tricks_total(st)
        taken_d = pl.tricks_won[declarer]
        taken_o = sum(pl.tricks_won[s] for s in st.playing if s != declarer)
        lo = max(S.declarer_min, taken_d)
        hi = min(total - S.defender_min, total - taken_o)
        return [A.make(A.NEGOTIATE, A.OFFER + d) for d in range(lo, hi + 1) if d != exclude]

    def _negotiate(self, st: State, action: int) -> None:
        arg = A.arg_of(action)
        me = st.to_act
        pl = own_play(st)               # shared with the clones (State.clone): the state's own to write
        if arg >= A.OFFER:
            resume = pl.offer[2] if pl.offer is not None else me
            pl.offer = (me, arg - A.OFFER, resume)
            pl.offers += 1
            st.to_act = next(s for s in st.playing if s != me)
            return
        assert pl.offer is not None and st.declarer is not None
        _, d, resume = pl.offer
        pl.offer = None
        if arg == A.REFUSE:
            st.to_act = resume
            return
        total = deals.tricks_total(st)
        pl.tricks_won = [0] * st.n
        pl.tricks_won[st.declarer] = d
        other = next(s for s in st.playing if s != st.declarer)
        pl.tricks_won[other] = total - d
        pl.negotiated = True
        st.to_act = -1
        st._advance()

    def apply(self, st: State, action: int) -> None:
        if action > _ARG and A.kind_of(action) == A.NEGOTIATE:
            self._negotiate(st, action)
            return
        me = st.to_act
        try:
            st.hands[me] &= st._others[action]
        except IndexError:                      # (not a card of the deck)
            st.hands[me] &= ~(1 << action)
        called = st.called_card
        if called is not None and action == called:
            sides.reveal(st)
        trick = st.trick
        played = (me, action)
        # a card takes the lead exactly when it is among the current winner's beaters
        if not trick or st._beats[st.win[1]][action]:  # type: ignore[index]
            st.win = played
        st.trick = trick = trick + (played,)    # a tuple in the play
        playing = st.playing
        if len(trick) < len(playing):
            r = st.play.ring
            st.to_act = (r[1] if r[0] is playing else ring(st))[me]
            return
        self._trick_done(st, trick, playing)

    def _trick_done(self, st: State, trick: tuple, playing: tuple) -> None:
        """The trick is complete: to its winner, who leads the next, unless the play is over."""
        # shared with the clones (State.clone): the state's own to write (own_play, not called when it is)
        pl = st.play if st._play_own else own_play(st)
        extras = play_extras.extras_of(st.R)
        if extras is not None:          # an upset, the called card's talon (engine/phases/play_extras.py)
            play_extras.trick_end(st, trick, extras)
        winner = st.win[0]  # type: ignore[index]
        pl.tricks_won[winner] += 1
        m = 0
        try:
            for _, c in trick:
                m |= BIT[c]
        except IndexError:                      # (a deck of more than 256 cards)
            m = mask_of(c for _, c in trick)
        history = pl.history
        if len(history) < pl.into and st.talon:
            card = st.talon.pop(0)          # a talon card dealt face up into this trick goes to its winner
            m |= 1 << card
            pl.talon_cards = pl.talon_cards + ((len(history) + 1, card),)
        pl.won_cards[winner] |= m
        # (a tuple once a trick is complete: grown by concatenation, which makes no list on the way)
        pl.history = history + ((trick, winner),) if type(history) is tuple else (*history, (trick, winner))
        st.trick = ()
        pl.leader = winner
        hands = st.hands
        for s in playing:
            if hands[s]:
                early_end = st._con.early_end  # type: ignore[union-attr]
                if early_end is None:
                    st.to_act = winner
                    return
                on_state = getattr(early_end, "on_state", None)     # the backend's, reading the state alone: no activation (engine/backend.py)
                if not (on_state(st) if on_state is not None else early_end(Ctx(st))):
                    st.to_act = winner
                    return
                break
        st.to_act = -1
        st._advance()


_ARG = A.ARG
_MAX_OFFERS = A.MAX_OFFERS
