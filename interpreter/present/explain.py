"""The rules booklet: a Ruleset as headings, paragraphs and tables, rendered for the terminal (rich),
as Markdown or as HTML. Expressions are shown in words where a phrase is known, else as code."""
from __future__ import annotations

import html
from fractions import Fraction

from interpreter.diagnostics import DiagnosticError
from interpreter.language.expressions import parse_text, to_text
from interpreter.model.ruleset import Ruleset, thaw
from interpreter.model.values import constant
from interpreter.model.words import TableWords, table_words
from interpreter.present.explain_order import choice_lines, order_blocks


def _fmt(v) -> str:
    if v is None:
        return "–"
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if isinstance(v, list):
        return ", ".join(_fmt(x) for x in v)
    if isinstance(v, dict):
        return "; ".join(f"{k} {_fmt(x)}" for k, x in v.items())
    if isinstance(v, Fraction):
        return str(v.numerator) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return str(v)


_PHRASES = {">=": "at least", "<=": "at most", "==": "exactly", ">": "more than", "<": "fewer than"}


def _verb(who: str) -> str:
    """'take' for a set of seats (declarers, defenders …), 'takes' for one seat."""
    return "take" if len(who) > 2 and who.endswith("s") and not who.endswith("ss") else "takes"


def words(text) -> str:
    """An expression in words where a simple pattern is known, else the expression itself."""
    if not isinstance(text, str):
        return _fmt(text)
    try:
        node = parse_text(text)
    except DiagnosticError:
        return text
    return _words(node)


def _amount(node) -> str | None:
    """A constant number in words: 35 + 2/3 → '35 2/3'; None if the node is not constant."""
    if node[0] == "num":
        return node[2]
    v = constant(to_text(node))
    if v is None:
        return None
    whole, part = divmod(v, 1)
    return _fmt(v) if not part or whole == 0 else f"{whole} {_fmt(part)}"


def _words(node) -> str:
    kind = node[0]
    if kind == "bin" and node[1] in _PHRASES and node[2][0] == "call" and node[2][1] in ("tricks", "points") \
            and len(node[2][2]) == 1 and _amount(node[3]) is not None:
        who = to_text(node[2][2][0])
        what = node[2][1]
        amount = _amount(node[3])
        if node[1] == "==" and amount == "0":
            return f"{who} {_verb(who)} no {what[:-1] if what.endswith('s') else what}s" if what == "tricks" else f"{who} {_verb(who)} no points"
        if amount == "1":
            what = what[:-1]
        return f"{who} {_verb(who)} {_PHRASES[node[1]]} {amount} {what}"
    if kind == "bin" and node[1] in ("and", "or"):
        # keep the grouping visible: an `or` inside an `and`, or an `and` inside an `or`, is bracketed
        parts = [f"({_words(x)})" if x[0] == "bin" and x[1] in ("and", "or") and x[1] != node[1] else _words(x)
                 for x in (node[2], node[3])]
        return f"{parts[0]} {node[1]} {parts[1]}"
    if kind == "call" and node[1] in ("next", "prev") and len(node[2]) == 1 and node[2][0][0] == "name":
        seat = to_text(node[2][0])
        return f"the player {'after' if node[1] == 'next' else 'before'} the {seat} in the order of play"
    if kind == "not":
        inner = _words(node[1])
        return f"not {inner}" if node[1][0] in ("name", "call", "attr") else f"not ({inner})"
    return to_text(node)


def _condition(value, always: str, never: str, when: str) -> str:
    """A condition field as a phrase: `always` for true, `never` for false, else `when` + the words."""
    if value is True:
        return always
    if value is False:
        return never
    return when + words(value)


class Booklet:
    def __init__(self, title: str):
        self.title = title
        self.blocks: list[tuple] = []

    def heading(self, text):
        self.blocks.append(("h", text))

    def para(self, text):
        self.blocks.append(("p", text))

    def bullets(self, items):
        items = [i for i in items if i]
        if items:
            self.blocks.append(("ul", items))

    def table(self, headers, rows, caption=None):
        if rows:
            self.blocks.append(("table", headers, rows, caption))


