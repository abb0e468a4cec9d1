"""Bounds every deal keeps, shared by the checker (which warns where a rule file relies on them) and
the engine (which enforces them)."""
from __future__ import annotations

DEFAULT_KONTRA_MAX = 8
"""The longest kontra chain when a rule file writes no `max` (or `max = none`): kontra, rekontra and
six more. No table plays longer chains; the bound keeps every deal finite."""
