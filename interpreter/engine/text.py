"""Action text: the one spelling of each action, and reading text back into an action.

Text is matched against the legal actions of the state, so what can be typed is exactly what may
be done; a text that names no legal action gets a message listing the legal ones.
"""
from __future__ import annotations

from interpreter.engine import actions as A
from interpreter.engine.phases import choice
from interpreter.engine.state import State, action_text
from interpreter.model.words import ACTION_WORDS as DEFAULT_WORDS


def aliases(state: State, action: int) -> list[str]:
    """The canonical text first, then other accepted spellings."""
    R = state.R
    text = state.action_text(action)
    out = [text]
    if R.default_words != R.words:  # the default words stay accepted
        out.append(action_text(state, action, R.default_words))
        out.append(action_text(state, action, DEFAULT_WORDS))
    kind, arg = A.kind_of(action), A.arg_of(action)
    if kind == A.BID:  # the call's name is accepted beside its word (`bid five_wp`, `five_wp`)
        call = R.calls[arg]
        for bid in dict.fromkeys((R.words["bid"], R.default_words["bid"], DEFAULT_WORDS["bid"])):
            out += [f"{bid} {call.name}", f"{bid} {call.word}"]
        out += [call.name, call.word]
    elif kind in (A.DECLARE, A.REVEAL):
        name = R.contract_names[arg]
        con = R.contracts[name]
        for declare in dict.fromkeys((R.words["declare"], R.default_words["declare"], DEFAULT_WORDS["declare"])):
            out.append(f"{declare} {name}")
        out += [name, R.contract_words.get(name, name)]
        if con.trump >= 0:
            same_trump = [a for a in state.legal_actions() if A.kind_of(a) == kind
                          and R.contracts[R.contract_names[A.arg_of(a)]].trump == con.trump]
            if len(same_trump) == 1:
                out.append("trump " + R.suit_names[con.trump])
    elif kind == A.HOLD:
        out.append("hold")
    elif kind == A.CHOOSE:             # an option by its name too (`pick_up`, `pickup pick_up`)
        out += choice.names(state, action)
    elif kind in (A.KONTRA, A.ITEM_KONTRA) and R.level_words:     # a kontra level by its name too
        for name, spoken in R.level_words.items():
            if text == spoken or text.startswith(spoken + " "):
                out.append(name + text[len(spoken):])
    return out


def _norm(text: str) -> str:
    return " ".join(str(text).split()).lower()


def parse(state: State, text: str) -> int:
    """The legal action `text` names; raises ValueError with the legal actions listed."""
    want = _norm(text)
    legal = state.legal_actions()
    for a in legal:
        if any(_norm(t) == want for t in aliases(state, a)):
            return a
    shown = ", ".join(state.action_text(a) for a in legal[:40]) + (" …" if len(legal) > 40 else "")
    raise ValueError(f"'{text}' is not a legal action here (phase {state.phase}); legal: {shown}")
