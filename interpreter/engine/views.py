"""Views of a game state for readers outside the machine: the result of a finished deal, what one seat
observes, and the one printed spelling of each action."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import sides

if TYPE_CHECKING:
    from interpreter.engine.state import State


def result(self: State) -> dict:
    """The outcome of the deal: declarer, contract, tricks, payments (money won), pot, made, all passed."""
    money = self.accounts.get("money", [0] * self.n)
    start = self.after_stake_accounts.get("money", [0] * self.n)
    won = self.play.tricks_won
    return {
        "declarer": self.declarer,
        "contract": self.con.name if self.con else None,
        "tricks": {s: won[s] for s in self.active},
        "payments": {s: _norm(money[s] - start[s]) for s in range(self.n)},
        "pot": _norm(self.accounts.get("pot", 0)),
        "made": self.made if self.declarer is not None else None,
        "all_passed": self.all_passed,
    }

def observation(self: State, seat: int) -> dict:
    """What `seat` sees of the deal."""
    R = self.R
    pl = self.play
    # before the cut or the knock (phase `knock`) nobody has seen a card: the hand is not shown yet. The
    # engine deals at the start (a pile taken after a knock is the hand dealt, engine/phases/knock.py)
    obs: dict[str, Any] = {
        "seat": seat, "dealer": self.dealer, "phase": self.phase, "to_act": self.current_player(),
        "hand": R.rs.codes(self.hands[seat]) if self.phase != "knock" else [],
        "calls": list(self.auction.calls),
        "declarer": self.declarer,
        "contract": self.con.name if self.con and (self.declarer is None or self.phase != "auction") else None,
        "trick": [(s, R.codes[c]) for s, c in self.trick],
        "tricks": {s: pl.tricks_won[s] for s in self.active},
    }
    if self.number_bids:
        obs["number_bids"] = list(self.number_bids)
    if self.R.turn_up and self.talon:
        obs["turned_up"] = R.codes[self.talon[0]]
    if self.talon_state.exposed:
        obs["talon"] = [R.codes[c] for c in self.talon_state.shown]
    if seat == self.declarer or self.after_purchase.holder == seat:
        obs["discards"] = R.rs.codes(self.discards)
    con = self.con
    if con is not None and con.open_who and self.phase == "play" and R.parts.hands_open(self):
        shown = self.defenders if con.open_who == "defenders" else self.active
        obs["open_hands"] = {s: R.rs.codes(self.hands[s]) for s in shown if s != seat}
    if self.announce.declared:      # the figures declared aloud in the declaration round, by whom
        obs["declared"] = dict(self.announce.declared)
    if self.dummy is not None:      # the dummy (phases/dummy.py): his seat, his hand once it is on the table
        _dummy(self, seat, obs)
    sides.observe(self, seat, obs)
    _observe_pass(self, seat, obs)
    R.parts.talon_observe(self, seat, obs)
    R.parts.choice_observe(self, obs)
    return obs


def received(st: State, seat: int) -> int:
    """The cards passed to `seat` before the play (engine/phases/pass_cards.py): a mask, 0 before the exchange."""
    if not st.passed or st.phase == "pass_cards":
        return 0
    out = 0
    for s, to in enumerate(st.pass_to):
        if to == seat:
            out |= st.passed[s]
    return out


def _observe_pass(st: State, seat: int, obs: dict) -> None:
    """What `seat` sees of the pass: the cards it passed and to whom, and after the exchange the cards it
    received; never what the others passed."""
    if not st.passed:
        return
    codes = st.R.rs.codes
    if st.passed[seat]:
        obs["passed"] = codes(st.passed[seat])
        obs["passed_to"] = st.pass_to[seat]
    got = received(st, seat)
    if got:
        obs["received"] = codes(got)


def _dummy(self: State, seat: int, obs: dict) -> None:
    """What a seat sees of the dummy: who he is once the play starts, his hand from the lead to trick
    `after_lead` on (phases/dummy.py, `shown`), to every seat but his own."""
    d = obs["dummy"] = self.dummy
    S = self.R.dummy
    if S is None or d is None or self.phase != "play" or seat == d:
        return
    done = len(self.play.history)
    if done >= S.after_lead or (done == S.after_lead - 1 and bool(self.trick)):
        obs.setdefault("open_hands", {})[d] = self.R.rs.codes(self.hands[d])


def _norm(v: Any) -> Any:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def action_text(state: State, action: int, words: dict | None = None) -> str:
    """The action's one printed spelling, in the rule file's `words` (or in `words` given)."""
    R = state.R
    W = R.words if words is None else words
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.PLAY:
        return W["play"] + " " + R.codes[arg]
    if kind == A.BID:
        return W["bid"] + " " + R.calls[arg].word
    if kind == A.NUMBER:
        return f"{W['bid']} {arg}"
    if kind == A.PASS:
        return W["pass"]
    if kind == A.HOLD:
        return W["hold"]
    if kind == A.DISCARD:
        return W["discard"] + " " + " ".join(R.rs.codes(arg))
    if kind in (A.DECLARE, A.REVEAL):
        return W["declare"] + " " + R.contract_words.get(R.contract_names[arg], R.contract_names[arg])
    if kind == A.TRUMP:
        return W["trump"] + " " + R.suit_names[arg]
    if kind == A.DEFEND:
        return W["go"] if arg == 0 else W["stay"]
    if kind == A.INVITE:
        return W["invite"] if arg == 0 else W["no_invite"]
    if kind == A.AFTER:
        return W["after_purchase"] if arg == 1 else W["decline"]
    if kind == A.KONTRA:
        return R.parts.kontra_word(state, arg) if arg else W["pass"]
    if kind == A.PARTNER_CALL:
        return R.parts.partner_text(state, action)
    if kind == A.PASS_CARD:
        return W["pass_card"] + " " + R.codes[arg]
    if kind == A.KNOCK:
        return R.parts.knock_text(state, action)
    if kind in (A.PACKET, A.GIVE_UP):
        return R.parts.talon_text(state, action)
    if kind in (A.ANNOUNCE, A.ITEM_KONTRA):
        return R.parts.announce_text(state, action)
    if kind == A.CHOOSE:
        return R.parts.choice_text(state, action)
    if kind == A.DOUBLE:            # a call on the bid (phases/auction_doubles.py), in its word
        return R.auction.double_words[arg - 1]
    if kind == A.NEGOTIATE:
        return W["accept"] if arg == A.ACCEPT else W["refuse"] if arg == A.REFUSE else f"{W['offer']} {arg - A.OFFER}"
    return f"action {action}"
