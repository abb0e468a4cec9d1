"""One table of the web server: its seats (people and bots), the session of deals, the save file.

This is the game loop of `play` with seats instead of a terminal: the same deals from the same seed
(`{seed}:{deal}`), the same bots seeded per seat, the same save format (a save written here resumes
with `play --resume`, where the first person's seat is the player's and the other seats take the bots
the header names). Synchronous and free of any web library; `hub.py` drives it from the server.
"""
from __future__ import annotations

import json
import random
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.bots import KINDS, make_bot
from interpreter.diagnostics import DiagnosticError
from interpreter.engine import actions as A
from interpreter.engine import reseating
from interpreter.engine.seating import chairs
from interpreter.engine.session import Session
from interpreter.engine.text import parse
from interpreter.files import Busy, FileLock, write_atomic
from interpreter.present.terminal import FORMAT, VERSION, read_save, save_lock

PERSON = "person"
RECORD = "stichwort-seat-record"      # what a seat's "save" holds: its own cards and what it heard
BOT_CHOICES = KINDS          # every bot the project has
MAX_DEALS = 1000
MAX_ACTION_TEXT = 200


class Refused(Exception):
    """An action or request the table refuses; the message goes back to that browser only."""


@dataclass
class Game:
    """A rule file the server offers: its key in URLs (never a path), the ruleset and its options."""
    key: str
    rs: Any
    options: dict = field(default_factory=dict)

    @property
    def seats(self) -> int:
        """The engine's seats, the chairs a link opens: with players sitting out by a rotation, fewer
        than the rule file's players (the players take turns in the chairs; the page says who is where)."""
        return chairs(self.rs)


