"""What an outcome-only deal may state besides the tricks: the facts a declaration round and a card-point
count leave behind, so that a rule book's scoring example can be settled without playing it out.

    outcome:
      contract: CONTRACT
      declarer: A
      partner: B                            # the declarer's partner (a called side)
      tricks: {A: 4, B: 3, C: 3, D: 2}
      points: {A: 30, B: 14, C: 15, D: "32/3"}   # card points per seat, exact ("35 2/3" or "107/3")
      declared: {FIGURE_1: A, FIGURE_2: C}  # figure -> the seat that declared it
      kontras: {FIGURE_3: 2, CONTRACT: 1}   # item (a figure, or the contract for the game) -> calls in its chain
      personal: {C: 1, "C/A": 1}            # kontras between two players: C's chain with the declarer; A's on C's game
      figures: {FIGURE_1: declarers, FIGURE_2: C}  # figure -> the side (declarers/defenders) or a seat that made it
      attempted: {FIGURE_4: defenders}      # silent attempts, the same way
      given_up: true                        # the game was lost without play (talon give_up or requires)
      base_bidder: C                        # a joining call's base bidder, who plays …
      base_contract: OTHER_CONTRACT         # … this contract too

(CONTRACT and FIGURE_n stand for names the rule file defines; games/*/scenarios/ has real ones.)

Every name is checked: an unknown seat, figure or item is an error at the outcome (exit 2).
`settle_outcome` settles such a deal (contract, declarer, tricks, playing seats, host, kontra and the
facts above) without playing it.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from interpreter.diagnostics import best_matches
from interpreter.engine.figures import GAME
from interpreter.engine.phases.auction import own_auction
from interpreter.engine.phases.play import own_play
from interpreter.harness.scenario_input import span_of

KEYS = ("partner", "points", "declared", "kontras", "personal", "figures", "attempted", "given_up", "base_bidder")


def applies(outcome: dict) -> bool:
    return any(k in outcome for k in KEYS)


def settle_facts(state: Any, outcome: dict, seats: list[str], fail: Any) -> None:
    """Put the stated facts on the state (after its contract and declarer are set). `fail(message,
    suggestions)` raises the scenario error."""
    R = state.R

    def seat(name: Any, what: str) -> int:
        if str(name) not in seats:
            fail(f"unknown {what} '{name}'", best_matches(str(name), seats))
        return seats.index(str(name))

    def figure(name: Any) -> str:
        if str(name) not in R.figures:
            fail(f"unknown figure '{name}'", best_matches(str(name), R.figures))
        return str(name)

    def side(value: Any, what: str) -> tuple[int, ...]:
        if value == "declarers":
            return tuple(state.declarers)
        if value == "defenders":
            return tuple(state.defenders)
        if isinstance(value, list):
            return tuple(seat(v, what) for v in value)
        return (seat(value, what),)

    if outcome.get("partner") is not None:
        partner = seat(outcome["partner"], "partner")
        d = state.declarer
        if partner != d:
            state.declarers = (d, partner)
            state.defenders = tuple(s for s in state.active if s not in state.declarers)
            state.partner = {d: partner, partner: d}
    if outcome.get("given_up"):
        state.given_up = True
    if outcome.get("base_bidder") is not None:
        name = str(outcome.get("base_contract"))
        if name not in R.contracts:
            fail(f"unknown base contract '{name}'", best_matches(name, R.contracts))
        state.base_bidder = seat(outcome["base_bidder"], "base bidder")
        state.base_con = R.contracts[name]
    if not state.auction.bid_order:     # no auction was held: the seats in their order from the dealer
        own_auction(state).bid_order = sorted(state.active, key=lambda s: (s - state.dealer - 1) % state.n)
    an = state.announce = state.announce.copy()     # its own (clones share it after the round)
    given: dict[str, Any] = {"made": {}, "attempted": {}}
    if "points" in outcome:
        pts = {}
        for name, v in (outcome["points"] or {}).items():
            try:
                pts[seat(name, "seat")] = _exact(v)
            except (ValueError, ZeroDivisionError):
                fail(f"the points of {name} are not a number: {v!r}", [])
        given["points"] = pts
    for name, who in (outcome.get("declared") or {}).items():
        an.declared[figure(name)] = seat(who, "declaring seat")
    for name, level in (outcome.get("kontras") or {}).items():
        if str(name) == state.con.name:
            key = GAME
        else:
            key = figure(name)
        an.chains[(key, -1, -1)] = tuple(-1 for _ in range(int(level)))
    for name, level in (outcome.get("personal") or {}).items():
        # "C": C's chain with the declarer; "C/A": A's chain on C's game (a base bidder's game in bei)
        owner_name, _, other_name = str(name).rpartition("/")
        owner = seat(owner_name, "seat") if owner_name else state.declarer
        other = seat(other_name, "seat")
        an.personal = True
        an.chains[(state.con.name, owner, other)] = tuple(-1 for _ in range(int(level)))
    for key, kind in (("figures", "made"), ("attempted", "attempted")):
        for name, who in (outcome.get(key) or {}).items():
            given[kind][figure(name)] = side(who, "seat")
    an.given = given


def _exact(v: Any) -> Fraction:
    """A number of card points: 35, "107/3", or "35 2/3" (whole points and blatt)."""
    if isinstance(v, (bool, float)):
        raise ValueError(v)
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    text = str(v).strip()
    if "." in text:                 # a decimal is not exact (scenario_expect.refuse_decimals)
        raise ValueError(v)
    if " " in text:
        whole, part = text.split(None, 1)
        return Fraction(whole) + Fraction(part)
    return Fraction(text)


def facts(state: Any, name: Any) -> dict:
    """The same facts read from a finished deal, for `expect`: card points by seat and by side, the
    partner, the declarations, the chains and which side made each figure the contract allows."""
    from interpreter.engine.context import Ctx
    from interpreter.engine.figures import achieved
    from interpreter.harness.scenario_expect import counts_points

    R = state.R
    if state.con is None:
        return {}
    out: dict[str, Any] = {}
    if counts_points(R):            # (each for himself, with nobody declaring: the seats' points alone)
        out["points"] = {name(s): _shown(state.points(s)) for s in state.active}
    if state.declarer is None:
        return out
    if counts_points(R):
        out["side_points"] = {"declarers": _shown(state.points(state.declarers)),
                              "defenders": _shown(state.points(state.defenders))}
    partner = state.partner.get(state.declarer)
    if partner is not None and R.partner.present:
        out["partner"] = name(partner)
    if not R.figures:
        return out
    an = state.announce
    if an.declared:
        out["declared"] = {f: name(s) for f, s in an.declared.items()}
    kontras: dict[str, Any] = {}
    personal: dict[str, Any] = {}
    for (item, owner, other), said in an.chains.items():
        if owner >= 0:
            personal[f"{name(owner)}/{name(other)}"] = len(said)
        else:
            kontras[state.con.name if item == GAME else item] = len(said)
    if kontras:
        out["kontras"] = kontras
    if personal:
        out["personal"] = personal
    c = Ctx(state, cache={})
    made = {}
    for f in R.figures:
        for label, side in (("declarers", state.declarers), ("defenders", state.defenders)):
            if side and achieved(c, f, side):
                made[f] = label
    out["figures"] = made
    return out


def _shown(v: Any) -> Any:
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return v


def settle_outcome(state, outcome, seats, shown, deal, error) -> None:
    """A deal given by its result only (as rule books give scoring examples): settle it directly. `error`
    makes the scenario's E501 for a wrong name or number.

    outcome: {declarer: C, contract: three, tricks: {A: 2, B: 2, C: 6}, playing: [A, B, C],
              host: A, kontra: 1}        or        outcome: {all_pass: true}
    """
    R = state.R
    span = span_of(deal, "outcome")
    if not isinstance(outcome, dict):
        raise error(shown, "'outcome' must be a mapping", span)
    seat = lambda name, what: _seat_index(name, seats, shown, span, what, error)
    if outcome.get("all_pass"):
        state.all_passed = True
        state._apply_rows(R.session_rows.all_pass, record=True)
        name = R.auction.all_pass
        if name is None:                # nothing is played (scenario_expect refuses tricks then)
            state._end()
            return
        # the rule file's all-pass contract is played with no declarer (phases/auction.py _finish)
        state._con = R.in_deal(state, R.contracts[name])
        state.declarer = None
    elif "contract" not in outcome and "declarer" not in outcome and state.con is not None:
        pass                            # the auction was played (the deal's actions): its contract and declarer
    else:
        name = str(outcome.get("contract"))
        if name not in R.contracts:
            raise error(shown, f"unknown contract '{name}'", span, suggestions=best_matches(name, R.contracts))
        state.con = R.in_deal(state, R.contracts[name])
        no_declarer = "declarer" not in outcome and state.con.side == "nobody"     # a game without bidding
        state.declarer = None if no_declarer else seat(outcome.get("declarer"), "declarer")
    tricks = outcome.get("tricks") or {}
    won = own_play(state).tricks_won = [int(tricks.get(n, 0)) for n in seats]
    if sum(won) > R.rs.hand_size:
        raise error(shown, f"the tricks add up to {sum(won)}, more than the {R.rs.hand_size} of a deal", span)
    playing = outcome.get("playing")
    state.playing = tuple(seat(n, "playing seat") for n in playing) if playing else state.active
    if outcome.get("host") is not None:
        df = state.defence
        df.host = seat(outcome["host"], "host")
        df.invited = True
        others = [s for s in state.defenders if s != df.host]
        df.guest = others[0] if others else None
    state.kontra.level = int(outcome.get("kontra", 0))
    if applies(outcome):
        def fail(message, suggestions):
            raise error(shown, message, span, suggestions=suggestions)
        settle_facts(state, outcome, seats, fail)
    state.phase_i = len(R.procedure)
    state._apply_rows(R.settle_rows, record=True)
    state.settled = True
    state._end()


def _seat_index(name, seats, shown, span, what, error):
    if str(name) not in seats:
        raise error(shown, f"unknown {what} '{name}'", span, suggestions=best_matches(str(name), seats))
    return seats.index(str(name))
