"""The cards a seat may play, generated per contract: the obligation chain of engine/phases/play.py
unrolled, with the suit masks, beaters and strength order of the contract as constants, and each
obligation's `when` inlined as a Python expression.

An obligation this generator does not write out (one it does not know, or one whose filter in the
interpreter's table is no longer the one it reproduces) is the interpreter's filter, called in its
place in the chain with the arguments the interpreter gives it. The obligations over declared figures
(`declared_cards`, `birds_in_order`) read a table worked out at their first use in the play
(declared_table, below) instead of the declarations."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.codegen.expr import ExprGen
from interpreter.engine import cards as card_sets
from interpreter.engine import deals
from interpreter.engine.figures import card_of
from interpreter.engine.phases.play import trick_figures

_READS_C = re.compile(r"\bc\b")
_READS_ME = re.compile(r"\bc\.me\b")     # `c.me` is the function's own `me`: no Ctx is built for it alone

# the reference filters this generator reproduces, by rule name (engine/phases/play.OBLIGATIONS)
KNOWN = ("follow_suit", "must_trump", "must_beat", "lowest_winner", "hold_back", "no_lead", "must_play", "avoid")
CARD_SET = {"must_play": "m = cands & {0!r}", "avoid": "m = cands & {1!r}"}   # (phases/card_obligations.py)


def _when(gen: ExprGen, trees: Callable[[Any], Any], ob: Any) -> str | bool | None:
    """The obligation's condition as source over `c` (built on demand), True or False when it is known
    under this contract, or None when it has none."""
    if ob.when is None:
        return None
    node = trees(ob.when)
    if node is None:
        return gen.bind(ob.when, f"condition of {ob.rule!r}") + "(c)"
    g = gen.expr(node)
    if g.const:
        return bool(g.value)
    return g.src


def playable_source(name: str, title: str, con: Any, rules: Any, gen: ExprGen,
                    trees: Callable[[Any], Any]) -> str | None:
    """`def name(st, me)` giving the mask of cards `me` may play under `con`, or None if not covered."""
    from interpreter.engine.phases import play

    # in these functions the contract is `con`: its ref and trump are folded as constants
    outer, gen.known = gen.known, {"contract": con.ref,
                                   "trump": rules.suit_names[con.trump] if con.trump >= 0 else None}
    try:
        return _playable(name, title, con, rules, gen, trees, play)
    finally:
        gen.known = outer


def ends_never(con: Any, rules: Any, gen: ExprGen, trees: Callable[[Any], Any]) -> bool:
    """The contract's early end (`early_end`) is false in every deal under it: its condition, with the
    contract and its trump known, folds to false (then the play need not ask it after each trick)."""
    if con.early_end is None:
        return False
    node = trees(con.early_end)
    if node is None:
        return False
    outer, gen.known = gen.known, {"contract": con.ref,
                                   "trump": rules.suit_names[con.trump] if con.trump >= 0 else None}
    try:
        g = gen.expr(node)
    finally:
        gen.known = outer
    return bool(g.const) and not g.value


def _playable(name: str, title: str, con: Any, rules: Any, gen: ExprGen, trees: Callable[[Any], Any],
              play: Any) -> str:
    """Written per contract, so that what is known under it costs nothing per card: an obligation whose
    condition is false, or whose cards are none, is left out (a comment says so); consecutive obligations
    over the declared figures share one test of the hand; `win` is read only when an obligation reads it."""
    chain = con.obligations

    def inline(ob: Any) -> bool:
        """The generator writes this obligation out; any other is the interpreter's filter, called."""
        return ob.rule in KNOWN and play.OBLIGATIONS.get(ob.rule) is ob.fn and not ob.cards_expr

    def tied(ob: Any) -> bool:
        """The obligation reads the declared figures: from the table the play keeps (play.declared_table)."""
        return ob.rule in TIED_RULES and play.OBLIGATIONS.get(ob.rule) is ob.fn

    lists = [ob for ob in chain if ob.rule == "birds_in_order"]    # as declared_table numbers them
    conds = {id(ob): _when(gen, trees, ob) for ob in chain}
    suit_masks = tuple(con.suit_masks)      # the suits as the contract's ranking sees them (engine/ranking.py)

    def trump_mask(ob: Any) -> int:
        return suit_masks[ob.suit] if ob.suit is not None else con.trump_mask

    def void(ob: Any) -> bool:
        """Never restricts the cards under this contract: its condition is false, or it leaves no card."""
        return conds[id(ob)] is False or (inline(ob) and ob.rule == "must_trump" and not trump_mask(ob))

    def called(ob: Any, lead: bool) -> list[str]:
        if tied(ob) and ob.rule == "declared_cards":
            due = gen.bind(tied_due, "declared_cards over the table of declared figures")
            return [f"m = {due}(T[1], hand, cands, len(st.play.history) + 1)"]
        if tied(ob):
            j = next(i for i, x in enumerate(lists) if x is ob)
            order = gen.bind(tied_order, "birds_in_order over the table of declared figures")
            return [f"tb = hand & T[2][{j}][0]", f"m = {order}(T[2][{j}][1], tb, cands) if tb & (tb - 1) else -1"]
        fn = gen.bind(ob.fn, f"the interpreter's filter {ob.rule!r}")
        it = gen.bind(ob, f"the obligation {ob.rule!r} of {con.name!r}")
        where = "-1, -1" if lead else "led, win"
        return [f"m = {fn}(st, {it}, me, hand, cands, {where}, st.con)"]
    suit_of = gen.bind(tuple(con.suit_of), "suit of each card")
    beaters = gen.bind(tuple(con.beaters), f"cards beating each card in {con.name!r}")
    order = sorted(range(len(con.strength)), key=lambda i: con.strength[i])
    weakest = gen.bind(tuple(1 << i for i in order), f"card bits, weakest first, in {con.name!r}")
    suit_mask_name = gen.bind(suit_masks, "cards of each suit")
    lines = [f"def {name}(st, me):", f"    # the cards `me` may play in {title}: " +
             (", ".join(ob.rule for ob in chain) or "any card"),
             "    hand = st.hands[me]", "    cands = hand", "    trick = st.trick"]
    if any(tied(ob) and not void(ob) for ob in chain):
        table = gen.bind(tied_of, "the declared figures each seat keeps for a trick")
        lines.append(f"    T = (st.play.tied or {table}(st))[me]")
    lines.append("    if not trick:")

    def guarded(body: list[str], cond: str | bool | None, indent: str) -> list[str]:
        out = [indent + b for b in body] + [f"{indent}if m > 0:"]
        if cond is None or cond is True:
            return out + [f"{indent}    cands = m"]
        return out + test(cond, indent + "    ") + [f"{indent}        cands = m"]

    def test(cond: str | bool, indent: str) -> list[str]:
        """`if COND:` over the activation `c`, made first only when the condition reads it (a void
        obligation, whose condition is false, is never written)."""
        assert isinstance(cond, str)
        if _READS_C.search(_READS_ME.sub("me", cond)) is None:
            cond = _READS_ME.sub("me", cond)
        make = [f"{indent}c = Ctx(st, me)"] if _READS_C.search(cond) else []
        return make + [f"{indent}if {cond}:"]

    def hold_back(ob: Any, indent: str) -> list[str]:
        cards = ob.cards
        suits = [sm for sm in suit_masks if sm & cards]
        if len(suits) == 1:         # the cards of one suit: another card of it in hand is one test
            other = suits[0] & ~cards
            return [f"{indent}if cands & {cards!r} and hand & {other!r}:", f"{indent}    m = cands & {~cards!r}"] \
                + guarded([], conds[id(ob)], indent + "    ")
        out = [f"{indent}held = cands & {cards!r}", f"{indent}if held:", f"{indent}    same = 0"]
        for sm in suits:
            out += [f"{indent}    if held & {sm!r}:", f"{indent}        same |= {sm!r}"]
        out.append(f"{indent}    m = cands & {~cards!r} if hand & same & {~cards!r} else cands")
        return out + guarded([], conds[id(ob)], indent + "    ")

    def block(obs: list, lead: bool, indent: str) -> list[str]:
        """The obligations in order; a run of consecutive ones over the declared figures under one test
        of the hand (a seat holding no card of its table: none of them applies, the common case)."""
        out: list[str] = []
        i = 0
        while i < len(obs):
            ob = obs[i]
            if void(ob):
                out.append(f"{indent}# {ob.rule}: never applies under this contract")
                i += 1
                continue
            if tied(ob):
                run = [ob]
                while i + len(run) < len(obs) and (tied(obs[i + len(run)]) or void(obs[i + len(run)])):
                    run.append(obs[i + len(run)])
                out.append(f"{indent}if T[0] and hand & T[0]:")     # (none tied, the common case: no mask taken)
                for x in run:
                    if void(x):
                        out.append(f"{indent}    # {x.rule}: never applies under this contract")
                    else:
                        out.append(f"{indent}    # {x.rule}, over the table of declared figures")
                        out += guarded(called(x, lead), conds[id(x)], indent + "    ")
                i += len(run)
                continue
            i += 1
            if not inline(ob):
                out.append(f"{indent}# {ob.rule}, the interpreter's")
                out += guarded(called(ob, lead), conds[id(ob)], indent)
                continue
            out.append(f"{indent}# {ob.rule}")
            out += written(ob, lead, indent)
        return out

    def written(ob: Any, lead: bool, indent: str) -> list[str]:
        cond = conds[id(ob)]
        if ob.rule in CARD_SET:         # the same at the lead and in a trick
            return guarded([CARD_SET[ob.rule].format(ob.cards, ~ob.cards)], cond, indent) if ob.cards else []
        if lead:
            if ob.rule == "no_lead":
                return guarded([f"m = cands & {~suit_masks[ob.suit]!r}"], cond, indent)
            return hold_back(ob, indent)
        if ob.rule == "follow_suit":
            if follows:
                return [f"{indent}if follows:"] + (
                    [f"{indent}    cands = follows"] if cond is None or cond is True
                    else test(cond, indent + "    ") + [f"{indent}        cands = follows"])
            return guarded([f"m = cands & {suit_mask_name}[led]"], cond, indent)
        if ob.rule == "must_trump":
            lead_suit = "follows" if follows else f"hand & {suit_mask_name}[led]"
            if trumps is not None and ob is trumps[0]:     # its cards listed through their suit's tables
                return [f"{indent}if not {lead_suit}:", f"{indent}    tr = cands & {trump_mask(ob)!r}",
                        f"{indent}    if tr > 0:", f"{indent}        cands = tr"]
            return [f"{indent}if not {lead_suit}:"] + guarded([f"m = cands & {trump_mask(ob)!r}"], cond, indent + "    ")
        if ob.rule == "must_beat":
            if id(ob) in beats_first:      # its winners are the next obligation's (lowest_winner)
                return [f"{indent}winners = cands & {beaters}[win]", f"{indent}if winners:",
                        f"{indent}    cands = winners"]
            return guarded([f"m = cands & {beaters}[win]"], cond, indent)
        if ob.rule == "lowest_winner":
            # the weakest winner is a card (m > 0) whenever there are winners: the condition is asked
            # first, so that the search is made only when the obligation applies
            out = [] if id(ob) in beaten else [f"{indent}winners = cands & {beaters}[win]"]
            out.append(f"{indent}if winners:")
            indent += "    "
            if cond is not None and cond is not True:
                out += test(cond, indent)
                indent += "    "
            return out + [f"{indent}for m in {weakest}:", f"{indent}    if winners & m:", f"{indent}        break",
                          f"{indent}cands = m"]
        return hold_back(ob, indent)

    # at the lead only the obligations marked `at_lead` are asked (as the interpreter does)
    at_lead = [ob for ob in chain if ob.at_lead and (not inline(ob) or ob.rule == "hold_back" or ob.rule in CARD_SET
                                                     or (ob.rule == "no_lead" and ob.suit is not None))]
    follows = False
    lines += _statements(block(at_lead, True, "        "), "        ")
    lines.append("    else:")
    # (no_lead, and the called card's lead_with, apply at the lead only: in a trick they never restrict)
    in_trick = [ob for ob in chain if not (inline(ob) and ob.rule == "no_lead")
                and not (ob.rule == "lead_with" and play.OBLIGATIONS.get(ob.rule) is ob.fn)]
    live = [ob for ob in in_trick if not void(ob)]
    # the hand's cards of the led suit, read once when the chain starts by following suit and must trump,
    # or by following suit unconditionally: then, when the hand has a card of the led suit, the cards left
    # at the end are of that suit (the later filters only keep some of their candidates), listed through
    # the suit's own tables (_suit_listing)
    first = live[0] if live else None
    leads = first is not None and inline(first) and first.rule == "follow_suit"
    always = leads and conds[id(first)] in (None, True)
    follows = leads and (always or any(inline(ob) and ob.rule == "must_trump" for ob in live))
    by_suit = _suit_tables(suit_masks) if always and all(inline(ob) or tied(ob) for ob in live) else None
    # … and when it has none, the cards left are trumps if it has some: its one unconditional must_trump
    # (over a suit's cards) applied, `tr` (listed through that suit's tables)
    obliged = [ob for ob in live if ob.rule == "must_trump"]
    trumps = None
    if by_suit is not None and len(obliged) == 1 and conds[id(obliged[0])] in (None, True) \
            and trump_mask(obliged[0]) in suit_masks:
        trumps = (obliged[0], suit_masks.index(trump_mask(obliged[0])))
    # an unconditional must_beat just before lowest_winner leaves as candidates the winners, if any, which
    # are the cards lowest_winner chooses among: worked out once
    beats_first, beaten = set(), set()
    for a, b in zip(live, live[1:]):
        if inline(a) and inline(b) and a.rule == "must_beat" and b.rule == "lowest_winner" and conds[id(a)] in (None, True):
            beats_first.add(id(a))
            beaten.add(id(b))
    called_ = [ob for ob in live if not inline(ob) and not tied(ob)]      # (given `led` and `win`)
    in_lines = []
    if called_ or any(ob.rule in ("follow_suit", "must_trump") for ob in live):
        in_lines.append(f"        led = {suit_of}[trick[0][1]]")
    if called_ or any(ob.rule in ("must_beat", "lowest_winner") for ob in live):
        in_lines.append("        win = st.win[1]")
    if follows:
        in_lines.append(f"        follows = hand & {suit_mask_name}[led]")
    lines += _statements(in_lines + block(in_trick, False, "        "), "        ")
    if by_suit is not None:
        lines += _suit_listing(by_suit, trumps[1] if trumps is not None else None, gen)
    lines += _listing(len(rules.suit_of), gen)
    return "\n".join(lines) + "\n"


