"""Adapters to the game-AI ecosystem (the optional extra `stichwort[rl]`): a PettingZoo AEC environment
(`interpreter.adapters.pettingzoo_env`) and an OpenSpiel python game (`interpreter.adapters.openspiel_game`),
both built on one action catalogue and information-state encoding (`interpreter.adapters.encoding`)."""
