"""Small helpers the rule tests share: act by action text, and read the legal actions as text."""
from __future__ import annotations


def act(state, text: str) -> None:
    """Apply the legal action whose canonical text is `text`; fail the test if there is none."""
    for a in state.legal_actions():
        if state.action_text(a) == text:
            state.apply(a)
            return
    raise AssertionError(f"{text!r} is not legal; legal: {[state.action_text(a) for a in state.legal_actions()]}")


def legal_texts(state) -> set[str]:
    return {state.action_text(a) for a in state.legal_actions()}
