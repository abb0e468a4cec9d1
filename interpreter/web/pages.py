"""The server's HTML pages: the lobby (games and a form to open a table), the page that hands out a new
table's seat links, and the table page itself (drawn by static/table.js). Plain HTML, escaped."""
from __future__ import annotations

from html import escape as e

from interpreter.web.table import BOT_CHOICES, PERSON, Game, Table


def _page(title: str, body: str, scripts: tuple[str, ...] = ()) -> str:
    tail = "".join(f'<script src="/static/{s}"></script>' for s in scripts)
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{e(title)}</title><link rel=\"stylesheet\" href=\"/static/table.css\"></head>"
            f"<body>{body}{tail}</body></html>")


def _first_sentence(text: str) -> str:
    """The description's first sentence: the lobby's one line per game."""
    text = " ".join(str(text or "").split())
    cut = text.find(". ")
    return text if cut < 0 else text[:cut + 1]


def families(games: dict[str, Game]) -> list[tuple[str, list[str]]]:
    """The games by family (the rule file's `family`), each family's base games first and every variant
    after the game it extends; families in the order their first game comes."""
    groups: dict[str, list[str]] = {}
    for key, g in games.items():
        groups.setdefault(str(g.rs.doc.get("family") or "other games"), []).append(key)

    def order(key: str) -> tuple:
        chain = [str(p) for p in games[key].rs.chain]
        return (chain[0], len(chain), chain)
    return [(fam, sorted(keys, key=order)) for fam, keys in groups.items()]


def _seat_form(key: str, g: Game) -> str:
    choices = "".join(f'<option value="{b}">bot: {b}</option>' for b in BOT_CHOICES)
    seats = "".join(
        f'<label>seat {s} <select name="seat{s}">'
        f'<option value="{PERSON}"{" selected" if s == 0 else ""}>a person</option>'
        + choices.replace('value="rule">', 'value="rule" selected>' if s else 'value="rule">')
        + "</select></label>" for s in range(g.seats))
    rs = g.rs
    rotation = (f'<p class="muted">{rs.seats} players take turns in {g.seats} chairs by the rule file\'s rotation: '
                'a link opens a chair, and the page says which player sits in it and who sits out each deal.</p>'
                if rs.seats > g.seats else "")
    return (f'<form method="post" action="/tables"><input type="hidden" name="game" value="{e(key)}">'
            f'{rotation}<div class="seats">{seats}</div>'
            f'<label>deals <input type="number" name="deals" value="1" min="1" max="1000"></label> '
            f'<button type="submit">open a table</button></form>')


def lobby(games: dict[str, Game], note: str = "") -> str:
    sections = []
    for family, keys in families(games):
        items = []
        for key in keys:
            g = games[key]
            rs = g.rs
            variant = len(rs.chain) > 1
            at_table = f", {rs.seats} at the table" if rs.seats != rs.players else ""
            items.append(
                f'<li class="game{" variant" if variant else ""}" data-game="{e(key)}"><details{" open" if len(games) == 1 else ""}><summary>'
                f'<strong>{e(rs.title)}</strong> <span class="muted">{rs.players} players{at_table} · {rs.deck_size} cards</span>'
                f'<br><span class="line">{e(_first_sentence(rs.doc.get("description", "")))}</span></summary>'
                f'<p class="muted">{e(key)} · <a href="/rules/{e(key)}" target="_blank" rel="noopener">rule booklet</a></p>'
                f'{_seat_form(key, g)}</details></li>')
        sections.append(f'<section class="family"><h2>{e(family[:1].upper() + family[1:])}</h2><ul class="games">{"".join(items)}</ul></section>')
    warn = f'<p class="error">{e(note)}</p>' if note else ""
    return _page("stichwort tables", f"<main class=\"lobby\"><h1>stichwort — open a table</h1>{warn}"
                 "<p class=\"muted\">Choose a game, then who sits where: you, friends (each gets a link) or bots.</p>"
                 + "".join(sections) + "</main>")


def created(table: Table, base: str = "") -> str:
    """The seat links of a new table; `base` (scheme and host the creator used) makes them whole URLs."""
    rs = table.game.rs
    people = table.people
    rows = []
    for i, s in enumerate(people):
        link = f"/table/{e(table.id)}#{e(table.token_of(s))}"
        who = "your seat" if i == 0 else "send this link to a friend"
        rows.append(f'<li>seat {s} ({who}): <a class="seatlink" data-seat="{s}" href="{link}">{e(base)}{link}</a></li>')
    bots = ", ".join(f"seat {s}: {k}" for s, k in enumerate(table.kinds) if k != PERSON) or "none"
    body = (f"<main class=\"lobby\"><h1>{e(rs.title)}: a new table</h1>"
            "<p>Each link opens one seat; keep it to come back to your seat. Anyone with a link plays that seat.</p>"
            f"<ul class=\"links\">{''.join(rows)}</ul><p class=\"muted\">bots — {e(bots)}</p>"
            "<p><a href=\"/\">back to the games</a></p></main>")
    return _page(f"{rs.title}: new table", body)


def table_page(table: Table) -> str:
    rs = table.game.rs
    body = (f'<main id="table" data-table="{e(table.id)}">'
            f'<header><h1>{e(rs.title)}</h1><span id="status" class="muted">connecting…</span>'
            f'<a href="/rules/{e(table.game.key)}" target="_blank" rel="noopener">rule booklet</a>'
            '<button id="hint" type="button" title="what the rule bot would choose in your place">hint</button>'
            '<button id="save" type="button">save</button>'
            '<label class="option"><input id="oneclick" type="checkbox"> play a card with one click</label></header>'
            '<div id="banner" class="banner" role="alert" hidden></div>'
            '<p id="message" role="status"></p>'
            '<section id="seats"></section>'
            '<section id="game"></section>'
            '<section id="board"><div id="trick" class="cards"></div><div id="last"></div></section>'
            '<section id="info"></section>'
            '<section id="open"></section>'
            '<section id="actions"></section>'
            '<section id="hand" class="cards"></section>'
            '<section id="result"></section>'
            '<section id="sheets"></section>'
            '<details><summary>what was said</summary><ol id="events"></ol></details>'
            '</main>')
    return _page(rs.title, body, scripts=("cards.js", "result.js", "table.js"))


def message(title: str, text: str) -> str:
    return _page(title, f'<main class="lobby"><h1>{e(title)}</h1><p>{e(text)}</p><p><a href="/">the games</a></p></main>')
