"""The web table in a real browser: Playwright drives Debian's Chromium headless against the server
running in this process. A person plays a whole deal against two bots through the page; two people
at one table play from two browser contexts. Every websocket frame a page receives is checked for
cards that seat may not see. Run alone with `pytest -m browser` (the main run leaves them out); they
fail, saying what to install, where no Chromium is found."""
from __future__ import annotations

import importlib.util
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("screenshots", Path(__file__).resolve().parent.parent / "tools" / "screenshots.py")
assert _spec and _spec.loader
driver = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(driver)

from playwright.sync_api import sync_playwright  # noqa: E402

from interpreter.harness import logs  # noqa: E402
from interpreter.harness.scenario_rows import deal_rows  # noqa: E402
from interpreter.web import load_games  # noqa: E402
from interpreter.web.hub import MAX_PER_SEAT, Hub  # noqa: E402

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


def _engine_rows(table) -> dict[str, dict]:
    """The replayed deal's payment rows by their names on the table, amounts per seat."""
    where = logs.Where("table", 1)
    state = logs.start(table.game.rs, table.records[0], where)
    logs.play(state, logs.actions_of(table.records[0], where), where)
    return deal_rows(state.payments, str)


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


# every text a player reads on the page: buttons, table cells, the contract line, the table's lines,
# what was said, the last trick, the places at the table, the seats and the result's heading
READ = "button, td, th, caption, #game, #info p, #info .label, #events li, #last, figcaption, .seat, #result h2, #result p"
VISIBLE = f"() => [...document.querySelectorAll('{READ}')].map((e) => e.textContent)"


def _points(v) -> str:
    """Card points as the page writes them: whole, or whole and a fraction (35 2/3)."""
    v = Fraction(v)
    whole, rest = divmod(v.numerator, v.denominator)
    return str(whole) if not rest else f"{whole} {rest}/{v.denominator}" if whole else f"{rest}/{v.denominator}"


@pytest.mark.rules("KR-DECK-11", "KR-TAL-03", "KR-CON-07")
def test_a_koenigrufen_deal_reads_in_the_rule_files_names(browser):
    """Königrufen against three rule bots: the person bids, calls a king, takes a talon half, lays three
    cards away in one selection and one press, declares and plays the deal out. At each of its turns and
    at the end no button, table cell or line of the page shows an internal name (`_`); the bids, the
    declared figures and the contract are the rule file's words and titles, the trump the deck's name
    for the taroks; the result shows each seat's card points (the engine's) and the sides' points add up
    to the deck's 70; no frame shows a hidden card or the hidden partner."""
    hub = Hub(load_games(["koenigrufen"]), delay=0)
    base, stop = driver.start_server(hub)
    try:
        table = hub.open("koenigrufen", ["person", "rule", "rule", "rule"], seed=21)
        page = browser.new_page()
        frames = _frames(page)
        page.goto(f"{base}/table/{table.id}#{table.token_of(0)}")
        texts: list[str] = []
        buttons: list[tuple[str, str]] = []
        presses = []

        def look(p):
            texts.extend(p.evaluate(VISIBLE))
            acts = p.locator("#actions button.action[data-text]")
            buttons.extend(zip(acts.evaluate_all("bs => bs.map((b) => b.dataset.text)"), acts.all_text_contents()))
            presses.append(p.locator("#actions #discard").count())

        driver.play_until([page], _Bold(5), each=look)
        assert texts and not sorted({t for t in texts if "_" in t})
        doc, words = table.game.rs.doc, table.R.words
        mine = [text for seat, text in table.records[0]["actions"] if seat == 0]
        assert table.state.declarer == 0 and any(t.startswith("call ") for t in mine) and any(t.startswith("take ") for t in mine)
        assert [t.split()[0] for t in mine].count(words["discard"]) == 3 and sum(presses) == 1   # three cards, one press
        calls = {rec.get("word") or doc.get("words", {}).get(name) or name for name, rec in doc["call"].items()}
        figures = {rec["title"] for rec in doc["figure"].values()}
        bids = [shown for text, shown in buttons if text.startswith("bid ")]
        declared = [shown for text, shown in buttons if text.startswith("declare ")]
        assert bids and all(b.removeprefix("bid ") in calls for b in bids), bids
        assert declared and all(d.removeprefix("declare ") in figures for d in declared), declared
        game = page.locator("#game").inner_text()
        con = table.state.con
        assert doc["contract"][con.name]["title"] in game and "trumps: " + doc["deck"]["names"]["en"]["T"] in game
        assert _shown_payments(page) == _engine_payments(table)
        # every payment row by its name on the table (the note without catalog ids), with its amounts
        heads = page.locator("#result table.payments tr > th:first-child").all_text_contents()
        shown = heads[heads.index("card points") + 1:heads.index("payments of the deal")]
        engine = _engine_rows(table)
        assert shown == list(engine) and shown[0] == "game × valat × kontra", (shown, list(engine))
        for note, amounts in engine.items():
            row = page.locator("#result table.payments tr", has=page.locator("th", has_text=note)).first
            got = [c.strip().removeprefix("+") for c in row.locator("td").all_text_contents()]
            assert got == [str(amounts.get(str(s), "")) for s in range(4)], (note, got, amounts)
        cells = page.locator("#result table.payments tr", has_text="card points").locator("td").all_text_contents()
        assert cells == [_points(table.state.points((s,))) for s in range(4)]
        sides = page.locator("#result p", has_text="declaring side").inner_text()
        a, b = (sum(Fraction(t) for t in part.split()) for part in sides.removeprefix("card points: declaring side ").split(", defenders "))
        assert a + b == 70                                  # KR-DECK-11
        _check_private(table, 0, frames)
        shown_sides = [f["more"] for f in frames if "declarers" in f.get("more", {})]
        assert shown_sides and all(m["declarers"] == [0] for m in shown_sides if not m["partner_revealed"])
        page.close()
    finally:
        stop()


