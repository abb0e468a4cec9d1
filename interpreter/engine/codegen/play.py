"""The cards a seat may play, generated per contract: the obligation chain of engine/phases/play.py
unrolled, with the suit masks, beaters and strength order of the contract as constants, and each
obligation's `when` inlined as a Python expression.

An obligation this generator does not write out (one it does not know, or one whose filter in the
interpreter's table is no longer the one it reproduces) is the interpreter's filter, called in its
place in the chain with the arguments the interpreter gives it."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.engine.codegen.expr import ExprGen

_READS_C = re.compile(r"\bc\b")

# the reference filters this generator reproduces, by rule name (engine/phases/play.OBLIGATIONS)
KNOWN = ("follow_suit", "must_trump", "must_beat", "lowest_winner", "hold_back", "no_lead")


# reference filters that leave the cards as they are while nothing is declared (engine/phases/play._declared):
# the generated code asks them only when something is
QUIET_UNDECLARED = ("declared_cards", "birds_in_order")


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


def _playable(name: str, title: str, con: Any, rules: Any, gen: ExprGen, trees: Callable[[Any], Any],
              play: Any) -> str:
    chain = con.obligations

    def inline(ob: Any) -> bool:
        """The generator writes this obligation out; any other is the interpreter's filter, called."""
        return ob.rule in KNOWN and play.OBLIGATIONS.get(ob.rule) is ob.fn

    def called(ob: Any, lead: bool) -> list[str]:
        fn = gen.bind(ob.fn, f"the interpreter's filter {ob.rule!r}")
        it = gen.bind(ob, f"the obligation {ob.rule!r} of {con.name!r}")
        where = "-1, -1" if lead else "led, win"
        call = f"m = {fn}(st, {it}, me, hand, cands, {where}, st.con)"
        if ob.rule in QUIET_UNDECLARED and play.OBLIGATIONS.get(ob.rule) is ob.fn:
            return [f"m = -1 if not st.announce.declared else {call[4:]}"]
        return [call]
    suit_masks = tuple(rules.suit_masks)
    suit_of = gen.bind(tuple(rules.suit_of), "suit of each card")
    beaters = gen.bind(tuple(con.beaters), f"cards beating each card in {con.name!r}")
    order = sorted(range(len(con.strength)), key=lambda i: con.strength[i])
    weakest = gen.bind(tuple(1 << i for i in order), f"card bits, weakest first, in {con.name!r}")
    suit_mask_name = gen.bind(suit_masks, "cards of each suit")
    lines = [f"def {name}(st, me):", f"    # the cards `me` may play in {title}: " +
             (", ".join(ob.rule for ob in chain) or "any card"),
             "    hand = st.hands[me]", "    cands = hand", "    pl = st.play", "    trick = pl.trick",
             "    if not trick:"]

    def guarded(body: list[str], cond: str | bool | None, indent: str) -> list[str]:
        if cond is False:                  # never applies under this contract
            return [f"{indent}pass  # its condition is false under this contract"]
        out = [indent + b for b in body] + [f"{indent}if m > 0:"]
        if cond is None or cond is True:
            return out + [f"{indent}    cands = m"]
        make = [f"{indent}    c = Ctx(st, me)"] if _READS_C.search(cond) else []
        return out + make + [f"{indent}    if {cond}:", f"{indent}        cands = m"]

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
            lines.append(f"        # {ob.rule}, the interpreter's")
            lines += guarded(called(ob, True), _when(gen, trees, ob), "        ")
        elif ob.rule == "no_lead" and ob.suit is not None:
            lines.append(f"        # {ob.rule}")
            lines += guarded([f"m = cands & {~suit_masks[ob.suit]!r}"], _when(gen, trees, ob), "        ")
        elif ob.rule == "hold_back":
            lines.append(f"        # {ob.rule}")
            lines += hold_back(ob, "        ")
    lines += ["        return cands", f"    led = {suit_of}[trick[0][1]]", "    win = pl.win[1]"]
    for ob in chain:
        if not inline(ob):
            lines.append(f"    # {ob.rule}, the interpreter's")
            lines += guarded(called(ob, False), _when(gen, trees, ob), "    ")
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
            lines += [f"    winners = cands & {beaters}[win]", "    if winners:",
                      f"        for m in {weakest}:", "            if winners & m:", "                break"]
            lines += guarded([], _when(gen, trees, ob), "        ")
        elif ob.rule == "hold_back":
            lines += hold_back(ob, "    ")
    lines.append("    return cands")
    return "\n".join(lines) + "\n"
