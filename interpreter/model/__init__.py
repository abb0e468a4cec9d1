"""The compiled model of a game: the vocabulary registry, deck facts and the immutable Ruleset."""
