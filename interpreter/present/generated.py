"""`stichwort compile NAME [--show]`: the Python code a rule file runs as (interpreter/codegen).

Without --show it generates and compiles the module (storing it in the cache) and says what it holds:
how many expressions became functions, which contracts' play obligations were generated and which
fall back to the interpreter, and where the cache is. With --show it prints the module's source."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.present.boundary import target


def add_commands(sub: Any, usage_error: type[Exception], read_options: Callable[[Any, Any], dict]) -> None:
    def run(args: Any) -> int:
        try:
            return _compile(args, read_options)
        except ValueError as err:
            raise usage_error(str(err)) from None

    c = sub.add_parser("compile", help="the Python code generated from a rule file; --show prints it")
    c.add_argument("target", metavar="FILE|NAME", type=target)
    c.add_argument("--show", action="store_true", help="print the generated module")
    c.add_argument("--set", action="append", metavar="NAME=VALUE", help="a table option")
    c.set_defaults(func=run)


def _compile(args: Any, read_options: Callable[[Any, Any], dict]) -> int:
    from interpreter.backends import compile_rules
    from interpreter.codegen import cache
    from interpreter.pipeline import load

    rs = load(args.target)
    rules = compile_rules(rs, read_options(rs, args.set), engine="generated")
    mod = rules.generated
    if args.show:
        print(mod.complete(), end="")
        return 0
    fallback = [name for name in rules.contracts if name not in mod.playables]
    print(f"{rs.name}: {len(mod.expressions)} expressions as functions, play obligations generated for "
          f"{len(mod.playables)} of {len(rules.contracts)} contracts"
          + (f" (the interpreter's for {', '.join(fallback)})" if fallback else "")
          + f", {len(mod.rows)} lists of payment rows")
    path = cache.folder() / (cache.key(mod.source) + ".code")
    if not cache.enabled():
        kept = "not cached (STICHWORT_NO_CACHE is set)"
    else:
        kept = f"cached as {path}" if path.is_file() else f"not cached ({cache.folder()} cannot be written)"
    print(f"{len(mod.source.splitlines())} lines of Python; {kept}")
    return 0
