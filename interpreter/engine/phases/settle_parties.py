"""Payment rows whose party is none: money paid to nobody is lost, money paid by nobody comes from nowhere,
and an account kept for nobody has no entry to write. `validate` refuses the rows it can tell in advance
(checks/payments.py, E316); the rest stop the deal here, with the row named and located, rather than
lose or make money in silence. A row without `from` is a score entry: its payer is none by design."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.engine.compile import Party
from interpreter.engine.errors import RuleRuntimeError

if TYPE_CHECKING:
    from interpreter.engine.state import State
    from interpreter.model.game import PayRow


def nobody(transfers: list) -> bool:
    """Some transfer has a party that is none (the payer of a score entry included): worth a closer look."""
    for src, dst, _, _ in transfers:
        if src is None or dst is None or type(src) is Party and None in src or type(dst) is Party and None in dst:
            return True
    return False


def check(st: State, rows: Any, transfers: list, judge: Any) -> None:
    """Raise for the first row whose written party gave none in these transfers; `judge(st, rows)` gives
    the transfers of rows as the interpreter judges them."""
    free, bound = rows.notes            # the score entries' notes, the other rows' (settle.Rows)
    if not any(_bad(src, dst) or src is None and (note in bound or note not in free)
               for src, dst, _, note in transfers):
        return                  # only score entries have no payer
    for i, r in enumerate(rows):
        for src, dst, amount, _ in judge(st, [r]):
            if _bad(src, dst) or src is None and r.src is not None:
                which = "to" if dst is None or type(dst) is Party and None in dst else "from"
                raise RuleRuntimeError(_message(st, rows, i, which, src, dst, amount))


def locate(st: State, rows: Any, err: RuleRuntimeError, judge: Any) -> RuleRuntimeError:
    """`err`, raised while the rows were judged, with the row that raises it named and located (the
    rows judged one by one by the interpreter); `err` itself if no single row raises it."""
    for i, r in enumerate(rows):
        try:
            judge(st, [r])
        except RuleRuntimeError as found:
            path, written = _place(st, rows, i)
            row = written[i] if i < len(written) else None
            label = f"{path} row {i + 1}" + (f" '{row.name}'" if row is not None and row.name else "")
            where = _where(st, "/" + path.replace(".", "/") + f"/{i}")
            return RuleRuntimeError(f"{where}{label}: {found}")
    return err


def _bad(src: Any, dst: Any) -> bool:
    return dst is None or type(dst) is Party and None in dst or type(src) is Party and None in src


def _message(st: State, rows: list, i: int, which: str, src: Any, dst: Any, amount: Any) -> str:
    path, written = _place(st, rows, i)
    row = written[i] if i < len(written) else None
    label = f"{path} row {i + 1}" + (f" '{row.name}'" if row is not None and row.name else "")
    party = None if row is None else row.src if which == "from" else row.dst
    text = "?" if party is None else party.source
    other = "from" if which == "to" else "to"
    other_value = _said(src if other == "from" else dst)
    lost = "the money would be lost" if which == "to" else "the money would come from nowhere"
    where = _where(st, f"/{path.replace('.', '/')}/{i}/{which}")
    return (f"{where}{label}: `{which} = {'none' if text is None else text}` gives none, "
            f"while `{other}` gives {other_value} and the amount is {amount}: {lost}")


def _said(party: Any) -> str:
    if party is None:
        return "none"
    if type(party) is Party:
        return "account(" + ", ".join("none" if p is None else str(p) for p in party) + ")"
    return f"seat {party}" if isinstance(party, int) else str(party)


def _place(st: State, rows: list, i: int) -> tuple[str, tuple[PayRow, ...]]:
    """The dotted path of the row list in the rule file, and the rows as written (model/game.PayRow)."""
    game = st.R.rs.game
    if rows is st.R.settle_rows:
        return "settle.pay", game.settle
    for part, got in st.R.session_rows.parts():
        if got is rows:
            return f"session.{part}", getattr(game.session, part)
    return "session.sit.reckoning", game.sit.reckoning


def _where(st: State, ptr: str) -> str:
    """`file:line:col: ` of the pointer in the rule file, read again with positions; empty if it cannot be."""
    from interpreter.language.loader import load as load_document

    rs = st.R.rs
    for target in (rs.path, rs.name):
        try:
            file, span = load_document(target, True).origins.find(ptr)
        except Exception:       # the file moved or changed since it was loaded: the row's name must do
            continue
        return f"{file}:{span.line}:{span.col}: " if span is not None else f"{file}: "
    return ""
