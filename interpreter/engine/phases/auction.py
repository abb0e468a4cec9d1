"""The auction: calls, raise rules, hold rights, sealed contests and the end of bidding."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine import actions as A
from interpreter.engine import sides
from interpreter.engine.context import Ctx
from interpreter.engine.given import all_pass_contract
from interpreter.engine.phases import auction_doubles
from interpreter.engine.phases.auction_plans import AuctionSettings, own_allowed, raise_plan, settings
from interpreter.engine.phases.auction_state import AuctionState, own_auction
from interpreter.engine.phases.base import ALWAYS, Phase
from interpreter.engine.phases.conditions import HOLDS, NEVER_HOLDS, NOT_WORKED_OUT
from interpreter.engine.phases.knock import at_state, seat_order

if TYPE_CHECKING:
    from interpreter.engine.rules import CallRT
    from interpreter.engine.state import State

__all__ = ["AuctionPhase", "AuctionSettings", "AuctionState", "own_auction", "settings"]


def _joined(st: State, me: int, call: CallRT) -> tuple | None:
    """The base a joining call is bid on: another seat whose latest call is one of the call's `joins`.
    A later call of that seat, a pass included, ends the chance (the call's `allowed` says when it may
    be bid); an overbid by anything but another join on the same base drops the base with the join."""
    if not call.joins:
        return None
    latest = st.auction.latest
    for s in st.auction.bid_order:
        if s != me and latest[s] is not None and str(latest[s]) in call.joins:
            return (s, str(latest[s]))
    return None


_PASS, _HOLD = A.make(A.PASS), A.make(A.HOLD)
# the positions each memo (AuctionSettings.legal_memo, .steps) keeps at most, about 400 bytes each: the
# positions met first are the common ones, so a full memo keeps them and takes no more, and a long run's
# memory stays flat (10,000 random deals of the largest auctions meet 5,000 to 20,000 positions)
_MEMO_BOUND = 1 << 12
# the positions numbered at most (AuctionSettings.positions), about 150 bytes each; a position met once
# the table is full has no number, and nothing kept applies from there on in that deal
_POSITIONS_BOUND = 1 << 14
_SHIFT, _ARG, _K_PASS, _K_HOLD, _K_REVEAL = A.SHIFT, A.ARG, A.PASS, A.HOLD, A.REVEAL    # read by apply
_K_DOUBLE = A.DOUBLE


def _position(S: AuctionSettings, key: tuple) -> int | None:
    """The number of a position (AuctionSettings.positions), or None once the table is full."""
    positions = S.positions
    found = positions.get(key)
    if found is None and len(positions) < _POSITIONS_BOUND:
        found = positions[key] = len(positions)
    return found


def _next_plan(st: State, S: AuctionSettings) -> tuple:
    """What apply reads of the settings and rules after every call: the exclusion, whether each seat calls
    once, the end condition and its function of the state alone (generated code; None where there is
    none), the bound on the calls, whether a contest has one round."""
    ends = S.ends
    on_state = getattr(ends, "on_state", None) if ends is not None else None
    return (S.exclude, S.style == "once", ends, on_state, st.R.max_auction_calls, S.contest_rounds == "once")


def _void_passes(au: AuctionState) -> None:
    """A bid or hold where passes are not final (`pass_final = false`): the passes before it no longer
    count; `passes` counts the seats excluded, and from now on those that pass again."""
    au.passed = [False] * len(au.passed)
    au.passes = sum(au.excluded)


class AuctionPhase(Phase):
    name = "auction"

    def start(self, st: State) -> bool:
        S = st.R.auction
        first = at_state(S.first, st)
        starts = S.starts
        if starts is not None:      # the steps are kept: so is the state the auction starts with (shared)
            start = (first, st.dealer, st.active)
            au = starts.get(start)
            if au is not None:
                st.auction = au
                st.to_act = au.bid_order[0]
                return True
        au = st.auction = st.auction.copy()     # the state's own: until now the blank all share (State.__init__)
        order = seat_order(st, first)
        au.bid_order = list(order)
        au.pos = 0
        if S.positional:
            au.key = _position(S, (st.dealer, st.active, order))
            if starts is not None and au.key is not None:
                starts[start] = au          # kept: every step from it writes a copy (apply)
        st.to_act = au.bid_order[0]
        return True

    def _reveal_due(self, st: State, me: int) -> bool:
        au = st.auction
        if not au.contest or me not in au.contest or len(au.contest) < 2:
            return False
        if au.high_call is None or au.high_call.contest is None:
            return False
        return not (st.R.auction.contest_rounds == "once" and me in au.reveals)

    def legal(self, st: State) -> list[int]:
        au = st.auction
        R = st.R
        S = R.auction
        # at a position (none: a state written from outside, nothing kept applies) met before: its answer (a new
        # list: callers may change it); else, where what the conditions read of it is known (auction_keys), the
        # answer kept for that (kept for the position too: the next time it costs one look-up)
        pos = au.key
        by = None
        if pos is not None:
            kept_at = S.legal_memo
            got = kept_at.get(pos)
            if got is None and S.legal_key is not None:
                by = S.legal_key(st)
                got = S.legal_by_key.get(by)
                if got is not None and len(kept_at) < _MEMO_BOUND:
                    kept_at[pos] = got
            if got is not None:
                return [*got]
        me = st.to_act
        if au.contest and self._reveal_due(st, me):     # (the contracts revealed may read anything: not kept)
            out = self._reveals(st, me)
            if not (S.first_must_name and not au.reveals and out):
                out.append(_PASS)
            return out
        c = Ctx(st, me)
        out = []
        high = au.high_call
        raises = S.raises.get(high.index if high is not None else -1)
        if raises is None:
            raises = raise_plan(st, high)
        cands, firsts, pairs, runs = raises
        cond = S.allowed_if
        plan = S.allowed_plan
        if plan is NOT_WORKED_OUT:
            plan = S.allowed_plan = cond.plan({}) if cond is not None else HOLDS
        if plan == HOLDS:          # only the calls' own `allowed`: the calls without one in runs at once
            shared: dict = {}      # a group's `allowed` judged this turn (allowed_group)
            for acts, ref, allowed, g in runs:
                if allowed is not None:         # own_allowed, inline
                    c.this = ref
                    if g < 0:
                        if not allowed(c):
                            continue
                    else:
                        ok = shared.get(g)
                        if ok is None:
                            ok = shared[g] = bool(allowed(c))
                        if not ok:
                            continue
                out += acts
            cands = ()
        memo: dict = {}             # the auction's `allowed` by the `this.X` it reads (allowed_key)
        parts: dict = {}            # the parts of the auction's `allowed` that do not read `this`
        if plan is NEVER_HOLDS:
            cands = ()
        elif plan and firsts is not None:     # only the auction's `allowed`, once per key, in the calls' order
            holds = cond.holds
            for key, ref in firsts:
                c.this = ref
                memo[key] = holds(c, plan, parts)
            for key, acts in pairs:
                if memo[key]:
                    out += acts
            cands = ()
        shared = {}
        for action, ref, allowed, g, key in cands:
            if allowed is not None and not own_allowed(c, ref, allowed, g, shared):
                continue
            if plan:
                if key is None:
                    c.this = ref
                    if not cond.holds(c, plan, parts):
                        continue
                else:
                    ok = memo.get(key)
                    if ok is None:
                        c.this = ref
                        ok = memo[key] = cond.holds(c, plan, parts)
                    if not ok:
                        continue
            out.append(action)
        c.this = None
        if high is not None and S.hold_call and au.holder != me and au.holder is not None:
            bids = S.hold_bids_if
            hp = S.hold_plans.get(high.index, NOT_WORKED_OUT)   # `bids` as the highest call decides it
            if hp is NOT_WORKED_OUT:
                hp = S.hold_plans[high.index] = bids.plan({"high": high.ref}) if bids is not None else HOLDS
            if hp is not NEVER_HOLDS and (hp == HOLDS or bids.holds(c, hp, {})) and S.hold_who(c):
                out.append(_HOLD)
        if S.doubles:
            out += auction_doubles.legal(st, me)
        if S.pass_allowed is ALWAYS or S.pass_allowed(c):
            out.append(_PASS)
        if pos is not None:
            kept = tuple(out)
            kept_at = S.legal_memo
            if len(kept_at) < _MEMO_BOUND:
                kept_at[pos] = kept
            if by is not None and len(S.legal_by_key) < _MEMO_BOUND:
                S.legal_by_key[by] = kept
        return out

    def _reveals(self, st: State, me: int) -> list[int]:
        R, au = st.R, st.auction
        own = R.call_by_name.get(str(au.latest[me])) if au.latest[me] is not None else None
        chosen = own if own is not None and own.contest else au.high_call
        best = au.best
        out = []
        for name in st.call_contracts(chosen, me):
            con = R.contracts[name]
            if best is not None:
                bcon = R.contracts[best[1]]
                # an equal contract is allowed only where ties go to the earlier bidder (contest.ties)
                earlier = (R.auction.contest_ties == "earlier"
                           and au.bid_order.index(me) < au.bid_order.index(best[0]))
                if con.rank < bcon.rank or (con.rank == bcon.rank and not earlier):
                    continue
            out.append(A.make(A.REVEAL, R.contract_index[name]))
        return out

    def apply(self, st: State, action: int) -> None:
        # a step from a position met before (AuctionState.key) takes the state kept there (AuctionSettings.steps),
        # shared: nothing writes it
        au = st.auction
        pos = au.key
        if pos is None:             # the state's own (AuctionState): no position, nothing kept
            if self._step(st, action):
                self._finish(st)
            return None
        S = st.R.auction
        steps = S.steps
        step = (pos, action)
        if steps is not None:
            got = steps.get(step)
            if got is not None:
                after, to_act = got
                st.auction = after
                if to_act < 0:
                    return self._finish(st)
                st.to_act = to_act
                return None
            au = st.auction = au.copy()     # (the state may hold one kept, never written)
        au.key = _position(S, step)
        over = self._step(st, action)
        if steps is not None and au.key is not None and len(steps) < _MEMO_BOUND:
            steps[step] = (au, -1 if over else st.to_act)   # kept: the state writes a copy at its next step
        if over:
            self._finish(st)
        return None

    def _step(self, st: State, action: int) -> bool:
        """The call made: the auction's state after it, and the next seat to call; True if the auction is over."""
        # the state's lists and dict are replaced, never changed in place (AuctionState)
        me = st.to_act
        kind = action >> _SHIFT
        R = st.R
        S = R.auction
        au = st.auction
        if kind == _K_PASS:
            label = "pass"
            passed = au.passed
            if not passed[me]:
                if not au.excluded[me]:
                    au.passes += 1
                passed = au.passed = passed.copy()
                passed[me] = True
            ref = S.pass_ref
            if au.first_call[me] is None:
                first = au.first_call = au.first_call.copy()
                first[me] = ref
            latest = au.latest = au.latest.copy()
            latest[me] = ref
            if me in au.contest and S.contest_rounds == "once" and me not in au.reveals:
                au.reveals = {**au.reveals, me: None}
        elif kind == _K_HOLD:
            label = "hold"
            au.holder = me
            ref = S.hold_ref
            latest = au.latest = au.latest.copy()
            latest[me] = ref
            if au.first_call[me] is None:
                first = au.first_call = au.first_call.copy()
                first[me] = ref
            # the held bid then counts as the holder's own (first_bid, has_bid, after-purchase entitlement)
            if au.first_bid[me] is None and au.high_call is not None:
                first = au.first_bid = au.first_bid.copy()
                first[me] = au.high_call.ref
        elif kind == _K_DOUBLE:
            level = action & _ARG
            label = S.doubles[level - 1]
            auction_doubles.apply(au, me, level, S.double_refs[level - 1])
        elif kind == _K_REVEAL:
            name = R.contract_names[action & _ARG]
            label = "reveal " + name
            au.reveals = {**au.reveals, me: name}
            au.best = (me, name)
            au.holder = me
        else:
            call = R.calls[action & _ARG]
            label = call.name
            contest = call.contest
            if contest:
                high = au.high_call
                if high is not None and high.contest == contest:
                    au.contest = [*au.contest, me]
                else:
                    au.contest = [me]
                    au.reveals = {}
                    au.best = None
                if call.contracts_expr is None and len(call.contracts) == 1:
                    # a named sealed call is already revealed
                    named = call.contracts[0]
                    au.reveals = {**au.reveals, me: named}
                    if au.best is None or self._beats(st, me, named):
                        au.best = (me, named)
                au.holder = me if au.best is None else au.best[0]
            else:
                if au.contest:
                    au.contest = []
                if au.reveals:
                    au.reveals = {}
                au.best = None
                au.holder = me
            au.high_call = call
            if au.doubled:                  # a new bid: the calls on the one before are void
                au.doubled, au.doubler = 0, None
            au.base = _joined(st, me, call) if call.joins else None
            ref = call.ref
            if au.first_call[me] is None:
                first = au.first_call = au.first_call.copy()
                first[me] = ref
            if au.first_bid[me] is None:
                first = au.first_bid = au.first_bid.copy()
                first[me] = ref
            latest = au.latest = au.latest.copy()
            latest[me] = ref
        au.calls = [*au.calls, (me, label)]
        if kind != _K_PASS and kind != _K_REVEAL and not S.pass_final and au.passes:
            _void_passes(au)
        # after the call: the auction is over, or the next seat calls
        plan = S.next_plan
        if plan is None:
            plan = S.next_plan = _next_plan(st, S)
        exclude, once, ends, on_state, max_calls, contest_once = plan
        if exclude is not None:
            c = Ctx(st)
            for s in au.bid_order:
                if not au.passed[s] and not au.excluded[s]:
                    c.me = s
                    if exclude(c):
                        excluded = au.excluded = au.excluded.copy()
                        excluded[s] = True
                        au.passes += 1
                        if au.key is not None:  # (exclude may read anything: its answer is part of the position)
                            au.key = _position(S, (au.key, None, s))
        # is the auction over?
        calls = len(au.calls)
        if calls >= max_calls:  # the bound on every auction (engine/rules.py)
            return True
        if once and calls >= len(au.bid_order):
            return True
        if on_state is not None:
            if on_state(st):
                return True
        elif ends is not None:
            if ends(Ctx(st)):
                return True
        else:
            active = [s for s in au.bid_order if not au.passed[s] and not au.excluded[s]]
            if len(active) == 0 or (len(active) == 1 and au.high_call is not None):
                return True
        bidders = au.contest
        revealed = contest_once and len(bidders) >= 2       # a seat that has revealed is done
        if revealed and all(s in au.reveals for s in bidders):
            return True
        # the next seat
        order = au.bid_order
        n = len(order)
        pos = au.pos
        if once:
            first_call = au.first_call
            for step in range(1, n + 1):
                s = order[(pos + step) % n]
                if first_call[s] is None:
                    au.pos = (pos + step) % n
                    st.to_act = s
                    return False
            return True
        passed, excluded = au.passed if S.pass_final else au.excluded, au.excluded
        for step in range(1, n + 1):
            s = order[(pos + step) % n]
            if passed[s] or excluded[s]:
                continue
            if revealed and s in bidders and s in au.reveals:
                continue
            au.pos = (pos + step) % n
            st.to_act = s
            return False
        return True

    def _beats(self, st: State, seat: int, name: str) -> bool:
        R, au = st.R, st.auction
        assert au.best is not None
        con = R.contracts[name]
        bseat, bname = au.best
        bcon = R.contracts[bname]
        if con.rank != bcon.rank:
            return con.rank > bcon.rank
        return au.bid_order.index(seat) < au.bid_order.index(bseat)

    def _finish(self, st: State) -> None:
        R = st.R
        au = st.auction
        if au.high_call is None:
            st.all_passed = True
            name = all_pass_contract(st)
            st._apply_rows(R.session_rows.all_pass, record=True)
            if name is None:
                st.settled = True
                st._end()
                return
            # the sides are formed once, with the contract and no declarer
            st._con = R.in_deal(st, R.contracts[name])
            st.declarer = None
            st.choices = []
        else:
            st.final_call = au.high_call
            if au.base is not None:     # a joining call: its base bidder plays his base contract too
                base = R.call_by_name[au.base[1]]
                st.base_bidder = au.base[0]
                st.base_con = R.in_deal(st, R.contracts[base.contracts[0]]) if base.contracts else None
            declarer = au.best[0] if au.best is not None else au.holder
            if R.auction.declarer_by is not None:     # the first of the holder's side to bid the final value
                declarer = auction_doubles.declarer_by(st, R.auction.declarer_by)
            high = au.high_call
            one: Any = (au.best[1] if au.best is not None else high.contracts[0] if high.contracts_expr is None
                   and len(high.contracts) == 1 else None)
            con = R.contracts[one] if one is not None else None
            if con is not None and con.trump_expr is None and st._con is None and declarer is not None:
                # nothing is judged before the contract is set: the sides are formed once, with both (what
                # setting `st.con` does, without its property)
                st._declarer = declarer
                st.choices = [one]
                st._con = con
                sides.form(st)
            else:
                st.declarer = declarer              # forms the sides, which may leave no declarer
                if au.best is not None:
                    choices = st.choices = [au.best[1]]
                else:
                    choices = st.choices = st.call_contracts(high, st._declarer)
                if len(choices) == 1:
                    st.con = R.in_deal(st, R.contracts[choices[0]])
        st.to_act = -1
        st._advance()
