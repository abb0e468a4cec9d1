"""Screenshots of the web table for docs/: Préférence and Königrufen, each mid-deal on a desktop and a
phone (a card chosen, the play button offered) and at the deal's end.

    python tools/screenshots.py [--out docs]

Starts the server in this process, opens a table (you against rule bots, bidding boldly so that you
declare), plays it in headless Chromium (Debian's /usr/bin/chromium, or $STICHWORT_CHROMIUM) and
writes web-table.png, web-phone.png and web-sheet.png (Préférence), web-koenigrufen-table.png,
web-koenigrufen-phone.png, web-koenigrufen-result.png and web-koenigrufen-result-phone.png. The
browser tests drive the page with the helpers below. Needs the [web] extra and Playwright for Python.
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
    """One action through the page when it is this seat's turn: a legal card (chosen, then played with
    the play button unless the page plays on one click), the cards of a discard (chosen, then laid away
    with one press), or a button (in the auction mostly pass, else the lowest bid). False when it is
    not this seat's turn."""
    if not my_turn(page):
        return False
    before = version(page)
    legal = page.locator("#hand button.card.legal")
    discard = page.locator("#actions #discard")
    buttons = page.locator("#actions button.action:not(#discard)")
    if legal.count():
        legal.nth(rng.randrange(legal.count())).click()
        confirm = page.locator("#actions #confirm")
        if confirm.count():
            confirm.click()
    elif discard.count():                   # a discard: choose the cards first, then one press
        need = int(discard.get_attribute("data-size") or "0")
        allowed = page.locator("#hand button.card.allowed")
        if allowed.count():                 # laid away one at a time: the cards the rules allow now
            for i in rng.sample(range(allowed.count()), min(need, allowed.count())):
                allowed.nth(i).click()
            if discard.is_disabled():       # fewer allowed now than needed: the rest follow as allowed
                for c in page.locator("#hand button.card:not(.selected)").all()[:need]:
                    if discard.is_disabled():
                        c.click()
        else:
            cards = page.locator("#hand button.card")
            for combo in itertools.islice(itertools.combinations(range(cards.count()), need), 500):
                for i in combo:
                    cards.nth(i).click()
                if not discard.is_disabled():
                    break
                for i in combo:
                    cards.nth(i).click()
        discard.click()
    else:
        texts = [buttons.nth(i).text_content() or "" for i in range(buttons.count())]
        auction = page.get_attribute("#table", "data-phase") == "auction"
        passes = [i for i in range(buttons.count()) if buttons.nth(i).get_attribute("data-text") == "pass"]
        if auction and passes and (rng.random() < 0.6 or len(texts) == 1):
            pick = passes[0]
        else:
            pick = 0 if auction else rng.randrange(len(texts))
        buttons.nth(pick).click()
    wait_change(page, before)
    return True


def play_until(pages, rng: random.Random, stop=lambda: False, limit: float = 240, each=None) -> None:
    """Play through every page until all show the deal's result or `stop()` holds; `each(page)` looks
    at a page before each of its turns (and once at the end)."""
    deadline = time.monotonic() + limit
    for p in pages:
        p.wait_for_selector("#table[data-version]")
    while not all(over(p) for p in pages) and not stop():
        if time.monotonic() > deadline:
            raise TimeoutError("the deal did not end through the page")
        if each is not None:
            for p in pages:
                if my_turn(p):
                    each(p)
        if not any(take_turn(p, rng) for p in pages if not over(p)):
            pages[0].wait_for_timeout(40)
    if each is not None:
        for p in pages:
            each(p)


def open_table(page, base: str, game: str, seats: list[str]) -> list[str]:
    """Open a table through the lobby's form; the seat links it hands out."""
    page.goto(base + "/")
    details = page.locator(f"li.game[data-game='{game}'] details")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    form = page.locator(f"form:has(input[name=game][value='{game}'])")
    for s, kind in enumerate(seats):
        form.locator(f"select[name=seat{s}]").select_option(kind)
    form.locator("button[type=submit]").click()
    page.wait_for_selector("a.seatlink")
    links = page.locator("a.seatlink")
    return [base + (links.nth(i).get_attribute("href") or "") for i in range(links.count())]


class Bold(random.Random):
    """A player who never passes when he may bid: the person wins the auction (the screenshots show the
    declarer's side: the talon, the discards, the contract with its trump)."""

    def random(self) -> float:
        return 0.99


# (game, seed, file prefix, cards played before the mid-deal pictures)
SHOTS = (("wien", 2, "web", 7), ("koenigrufen", 21, "web-koenigrufen", 9))
DESKTOP, PHONE = {"width": 900, "height": 1000}, {"width": 390, "height": 844}


def shoot(browser, base, table, out: Path, prefix: str, played_before: int) -> list[Path]:
    """Mid-deal on a desktop and a phone, then the deal's end (and, for a game other than the first,
    the end on a phone too)."""
    from interpreter.engine import actions as A

    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{base}/table/{table.id}#{table.token_of(table.people[0])}")
    rng = Bold(1)
    played = lambda: sum(1 for _, a, _ in table.events if A.kind_of(a) == A.PLAY)
    play_until([page], rng, stop=lambda: played() >= played_before and my_turn(page) and version(page) == str(table.version))
    page.locator("#hand button.card.legal").first.click()          # a card chosen, the play button offered
    names = {"table": out / f"{prefix}-table.png" if prefix != "web" else out / "web-table.png",
             "phone": out / f"{prefix}-phone.png", "end": out / (f"{prefix}-result.png" if prefix != "web" else "web-sheet.png")}
    page.screenshot(path=str(names["table"]), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(names["phone"]), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.locator("#actions #undo").click()
    play_until([page], rng)
    page.screenshot(path=str(names["end"]), full_page=True)
    written = list(names.values())
    if prefix != "web":
        page.set_viewport_size(PHONE)
        written.append(out / f"{prefix}-result-phone.png")
        page.screenshot(path=str(written[-1]), full_page=True)
    page.close()
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "docs"))
    args = ap.parse_args(argv)
    if find_chromium() is None:
        print("no Chromium found (apt-get install chromium, or set STICHWORT_CHROMIUM)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    from interpreter.web import load_games
    from interpreter.web.hub import Hub

    out = Path(args.out)
    written: list[Path] = []
    with sync_playwright() as pw:
        browser = launch(pw)
        for game, seed, prefix, played_before in SHOTS:
            hub = Hub(load_games([game]), delay=0.05)
            table = hub.open(game, ["person"] + ["rule"] * (hub.games[game].seats - 1), seed=seed)
            base, stop = start_server(hub)
            try:
                written += shoot(browser, base, table, out, prefix, played_before)
            finally:
                stop()
        browser.close()
    print("wrote " + ", ".join(str(p) for p in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
