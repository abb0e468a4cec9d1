"""`stichwort new FILE --extends BASE`: start a house-rule variant.

The file it writes extends BASE and changes nothing yet. Below that it lists, commented out, the
statements an author most often starts from, written for BASE: each table option with its default,
and each named payment row with its amount as the base has them. Each such line is valid as it
stands (it repeats the base), so an author uncomments one and changes the value. The file ends with the
commands that check it, show what it changes, and measure what that does to play.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def _value(v: Any) -> str:
    """A value as the rule language writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, str):
        return v if v.replace("_", "").isalnum() else json.dumps(v, ensure_ascii=False)
    return str(v)


def examples(ruleset: Any) -> list[str]:
    """Statements that repeat what `ruleset` says, one per line, for an author to change."""
    doc = ruleset.doc
    out = []
    for name, opt in (doc.get("option") or {}).items():
        out.append(f"option {name} {{ default = {_value(opt.get('default'))} }}")
    settle = doc.get("settle") or {}
    for row in settle.get("pay") or []:
        name, amount = row.get("name"), row.get("amount")
        if isinstance(name, str) and amount is not None:
            out.append(f"settle.pay[{name}].amount = {amount}")
    return out


def scaffold(ruleset: Any, base: str, path: Path) -> str:
    """The text of a new variant of `ruleset` (named `base`, as `extends` will find it) at `path`."""
    stem = path.stem
    lines = [f"# {stem}: a variant of {ruleset.title} ({base}).",
             "# Write only what differs from the base; everything else is inherited.",
             f'extends "{base}"',
             "",
             f'title = "{ruleset.title}: {stem}"',
             ""]
    shown = examples(ruleset)
    if shown:
        lines.append("# Where to start: each line below repeats the base; remove the '#' and change the value.")
        lines += ["# " + s for s in shown]
        lines.append("")
    lines += ["# Then:",
              f"#   stichwort validate {path.name}",
              f"#   stichwort diff {path.name}    (what it changes, rule by rule)",
              f"#   stichwort compare {base} {path.name} --deals 2000 --seed 1    (what that does to play)",
              "# The rule language's guide (docs/language.md) has the other statements (insert, replace,",
              "# remove, …) and a tutorial."]
    return "\n".join(lines) + "\n"


def add_command(sub: Any, usage_error: type[Exception], target: Any, file_arg: Any) -> None:
    n = sub.add_parser("new", help="start a house-rule variant: a rule file that extends a game and changes nothing yet")
    n.add_argument("file", metavar="FILE.stw", type=file_arg, help="the rule file to write")
    n.add_argument("--extends", required=True, metavar="FILE|NAME", type=target, help="the game it varies")
    n.add_argument("--force", action="store_true", help="replace FILE if it exists")

    def run(args: Any) -> int:
        return _new(args, usage_error)
    n.set_defaults(func=run)


def _new(args: Any, usage_error: type[Exception]) -> int:
    import os

    from interpreter.language.loader import resolve
    from interpreter.pipeline import check, load
    from interpreter.resources import builtin_games

    path = Path(args.file)
    if path.suffix != ".stw":
        raise usage_error(f"{args.file}: a new rule file is written as .stw (its name ends in .stw)")
    if path.exists() and not args.force:
        raise usage_error(f"{args.file} exists; choose another name, or --force to replace it")
    ruleset = load(args.extends, playable=False)     # a base that does not load is reported as by validate;
                                                     # one in development is a base too
    base = args.extends
    if base not in builtin_games() or Path(base).is_file():   # a file: named relative to the new file
        base_path = resolve(base).resolve()
        base = Path(os.path.relpath(base_path, path.resolve().parent)).as_posix()
    from interpreter.files import write_atomic

    write_atomic(path, scaffold(ruleset, base, path), "rule file")   # a full disk leaves no file (E100, exit 2)
    report = check(str(path))
    if not report.ok and not report.only_pending:    # never expected: say so rather than leave a broken file
        raise usage_error(f"{args.file} was written but does not validate; run 'stichwort validate {args.file}'")
    dev = " (in development like its base: 'stichwort validate' lists what the engine lacks)" if not report.ok else ""
    print(f"wrote {args.file}: extends {base}{dev}; 'stichwort validate {args.file}' checks it, "
          f"'stichwort diff {args.file}' shows what it changes")
    return 0