def build(rs: Ruleset) -> Booklet:
    doc = thaw(rs.doc)
    spoken = table_words(doc)
    b = Booklet(doc["title"])
    if doc.get("description"):
        b.para(doc["description"])
    seating = doc.get("seating", {})
    b.para(f"{rs.players} players per deal" + (f", {rs.seats} at the table" if rs.seats != rs.players else "")
           + f"; play goes {seating.get('direction')}."
           + (" The dealer sits out each deal." if seating.get("sit_out") == "dealer" else ""))
    if seating.get("roles"):
        b.bullets([f"{name}: {_steps(off)}" for name, off in seating["roles"].items()])
    if seating.get("teams"):
        roles = {off % rs.seats: name for name, off in (seating.get("roles") or {}).items()}
        b.para("Fixed partnerships: " + "; ".join(
            " with ".join(roles.get(off % rs.seats, _steps(off)) for off in team) for team in seating["teams"]) + ".")
    if seating.get("rotation"):
        width = max(len(r) for r in seating["rotation"])
        b.table(["sit"] + [f"S{i}" for i in range(width)] + ["sits out"],
                [[str(i)] + [str(p) if p else "–" for p in row] + [", ".join(
                    str(p) for p in range(1, max(max(r) for r in seating["rotation"]) + 1) if p not in row)]
                 for i, row in enumerate(seating["rotation"], 1)],
                caption="Players by number at seats S0 (the first dealer's), S1 (next in play), …")
    # deck
    b.heading("The cards")
    deck = doc["deck"]
    b.para(f"{rs.deck_size} cards in {len(rs.suits)} suits ({', '.join(rs.suits)}, lowest first)."
           + (f" {deck['trump_suit']} is a permanent trump suit." if deck.get("trump_suit") else ""))
    rows = []
    for suit in rs.suits:
        codes = [c.code for c in rs.cards if c.suit == suit]
        rows.append([suit, " ".join(codes)])
    b.table(["suit", "cards, lowest first"], rows)
    if deck.get("points"):
        pts: dict[Fraction, list[str]] = {}
        for c in rs.cards:
            pts.setdefault(c.points, []).append(c.code)
        b.table(["card points", "cards"], [[_fmt(p), " ".join(cs)] for p, cs in sorted(pts.items(), reverse=True)],
                caption=f"Total {_fmt(rs.total_points())} points.")
    if deck.get("group"):
        b.table(["group", "cards"], [[g, " ".join(m)] for g, m in deck["group"].items()])
    # deal
    b.heading("The deal")
    packets = doc["deal"]["packets"]
    b.para("Packets in order: " + ", ".join(
        f"{_fmt(p['cards'])}{' ×' + _fmt(p['repeat']) if p.get('repeat', 1) != 1 else ''} to {'each player' if p['to'] == 'each' else 'the ' + p['to']}"
        for p in packets) + (f". The largest deal gives each player {rs.hand_size} cards and the talon {rs.talon_size}."
                             if "hand" in doc["deal"] else f". Each player holds {rs.hand_size} cards; the talon holds {rs.talon_size}."))
    if "hand" in doc["deal"]:
        b.para(f"Cards in each hand, deal by deal: {words(doc['deal']['hand'])} (at most {rs.hand_size}); "
               "each packet stops when a hand is full, and the cards not dealt stay in the talon."
               + (" Its first card is turned face up for everyone to see." if doc["deal"].get("turn_up") else ""))
    elif doc["deal"].get("turn_up"):
        b.para("The first card of the talon is turned face up for everyone to see.")
    if doc["deal"].get("cut") is not None:
        b.para(f"The dealer shuffles and {words(doc['deal']['cut'])} cuts the pack (a simulated deal is shuffled "
               "afresh, so the cut changes no card).")
    if doc["deal"].get("start") is not None:
        b.para(f"The first packet goes to {words(doc['deal']['start'])}.")
    if doc["deal"].get("knock"):
        b.para("Knocking: " + (doc["deal"]["knock"].get("doc") or "an alternative deal."))
    if doc["deal"].get("pause") is not None:
        b.para(f"The deal pauses after the packet '{doc['deal']['pause']}': until deal_rest deals the rest, each player "
               "holds only the cards dealt him so far.")
    b.para("Phases of a deal: " + " → ".join(doc.get("procedure", [])) + ".")
    if doc.get("number_bids"):
        b.heading("Number bids")
        b.bullets(_number_bid_words(doc))
    # auction
    if doc.get("call"):
        b.heading("The auction")
        b.bullets(_auction_words(doc, spoken))
        known = ["category", "contracts", "talon", "allowed", "contest", "sealed", "raise", "joins"]
        extra = sorted({k for c in doc["call"].values() for k in c} - {"rank", "word", "title", "rule", "doc"},
                       key=lambda k: (known.index(k) if k in known else len(known), k))   # the same order in every run
        rows = []
        for name in rs.calls:
            c = doc["call"][name]
            rows.append([str(c.get("rank")), spoken.of(name)] + [_fmt(c.get(k)) if k != "allowed" else words(c.get(k)) if k in c else "" for k in extra])
        ranks = [doc["call"][n].get("rank") for n in rs.calls]
        b.table(["rank", "call"] + extra, rows, caption="Calls of equal rank are equivalent: neither may be bid over the other."
                if len(set(ranks)) < len(ranks) else None)
        docs = [f"{spoken.of(n)}: {doc['call'][n]['doc']}" for n in rs.calls if doc["call"][n].get("doc")]
        if docs:
            b.bullets(docs)
    # contracts
    b.heading("The contracts")
    props = []
    for c in doc["contract"].values():
        for k in (c.get("props") or {}):
            if k not in props:
                props.append(k)
    rows = []
    for name in rs.contracts:
        c = doc["contract"][name]
        trump = _trump(c)
        rows.append([str(c.get("rank")), c.get("title") or name, _fmt(c.get("category")), _fmt(c.get("kind", "")), trump,
                     _fmt(c.get("talon")), _fmt(c.get("side", "alone")), words(c.get("goal")) if "goal" in c else ""]
                    + [_fmt((c.get("props") or {}).get(p, "")) for p in props] + [_fmt(c.get("must_declare", ""))]
                    + [_fmt(c.get("honours", ""))])
    headers = ["rank", "contract", "category", "kind", "trump", "talon", "declarer", "goal"] + props + ["must declare", "honours"]
    keep = [i for i in range(len(headers)) if i < 2 or any(r[i] not in ("", "–") for r in rows)]
    b.table([headers[i] for i in keep], [[r[i] for i in keep] for r in rows])
    if doc.get("talon"):
        b.table(["talon procedure", "how"], [[n, _talon_words(t)] for n, t in doc["talon"].items()])
    order_blocks(b, doc, rs, lambda n: doc["contract"][n].get("title") or spoken.contract(n))
    if doc.get("choice"):
        b.heading("Decisions")
        b.bullets(choice_lines(doc, words))
    if doc.get("partner"):
        b.para("Calling a partner: " + (doc["partner"].get("doc") or f"the declarer names a card of group {doc['partner'].get('group')}."))
    if doc.get("after_purchase"):
        ap = doc["after_purchase"]
        b.para("After-purchase: " + (ap.get("doc") or f"when {words(ap.get('when'))}, entitled players may take the discards and announce one of {_fmt(ap.get('contracts'))}."))
    if doc.get("defence"):
        df = doc["defence"]
        b.heading("Defence")
        go, stay = spoken.actions["go"], spoken.actions["stay"]
        b.bullets([f"asked when {words(df.get('when'))}; '{go}' or '{stay}', first {words(df.get('first'))}" if "when" in df else None,
                   _condition(df["compulsory"], f"'{go}' is compulsory", f"'{go}' is always voluntary",
                              f"'{go}' is compulsory when ") if "compulsory" in df else None,
                   "a defender who goes along may invite the other" if df.get("invite") else None,
                   f"played only after a kontra when {words(df['kontra_required'])}" if "kontra_required" in df else None,
                   df.get("doc")])
    for key in ("kontra", "announce"):
        if doc.get(key):
            k = doc[key]
            chain = k.get("levels") or (k.get("kontra") or {}).get("levels")
            b.para(f"{key.capitalize()}: " + (k.get("doc") or "") + (f" Chain: {', '.join(chain)}." if chain else ""))
    if doc.get("figure"):
        b.heading("Figures")
        b.table(["figure", "silent", "declared", "goal"],
                [[f.get("title") or n, _fmt(f.get("silent")), _fmt(f.get("declared")), f.get("doc") or words(f.get("goal"))]
                 for n, f in doc["figure"].items()])
    # play
    play = doc.get("play", {})
    b.heading("Play")
    b.bullets([f"first lead: {words(play.get('lead'))}" if "lead" in play else None,
               f"trick winner: {'highest trump, else highest card of the led suit' if play.get('winner', 'trump_then_led') == 'trump_then_led' else 'highest card of the led suit'}",
               "obligations, in order: " + ", ".join(o if isinstance(o, str) else o["rule"] + (f" (when {words(o['when'])})" if "when" in o else "") for o in play.get("obligations", [])),
               f"play stops early when {words(play['early_end'])}" if "early_end" in play else None,
               f"sitting out the play (keeping their cards): {words(play['sits_out'])}" if "sits_out" in play else None])
    # settlement
    b.heading("Payments")
    accounts = doc.get("account") or {}
    b.bullets([f"{_title(accounts, n)}" + (f" ({n})" if _title(accounts, n) != n else "") + f", {_PER.get(a.get('per', 'seat'), 'kept per ' + str(a.get('per')))}"
               + (f": {a['doc']}" if a.get("doc") else "") for n, a in accounts.items()])
    if doc.get("let"):
        b.table(["name", "meaning"], [[n, v if isinstance(v, str) else f"({', '.join(v['params'])}) → {v['body']}"] for n, v in doc["let"].items()])
    b.table(["when", "each", "from", "to", "amount", "note"],
            [[words(r.get("when", "always")), _fmt(r.get("each", "")), _party(r.get("from", ""), accounts), _party(r.get("to"), accounts), _fmt(r.get("amount")), r.get("note", "")]
             for r in doc["settle"]["pay"]])
    session = doc.get("session") or {}
    if session:
        b.heading("The session")
        for part in ("before_deal", "after_deal", "all_pass", "reckoning"):
            if session.get(part):
                b.table([part.replace("_", " "), "each", "from", "to", "amount", "note"],
                        [[words(r.get("when", "always")), _fmt(r.get("each", "")), _party(r.get("from", ""), accounts), _party(r.get("to"), accounts), _fmt(r.get("amount")), r.get("note", "")]
                         for r in session[part]])
        b.bullets([f"next dealer: {words(session['dealer'])}" if "dealer" in session else None,
                   _session_end(session["ends"]) if "ends" in session else None,
                   session.get("doc")])
        _sits(b, doc, session.get("sit") or {})
    if doc.get("option"):
        b.heading("Table options")
        b.table(["option", "default", "meaning"], [[n, _fmt(o.get("default")), o.get("doc", "")] for n, o in doc["option"].items()])
    if doc.get("customs"):
        b.heading("Customs (not enforced)")
        b.bullets(doc["customs"])
    return b