class Table:
    def __init__(self, game: Game, kinds: list[str], deals: int = 1, seed: int | None = None,
                 save_dir: Path | None = None, records: list[dict] | None = None, save_path: Path | None = None,
                 lock: FileLock | None = None, forced: bool = False):
        rs = game.rs
        if len(kinds) != game.seats:
            raise Refused(f"{rs.title} has {game.seats} seats, not {len(kinds)}")
        for k in kinds:
            if k != PERSON:
                make_bot(k)             # raises ValueError for an unknown bot
        if PERSON not in kinds:
            raise Refused("a table needs at least one person")
        if not 1 <= deals <= MAX_DEALS:
            raise Refused(f"deals must be between 1 and {MAX_DEALS}")
        self.game = game
        self.id = secrets.token_urlsafe(9)
        self.kinds = list(kinds)
        self.tokens = {secrets.token_urlsafe(18): s for s, k in enumerate(kinds) if k == PERSON}
        self.deals = deals
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 30)
        self.session = Session(rs, game.options, dealer=0)
        self.R = self.session.R
        self.records: list[dict] = []
        self.kinds_said: list[list[int]] = []             # the kind of each action of each deal, beside its record
        self.events: list[tuple[int, int, str]] = []      # (seat, action, text) of the deal in play
        self.last_trick: list[tuple[int, str]] = []
        self.version = 0
        self.ready: set[int] = set()
        self.final: dict | None = None
        self.save_path = save_path or (save_dir / f"{self.id}.save" if save_dir else None)
        self.lock = lock        # the save's lock, as `play --save` holds it (taken at the first save, else given)
        self.forced = forced    # serve --force: the save is written without its lock (another game holds it)
        self.state: Any = None
        self.seating: dict | None = None
        self._resume(records or [])

    # ---- seats --------------------------------------------------------------------------------------
    @property
    def people(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == PERSON]

    def seat_of(self, token: Any) -> int | None:
        if not isinstance(token, str) or len(token) > 64:
            return None
        for t, s in self.tokens.items():
            if secrets.compare_digest(t, token):
                return s
        return None

    def token_of(self, seat: int) -> str:
        return next(t for t, s in self.tokens.items() if s == seat)

    # ---- the deals ----------------------------------------------------------------------------------
    @property
    def deal_index(self) -> int:
        return len(self.records) - 1

    @property
    def over(self) -> bool:
        return self.final is not None

    @property
    def results_by_player(self) -> bool:
        """The session's final result is by player, not by seat (players change seats: engine/session.py)."""
        return self.R.session_rows.result is not None and \
            any(spec.per == "player" for spec in self.R.accounts.values())

    def _seating_now(self) -> dict | None:
        """Who sits where for the deal starting: the player (numbered from 1, as the protocol numbers
        them) in each chair, the players on the bench, the sit and rubber; None when nobody moves."""
        tab = self.session.table
        if not reseating.settings(self.R).present and tab.people == self.R.n_seats:
            return None
        seated = tuple(self.state.seat_player)
        return {"players": [p + 1 for p in seated], "bench": [p + 1 for p in range(tab.people) if p not in seated],
                "sit": tab.sit, "rubber": tab.rubber}

    def _resume(self, records: list[dict]) -> None:
        """Replay a save's deals, each step checked, then go on where it stopped."""
        from interpreter.harness import logs

        for i, rec in enumerate(records):
            where = logs.Where(str(self.save_path or "the save"), i + 2, "E504", "E504")
            state = logs.start(self.game.rs, rec, where, options=self.game.options, accounts=self.session.accounts,
                               deal_number=self.session.deal_number,
                               seating={"seat_player": self.session.table.seat_player, "table": self.session.table})
            self.session.dealer = state.dealer
            self.records.append({"dealer": rec["dealer"], "hands": rec["hands"], "talon": rec["talon"], "actions": []})
            self.kinds_said.append([])
            self._begin(state)
            for step, (seat, text) in enumerate(logs.actions_of(rec, where), 1):
                if state.is_over() or seat != state.current_player():
                    raise where.error(f"step {step}: seat {seat} cannot act here")
                try:
                    a = parse(state, text)
                except ValueError as err:
                    raise where.error(f"step {step}: {err}") from None
                self._apply(seat, a)
            if not state.is_over() and i < len(records) - 1:
                raise where.error("a deal before the last one is unfinished")
        if self.state is None:
            self._deal()
        self.persist()

    def _begin(self, state: Any) -> None:
        d = len(self.records) - 1
        self.state = state
        self.seating = self._seating_now()
        self.events, self.last_trick, self.ready = [], [], set()
        self.bots: list[Any] = [make_bot(k, f"{self.seed}:{d}:{s}") if k != PERSON else None
                                for s, k in enumerate(self.kinds)]
        self.version += 1

    def _deal(self) -> None:
        d = len(self.records)
        state = self.session.start(rng=random.Random(f"{self.seed}:{d}"))     # the deal `play` gives that seed
        self.records.append({"dealer": state.dealer, "hands": [self.game.rs.codes(h) for h in state.dealt_hands],
                             "talon": [self.R.codes[c] for c in state.talon], "actions": []})
        self.kinds_said.append([])
        self._begin(state)

    def header(self, seed: bool = True) -> dict:
        people = self.people
        # one bot per player of the rule file, as `play` reads them; chairs beyond the engine's take rule bots
        bots = [k if k != PERSON else "rule" for k in self.kinds] + ["rule"] * (self.game.rs.seats - len(self.kinds))
        head = {"format": FORMAT, "version": VERSION, "rules": self.game.rs.name, "options": self.game.options,
                "seat": people[0], "seed": self.seed, "bots": ",".join(bots), "deals": self.deals, "people": people}
        if not seed:
            del head["seed"]
        return head

    def save_text(self, seed: bool = True) -> str:
        """The whole table as `play --save` writes it: every hand, the talon, the seed (the server's file)."""
        lines = [json.dumps(self.header(seed), ensure_ascii=False)] + [json.dumps(r, ensure_ascii=False) for r in self.records]
        return "\n".join(lines) + "\n"

    def save_for(self, seat: int) -> tuple[str, str]:
        """What the "save" button gives `seat`: (file name, text). Once the session is over, the first
        person's seat (the table's host) gets the whole log without the seed; before that, and every
        other seat, gets its seat's record: its own cards and the actions as it heard them."""
        if self.over and seat == self.people[0]:
            return f"{self.game.key}-{self.id}.save", self.save_text(seed=False)
        return f"{self.game.key}-{self.id}-seat{seat}.record", self.seat_record(seat)

    def seat_record(self, seat: int) -> str:
        """One seat's record: a header, then per deal its dealer, the seat's own cards (as dealt once the
        deal is over, as it holds them now in the deal in play), the actions as that seat heard them
        (another seat's discard only as a count of cards) and the payments of a finished deal. No other
        hand, no talon, no seed: nothing the seat has not seen, and nothing to foresee a later deal by."""
        head = {"format": RECORD, "version": VERSION, "rules": self.game.rs.name, "options": self.game.options,
                "seat": seat, "deals": self.deals, "people": self.people, "seats": self.kinds}
        lines = [json.dumps(head, ensure_ascii=False)]
        word = self.R.words.get("discard", "discard")
        for d, rec in enumerate(self.records):
            heard = []
            for (who, text), kind in zip(rec["actions"], self.kinds_said[d]):
                if kind == A.DISCARD and who != seat:
                    n = len(text.split()) - 1
                    text = f"{word} ({n} card{'s' if n != 1 else ''})"
                heard.append([who, text])
            done = d < len(self.session.deals)
            hand = rec["hands"][seat] if done else list(self.state.observation(seat)["hand"])
            line: dict[str, Any] = {"deal": d + 1, "dealer": rec["dealer"], "hand": hand, "actions": heard}
            if done:
                line["payments"] = {str(s): v for s, v in self.session.deals[d]["payments"].items()}
            lines.append(json.dumps(line, ensure_ascii=False, default=str))
        return "\n".join(lines) + "\n"

    def persist(self) -> None:
        """Rewrite the save file; a file that cannot be written stops the saving, not the game."""
        if self.save_path is None:
            return
        try:
            if self.lock is None and not self.forced:
                lock = FileLock(self.save_path, "save file")
                lock.acquire()
                self.lock = lock
            write_atomic(self.save_path, self.save_text(), "save file", mode=0o600)
        except (DiagnosticError, OSError, Busy) as err:
            text = err.diagnostics[0].message if isinstance(err, DiagnosticError) else \
                "another game is writing this save file right now" if isinstance(err, Busy) else str(err)
            print(f"stichwort: warning: table {self.id} is no longer saved: {text}", file=sys.stderr)
            self.save_path = None

    def close(self) -> None:
        """The table is dropped (or the server stops): its save file is free for another game."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    # ---- acting -------------------------------------------------------------------------------------
    def to_act(self) -> int | None:
        if self.state is None or self.state.is_over():
            return None
        return self.state.current_player()

    def bot_to_act(self) -> bool:
        who = self.to_act()
        return who is not None and self.kinds[who] != PERSON

    def act(self, seat: int, text: Any, version: Any) -> None:
        """A person's action, as the action's text; refused when stale, out of turn or illegal."""
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_TEXT:
            raise Refused("an action is a short text, such as one of the buttons shows")
        if version != self.version:
            raise Refused("the table has moved on since that action was offered; choose again")
        if self.to_act() != seat:
            raise Refused("it is not your turn")
        try:
            a = parse(self.state, text)
        except ValueError as err:
            raise Refused(str(err)) from None
        self._apply(seat, a)
        self.persist()

    def hint(self, seat: int, version: Any) -> str:
        """What the rule bot would choose in `seat`'s place now, as the action's text. It sees only the
        seat's own hand and what the table shows (bots/rule.py); nothing is played."""
        if version != self.version:
            raise Refused("the table has moved on; ask again")
        if self.to_act() != seat:
            raise Refused("it is not your turn")
        return self.state.action_text(make_bot("rule", f"hint:{self.id}:{self.version}").choose(self.state.clone()))

    def bot_step(self) -> bool:
        """One bot move, if a bot is to act; False otherwise."""
        who = self.to_act()
        if who is None or self.kinds[who] == PERSON:
            return False
        self.take(who, self.bots[who].choose(self.state.clone()))
        return True

    def take(self, seat: int, action: int) -> None:
        """A bot's chosen action for `seat` (chosen on a copy of the state)."""
        if self.to_act() != seat or action not in self.state.legal_actions():
            raise Refused("the bot's action no longer fits the table")
        self._apply(seat, action)
        self.persist()

    def _apply(self, seat: int, a: int) -> None:
        state = self.state
        text = state.action_text(a)
        before = list(state.trick)
        tricks_before = sum(state.play.tricks_won)
        self.records[-1]["actions"].append([seat, text])
        self.kinds_said[-1].append(A.kind_of(a))
        state.apply(a)
        self.events.append((seat, a, text))
        if A.kind_of(a) == A.PLAY and sum(state.play.tricks_won) > tricks_before:
            self.last_trick = [(s, self.R.codes[c]) for s, c in before] + [(seat, self.R.codes[A.arg_of(a)])]
        self.version += 1
        if state.is_over():
            self.session.finish(state)
            if self.session.ended or len(self.records) >= self.deals:
                self.final = self.session.close()

    def next_deal(self, seat: int) -> bool:
        """A person is ready for the next deal; it starts once every person is. True when it started."""
        if self.state is None or not self.state.is_over() or self.over:
            raise Refused("the deal is not over yet" if not self.over else "the session is over")
        self.ready.add(seat)
        self.version += 1
        if set(self.people) <= self.ready:
            self._deal()
            self.persist()
            return True
        return False


