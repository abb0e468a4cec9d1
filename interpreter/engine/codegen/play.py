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

from interpreter.engine import deals
from interpreter.engine.codegen.expr import ExprGen
from interpreter.engine.figures import card_of

_READS_C = re.compile(r"\bc\b")
_READS_ME = re.compile(r"\bc\.me\b")     # `c.me` is the function's own `me`: no Ctx is built for it alone

# the reference filters this generator reproduces, by rule name (engine/phases/play.OBLIGATIONS)
KNOWN = ("follow_suit", "must_trump", "must_beat", "lowest_winner", "hold_back", "no_lead")


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
    chain = con.obligations

    def inline(ob: Any) -> bool:
        """The generator writes this obligation out; any other is the interpreter's filter, called."""
        return ob.rule in KNOWN and play.OBLIGATIONS.get(ob.rule) is ob.fn

    def tied(ob: Any) -> bool:
        """The obligation reads the declared figures: from the table the play keeps (play.declared_table)."""
        return ob.rule in TIED_RULES and play.OBLIGATIONS.get(ob.rule) is ob.fn

    lists = [ob for ob in chain if ob.rule == "birds_in_order"]    # as declared_table numbers them

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
    suit_masks = tuple(rules.suit_masks)
    suit_of = gen.bind(tuple(rules.suit_of), "suit of each card")
    beaters = gen.bind(tuple(con.beaters), f"cards beating each card in {con.name!r}")
    order = sorted(range(len(con.strength)), key=lambda i: con.strength[i])
    weakest = gen.bind(tuple(1 << i for i in order), f"card bits, weakest first, in {con.name!r}")
    suit_mask_name = gen.bind(suit_masks, "cards of each suit")
    lines = [f"def {name}(st, me):", f"    # the cards `me` may play in {title}: " +
             (", ".join(ob.rule for ob in chain) or "any card"),
             "    hand = st.hands[me]", "    cands = hand", "    trick = st.trick"]
    if any(tied(ob) for ob in chain):
        table = gen.bind(tied_of, "the declared figures each seat keeps for a trick")
        lines.append(f"    T = (st.play.tied or {table}(st))[me]")
    lines.append("    if not trick:")

    def guarded(body: list[str], cond: str | bool | None, indent: str) -> list[str]:
        if cond is False:                  # never applies under this contract
            return [f"{indent}pass  # its condition is false under this contract"]
        out = [indent + b for b in body] + [f"{indent}if m > 0:"]
        if cond is None or cond is True:
            return out + [f"{indent}    cands = m"]
        return out + test(cond, indent + "    ") + [f"{indent}        cands = m"]

    def test(cond: str, indent: str) -> list[str]:
        """`if COND:` over the activation `c`, made first only when the condition reads it."""
        if _READS_C.search(_READS_ME.sub("me", cond)) is None:
            cond = _READS_ME.sub("me", cond)
        make = [f"{indent}c = Ctx(st, me)"] if _READS_C.search(cond) else []
        return make + [f"{indent}if {cond}:"]

    def call(ob: Any, lead: bool, indent: str) -> list[str]:
        """An obligation the generator does not write out, in the chain; one over the declared figures
        only when the seat holds a card of its table (else it does not apply: the common case)."""
        cond = _when(gen, trees, ob)
        if not tied(ob) or cond is False:
            return guarded(called(ob, lead), cond, indent)
        return [f"{indent}if hand & T[0]:"] + guarded(called(ob, lead), cond, indent + "    ")

    def hold_back(ob: Any, indent: str) -> list[str]:
        cards = ob.cards
        out = [f"{indent}held = cands & {cards!r}", f"{indent}if held:", f"{indent}    same = 0"]
        for sm in suit_masks:
            if sm & cards:
                out += [f"{indent}    if held & {sm!r}:", f"{indent}        same |= {sm!r}"]
        out.append(f"{indent}    m = cands & {~cards!r} if hand & same & {~cards!r} else cands")
        return out + guarded([], _when(gen, trees, ob), indent + "    ")

    # at the lead only the obligations marked `at_lead` are asked (as the interpreter does)
    for ob in chain:
        if not ob.at_lead:
            continue
        if not inline(ob):
            lines.append(f"        # {ob.rule}, " + ("over the table of declared figures" if tied(ob) else "the interpreter's"))
            lines += call(ob, True, "        ")
        elif ob.rule == "no_lead" and ob.suit is not None:
            lines.append(f"        # {ob.rule}")
            lines += guarded([f"m = cands & {~suit_masks[ob.suit]!r}"], _when(gen, trees, ob), "        ")
        elif ob.rule == "hold_back":
            lines.append(f"        # {ob.rule}")
            lines += hold_back(ob, "        ")
    lines += ["        return cands", f"    led = {suit_of}[trick[0][1]]", "    win = st.win[1]"]
    for ob in chain:
        if not inline(ob):
            lines.append(f"    # {ob.rule}, " + ("over the table of declared figures" if tied(ob) else "the interpreter's"))
            lines += call(ob, False, "    ")
            continue
        if ob.rule == "no_lead":      # it restricts the lead only
            continue
        lines.append(f"    # {ob.rule}")
        if ob.rule == "follow_suit":
            lines += guarded([f"m = cands & {suit_mask_name}[led]"], _when(gen, trees, ob), "    ")
        elif ob.rule == "must_trump":
            mask = suit_masks[ob.suit] if ob.suit is not None else con.trump_mask
            lines.append(f"    if not hand & {suit_mask_name}[led]:")
            lines += guarded([f"m = cands & {mask!r}"], _when(gen, trees, ob), "        ")
        elif ob.rule == "must_beat":
            lines += guarded([f"m = cands & {beaters}[win]"], _when(gen, trees, ob), "    ")
        elif ob.rule == "lowest_winner":
            # the weakest winner is a card (m > 0) whenever there are winners: the condition is asked
            # first, so that the search is made only when the obligation applies
            lines += [f"    winners = cands & {beaters}[win]", "    if winners:"]
            cond = _when(gen, trees, ob)
            indent = "        "
            if cond is False:
                lines.append(f"{indent}pass  # its condition is false under this contract")
                continue
            if cond is not None and cond is not True:
                lines += test(cond, indent)
                indent += "    "
            lines += [f"{indent}for m in {weakest}:", f"{indent}    if winners & m:", f"{indent}        break",
                      f"{indent}cands = m"]
        elif ob.rule == "hold_back":
            lines += hold_back(ob, "    ")
    lines.append("    return cands")
    return "\n".join(lines) + "\n"