def _statements(lines: list[str], indent: str) -> list[str]:
    """A block's lines, with a `pass` when they are comments only."""
    if all(line.lstrip().startswith("#") for line in lines):
        return lines + [indent + "pass"]
    return lines


def _listing(n_cards: int, gen: ExprGen) -> list[str]:
    """Statements returning the card indices in the mask `cands`, lowest first, as cards.bits gives them,
    written for a deck of `n_cards`: through its tables of 11-bit chunks; for a deck of 34 to 60 cards, of
    10-bit chunks of the mask's two 30-bit halves, a half without a card skipped; a call of bits() above."""
    if n_cards > 60:
        return [f"    return {gen.bind(card_sets.bits, 'the cards of a mask')}(cands)"]

    def chunks(tables: tuple, value: str, bits: int, width: int) -> str:
        """The items of a list display of the cards of `value` (`bits` wide), `width` bits a table."""
        terms = []
        for k in range(max(1, (bits + width - 1) // width)):
            t = gen.bind(tables[k], f"the cards of a {width}-bit chunk of a mask")
            shifted = f"{value} >> {width * k}" if k else value
            terms.append(f"*{t}[{shifted}]" if width * (k + 1) >= bits else f"*{t}[{shifted} & {(1 << width) - 1}]")
        return ", ".join(terms)
    if n_cards <= 33:
        return [f"    return [{chunks((card_sets._C0, card_sets._C1, card_sets._C2), 'cands', n_cards, 11)}]"]
    low = (card_sets._T0, card_sets._T1, card_sets._T2)
    high = (card_sets._T3, card_sets._T4, card_sets._T5)
    upper = chunks(high, "hi", n_cards - 30, 10)
    return [f"    if cands < {1 << 30}:", f"        return [{chunks(low, 'cands', 30, 10)}]",
            "    hi = cands >> 30", f"    lo = cands & {(1 << 30) - 1}", "    if lo:",
            f"        return [{chunks(low, 'lo', 30, 10)}, {upper}]", f"    return [{upper}]"]


def _suit_tables(suit_masks: tuple) -> tuple | None:
    """For listing a mask of one suit's cards: per suit, its lowest card's index, and the cards (as
    indices, lowest first) of every value of its next 11 bits, and of the 11 above them (a suit spanning
    at most 22 bits; None when one spans more, or has no card). Made once per set of suit masks."""
    key = tuple(suit_masks)
    kept = _SUIT_TABLES.get(key)
    if kept is not None or key in _SUIT_TABLES:
        return kept
    offsets, low, high = [], [], []
    for sm in key:
        if sm <= 0 or sm.bit_length() - ((sm & -sm).bit_length() - 1) > 22:
            _SUIT_TABLES[key] = None
            return None
        off = (sm & -sm).bit_length() - 1
        span = sm.bit_length() - off
        offsets.append(off)
        low.append(tuple(tuple(off + i for i in range(11) if x >> i & 1) for x in range(1 << min(span, 11))))
        high.append(tuple(tuple(off + 11 + i for i in range(11) if x >> i & 1) for x in range(1 << max(span - 11, 0))))
    tables = _SUIT_TABLES[key] = (tuple(offsets), tuple(low), tuple(high))
    return tables


_SUIT_TABLES: dict[tuple, tuple | None] = {}


def _suit_listing(tables: tuple, trump: int | None, gen: ExprGen) -> list[str]:
    """Statements returning the cards of `cands` when they are all of the led suit (`follows`: the hand
    has a card of it), or all trumps of the suit `trump` (`tr`: the hand had none of the led suit and some
    trumps), through the suit's tables (_suit_tables): one look-up for a suit of at most 11 bits, two above."""
    offsets, low, high = (gen.bind(t, f"{what} of each suit") for t, what in zip(
        tables, ("the lowest card's index", "the cards of the lowest 11 bits", "the cards of the next 11 bits")))
    out = ["        if follows:", f"            x = cands >> {offsets}[led]", "            if x < 2048:",
           f"                return [*{low}[led][x]]", f"            return [*{low}[led][x & 2047], *{high}[led][x >> 11]]"]
    if trump is not None:
        t = trump
        out += ["        if tr > 0:", f"            x = cands >> {tables[0][t]!r}", "            if x < 2048:",
                f"                return [*{low}[{t}][x]]", f"            return [*{low}[{t}][x & 2047], *{high}[{t}][x >> 11]]"]
    return out


# ---- the declared figures, worked out once per deal --------------------------------------------------
# While the cards are played the declarations, the sides and the figures' cards stay as they are, so what
# engine/phases/play._declared gives a seat is its entry of this table filtered by its hand. The
# interpreter's filters stay the reference; the generated code reads the table (TIED_RULES: the
# obligations that do), worked out at its first use in the play and kept in the play's state.

TIED_RULES = ("declared_cards", "birds_in_order")


def declared_table(st: Any) -> tuple:
    """Per seat: (mask of the cards of its tied figures, ((card, trick, bit, above), …) in the order of the
    declarations, per `birds_in_order` obligation of the contract (mask of those cards in its list, their
    bits highest first)); `above`: the seat's tied cards that keep `card` back by the order of a list.
    A seat's entry holds the figures it declared itself (a partner's declaration does not bind it). The
    table depends on nothing but the figures' (place in the declarations, declaring seat, card, trick),
    the contract's lists and the seats: kept by those per rule set (a few hundred at most)."""
    con = st._con
    assert con is not None
    lists = tuple(ob.cards for ob in con.obligations if ob.rule == "birds_in_order")
    none = (0, (), ((0, ()),) * len(lists))
    declared = st.announce.declared
    if not declared:
        return (none,) * st.n
    named = [(name, f) for name, f in trick_figures(st.R)[1].items() if name in declared]
    if not named:                   # none of the figures declared is kept for a trick
        return (none,) * st.n
    said = list(declared)
    figures = []
    for name, f in named:
        card = f.card
        if card < 0 and f.card_expr is not None:
            card = card_of(st, f)
        if card >= 0:
            figures.append((said.index(name), declared[name], card,
                            f.trick if f.trick > 0 else deals.tricks_total(st) + f.trick + 1))
    key = (lists, st.n, tuple(figures))
    memo = st.R.memos.declared_tables
    table = memo.get(key)
    if table is not None:
        return table
    out = [_seat_entry(st.R.order_of, me, figures, lists) or none for me in range(st.n)]
    if len(memo) >= _TABLES_KEPT:
        memo.clear()
    table = memo[key] = tuple(out)
    return table


_TABLES_KEPT = 512


def _seat_entry(order: list, me: int, figures: list, lists: tuple) -> tuple | None:
    """declared_table's entry of the seat `me`: the figures it declared; None: no tied figure."""
    tied = []
    for said, who, card, trick in figures:
        if not (me in who if isinstance(who, tuple) else who == me):
            continue
        tied.append((said, card, trick))
    if not tied:
        return None
    tied.sort()
    entries = []
    for _, card, trick in tied:
        above = 0
        for cards in lists:
            if cards >> card & 1:
                for _, c, _t in tied:
                    if c != card and cards >> c & 1 and order[c] > order[card]:
                        above |= 1 << c
        entries.append((card, trick, 1 << card, above))
    birds = []
    for cards in lists:
        inside = []
        held = 0
        for _, card, _t in tied:
            if cards >> card & 1:
                inside.append(card)
                held |= 1 << card
        inside.sort(key=order.__getitem__, reverse=True)    # stable: the first declared of equal order first
        birds.append((held, tuple(dict.fromkeys([1 << c for c in inside]))))
    mask = 0
    for _, card, _t in tied:
        mask |= 1 << card
    return (mask, tuple(entries), tuple(birds))


def tied_of(st: Any) -> tuple:
    """The table as the play keeps it, worked out now if not yet (kept once the play has started)."""
    tied = st.play.tied
    if tied is None:
        tied = declared_table(st)
        if st.phase == "play":          # the declarations are made
            st.play.tied = tied
    return tied


def tied_due(entries: tuple, hand: int, cands: int, now: int) -> int:
    """declared_cards over a seat's entry of the table (the seat holds one of its cards)."""
    keep, due = cands, 0
    for _card, trick, bit, above in entries:
        if not hand & bit:
            continue
        if now < trick:
            keep &= ~bit
        elif cands & bit and not hand & above:
            due |= bit
    return due if due else keep


def tied_order(top: tuple, held: int, cands: int) -> int:
    """birds_in_order over a list's declared cards held (two or more): all but the highest are kept back."""
    for bit in top:
        if held & bit:
            return cands & ~(held & ~bit)
    return -1
