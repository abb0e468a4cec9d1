"""Presentation for people: the rules booklet (explain) and the terminal table (play)."""
