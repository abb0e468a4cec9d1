"""Running rule files at scale and against expectations: simulation, replay and scenario files."""