def test_preference_names_the_trump_and_a_misclicked_card_is_taken_back(server, browser):
    """Préférence, the person the declarer: each contract he may name is offered with its trump, the
    contract line names the trump of the contract played; in the play a card clicked by mistake is only
    chosen, not played, until the play button: choosing another card takes the first back."""
    hub, base = server
    table = hub.open("wien", ["person", "rule", "rule"], seed=2)
    page = browser.new_page()
    page.goto(f"{base}/table/{table.id}#{table.token_of(0)}")
    doc = table.game.rs.doc
    suits = doc["deck"]["names"]["en"]
    offered: list[tuple[str, str]] = []

    def look(p):
        acts = p.locator("#actions button.action[data-text]")
        offered.extend(zip(acts.evaluate_all("bs => bs.map((b) => b.dataset.text)"), acts.all_text_contents()))

    plays = lambda: [a for a in table.state.legal_actions() if table.state.action_text(a).startswith("play ")]
    driver.play_until([page], _Bold(2), each=look,
                      stop=lambda: table.to_act() == 0 and len(plays()) >= 2 and driver.version(page) == str(table.version))
    named = [(t.removeprefix("declare "), shown) for t, shown in offered if t.startswith("declare ")]
    assert named and table.state.declarer == 0
    for name, shown in named:
        trump = doc["contract"][name]["trump"]
        assert shown.endswith(f"(trumps: {suits[trump]})" if trump != "none" else "(no trumps)"), shown
    con = table.state.con
    game = page.locator("#game").inner_text()
    assert doc["contract"][con.name]["title"] in game
    assert (f"trumps: {suits[table.R.suit_names[con.trump]]}" if con.trump >= 0 else "no trumps") in game
    legal = page.locator("#hand button.card.legal")
    first, second = legal.nth(0).get_attribute("data-code"), legal.nth(1).get_attribute("data-code")
    before, actions = driver.version(page), len(table.records[0]["actions"])
    legal.nth(0).click()                                                    # the misclick: chosen, not played
    assert page.locator(f"#hand .card.selected[data-code='{first}']").count() == 1
    assert page.locator(f"#actions #confirm .chip[data-code='{first}']").count() == 1
    page.wait_for_timeout(150)
    assert driver.version(page) == before and len(table.records[0]["actions"]) == actions
    page.locator(f"#hand button.card[data-code='{second}']").click()         # taken back: another card chosen
    assert page.locator("#hand .card.selected").evaluate_all("cs => cs.map((c) => c.dataset.code)") == [second]
    page.click("#confirm")
    driver.wait_change(page, before)
    assert table.records[0]["actions"][actions] == [0, f"{table.R.words['play']} {second}"]
    page.close()


