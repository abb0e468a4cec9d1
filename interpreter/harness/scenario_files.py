"""Which scenario files `stichwort test` runs: every `*.yaml` under the games (no argument), a folder's,
a file, or a built-in game's (the files next to its rule file that say `rules: NAME`)."""
from __future__ import annotations

from pathlib import Path

from interpreter.diagnostics import Diagnostic, DiagnosticError, best_matches


def find_scenarios(targets) -> list[Path]:
    from interpreter.files import special_file
    from interpreter.resources import builtin_games, games_dir

    out = []
    if not targets:
        return sorted(games_dir().rglob("*.yaml"))
    games = builtin_games()
    for t in targets:
        p = Path(t)
        if p.is_dir():
            out += sorted(p.rglob("*.yaml"))
        elif p.is_file() or special_file(p) is not None:     # a named pipe: refused when read, never opened
            out.append(p)
        elif t in games:
            folder = games[t].parent
            out += sorted(x for x in folder.rglob("*.yaml") if _rules_of(x) == t)
        else:
            raise DiagnosticError([Diagnostic("E130", f"no scenario file or game '{t}'", "<command line>",
                                              suggestions=best_matches(t, games))])
    return out


def _rules_of(path: Path) -> str | None:
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("rules:"):
                return line.split(":", 1)[1].strip().strip("'\"")
    except (OSError, UnicodeDecodeError):
        return None
    return None
