"""Screenshots of the web table for docs/: a deal in progress and the score sheet after it.

    python tools/screenshots.py [--out docs] [--game wien] [--seed 3]

Starts the server in this process, opens a table (you against two rule bots), plays it in headless
Chromium (Debian's /usr/bin/chromium, or $STICHWORT_CHROMIUM) and writes web-table.png (and
web-phone.png, the same moment on a phone) and web-sheet.png. The browser tests drive the page with the helpers below.
Needs the [web] extra and Playwright for Python.
"""
from __future__ import annotations

import argparse
import itertools
import os
import random
import shutil
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"]


def find_chromium() -> str | None:
    """A Chromium to drive: $STICHWORT_CHROMIUM, else Debian's package."""
    for c in (os.environ.get("STICHWORT_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def launch(playwright):
    return playwright.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_FLAGS)


def start_server(hub):
    """The app on a free local port in a thread: (base url, stop function)."""
    import uvicorn

    from interpreter.web import listen, server_config
    from interpreter.web.app import create_app

    sock = listen("127.0.0.1", 0)           # the server `serve` runs, on a free local port
    port = sock.getsockname()[1]
    server = uvicorn.Server(server_config(create_app(hub)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the web server did not start")
        time.sleep(0.05)

    def stop():
        server.should_exit = True
        thread.join(10)
        sock.close()
    return f"http://127.0.0.1:{port}", stop


def version(page) -> str:
    return page.get_attribute("#table", "data-version") or ""


def over(page) -> bool:
    return page.get_attribute("#table", "data-over") == "yes"


def wait_change(page, before: str, timeout: float = 20_000) -> None:
    page.wait_for_function("v => document.getElementById('table').dataset.version !== v", arg=before,
                           timeout=timeout)


def my_turn(page) -> bool:
    return page.locator("#actions p.turn").count() > 0


def take_turn(page, rng: random.Random) -> bool:
    """One action through the page when it is this seat's turn: a legal card, the cards of a discard, or
    a button (in the auction mostly pass, else the lowest bid). False when it is not this seat's turn."""
    if not my_turn(page):
        return False
    before = version(page)
    legal = page.locator("#hand button.card.legal")
    buttons = page.locator("#actions button.action")
    if legal.count():
        legal.nth(rng.randrange(legal.count())).click()
    elif buttons.count() and buttons.first.is_disabled():         # a discard: choose the cards first
        need = int((buttons.first.get_attribute("title") or "choose 0").split()[1])
        cards = page.locator("#hand button.card")
        for combo in itertools.islice(itertools.combinations(range(cards.count()), need), 500):
            for i in combo:
                cards.nth(i).click()
            if not buttons.first.is_disabled():
                break
            for i in combo:
                cards.nth(i).click()
        buttons.first.click()
    else:
        texts = [buttons.nth(i).text_content() or "" for i in range(buttons.count())]
        auction = page.get_attribute("#table", "data-phase") == "auction"
        if auction and "pass" in texts and (rng.random() < 0.6 or len(texts) == 1):
            pick = texts.index("pass")
        else:
            pick = 0 if auction else rng.randrange(len(texts))
        buttons.nth(pick).click()
    wait_change(page, before)
    return True


def play_until(pages, rng: random.Random, stop=lambda: False, limit: float = 240) -> None:
    """Play through every page until all show the deal's result or `stop()` holds."""
    deadline = time.monotonic() + limit
    for p in pages:
        p.wait_for_selector("#table[data-version]")
    while not all(over(p) for p in pages) and not stop():
        if time.monotonic() > deadline:
            raise TimeoutError("the deal did not end through the page")
        if not any(take_turn(p, rng) for p in pages if not over(p)):
            pages[0].wait_for_timeout(40)


def open_table(page, base: str, game: str, seats: list[str]) -> list[str]:
    """Open a table through the lobby's form; the seat links it hands out."""
    page.goto(base + "/")
    form = page.locator(f"form:has(input[name=game][value='{game}'])")
    for s, kind in enumerate(seats):
        form.locator(f"select[name=seat{s}]").select_option(kind)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("a.seatlink")
    links = page.locator("a.seatlink")
    return [base + (links.nth(i).get_attribute("href") or "") for i in range(links.count())]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs"))
    ap.add_argument("--game", default="wien")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args(argv)
    if find_chromium() is None:
        print("no Chromium found (apt-get install chromium, or set STICHWORT_CHROMIUM)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from interpreter.engine import actions as A
    from interpreter.web import load_games
    from interpreter.web.hub import Hub

    hub = Hub(load_games([args.game]), delay=0.05)
    table = hub.open(args.game, ["person"] + ["rule"] * (hub.games[args.game].seats - 1), seed=args.seed)
    base, stop = start_server(hub)
    out = Path(args.out)
    try:
        with sync_playwright() as pw:
            browser = launch(pw)
            page = browser.new_page(viewport={"width": 900, "height": 1000})
            page.goto(f"{base}/table/{table.id}#{table.token_of(table.people[0])}")
            rng = random.Random(args.seed)
            played = lambda: sum(1 for _, a, _ in table.events if A.kind_of(a) == A.PLAY)     # cards played so far
            play_until([page], rng, stop=lambda: played() >= 7 and my_turn(page))
            page.screenshot(path=str(out / "web-table.png"), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})      # the same moment on a phone
            page.screenshot(path=str(out / "web-phone.png"), full_page=True)
            page.set_viewport_size({"width": 900, "height": 1000})
            play_until([page], rng)
            page.locator("#sheets").scroll_into_view_if_needed()
            page.screenshot(path=str(out / "web-sheet.png"), full_page=True)
            browser.close()
    finally:
        stop()
    print(f"wrote {out / 'web-table.png'}, {out / 'web-phone.png'} and {out / 'web-sheet.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
