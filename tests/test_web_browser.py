"""The web table in a real browser: Playwright drives Debian's Chromium headless against the server
running in this process. A person plays a whole deal against two bots through the page; two people
at one table play from two browser contexts. Every websocket frame a page receives is checked for
cards that seat may not see. Run alone with `pytest -m browser` (the main run leaves them out); they
fail, saying what to install, where no Chromium is found."""
from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("screenshots", Path(__file__).resolve().parent.parent / "tools" / "screenshots.py")
assert _spec and _spec.loader
driver = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(driver)

from playwright.sync_api import sync_playwright  # noqa: E402

from interpreter.harness import logs  # noqa: E402
from interpreter.web import load_games  # noqa: E402
from interpreter.web.hub import Hub  # noqa: E402

pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def server():
    hub = Hub(load_games(["wien"]), delay=0, seed=2024)
    base, stop = driver.start_server(hub)
    yield hub, base
    stop()


@pytest.fixture(scope="module")
def browser():
    if driver.find_chromium() is None:
        pytest.fail("no Chromium here: apt-get install chromium (or set STICHWORT_CHROMIUM to a Chromium binary)")
    with sync_playwright() as pw:
        b = driver.launch(pw)
        yield b
        b.close()


def _frames(page) -> list[dict]:
    """Every websocket message the page receives, parsed."""
    got: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: got.append(json.loads(payload))))
    return got


def _engine_payments(table) -> dict[str, int]:
    """The deal replayed from the table's record by the engine alone."""
    where = logs.Where("table", 1)
    state = logs.start(table.game.rs, table.records[0], where)
    logs.play(state, logs.actions_of(table.records[0], where), where)
    assert state.is_over()
    return {str(s): v for s, v in state.result()["payments"].items()}


def _shown_payments(page) -> dict[str, int]:
    cells = page.locator("#result td.payment")
    return {cells.nth(i).get_attribute("data-seat") or "": int(cells.nth(i).text_content() or "")
            for i in range(cells.count())}


def _words(x) -> set[str]:
    return set(json.dumps(x).replace('"', " ").replace(",", " ").replace("]", " ").replace("[", " ").split())


def _check_private(table, seat: int, frames: list[dict]) -> None:
    """No frame names a card of another hand or the talon unless that frame shows it as public: said
    aloud (but another seat's discard) or offered, played, open, shown, the seat's own, or among what
    else its observation shows."""
    rec = table.records[0]
    hidden = {c for s, hand in enumerate(rec["hands"]) if s != seat for c in hand} | set(rec["talon"])
    views = [f for f in frames if f.get("type") == "view"]
    assert views, "the page received no views"
    for f in frames:
        if f.get("type") == "hello":
            assert f["seat"] == seat
            continue
        public = set(f.get("hand", [])) | set(f.get("discards", [])) | set(f.get("talon", []))
        public |= {c for _, c in f.get("trick", [])} | {c for _, c in f.get("last_trick", [])}
        public |= {w for e in f.get("events", []) if e["kind"] != "discard" or e["seat"] == seat for w in e["text"].split()}
        public |= {w for t in f.get("legal", []) for w in t.split()} | _words(f.get("more", {}))
        public |= {c for h in f.get("open_hands", {}).values() for c in h}
        public |= {c for h in (f.get("result") or {}).get("hands", {}).values() for c in h}   # shown once the deal is over
        leaked = (_words(f) & hidden) - public
        assert not leaked, f"seat {seat}'s page received {sorted(leaked)}"


def test_a_person_plays_a_whole_deal_against_two_bots(server, browser):
    hub, base = server
    page = browser.new_page()
    links = driver.open_table(page, base, "wien", ["person", "rule", "rule"])
    assert len(links) == 1
    frames = _frames(page)
    page.goto(links[0])
    driver.play_until([page], random.Random(7))
    table = next(p.table for p in hub.places.values() if p.table.token_of(0) in links[0])
    assert table.state.is_over()
    shown = _shown_payments(page)
    assert shown == _engine_payments(table)
    assert page.locator("#sheets table.sheet").count() == 3          # the sheets `play` prints, one per seat
    assert page.locator("#result .final").count() == 1
    _check_private(table, 0, frames)
    page.close()


def test_two_people_finish_a_deal_from_two_browser_contexts(server, browser):
    hub, base = server
    host = browser.new_context()
    guest = browser.new_context()
    a = host.new_page()
    links = driver.open_table(a, base, "wien", ["person", "person", "rule"])
    assert len(links) == 2
    b = guest.new_page()
    frames_a, frames_b = _frames(a), _frames(b)
    a.goto(links[0])
    b.goto(links[1])
    driver.play_until([a, b], random.Random(3))
    table = next(p.table for p in hub.places.values() if p.table.token_of(0) in links[0])
    expected = _engine_payments(table)
    assert _shown_payments(a) == expected == _shown_payments(b)
    assert any(e[0] == 0 for e in table.records[0]["actions"]) and any(e[0] == 1 for e in table.records[0]["actions"])
    _check_private(table, 0, frames_a)
    _check_private(table, 1, frames_b)
    host.close()
    guest.close()


