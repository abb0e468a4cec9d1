"""Small helpers the rule tests share: act by action text, and read the legal actions as text."""
from __future__ import annotations


def act(state, text: str) -> None:
    """Apply the legal action whose canonical text is `text`, or that `text` names by a call's or
    contract's name instead of its word (`bid game_c`); fail the test if there is none."""
    from interpreter.engine.text import parse

    for a in state.legal_actions():
        if state.action_text(a) == text:
            state.apply(a)
            return
    try:
        state.apply(parse(state, text))
        return
    except ValueError:
        pass
    raise AssertionError(f"{text!r} is not legal; legal: {[state.action_text(a) for a in state.legal_actions()]}")


def legal_texts(state) -> set[str]:
    return {state.action_text(a) for a in state.legal_actions()}