# ---- the declared figures, worked out once per deal --------------------------------------------------
# While the cards are played the declarations, the sides and the figures' cards stay as they are, so what
# engine/phases/play._declared gives a seat is its entry of this table filtered by its hand. The
# interpreter's filters stay the reference; the generated code reads the table (TIED_RULES: the
# obligations that do), worked out at its first use in the play and kept in the play's state.

TIED_RULES = ("declared_cards", "birds_in_order")


def declared_table(st: Any) -> tuple:
    """Per seat: (mask of the cards of its tied figures, ((card, trick, bit, above), …) in the order of the
    declarations, per `birds_in_order` obligation of the contract (mask of those cards in its list, their
    bits highest first)); `above`: the seat's tied cards that keep `card` back by the order of a list."""
    con = st._con
    assert con is not None
    lists = [ob.cards for ob in con.obligations if ob.rule == "birds_in_order"]
    none = (0, (), ((0, ()),) * len(lists))
    declared = st.announce.declared
    if not declared:
        return (none,) * st.n
    kept = {name: f for name, f in st.R.figures.items() if f.trick}
    said = list(declared)
    order = st.R.order_of
    out = []
    for me in range(st.n):
        mine = me in st.declarers
        tied = []
        for name, f in kept.items():
            if name not in declared:
                continue
            who = declared[name]
            if isinstance(who, tuple):
                if not any((s in st.declarers) == mine for s in who):
                    continue
            elif (who in st.declarers) != mine:
                continue
            card = f.card
            if card < 0 and f.card_expr is not None:
                card = card_of(st, f)
            if card >= 0:
                tied.append((said.index(name), card, f.trick if f.trick > 0 else deals.tricks_total(st) + f.trick + 1))
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
            inside = [card for _, card, _t in tied if cards >> card & 1]
            top = sorted(inside, key=lambda c: -order[c])       # stable: the first declared of equal order first
            birds.append((sum({1 << c for c in inside}), tuple(dict.fromkeys(1 << c for c in top))))
        mask = 0
        for _, card, _t in tied:
            mask |= 1 << card
        out.append((mask, tuple(entries), tuple(birds)) if tied else none)
    return tuple(out)


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
