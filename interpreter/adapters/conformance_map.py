"""The mapping between an OpenSpiel game and a rule file, read from a YAML file beside the rule file
(`games/<game>/openspiel.yml`): data, never code. The conformance harness (`interpreter/adapters/conformance.py`)
reads it; docs/conformance.md describes the format and shows a real one. Its shape:

    game: some_game                    # OpenSpiel's short name
    seats: same                        # OpenSpiel player p sits in seat p (or a list: seat of player 0, 1, …)
    dealer: 0                          # the dealer when no chance step draws one (an OpenSpiel player)
    cards: {order: rank_major, suits: [C, D, S, H], ranks: [2, 3, …, A]}   # OpenSpiel card id → card code
    chance:                            # OpenSpiel's chance outcomes before the first decision, in order
      - option: num_tricks             #   a number that becomes a table option of the rule file
      - dealer                         #   the dealer (an OpenSpiel player)
      - hands: {each: num_tricks}      #   the hands, a card at a time to players 0, 1, …
      - hands: {each: 4, packet: 4}    #   or a packet of 4 cards to each player in turn
      - talon: 1                       #   cards to the front of the talon (the turned-up card)
      - state: {hands: player_cards, talon: talon}   # or: the deal read from the state's own methods
    seed_param: rng_seed               # OpenSpiel shuffles inside, seeded by this game parameter (one per deal)
    actions:                           # OpenSpiel action id → the rule file's action text
      - {from: 0, count: cards, text: "play {card}"}
      - {from: cards, text: "bid {n}"}
      - {phase: talon, match: "^Talon set", from: 0, text: "take {n+1}"}   # only in the rule file's phase,
                                       #   only for ids whose OpenSpiel action string matches; {n+1} counts from 1
    returns: {account: score}          # what OpenSpiel's returns are: an account's change, or `result`
    configs:                           # OpenSpiel's parameters and the rule file that mirrors them
      - {name: "4", params: {players: 4}, rules: some-game-openspiel.stw, options: {}}

Errors are E506 diagnostics at the line of the offending key (exit 2 in the tool).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from interpreter.diagnostics import Diagnostic, DiagnosticError, Span, best_matches
from interpreter.harness.scenario_input import span_of

MAX_BYTES = 256 * 1024
TOP_KEYS = ("game", "source", "seats", "dealer", "seed_param", "cards", "chance", "actions", "returns", "configs")
CHANCE_KINDS = ("option", "dealer", "hands", "talon", "state")
ORDERS = ("rank_major", "suit_major")


@dataclass(frozen=True)
class ActionRange:
    """OpenSpiel's ids `start` … `start + count - 1` (count None: no end): `text` with `{n}` the id's offset
    from `start`, `{n+1}` one more, and `{card}` the card of that offset. Where OpenSpiel gives one id different
    meanings (a card passed or played), one range per meaning, told apart by the rule file's `phase` or by a
    `match` on OpenSpiel's string of the action."""
    start: int | str
    count: int | str | None
    text: str
    phase: str | None = None   # only while the rule file is in this phase
    match: Any = None          # only for ids whose OpenSpiel action string matches (a compiled pattern)


@dataclass(frozen=True)
class Config:
    name: str
    params: dict
    rules: str                 # a path (resolved beside the mapping file) or a built-in game's name
    options: dict
    cards: dict | None         # a deck of its own (OpenSpiel's num_suits, num_cards_per_suit)
    dealer: int | None = None  # the dealer (an OpenSpiel player) of this config, when no chance step draws one
    weights: dict = field(default_factory=dict)   # action text → weight of the random choice (others: 1)


@dataclass
class Mapping:
    path: Path
    game: str
    seats: str | list[int]
    dealer: int                # the dealer (an OpenSpiel player) when no chance step draws one
    cards: dict
    chance: list[tuple[str, Any]]
    actions: list[ActionRange]
    returns: tuple[str, str]
    configs: list[Config] = field(default_factory=list)
    seed_param: str | None = None   # OpenSpiel deals inside, seeded by this parameter: one seed per deal

    def config(self, name: str) -> Config:
        for c in self.configs:
            if c.name == name:
                return c
        names = [c.name for c in self.configs]
        raise DiagnosticError([Diagnostic("E506", f"{self.path}: no config '{name}'", str(self.path),
                                          help="the configs are: " + ", ".join(names),
                                          suggestions=best_matches(name, names))])


def card_codes(spec: dict) -> list[str]:
    """OpenSpiel card id → card code: an explicit list, or a grid of suits and ranks numbered rank by rank
    (`rank_major`: id = rank × suits + suit) or suit by suit (`suit_major`: id = suit × ranks + rank)."""
    if "list" in spec:
        return list(spec["list"])
    suits = [str(s) for s in spec["suits"]]
    ranks = [str(r) for r in spec["ranks"]]
    if spec.get("order", "rank_major") == "rank_major":
        return [r + s for r in ranks for s in suits]
    return [r + s for s in suits for r in ranks]


