"""A Ruleset compiled for play: seats in play order, card tables and bitmasks, and every rule-file
expression compiled once into a closure. Built once per (ruleset, options) and shared by states."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

from interpreter.engine import actions
from interpreter.engine.compile import Compiler, Ref
from interpreter.model.ruleset import Ruleset, thaw
from interpreter.model.vocabulary import FUNCTIONS, VALUES

# The words of actions, as printed and accepted; a rule file's `words { … }` replaces any of them, and the
# defaults (with the section's own `hold.call`, `defence.go`/`stay`) stay accepted as aliases.
DEFAULT_WORDS = {
    "bid": "bid", "pass": "pass", "hold": "hold", "play": "play", "discard": "discard", "declare": "declare",
    "trump": "trump", "go": "go along", "stay": "stay home", "invite": "invite", "no_invite": "no invite",
    "after_purchase": "after-purchase", "decline": "decline", "accept": "accept", "refuse": "refuse",
    "offer": "offer",
}

# A kontra chain whose rule file writes no maximum (or `max = none`) ends after this many calls, so that
# every deal ends; `stichwort validate` warns about such a chain.
DEFAULT_KONTRA_MAX = 8

ALWAYS = lambda c: True  # noqa: E731
NEVER = lambda c: False  # noqa: E731


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass
class ContractRT:
    name: str
    ref: Ref
    rank: int
    category: str | None
    trump: int                      # suit index, -1 = none
    trump_mask: int
    side: str
    talon: str | None
    goal: object
    defence: str
    lead: object | None
    obligations: list
    winner_led_only: bool
    early_end: object | None
    open_who: str | None
    open_after: int
    beaters: list                   # card → mask of cards that beat it (as current winner)
    strength: list                  # card → comparable strength when it is in the trick


@dataclass
class CallRT:
    name: str
    ref: Ref
    index: int
    rank: int
    category: str | None
    allowed: object
    raise_rule: str
    contracts: list
    talon: str | None
    contest: str | None
    sealed: bool
    word: str
    action: int = 0
    contracts_expr: object | None = None   # `contracts = EXPR`: evaluated when the auction ends


@dataclass
class Rules:
    rs: Ruleset
    doc: dict
    options: dict
    n_seats: int
    players: int
    roles: dict
    cards: list
    codes: list
    suit_of: list
    order_of: list
    suit_names: list
    suit_masks: list
    full_mask: int
    calls: list
    call_by_name: dict
    contracts: dict
    compiler: Compiler
    auction: dict = field(default_factory=dict)
    talons: dict = field(default_factory=dict)
    settle_rows: list = field(default_factory=list)
    session_rows: dict = field(default_factory=dict)
    accounts: dict = field(default_factory=dict)
    words: dict = field(default_factory=dict)
    default_words: dict = field(default_factory=dict)
    procedure: list = field(default_factory=list)
    defence: dict = field(default_factory=dict)
    after_purchase: dict = field(default_factory=dict)
    kontra: dict = field(default_factory=dict)
    play: dict = field(default_factory=dict)
    contract_names: list = field(default_factory=list)
    contract_index: dict = field(default_factory=dict)
    _trump_variants: dict = field(default_factory=dict)
    account_initial: dict = field(default_factory=dict)
    first_call_at_rank: dict = field(default_factory=dict)
    sheet: list = field(default_factory=list)
    max_auction_calls: int = 0      # the auction ends after this many calls at the latest
    max_purchases: int = 0          # after-purchases in one deal at most
    max_actions: int = 0            # no deal takes more actions than this

    def with_trump(self, con: "ContractRT", suit: int) -> "ContractRT":
        """The contract with a trump suit chosen by the declarer."""
        key = (con.name, suit)
        if key not in self._trump_variants:
            self._trump_variants[key] = _contract_rt(self, con.name, self.doc["contract"][con.name], con.ref, suit)
        return self._trump_variants[key]


def _expr(comp: Compiler, value, default=None):
    if value is None and default is not None:
        return default
    return comp.text(value)


def _option_values(rs: Ruleset, overrides: dict | None) -> dict:
    values = dict(rs.options)
    specs = rs.doc.get("option") or {}
    for k, v in (overrides or {}).items():
        spec = specs.get(k) or {}
        # the bounds and choices the rule file declares for a table option
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            if spec.get("min") is not None and v < spec["min"]:
                raise ValueError(f"table option {k} = {v} is below its minimum {spec['min']}")
            if spec.get("max") is not None and v > spec["max"]:
                raise ValueError(f"table option {k} = {v} is above its maximum {spec['max']}")
            step = spec.get("multiple_of")
            if step and v % step:
                raise ValueError(f"table option {k} = {v} is not a multiple of {step}")
        if spec.get("choices") and v not in spec["choices"]:
            raise ValueError(f"table option {k} = {v} is not one of {list(spec['choices'])}")
        values[k] = v
    return values


def compile_rules(rs: Ruleset, options: dict | None = None) -> Rules:
    return _compile_cached(rs, tuple(sorted((options or {}).items())))


@functools.lru_cache(maxsize=64)
def _compile_cached(rs: Ruleset, options_items: tuple) -> Rules:
    doc = thaw(rs.doc)
    options = _option_values(rs, dict(options_items))
    suit_names = list(rs.suits)
    suit_of = [suit_names.index(c.suit) for c in rs.cards]
    order_of = [c.order for c in rs.cards]
    suit_masks = [rs.suit_mask[s] for s in suit_names]
    symbols: dict = {}
    for s in suit_names:
        symbols[s] = s
    for c in rs.cards:
        symbols[c.code] = c.index
    for g, m in rs.groups.items():
        symbols[g] = m
    calls_doc = doc.get("call", {})
    contracts_doc = doc.get("contract", {})
    refs_call = {n: Ref(n, calls_doc[n], "call") for n in calls_doc}
    refs_con = {n: Ref(n, contracts_doc[n], "contract") for n in contracts_doc}
    pass_ref = Ref("pass", {"rank": -1, "category": None}, "call")
    hold_word = ((doc.get("auction") or {}).get("hold") or {}).get("call")
    for n, r in refs_con.items():
        symbols[n] = r
    for n, r in refs_call.items():
        symbols[n] = r          # a call shadows a contract of the same name; both compare equal by name
    symbols["pass"] = pass_ref
    if hold_word:
        symbols[hold_word] = Ref(hold_word, {"rank": -1, "category": None}, "call")
    for cat in doc.get("category", {}):
        symbols.setdefault(cat, cat)
    for k, v in options.items():
        symbols[k] = v
    roles = dict(doc["seating"].get("roles", {}))
    builtins = set(VALUES) | set(roles) | {"s", "t"}
    for a, acc in (doc.get("account") or {}).items():
        if acc.get("per") == "game":
            builtins.add(a)
    for r in roles:
        symbols.pop(r, None)
    comp = Compiler(symbols, builtins, set(FUNCTIONS))
    comp.accounts |= set(doc.get("account") or {})
    # lets: values first in dependency order is not needed — closures look names up lazily by
    # compiling each let once; a let that uses another let is compiled after it (document order,
    # the checker has already rejected cycles), so compile iteratively until all are done.
    lets = doc.get("let") or {}
    pending = dict(lets)
    comp.seat_dependent = _seat_dependent(lets)
    for _ in range(len(pending) + 1):
        if not pending:
            break
        for name in list(pending):
            body = pending[name]
            if isinstance(body, dict):
                from interpreter.language.expressions import parse_text
                comp.let_functions[name] = (tuple(body["params"]), parse_text(body["body"]))
                del pending[name]
        progressed = False
        for name in list(pending):
            from interpreter.language.expressions import names_in, parse_text
            node = parse_text(pending[name]) if isinstance(pending[name], str) else ("const", pending[name])
            if any(n in pending and n != name for n in names_in(node)):
                continue
            comp.lets[name] = _memo(name, comp.node(node), name in comp.seat_dependent)
            del pending[name]
            progressed = True
        if not progressed and pending:
            for name in list(pending):
                from interpreter.language.expressions import parse_text
                comp.lets[name] = comp.node(parse_text(pending[name]))
                del pending[name]
    n_cards = len(rs.cards)
    rules = Rules(
        rs=rs, doc=doc, options=options, n_seats=rs.seats, players=rs.players, roles=roles,
        cards=list(rs.cards), codes=[c.code for c in rs.cards], suit_of=suit_of, order_of=order_of,
        suit_names=suit_names, suit_masks=suit_masks, full_mask=(1 << n_cards) - 1,
        calls=[], call_by_name={}, contracts={}, compiler=comp,
    )
    rules.procedure = list(doc.get("procedure", []))
    df_doc = doc.get("defence") or {}
    base_words = dict(DEFAULT_WORDS)
    if hold_word:
        base_words["hold"] = hold_word
    for key in ("go", "stay"):
        if df_doc.get(key):
            base_words[key] = df_doc[key]
    rules.default_words = base_words
    rules.words = {**base_words, **{k: str(v) for k, v in (doc.get("words") or {}).items()}}
    play = doc.get("play") or {}
    rules.play_doc = play
    for name, c in contracts_doc.items():
        rules.contracts[name] = _contract_rt(rules, name, c, refs_con[name], None)
    rules.contract_names = list(contracts_doc)
    rules.contract_index = {n: i for i, n in enumerate(rules.contract_names)}
    auction = doc.get("auction") or {}
    default_raise = auction.get("raise", "higher")
    for idx, name in enumerate(rs.calls):
        c = calls_doc[name]
        cs = c.get("contracts")
        rules.calls.append(CallRT(
            name=name, ref=refs_call[name], index=idx, rank=c.get("rank", 0), category=c.get("category"),
            allowed=_expr(comp, c["allowed"]) if "allowed" in c else ALWAYS, raise_rule=c.get("raise", default_raise),
            contracts=list(cs) if isinstance(cs, list) else ([name] if name in contracts_doc and cs is None else []),
            talon=c.get("talon"), contest=c.get("contest"), sealed=bool(c.get("sealed")), word=c.get("word") or name,
            contracts_expr=_expr(comp, cs) if isinstance(cs, str) else None))
        rules.call_by_name[name] = rules.calls[-1]
        rules.calls[-1].action = actions.make(actions.BID, idx)
    # for each rank, the index of the first call of that rank (calls are sorted by rank): an auction
    # scan starts there, since no lower call can follow a bid of that rank
    rules.first_call_at_rank = {}
    for c in reversed(rules.calls):
        rules.first_call_at_rank[c.rank] = c.index
    if any(c.raise_rule == "any" for c in rules.calls):  # a lower call may follow: scan from the first
        rules.first_call_at_rank = {c.rank: 0 for c in rules.calls}
    hold = auction.get("hold") or {}
    contest = auction.get("contest") or {}
    rules.auction = {
        "first": _expr(comp, auction.get("first", "forehand")),
        "style": auction.get("style", "open"),
        "pass_final": auction.get("pass_final", True),
        "allowed": _expr(comp, auction["allowed"]) if "allowed" in auction else ALWAYS,
        "allowed_key": _this_attrs(auction.get("allowed")),
        "ends": _expr(comp, auction["ends"]) if "ends" in auction else None,
        "exclude": _expr(comp, auction["exclude"]) if "exclude" in auction else None,
        "hold_call": hold.get("call"),
        "hold_who": _expr(comp, hold["who"]) if "who" in hold else NEVER,
        "hold_bids": _expr(comp, hold["bids"]) if "bids" in hold else ALWAYS,
        "contest_rounds": contest.get("rounds", "open"),
        "first_must_name": bool(contest.get("first_must_name")),
        "contest_ties": contest.get("ties"),
        "all_pass": (auction.get("all_pass") or {}).get("contract"),
        "pass_allowed": _expr(comp, (auction.get("pass") or {})["allowed"]) if "allowed" in (auction.get("pass") or {}) else ALWAYS,
        "pass_ref": pass_ref,
        "hold_ref": symbols.get(hold_word) if hold_word else None,
    }
    key_attrs = rules.auction["allowed_key"]
    if key_attrs is not None:
        from interpreter.engine.compile import attr as _attr
        rules.auction["call_keys"] = [tuple(_attr(c.ref, x) for x in key_attrs) for c in rules.calls]
    rules.talons = dict(doc.get("talon") or {})
    for t in rules.talons.values():
        t["_never"] = rs.mask(t.get("never", [])) if t.get("never") else 0
    df = doc.get("defence") or {}
    rules.defence = {
        "present": "defence" in doc,
        "when": _expr(comp, df["when"]) if "when" in df else ALWAYS,
        "first": _expr(comp, df["first"]) if "first" in df else None,
        "compulsory": _expr(comp, df["compulsory"]) if "compulsory" in df else NEVER,
        "invite": _expr(comp, df["invite"]) if "invite" in df else NEVER,
        "kontra_required": _expr(comp, df["kontra_required"]) if "kontra_required" in df else NEVER,
        "nobody_tricks": (df.get("nobody") or {}).get("declarer_tricks"),
        "go": df.get("go", "go along"), "stay": df.get("stay", "stay home"),
    }
    ap = doc.get("after_purchase") or {}
    rules.after_purchase = {
        "present": "after_purchase" in doc,
        "when": _expr(comp, ap["when"]) if "when" in ap else ALWAYS,
        "entitled": _expr(comp, ap["entitled"]) if "entitled" in ap else ALWAYS,
        "take": ap.get("take", 2), "discard": ap.get("discard", 2),
        "contracts": list(ap.get("contracts", [])), "must_exceed": ap.get("must_exceed", True),
    }
    kt = doc.get("kontra") or {}
    rules.kontra = {
        "present": "kontra" in doc,
        "when": _expr(comp, kt["when"]) if "when" in kt else ALWAYS,
        "first": _expr(comp, kt["first"]) if "first" in kt else None,
        "levels": list(kt.get("levels", ["kontra"])), "invites": bool(kt.get("invites")),
        "max": kt["max"] if isinstance(kt.get("max"), int) else DEFAULT_KONTRA_MAX,
    }
    neg = play.get("negotiation") or {}
    rules.play = {"lead": _expr(comp, play["lead"]) if "lead" in play else None,
                  "negotiate": _expr(comp, neg["when"]) if "when" in neg else None,
                  "declarer_min": neg.get("declarer_min", 0), "defender_min": neg.get("defender_min", 0)}
    rules.accounts = dict(doc.get("account") or {})
    rules.account_initial = {name: _expr(comp, spec["initial"]) for name, spec in rules.accounts.items()
                             if "initial" in spec and spec["initial"] not in (0, None)}
    rules.settle_rows = [_row(comp, r) for r in (doc.get("settle") or {}).get("pay", [])]
    session = doc.get("session") or {}
    rules.session_rows = {part: [_row(comp, r) for r in session.get(part, [])]
                          for part in ("before_deal", "after_deal", "all_pass", "reckoning")}
    rules.session_rows["dealer"] = _expr(comp, session["dealer"]) if "dealer" in session else None
    rules.session_rows["ends"] = _expr(comp, session["ends"]) if "ends" in session else None
    rules.session_rows["result"] = _expr(comp, session["result"]) if "result" in session else None
    rules.sheet = [(c["title"], _expr(comp, c["value"])) for c in session.get("sheet", [])]
    _bound_actions(rules)
    return rules


def _bound_actions(rules: Rules) -> None:
    """The most actions a deal can take, phase by phase; the engine enforces the auction's and the
    after-purchases' bounds, the others follow from the rules (passes are final, raises climb, a kontra
    chain has a maximum, each trick takes one card per seat)."""
    seats, n_calls, n_cons = rules.n_seats, len(rules.calls), len(rules.contracts)
    # raises climb through the calls; each can be held once and joined once per seat; passes are final;
    # reveals climb through the contracts. Under `raise = any` this is the bound itself.
    rules.max_auction_calls = seats * (2 * n_calls + 2 * n_cons + 2)
    ap = rules.after_purchase
    rules.max_purchases = (len(ap["contracts"]) + 1) * seats if ap["present"] else 0
    after = rules.max_purchases * (3 + seats) + seats
    defence = seats + 1
    kontra = rules.kontra["max"] + seats + 1 if rules.kontra["present"] else 0
    hand_size = rules.rs.hand_size
    play = hand_size * seats + 2 * actions.MAX_OFFERS + 1
    rules.max_actions = rules.max_auction_calls + 1 + 2 + after + defence + kontra + play


_SEAT_NAMES = {"s", "t", "me", "this", "side"}


def _seat_dependent(lets: dict) -> set:
    """Lets whose value depends, directly or through other lets, on the seat being judged."""
    from interpreter.language.expressions import names_in, parse_text

    deps = {}
    for name, body in lets.items():
        text = body["body"] if isinstance(body, dict) else body
        deps[name] = names_in(parse_text(text)) if isinstance(text, str) else set()
        if isinstance(body, dict):
            deps[name] |= set(body["params"])
    out: set = set()
    changed = True
    while changed:
        changed = False
        for name, used in deps.items():
            if name not in out and used & (_SEAT_NAMES | out):
                out.add(name)
                changed = True
    return out


def _memo(name, f, seat_dependent: bool):
    """A let that does not depend on the seat being judged is computed once per settlement."""
    if seat_dependent:
        return f

    def cached(c):
        cache = c._cache
        if cache is None:
            return f(c)
        key = "let:" + name
        if key not in cache:
            cache[key] = f(c)
        return cache[key]
    return cached


def _this_attrs(text):
    """If an expression reads the judged call only as `this.X` (for a fixed set of X), those X; else None.

    The auction then evaluates the expression once per distinct (X…) value instead of once per call."""
    if not isinstance(text, str):
        return ()
    from interpreter.language.expressions import parse_text

    attrs: set = set()
    stack = [parse_text(text)]
    while stack:
        n = stack.pop()
        kind = n[0]
        if kind == "attr" and n[1] == ("name", "this"):
            attrs.add(n[2])
            continue
        if kind == "name" and n[1] == "this":
            return None
        for child in n[1:]:
            if isinstance(child, tuple) and child and isinstance(child[0], str):
                stack.append(child)
            elif isinstance(child, tuple):
                stack.extend(c for c in child if isinstance(c, tuple) and c and isinstance(c[0], str))
    return tuple(sorted(attrs))


def _row(comp: Compiler, r: dict) -> dict:
    return {
        "when": _expr(comp, r["when"]) if "when" in r else ALWAYS,
        "each": _expr(comp, r["each"]) if "each" in r else None,
        "from": comp.party(r["from"]) if "from" in r else None,
        "to": comp.party(r["to"]),
        "amount": _expr(comp, r["amount"]),
        "note": r.get("note", ""),
    }


def _obligations(comp, chain, suit_names, rs):
    out = []
    for ob in chain:
        if isinstance(ob, str):
            ob = {"rule": ob}
        entry = {"rule": ob["rule"], "when": _expr(comp, ob["when"]) if "when" in ob else None,
                 "suit": suit_names.index(ob["suit"]) if ob.get("suit") in suit_names else None,
                 "cards": rs.mask(ob["cards"]) if ob.get("cards") else 0}
        out.append(entry)
    return out


def _contract_rt(rules: "Rules", name: str, c: dict, ref: Ref, chosen_trump: int | None) -> ContractRT:
    comp = rules.compiler
    play = rules.doc.get("play") or {}
    rs = rules.rs
    suit_names, suit_of, order_of, suit_masks = rules.suit_names, rules.suit_of, rules.order_of, rules.suit_masks
    n_cards = len(rules.cards)
    permanent = suit_names.index(rs.trump_suit) if rs.trump_suit else -1
    trump_name = c.get("trump")
    trump = suit_names.index(trump_name) if trump_name in suit_names else -1
    if chosen_trump is not None:
        trump = chosen_trump
    winner = c.get("winner", play.get("winner", "trump_then_led"))
    led_only = winner == "led"
    if trump < 0 and permanent >= 0 and not led_only:
        trump = permanent
    if led_only:
        trump = -1
    trump_mask = suit_masks[trump] if trump >= 0 else 0
    strength = [(1 if suit_of[i] == trump else 0, order_of[i]) for i in range(n_cards)]
    beaters = []
    for i in range(n_cards):
        s = suit_of[i]
        higher_same = 0
        for j in bits(suit_masks[s]):
            if order_of[j] > order_of[i]:
                higher_same |= 1 << j
        beaters.append(higher_same if s == trump or trump < 0 else higher_same | trump_mask)
    obligations = _obligations(comp, c.get("obligations", play.get("obligations", ["follow_suit"])), suit_names, rs)
    open_ = c.get("open") or play.get("open") or {}
    return ContractRT(
        name=name, ref=ref, rank=c.get("rank", 0), category=c.get("category"), trump=trump,
        trump_mask=trump_mask, side=c.get("side", "alone"), talon=c.get("talon"),
        goal=_expr(comp, c.get("goal"), NEVER), defence=c.get("defence", "all"),
        lead=_expr(comp, c["lead"]) if "lead" in c else (_expr(comp, play["lead"]) if "lead" in play else None),
        obligations=obligations, winner_led_only=led_only,
        early_end=_expr(comp, c["early_end"]) if "early_end" in c else (_expr(comp, play["early_end"]) if "early_end" in play else None),
        open_who=open_.get("who"), open_after=open_.get("after_trick", open_.get("after_lead", 0)),
        beaters=beaters, strength=strength)