def _session_end(ends) -> str:
    """`session.ends` in words; a constant says it plainly (true: every deal is a whole game)."""
    if ends is True:
        return "the session ends after every deal: each deal is a whole game"
    if ends is False:
        return "the session does not end by itself"
    return f"the session ends when {words(ends)}"


def _sits(b, doc: dict, sit: dict) -> None:
    """Sits and rubbers: when a sit ends, what is booked, who moves where (engine/reseating.py)."""
    if not sit:
        return
    seating = doc.get("seating") or {}
    accounts = doc.get("account") or {}
    b.bullets([f"a sit ends when {words(sit['ends'])}" if "ends" in sit else None,
               f"a rubber is {sit['per_rubber']} sits" if "per_rubber" in sit else None,
               f"after a rubber: {words(sit['new_rubber'])} (stay seated, or draw for seats again)" if "new_rubber" in sit else None])
    if sit.get("reckoning"):
        b.table(["at a sit's end", "each", "from", "to", "amount", "note"],
                [[words(r.get("when", "always")), _fmt(r.get("each", "")), _party(r.get("from", ""), accounts), _party(r.get("to"), accounts), _fmt(r.get("amount")), r.get("note", "")]
                 for r in sit["reckoning"]])
    if seating.get("sit_out") == "rotation" and seating.get("rotation"):
        b.table(["sit", "players in the seats from the first dealer's on", "waiting"],
                [[str(i + 1), " ".join(map(str, row)), " ".join(str(p) for p in range(1, (seating.get("seats") or 0) + 1) if p not in row)]
                 for i, row in enumerate(seating["rotation"])])
    elif sit.get("reseat"):
        b.table(["after sit", "when", "these seats' players change places", "rule"],
                [[str(r.get("after", "any")), words(r.get("when", "always")), " and ".join(_fmt(x) for x in r.get("swap") or []), r.get("rule", r.get("note", ""))]
                 for r in sit["reseat"]])


