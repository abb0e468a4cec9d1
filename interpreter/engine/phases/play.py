"""Playing the cards: the first lead, obligations as filters over the hand, tricks, early end, negotiation."""
from __future__ import annotations

from interpreter.engine import actions as A
from interpreter.engine.rules import bits


class PlayPhase:
    """Methods of State (engine/state.py) for this phase."""

    # ---- play -------------------------------------------------------------------------------------
    def _start_play(self) -> bool:
        if not self.playing:
            self.playing = self.active
        if self.declarer is not None and len(self.playing) == 1:
            n = self.R.defence["nobody_tricks"]
            if n is not None:
                self.tricks_won[self.declarer] = n
            return False
        con = self.con
        self.me = None
        lead = con.lead(self) if con.lead is not None else self.declarer
        if lead is None or lead not in self.playing:
            lead = self._next_playing(lead if lead is not None else self.dealer)
        self.leader = lead
        self.to_act = lead
        self.trick = []
        return True

    def _next_playing(self, s):
        for k in range(1, self.n + 1):
            t = (s + k) % self.n
            if t in self.playing:
                return t
        return s

    def _legal_play(self) -> list[int]:
        if self.offer is not None:
            return [A.make(A.NEGOTIATE, A.ACCEPT), A.make(A.NEGOTIATE, A.REFUSE)] + self._offers(exclude=self.offer[1])
        return bits(self._playable(self.to_act)) + self._offers()

    def _offers(self, exclude=None) -> list[int]:
        """Splits the player to act may offer, as the declarer's tricks in all."""
        neg = self.R.play["negotiate"]
        if neg is None or self.offers >= A.MAX_OFFERS or self.trick or self.declarer is None:
            return []
        self.me = self.to_act
        if not neg(self):
            return []
        total = self.R.rs.hand_size
        taken_d = self.tricks_won[self.declarer]
        taken_o = sum(self.tricks_won[s] for s in self.playing if s != self.declarer)
        lo = max(self.R.play["declarer_min"], taken_d)
        hi = min(total - self.R.play["defender_min"], total - taken_o)
        return [A.make(A.NEGOTIATE, A.OFFER + d) for d in range(lo, hi + 1) if d != exclude]

    def _apply_negotiate(self, action: int) -> None:
        arg = A.arg_of(action)
        me = self.to_act
        if arg >= A.OFFER:
            resume = self.offer[2] if self.offer is not None else me
            self.offer = (me, arg - A.OFFER, resume)
            self.offers += 1
            self.to_act = next(s for s in self.playing if s != me)
            return
        offerer, d, resume = self.offer
        self.offer = None
        if arg == A.REFUSE:
            self.to_act = resume
            return
        total = self.R.rs.hand_size
        self.tricks_won = [0] * self.n
        self.tricks_won[self.declarer] = d
        other = next(s for s in self.playing if s != self.declarer)
        self.tricks_won[other] = total - d
        self.negotiated = True
        self.to_act = -1
        self._advance()

    def _playable(self, me) -> int:
        hand = self.hands[me]
        con = self.con
        if not self.trick:
            cands = hand
            for ob in con.obligations:
                if ob["rule"] == "no_lead" and ob["suit"] is not None:
                    others = cands & ~self.R.suit_masks[ob["suit"]]
                    if others and self._ob_applies(ob, me):
                        cands = others
            return cands
        led = self.R.suit_of[self.trick[0][1]]
        win_card = self._winning()[1]
        cands = hand
        R = self.R
        for ob in con.obligations:
            rule = ob["rule"]
            if rule == "follow_suit":
                m = cands & R.suit_masks[led]
            elif rule == "must_trump":
                suit_mask = R.suit_masks[ob["suit"]] if ob["suit"] is not None else con.trump_mask
                if hand & R.suit_masks[led]:
                    continue
                m = cands & suit_mask
            elif rule == "must_beat":
                m = cands & con.beaters[win_card]
            elif rule == "lowest_winner":
                if not self._ob_applies(ob, me):
                    continue
                winners = cands & con.beaters[win_card]
                if not winners:
                    continue
                low = min(bits(winners), key=lambda i: con.strength[i])
                m = 1 << low
            elif rule == "hold_back":
                held = cands & ob["cards"]
                if not held:
                    continue
                same = 0
                for i in bits(held):
                    same |= R.suit_masks[R.suit_of[i]]
                m = cands & ~ob["cards"] if (hand & same & ~ob["cards"]) else cands
            else:
                continue
            if ob["when"] is not None and rule != "lowest_winner" and not self._ob_applies(ob, me):
                continue
            if m:
                cands = m
        return cands

    def _ob_applies(self, ob, me) -> bool:
        if ob["when"] is None:
            return True
        self.me = me
        return bool(ob["when"](self))

    def _winning(self):
        """(seat, card) currently winning the trick; kept up to date as cards are played."""
        return self.win

    def _apply_play(self, action: int) -> None:
        if A.kind_of(action) == A.NEGOTIATE:
            self._apply_negotiate(action)
            return
        me = self.to_act
        card = action
        self.hands[me] &= ~(1 << card)
        # a card takes the lead exactly when it is among the current winner's beaters
        if not self.trick or (1 << card) & self.con.beaters[self.win[1]]:
            self.win = (me, card)
        self.trick.append((me, card))
        if len(self.trick) < len(self.playing):
            self.to_act = self._next_playing(me)
            return
        winner = self._winning()[0]
        self.tricks_won[winner] += 1
        m = 0
        for _, c in self.trick:
            m |= 1 << c
        self.won_cards[winner] |= m
        self.history.append((tuple(self.trick), winner))
        self.trick = []
        self.leader = winner
        con = self.con
        if not any(self.hands[s] for s in self.playing):
            self.to_act = -1
            self._advance()
            return
        if con.early_end is not None:
            self.me = None
            if con.early_end(self):
                self.to_act = -1
                self._advance()
                return
        self.to_act = winner
