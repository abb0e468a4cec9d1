"""Semantic checks: small passes over the schema-valid document, each catching what a schema
cannot. Every pass adds diagnostics to the shared context; all passes run, so an author sees
every problem at once."""
from __future__ import annotations

from interpreter.checks import (
    attributes,
    auction_calls,
    bounds,
    contracts,
    deal,
    decisions,
    deck,
    expressions,
    family_forms,
    features,
    ladders,
    options,
    payments,
    phases,
    rankings,
    record_numbers,
    references,
    sits,
    too_early,
    unread,
    variants,
    words,
)
from interpreter.checks.context import Context

PASSES = (references, deck, deal, phases, contracts, options, expressions, features, attributes, variants, words, payments, bounds,
          sits, unread, rankings, decisions, ladders, auction_calls, family_forms, record_numbers,
          too_early)


def run(doc: dict, origins, sources: dict[str, str] | None = None) -> Context:
    ctx = Context(doc, origins, sources=dict(sources or {}))
    for p in PASSES:
        p.check(ctx)
    return ctx