class _Reader:
    def __init__(self, path: Path, text: str):
        self.path = path
        self.shown = str(path)
        self.text = text

    def fail(self, message: str, node: Any = None, key: Any = None, index: Any = None, help: str | None = None,
             suggestions: list[str] | None = None) -> DiagnosticError:
        span = span_of(node, key=key, index=index) if node is not None else None
        return DiagnosticError([Diagnostic("E506", message, self.shown, span or Span(1, 1, 1, 2), help=help,
                                           suggestions=suggestions or [])])

    def keys(self, node: Any, allowed: tuple, where: str) -> None:
        if not isinstance(node, dict):
            raise self.fail(f"{where} must be a mapping")
        for k in node:
            if str(k) not in allowed:
                raise self.fail(f"unknown key '{k}' in {where}", node, key=k, help="allowed here: " + ", ".join(allowed),
                                suggestions=best_matches(str(k), allowed))

    def whole(self, node: Any, key: Any, value: Any, words: tuple = ()) -> int | str:
        if isinstance(value, str) and value in words:
            return value
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100_000:
            extra = " or " + ", ".join(words) if words else ""
            raise self.fail(f"'{key}' must be a whole number from 0 to 100000{extra}, not {value!r}", node, key=key)
        return value


def load_mapping(path: Path) -> Mapping:
    """Read and check a mapping file. Raises DiagnosticError (E506) with the line of what is wrong."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from interpreter.files import read_text

    text = read_text(path, "conformance mapping", MAX_BYTES)
    r = _Reader(path, text)
    try:
        data = YAML(typ="rt").load(text)
    except (YAMLError, ValueError, RecursionError) as err:
        mark = getattr(err, "problem_mark", None)
        span = Span(mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 2) if mark else Span(1, 1, 1, 2)
        raise DiagnosticError([Diagnostic("E506", f"not valid YAML: {getattr(err, 'problem', err)}", r.shown,
                                          span)]) from None
    r.keys(data, TOP_KEYS, "the mapping")
    for need in ("game", "cards", "chance", "actions", "configs"):
        if need not in data:
            raise r.fail(f"the mapping has no '{need}'", help="a mapping needs: game, cards, chance, actions, configs")
    if not isinstance(data["game"], str):
        raise r.fail("'game' must be OpenSpiel's short name of the game", data, key="game")
    dealer = r.whole(data, "dealer", data.get("dealer", 0))
    m = Mapping(path=path, game=data["game"], seats=_seats(r, data), dealer=int(dealer), cards=_cards(r, data, "cards"),
                chance=_chance(r, data["chance"]), actions=_actions(r, data["actions"]), returns=_returns(r, data))
    if "seed_param" in data:
        if not isinstance(data["seed_param"], str):
            raise r.fail("'seed_param' names OpenSpiel's game parameter that seeds its shuffle", data, key="seed_param")
        m.seed_param = data["seed_param"]
    m.configs = _configs(r, data["configs"])
    return m


def _seats(r: _Reader, data: Any) -> str | list[int]:
    seats = data.get("seats", "same")
    if seats == "same":
        return "same"
    if not isinstance(seats, list) or sorted(seats) != list(range(len(seats))):
        raise r.fail("'seats' must be 'same' or a list giving each OpenSpiel player's seat (0, 1, … once each)",
                     data, key="seats")
    return [int(s) for s in seats]


def _cards(r: _Reader, node: Any, key: str) -> dict:
    spec = node[key]
    if isinstance(spec, list):
        codes = [str(c) for c in spec]
        if len(set(codes)) != len(codes):
            raise r.fail("'cards' names a card twice", node, key=key)
        return {"list": codes}
    r.keys(spec, ("order", "suits", "ranks"), "cards")
    if spec.get("order", "rank_major") not in ORDERS:
        raise r.fail(f"'order' must be one of {', '.join(ORDERS)}", spec, key="order")
    for k in ("suits", "ranks"):
        if not isinstance(spec.get(k), list) or not spec[k]:
            raise r.fail(f"cards needs '{k}': a list, in OpenSpiel's order", spec, key=k if k in spec else None)
    return {"order": str(spec.get("order", "rank_major")), "suits": [str(s) for s in spec["suits"]],
            "ranks": [str(x) for x in spec["ranks"]]}


def _chance(r: _Reader, steps: Any) -> list[tuple[str, Any]]:
    if not isinstance(steps, list):
        raise r.fail("'chance' must be a list of steps (option, dealer, hands, talon, state)")
    out: list[tuple[str, Any]] = []
    for i, step in enumerate(steps):
        value: Any = None
        kind = step if isinstance(step, str) else next(iter(step), None)
        if isinstance(step, dict):
            if len(step) != 1:
                raise r.fail("a chance step has one key: option, dealer, hands, talon or state", steps, index=i)
            value = step[kind]
        if kind not in CHANCE_KINDS:
            raise r.fail(f"unknown chance step '{kind}'", steps, index=i, help="the steps: " + ", ".join(CHANCE_KINDS),
                         suggestions=best_matches(str(kind), CHANCE_KINDS))
        if kind == "option" and not isinstance(value, str):
            raise r.fail("'option' names the table option the outcome sets", steps, index=i)
        if kind == "hands":
            value = _hands(r, steps, i, value)
        if kind == "talon":
            value = r.whole(steps, i, value, ("rest",))
        if kind == "state":
            r.keys(value, ("hands", "talon"), "state")
            if not all(isinstance(value.get(k), str) and re.fullmatch(r"[a-z][a-z_]*", value[k])
                       for k in ("hands", "talon")):
                raise r.fail("'state' names the state's methods giving a player's cards and the talon: "
                             "{hands: METHOD, talon: METHOD}", steps, index=i)
            value = {"hands": str(value["hands"]), "talon": str(value["talon"])}
        out.append((str(kind), value))
    return out


def _hands(r: _Reader, steps: Any, i: int, value: Any) -> dict:
    """`hands: {each: N or OPTION, packet: K}`: N cards to each player, K at a time (default 1: a card at a time
    round the table); K must divide N when N is a number."""
    r.keys(value, ("each", "packet"), "hands")
    if "each" not in value:
        raise r.fail("'hands' needs 'each': a number of cards or the option that gives it", steps, index=i)
    each = value["each"] if isinstance(value["each"], str) else r.whole(value, "each", value["each"])
    packet = r.whole(value, "packet", value.get("packet", 1))
    if packet == 0 or (isinstance(each, int) and isinstance(packet, int) and each % packet):
        raise r.fail(f"'packet' must be a whole number from 1 that divides 'each' ({each})", value, key="packet")
    return {"each": each, "packet": packet}


def _actions(r: _Reader, rows: Any) -> list[ActionRange]:
    if not isinstance(rows, list) or not rows:
        raise r.fail("'actions' must be a list of ranges: {from, count, text}")
    out = []
    for row in rows:
        r.keys(row, ("from", "count", "text", "phase", "match"), "an action range")
        if not isinstance(row.get("text"), str) or not row["text"].strip():
            raise r.fail("an action range needs 'text', with {n}, {n+1} or {card} for the id", row, key="text")
        start = r.whole(row, "from", row.get("from", 0), ("cards",))
        count = r.whole(row, "count", row["count"], ("cards",)) if "count" in row else None
        for k in ("phase", "match"):
            if k in row and not isinstance(row[k], str):
                raise r.fail(f"'{k}' must be a text", row, key=k)
        try:
            match = re.compile(row["match"]) if "match" in row else None
        except re.error as err:
            raise r.fail(f"'match' is no valid pattern: {err}", row, key="match") from None
        out.append(ActionRange(start, count, row["text"], row.get("phase"), match))
    return out


def _returns(r: _Reader, data: Any) -> tuple[str, str]:
    spec = data.get("returns", "result")
    if spec == "result":
        return ("result", "")
    if spec == "payments":
        return ("payments", "")
    if isinstance(spec, dict) and list(spec) == ["account"] and isinstance(spec["account"], str):
        return ("account", spec["account"])
    raise r.fail("'returns' must be result, payments or {account: NAME}", data, key="returns")


def _configs(r: _Reader, rows: Any) -> list[Config]:
    if not isinstance(rows, list) or not rows:
        raise r.fail("'configs' must list OpenSpiel's parameters with the rule file that mirrors them")
    out: list[Config] = []
    for row in rows:
        r.keys(row, ("name", "params", "rules", "options", "cards", "dealer", "weights"), "a config")
        for need in ("name", "rules"):
            if need not in row:
                raise r.fail(f"a config needs '{need}'", rows, index=len(out))
        for k in ("params", "options"):
            if not isinstance(row.get(k, {}), dict):
                raise r.fail(f"'{k}' must be a mapping", row, key=k)
        name = str(row["name"])
        if any(c.name == name for c in out):
            raise r.fail(f"config '{name}' is given twice", row, key="name")
        rules = str(row["rules"])
        local = r.path.parent / rules
        cards = _cards(r, row, "cards") if "cards" in row else None
        dealer = int(r.whole(row, "dealer", row["dealer"])) if "dealer" in row else None
        weights = row.get("weights", {})
        if not isinstance(weights, dict) or not all(isinstance(k, str) for k in weights):
            raise r.fail("'weights' maps action texts to whole numbers", row, key="weights")
        weights = {str(k): int(r.whole(weights, k, v)) for k, v in weights.items()}
        out.append(Config(name, _plain(row.get("params", {})), str(local) if local.is_file() else rules,
                          _plain(row.get("options", {})), cards, dealer, weights))
    return out


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v