def _person_against_two_bots(server, browser):
    """A page at seat 0 of a new Préférence table with two rule bots, and the table behind it."""
    hub, base = server
    page = browser.new_page()
    links = driver.open_table(page, base, "wien", ["person", "rule", "rule"])
    page.goto(links[0])
    return page, next(p.table for p in hub.places.values() if p.table.token_of(0) in links[0])


def test_a_reloaded_page_gets_its_seat_back(server, browser):
    page, table = _person_against_two_bots(server, browser)
    driver.play_until([page], random.Random(1), stop=lambda: len(table.records[0]["actions"]) >= 4)
    hand = page.locator("#hand .card").evaluate_all("cards => cards.map((c) => c.dataset.code)")
    page.reload()
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('you are seat 0')")
    page.wait_for_selector("#table[data-version]")
    if not table.state.is_over():
        again = page.locator("#hand .card").evaluate_all("cards => cards.map((c) => c.dataset.code)")
        assert set(again) <= set(hand) | set(table.records[0]["talon"])
    driver.play_until([page], random.Random(1))
    assert _shown_payments(page) == _engine_payments(table)
    page.close()


def test_the_hint_button_shows_the_rule_bots_choice(server, browser):
    page, table = _person_against_two_bots(server, browser)
    page.wait_for_selector("#actions button")                      # the person's turn: actions are offered
    offered = page.locator("#actions button").all_text_contents()
    version = table.version
    page.locator("#hint").click()
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('the rule bot')")
    said = page.locator("#message").text_content() or ""
    chosen = said.removeprefix("the rule bot would choose: ")
    assert chosen in offered and table.version == version           # shown, not played
    page.close()


class _Bold(random.Random):
    """Never passes when it may bid: the person wins the auction and exchanges with the talon."""

    def random(self) -> float:
        return 0.99


def test_a_person_exchanges_with_the_talon_through_the_page(server, browser):
    hub, base = server
    table = hub.open("wien", ["person", "rule", "rule"], seed=2)
    page = browser.new_page()
    page.goto(f"{base}/table/{table.id}#{table.token_of(0)}")
    driver.play_until([page], _Bold(2))
    mine = [text for seat, text in table.records[0]["actions"] if seat == 0 and text.startswith("discard ")]
    assert len(mine) == 1, "the person chose two cards in the hand and discarded them"
    assert _shown_payments(page) == _engine_payments(table)
    page.close()


def test_two_deals_through_the_page_end_in_the_final_result(server, browser):
    hub, base = server
    table = hub.open("wien", ["person", "rule", "rule"], deals=2, seed=4)
    page = browser.new_page()
    page.goto(f"{base}/table/{table.id}#{table.token_of(0)}")
    driver.play_until([page], random.Random(1))
    assert page.locator("#next").count() == 1 and page.locator("#result .final").count() == 0
    before = driver.version(page)
    page.click("#next")
    driver.wait_change(page, before)
    page.wait_for_function("document.getElementById('table').dataset.over === 'no'")
    driver.play_until([page], random.Random(2))
    assert page.locator("#next").count() == 0
    final = page.locator("#result .final").inner_text()
    assert f"you {table.final[0]}" in final
    assert page.locator("#sheets table.sheet").first.locator("tr").count() == 3      # a header and two deals
    page.close()


def test_a_person_plays_koenigrufen_from_the_page(browser):
    """Königrufen against three rule bots: the person bids, calls a king, takes a talon half, discards
    card by card by clicking the cards, goes through the declaration round and plays the deal out; the
    payments shown are the engine's and no frame shows a hidden card or the hidden partner."""
    hub = Hub(load_games(["koenigrufen"]), delay=0)
    base, stop = driver.start_server(hub)
    try:
        table = hub.open("koenigrufen", ["person", "rule", "rule", "rule"], seed=21)
        page = browser.new_page()
        frames = _frames(page)
        page.goto(f"{base}/table/{table.id}#{table.token_of(0)}")
        driver.play_until([page], _Bold(5))
        mine = [text.split()[0] for seat, text in table.records[0]["actions"] if seat == 0]
        words = table.R.words
        assert table.state.declarer == 0 and "call" in mine and "take" in mine, mine
        assert mine.count(words["discard"]) == 3, "three cards discarded one by one from the page"
        assert _shown_payments(page) == _engine_payments(table)
        info = page.locator("#info").inner_text()
        assert "declaring side" in info and "called" in info and "packet 1" in info
        _check_private(table, 0, frames)
        sides = [f["more"] for f in frames if "declarers" in f.get("more", {})]
        assert sides and all(m["declarers"] == [0] for m in sides if not m["partner_revealed"])
        page.close()
    finally:
        stop()
