"""The phases of a deal, one module each; State (engine/state.py) combines them."""