def _party(v, accounts: dict | None = None) -> str:
    """A payment row's `from` or `to` in words: `others`, an account by its title (`pot` → "Stock",
    `account(score, s)` → "score of s"); nobody (a row only adding to an account) as a dash."""
    if v == "others":
        return "each other player"
    accounts = accounts or {}
    if isinstance(v, str) and v in accounts:
        return _title(accounts, v)
    if isinstance(v, str) and v.startswith("account(") and v.endswith(")"):
        name, _, whose = v[len("account("):-1].partition(",")
        name, whose = name.strip(), whose.strip()
        if name in accounts and whose:
            if (accounts[name] or {}).get("per") == "pair" and whose.count(",") == 1:
                whose = " against ".join(w.strip() for w in whose.split(","))
            return f"{_title(accounts, name)} of {whose}"
    return _fmt(v) if v != "" else "–"


_PER = {"game": "one for the whole table", "seat": "one for each seat", "team": "one for each partnership",
        "player": "one for each player (it follows the player when seats change)", "pair": "one for each pair of seats"}


def _title(accounts: dict, name: str) -> str:
    return str((accounts.get(name) or {}).get("title") or name)


def _steps(off: int) -> str:
    if off == 0:
        return "the dealer"
    return f"{abs(off)} seat{'s' if abs(off) != 1 else ''} {'after' if off > 0 else 'before'} the dealer"