def test_a_pushed_out_tab_and_broken_links_say_so(server, browser):
    """A tab whose seat was opened in more tabs than a seat may hold says it is no longer connected and
    offers nothing to click; a link with a wrong token or none says why instead of connecting forever."""
    hub, base = server
    table = hub.open("wien", ["person", "rule", "rule"], seed=5)
    link = f"{base}/table/{table.id}#{table.token_of(0)}"
    context = browser.new_context()
    first = context.new_page()
    first.goto(link)
    first.wait_for_selector("#table[data-version]")
    for _ in range(MAX_PER_SEAT):
        p = context.new_page()
        p.goto(link)
        p.wait_for_selector("#table[data-version]")
    first.wait_for_selector("#banner:not([hidden])")
    assert "another tab" in first.locator("#banner").inner_text() and first.get_attribute("#table", "data-dead") == "yes"
    assert first.locator("#actions button").count() == 0
    wrong = context.new_page()
    wrong.goto(f"{base}/table/{table.id}#not-a-seat-token")
    wrong.wait_for_selector("#banner:not([hidden])")
    assert "does not open a seat" in wrong.locator("#banner").inner_text()
    bare = context.new_page()
    bare.goto(f"{base}/table/{table.id}")
    bare.wait_for_selector("#banner:not([hidden])")
    assert "seat link" in bare.locator("#banner").inner_text()
    context.close()


@pytest.mark.rules("BRIDGE-AUC-15")
def test_bridge_declarer_plays_from_the_dummy_drawn_face_up(browser):
    """Bridge, the person North against three rule bots: he bids 7NT (nothing outbids it and the bots never
    double), so he declares and South is dummy. After East's opening lead the page draws the dummy's thirteen
    cards face up; at the dummy's turn the person chooses one of them and plays it, and the engine takes it
    from South's hand. No frame lays East's or West's hand open."""
    hub = Hub(load_games(["bridge"]), delay=0)
    base, stop = driver.start_server(hub)
    try:
        table = hub.open("bridge", ["person", "rule", "rule", "rule"], seed=11)
        page = browser.new_page()
        frames = _frames(page)
        page.goto(f"{base}/table/{table.id}#{table.token_of(0)}")
        grand = page.locator("#actions button.action[data-text='bid 7NT']")
        grand.wait_for(timeout=20_000)
        before = driver.version(page)
        grand.click()
        driver.wait_change(page, before)
        dummy_cards = page.locator("#open .dummy .card")
        page.locator("#open .dummy button.card.legal").first.wait_for(timeout=20_000)
        st = table.state
        assert st.declarer == 0 and st.to_act == 2 and len(st.log) > 0
        south = set(st.R.rs.codes(st.hands[2]))
        assert dummy_cards.count() == 13 and set(dummy_cards.evaluate_all("bs => bs.map((b) => b.dataset.code)")) == south
        assert "dummy" in (page.locator("#open .dummy").inner_text())
        legal = page.locator("#open .dummy button.card.legal")
        chosen = legal.first.get_attribute("data-code")
        assert chosen in south
        before = driver.version(page)
        legal.first.click()
        confirm = page.locator("#actions #confirm")
        if confirm.count():
            confirm.click()
        driver.wait_change(page, before)
        assert chosen not in set(st.R.rs.codes(st.hands[2])) and len(st.R.rs.codes(st.hands[2])) == 12
        assert page.locator("#open .dummy .card").count() == 12
        views = [f for f in frames if f.get("type") == "view"]
        assert views and all(set(f.get("open_hands", {})) <= {"2"} for f in views)   # only the dummy lies open
        page.close()
    finally:
        stop()
