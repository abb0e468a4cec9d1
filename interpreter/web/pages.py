"""The server's HTML pages: the lobby (games and a form to open a table), the page that hands out a new
table's seat links, and the table page itself (drawn by static/table.js). Plain HTML, escaped."""
from __future__ import annotations

from html import escape as e

from interpreter.web.table import BOT_CHOICES, PERSON, Game, Table


def _page(title: str, body: str, script: str | None = None) -> str:
    tail = f'<script src="/static/{script}"></script>' if script else ""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{e(title)}</title><link rel=\"stylesheet\" href=\"/static/table.css\"></head>"
            f"<body>{body}{tail}</body></html>")


def lobby(games: dict[str, Game], note: str = "") -> str:
    items = []
    for key, g in games.items():
        rs = g.rs
        choices = "".join(f'<option value="{b}">bot: {b}</option>' for b in BOT_CHOICES)
        seats = "".join(
            f'<label>seat {s} <select name="seat{s}">'
            f'<option value="{PERSON}"{" selected" if s == 0 else ""}>a person</option>'
            + choices.replace('value="rule">', 'value="rule" selected>' if s else 'value="rule">')
            + "</select></label>" for s in range(g.seats))
        at_table = f" in each deal, {rs.seats} at the table" if rs.seats != rs.players else ""
        rotation = (f'<p class="muted">{rs.seats} players take turns in {g.seats} chairs by the rule file\'s rotation: '
                    'a link opens a chair, and the page says which player sits in it and who sits out each deal.</p>'
                    if rs.seats > g.seats else "")
        items.append(
            f'<section class="game"><h2>{e(rs.title)}</h2><p class="muted">{e(key)} · {rs.players} players{at_table} · '
            f'{rs.deck_size} cards · <a href="/rules/{e(key)}" target="_blank" rel="noopener">rule booklet</a></p>'
            f'<form method="post" action="/tables"><input type="hidden" name="game" value="{e(key)}">'
            f'{rotation}<div class="seats">{seats}</div>'
            f'<label>deals <input type="number" name="deals" value="1" min="1" max="1000"></label> '
            f'<button type="submit">open a table</button></form></section>')
    warn = f'<p class="error">{e(note)}</p>' if note else ""
    return _page("stichwort tables", f"<main class=\"lobby\"><h1>stichwort — open a table</h1>{warn}"
                 + "".join(items) + "</main>")


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
            '<button id="save" type="button">save</button></header>'
            '<p id="message" role="alert"></p>'
            '<section id="seats"></section>'
            '<section id="board"><div id="trick" class="cards"></div><div id="last"></div></section>'
            '<section id="info"></section>'
            '<section id="open"></section>'
            '<section id="actions"></section>'
            '<section id="hand" class="cards"></section>'
            '<section id="result"></section>'
            '<section id="sheets"></section>'
            '<details><summary>what was said</summary><ol id="events"></ol></details>'
            '</main>')
    return _page(rs.title, body, script="table.js")


def message(title: str, text: str) -> str:
    return _page(title, f'<main class="lobby"><h1>{e(title)}</h1><p>{e(text)}</p><p><a href="/">the games</a></p></main>')