def _trump(c: dict) -> str:
    """The trump column of a contract: its trump, or the suits the declarer chooses among (a list, or the
    words of an expression judged in the deal)."""
    choices = c.get("trump_choices")
    if isinstance(choices, (list, tuple)):
        return "choice of " + _fmt(list(choices))
    if isinstance(choices, str):
        return f"choice of the suits given by: {words(choices)}"
    return _fmt(c.get("trump")) if "trump" in c else ""


def _talon_words(t: dict) -> str:
    kind = t["kind"]
    if kind == "exchange":
        text = f"take {t.get('take', 'all')} and discard {t.get('discard', 0)}" + (", shown to all" if t.get("exposed") else "")
    elif kind == "halves":
        text = f"choose one of {t.get('packets', 2)} packets; the rest goes to the {t.get('rest', 'defenders')}"
    elif kind == "into_tricks":
        text = f"one card into each of the first {t.get('tricks')} tricks"
    else:
        text = {"aside": "set aside, unused", "defenders": "goes unseen to the defenders"}.get(kind, kind)
    if t.get("never"):
        text += f"; never discard {', '.join(t['never'])}"
    if (t.get("last_resort") or {}).get("cards"):
        lr = t["last_resort"]
        text += f"; {', '.join(lr['cards'])} only when nothing else is left" + (", face up" if lr.get("face_up") else "")
    if "requires" in t:
        text += f"; then the declarer's hand must satisfy {words(t['requires'])}, or the game is lost at once"
    if "give_up" in t:
        text += f"; the declarer may give up when {words(t['give_up'])}"
    text += f" ({t['rule']})" if t.get("rule") else ""
    return text + (f". {t['doc']}" if t.get("doc") else "")


def _number_bid_words(doc) -> list[str]:
    """The `number_bids` phase: each seat states one number, the last one with a number it may not say."""
    nb = doc["number_bids"]
    low, high = words(nb.get("min", 0)), words(nb.get("max", "tricks_total"))
    contract = (doc.get("contract") or {}).get(nb.get("contract")) or {}
    return [f"{words(nb.get('first', 'forehand'))} states first, then each player in turn: one number from {low} to {high}.",
            f"The last to state may not say {words(nb['last_not'])}." if "last_not" in nb else None,
            (f"Then {contract.get('title') or nb.get('contract')} is played" if nb.get("contract") else "Then the cards are played")
            + (f", trumps being {words(nb['trump'])} (no trumps when it gives none)." if "trump" in nb else "."),
            "number_bid(s) reads the number a seat stated, number_bid_total their sum.",
            nb.get("doc")]


