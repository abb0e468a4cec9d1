"""The rule language: text to tree (parser), tree to rules document (document), expressions, the canonical writer and the loader that follows `extends`."""
