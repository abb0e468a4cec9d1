"""Errors the engine raises about a rule file while playing it."""
from __future__ import annotations


class RuleRuntimeError(Exception):
    """A rule expression that cannot be given a meaning while playing (say `2 ^ 200`): a fault of the rule
    file found at run time, reported in words, never a silent 0."""