def _auction_words(doc, spoken: TableWords) -> list[str]:
    a = doc.get("auction", {})
    out = [f"{words(a.get('first', 'forehand'))} speaks first; turns follow the direction of play."]
    if a.get("style") == "once":
        out.append("Every player speaks exactly once.")
    if a.get("pass_final"):
        out.append("A player who passes may not bid again.")
    elif a.get("pass_final") is False:
        out.append("A pass is not final: a bid or hold makes the passes before it void, and every player is asked in turn.")
    out.append({"higher": "Each bid must rank higher than the current bid.", "step": "Each bid must be exactly the next rank.",
                "any": "Any bid may be made."}.get(a.get("raise", "higher"), ""))
    if "allowed" in a:
        out.append(f"Every bid must satisfy: {words(a['allowed'])}.")
    if "allowed" in (a.get("pass") or {}):
        out.append(_condition(a["pass"]["allowed"], "Passing is always allowed.", "Passing is not allowed.",
                              "Passing is allowed only when: ") + ("" if isinstance(a["pass"]["allowed"], bool) else "."))
    if a.get("hold"):
        h = a["hold"]
        out.append(f"Hold right ('{spoken.actions['hold']}'): {words(h['who'])} may take over the current bid by repeating it"
                   + (f", when {words(h['bids'])}" if "bids" in h else "") + ".")
    if a.get("contest"):
        out.append("Sealed calls are resolved by naming contracts " + ("in turn" if a["contest"].get("reveal") == "turn" else "after the auction") + ".")
    if "ends" in a:
        out.append(f"The auction ends when {words(a['ends'])}.")
    if a.get("all_pass"):
        ap = a["all_pass"]
        out.append(f"If everyone passes: {ap.get('contract') or 'the cards are thrown in'}." + (f" {ap['doc']}" if ap.get("doc") else ""))
    if a.get("doc"):
        out.append(a["doc"])
    return out


# ---- renderers --------------------------------------------------------------------------------
def to_markdown(b: Booklet) -> str:
    out = [f"# {b.title}", ""]
    for blk in b.blocks:
        if blk[0] == "h":
            out += [f"## {blk[1]}", ""]
        elif blk[0] == "p":
            out += [blk[1], ""]
        elif blk[0] == "ul":
            out += [f"- {i}" for i in blk[1]] + [""]
        else:
            _, headers, rows, caption = blk
            esc = lambda s: str(s).replace("|", "\\|")
            out.append("| " + " | ".join(map(esc, headers)) + " |")
            out.append("|" + "---|" * len(headers))
            out += ["| " + " | ".join(esc(c) for c in r) + " |" for r in rows]
            out += ([f"\n{caption}"] if caption else []) + [""]
    return "\n".join(out)


def to_html(b: Booklet) -> str:
    e = html.escape
    out = ["<!doctype html>", '<html><head><meta charset="utf-8">', f"<title>{e(b.title)}</title>",
           "<style>body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse}"
           "td,th{border:1px solid #999;padding:2px 6px;text-align:left}</style></head><body>", f"<h1>{e(b.title)}</h1>"]
    for blk in b.blocks:
        if blk[0] == "h":
            out.append(f"<h2>{e(blk[1])}</h2>")
        elif blk[0] == "p":
            out.append(f"<p>{e(blk[1])}</p>")
        elif blk[0] == "ul":
            out.append("<ul>" + "".join(f"<li>{e(str(i))}</li>" for i in blk[1]) + "</ul>")
        else:
            _, headers, rows, caption = blk
            out.append("<table><tr>" + "".join(f"<th>{e(str(h))}</th>" for h in headers) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in r) + "</tr>" for r in rows]
            out.append("</table>" + (f"<p><em>{e(caption)}</em></p>" if caption else ""))
    out.append("</body></html>")
    return "\n".join(out)


def to_rich(b: Booklet, console) -> None:
    from rich.markup import escape
    from rich.table import Table

    console.rule(f"[bold]{escape(b.title)}")
    for blk in b.blocks:
        if blk[0] == "h":
            console.print(f"\n[bold underline]{escape(blk[1])}[/]")
        elif blk[0] == "p":
            console.print(escape(blk[1]))
        elif blk[0] == "ul":
            for i in blk[1]:
                console.print(f" • {escape(str(i))}")
        else:
            _, headers, rows, caption = blk
            t = Table(*[escape(str(h)) for h in headers], caption=escape(caption) if caption else None,
                      show_lines=False, header_style="bold")
            for r in rows:
                t.add_row(*[escape(str(c)) for c in r])
            console.print(t)