def open_save(path: Path, games: dict[str, Game], force: bool = False) -> Table:
    """A table resumed from a save file given on the command line (never from the browser); it goes on
    saving to that file, as `play --resume` does. A save another game is writing is refused (play --save
    holds it so), unless `force`: then this table writes it all the same, as `play --force` does."""

    lock = save_lock(path, force=force)
    try:
        return _resume_table(path, games, lock)
    except BaseException:
        if lock is not None:
            lock.release()
        raise


def _resume_table(path: Path, games: dict[str, Game], lock: FileLock | None) -> Table:
    from interpreter.diagnostics import Diagnostic

    header, _ = read_save(path)
    game = next((g for g in games.values() if header["rules"] in (g.rs.name, g.rs.path)), None)
    if game is None:
        raise DiagnosticError([Diagnostic("E504", f"the save is for {header['rules']!r}; give that rule file too", str(path))])
    header, records = read_save(path, game.rs)
    kinds = header["bots"].split(",")
    kinds = (kinds * game.seats if len(kinds) == 1 else kinds)[:game.seats]
    people = header.get("people", [header["seat"]])
    if not isinstance(people, list) or not all(isinstance(s, int) and 0 <= s < game.seats for s in people):
        people = [header["seat"]]
    if not all(0 <= s < game.seats for s in people):
        raise DiagnosticError([Diagnostic("E504", f"the save's seat is not one of the {game.seats} chairs", str(path))])
    for s in people:
        kinds[s] = PERSON
    game = Game(game.key, game.rs, header["options"])
    return Table(game, kinds, deals=header["deals"], seed=header.get("seed"), records=records, save_path=path,
                 lock=lock, forced=lock is None)
