// The table page: one websocket, the seat's view drawn as it arrives. Everything shown comes from the
// server's messages: the cards' faces from the deck (the "hello" message), every action, contract,
// call and figure by the label the server built from the rule file's display names (cards inside a
// label are written {CODE} and drawn here as small cards). A click sends the action's text and the
// view's version. A card is chosen first and played by a second press (or the play button), unless
// this browser asked to play on one click; several cards to lay away are chosen, then sent at once.
// Cards and labels are drawn by cards.js, the end of a deal by result.js.
"use strict";
(function () {
  const root = document.getElementById("table");
  const tableId = root.dataset.table;
  const token = decodeURIComponent(location.hash.slice(1));
  const $ = (id) => document.getElementById(id);
  const OPTION = "stichwort.oneclick";
  const { el, face, chip, rich, card, row } = window.Stw;
  let words = {}, seat = null, view = null, retry = 500, ws = null, done = false, failures = 0;
  let selected = new Set();     // cards chosen to lay away
  let pick = null;              // the card chosen to play, not yet played
  let queue = [];               // chosen discards still to send, one card at a time
  let answered = -1;            // the version a queued discard was last sent for
  let oneClick = false;
  try { oneClick = localStorage.getItem(OPTION) === "yes"; } catch (e) { /* no storage: the default */ }

  function who(s) {
    if (s === seat) return "you";
    const k = view && view.seats[s];
    return "seat " + s + (k && !k.person ? " (" + k.kind + ")" : "");
  }

  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN && !done) ws.send(JSON.stringify(obj));
  }
  function act(text) { pick = null; send({ type: "act", action: text, version: view.version }); }
  function say(text, bad) {
    const m = $("message");
    m.textContent = text || "";
    m.className = bad ? "error" : "";
  }

  // ---- what the table knows --------------------------------------------------------------------
  function side(v) {           // the declaring side as this seat knows it, and whether it is all known
    const g = v.game || {};
    return { seats: g.side || (v.declarer !== null ? [v.declarer] : []), known: g.side_known !== false };
  }

  function drawSeats(v) {
    const box = $("seats");
    box.replaceChildren();
    const s = side(v);
    v.seats.forEach((x) => {
      const b = el("span", "seat" + (x.seat === v.to_act ? " turn" : "") + (x.seat === seat ? " me" : ""));
      const kind = x.person ? (x.connected ? "person" : "person, away") : "bot " + x.kind;
      const partner = x.seat !== v.declarer && s.seats.includes(x.seat) ? " · partner" : "";
      const role = (x.seat === v.dealer ? " · dealer" : "") + (x.seat === v.declarer ? " · declarer" : "") + partner
        + (v.seating ? " · player " + v.seating.players[x.seat] : "");
      const playing = !v.active || v.active.includes(x.seat);
      b.textContent = (x.seat === seat ? "you (seat " + x.seat + ")" : "seat " + x.seat) + ": " + kind + role
        + (playing ? " · tricks " + (v.tricks[x.seat] !== undefined ? v.tricks[x.seat] : "–") : " · sits out this deal");
      if (!playing) b.classList.add("out");
      b.dataset.seat = x.seat;
      box.append(b);
    });
  }

  function drawGame(v) {        // the contract, its trump, the declarer and partner: always in sight
    const box = $("game");
    box.replaceChildren();
    const g = v.game || {};
    if (!g.title) {
      const bids = (g.calls || []).filter(([, c]) => c !== (words.pass || "pass"));
      const high = bids[bids.length - 1];
      box.append(el("span", "label", v.phase === "auction" ? "bidding" : phaseName(v.phase)));
      box.append(el("span", null, high ? "highest call: " + high[1] + " (" + who(high[0]) + ")" : "no call yet"));
      if (v.declarer !== null && v.declarer !== undefined) box.append(el("span", null, "declarer " + who(v.declarer)));
      return;
    }
    box.append(el("span", "label contract", g.title), el("span", "trump", g.trump));
    if (v.declarer !== null && v.declarer !== undefined) {
      box.append(el("span", null, "declarer " + who(v.declarer)));
      const s = side(v), others = s.seats.filter((x) => x !== v.declarer);
      const called = v.more && v.more.called_card;
      if (others.length) box.append(el("span", null, "partner " + others.map(who).join(", ") + (s.known ? "" : " (not yet shown to the table)")));
      else if (!s.known && v.declarer === seat && called && v.hand.includes(called)) box.append(el("span", null, "no partner: you hold the called card"));
      else if (!s.known) box.append(el("span", null, "partner not yet known"));
    }
  }

  function phaseName(p) { return words[p] || String(p).replace(/_/g, " "); }    // an engine phase, in words

  function drawBoard(v) {
    // one place per seat in play: the others across the top, yours below; the card led is marked
    const t = $("trick");
    t.replaceChildren();
    const played = new Map(v.trick.map(([s, c], i) => [s, [c, i]]));
    const active = Object.keys(v.tricks).map(Number);
    const n = v.seats.length;
    const order = active.filter((s) => s !== seat).sort((a, b) => ((a - seat + n) % n) - ((b - seat + n) % n));
    const others = el("div", "others"), mine = el("div", "mine");
    const place = (s, box) => {
      const p = el("figure", "played" + (s === v.to_act ? " turn" : ""));
      const got = played.get(s);
      p.append(got ? card(got[0]) : el("div", "card empty"),
        el("figcaption", null, who(s) + (got && got[1] === 0 ? " · led" : "")));
      p.dataset.seat = s;
      box.append(p);
    };
    order.forEach((s) => place(s, others));
    if (active.includes(seat)) place(seat, mine);
    t.append(others, mine);
    const last = $("last");
    last.replaceChildren();
    if (v.last_trick.length) {
      const won = v.last_winner !== null && v.last_winner !== undefined ? ", won by " + who(v.last_winner) : "";
      last.append(el("span", "label", "last trick" + won + ": "));
      v.last_trick.forEach(([s, c]) => {
        const m = el("span", "mini" + (s === v.last_winner ? " won" : ""), who(s) + " ");
        m.append(chip(c));
        last.append(m);
      });
    }
  }

  function drawInfo(v) {
    const box = $("info");
    box.replaceChildren();
    const line = (label, text) => { const p = el("p"); p.append(el("span", "label", label + " ")); rich(text, p); box.append(p); return p; };
    line("deal", v.deal + " of " + v.deals + " · dealer " + who(v.dealer));
    const g = v.game || {};
    if ((g.calls || []).length) line("bidding", g.calls.map(([s, c]) => who(s) + ": " + c).join(" · "));
    const announced = v.events.filter((e) => e.announce);
    if (announced.length) line("announced", announced.map((e) => who(e.seat) + ": " + e.label).join(" · "));
    const kontras = v.events.filter((e) => e.kontra);
    if (kontras.length) line("kontra", kontras.map((e) => who(e.seat) + ": " + e.label).join(" · "));
    const out = v.active ? v.seats.map((s) => s.seat).filter((s) => !v.active.includes(s)) : [];
    if (out.length) line("sitting out this deal", out.map((s) => who(s) + (s === v.dealer ? " (the dealer)" : "")).join(", "));
    if (v.seating) {
      const me = v.seating.players[seat];
      line("seating", "sit " + v.seating.sit + " of rubber " + v.seating.rubber + " · in your chair this deal: player " + me
        + (v.seating.bench.length ? " · on the bench: player " + v.seating.bench.join(", player ") : ""));
    }
    if (v.teams) line("partnerships", v.teams.map((t) => t.map(who).join(" + ")).join(" against "));
    if (v.talon && !(v.more && v.more.packets)) box.append(row("talon", v.talon));     // packets: shown below, each apart
    if (v.talon_in_hand && v.talon_in_hand.length) box.append(row("from the talon, now in your hand", v.talon_in_hand));
    if (v.discards && v.discards.length) box.append(row("your discards", v.discards));
    const more = Object.assign({}, v.more || {});
    delete more.declarers; delete more.partner_revealed;     // in the contract line above
    delete more.declared;           // the declarations, each an action of the deal: "announced" above
    if ("called_card" in more) {
      if (more.called_card) box.append(row("called", [more.called_card]));
      else line("called", more.called_by_count ? "the fourth (the card is not yet shown)" : "–");
      delete more.called_card; delete more.called_by_count;
    }
    if (Array.isArray(more.packets)) {
      more.packets.forEach((p, i) => box.append(row("packet " + (i + 1) + (more.packet_taken === i + 1 ? " (taken)" : ""), p)));
      delete more.packets; delete more.packet_taken;
    }
    if (Array.isArray(more.number_bids)) {
      line("bids", more.number_bids.map((b, s) => b === null ? null : who(s) + ": " + b).filter((x) => x).join(" · ") || "–");
      delete more.number_bids;
    }
    if (Array.isArray(more.face_up_discards)) { box.append(row("laid away face up", more.face_up_discards)); delete more.face_up_discards; }
    if (Array.isArray(more.talon_in_tricks)) {
      line("talon cards in the tricks", more.talon_in_tricks.map(([n, c]) => "trick " + n + ": {" + c + "}").join(" · "));
      delete more.talon_in_tricks;
    }
    if (more.turned_up) { box.append(row("turned up", [more.turned_up])); delete more.turned_up; }
    const dummy = more.dummy;       // the dummy's seat (play.dummy): his open hand below, played by the declarer
    delete more.dummy;
    Object.entries(more).forEach(([k, x]) => {
      const cards = (Array.isArray(x) ? x : [x]).every((c) => typeof c === "string" && window.Stw.faces[c]);
      if (cards) box.append(row(k.replace(/_/g, " "), Array.isArray(x) ? x : [x]));
      else line(k.replace(/_/g, " "), typeof x === "object" ? JSON.stringify(x) : String(x));
    });
    const open = $("open");
    open.replaceChildren();
    const plays = v.to_act === seat ? new Map(ofKind(v, "play").map(([t]) => [cardsOf(t)[0], t])) : new Map();
    Object.entries(v.open_hands || {}).forEach(([s, h]) => {
      const mine = h.some((c) => plays.has(c));       // the dummy's turn: this seat plays one of these cards
      const r = row((Number(s) === dummy ? "dummy: " : "open hand of ") + who(Number(s)) + (mine ? " · your turn to play from it" : ""), []);
      r.dataset.seat = s;
      if (Number(s) === dummy) r.classList.add("dummy");
      const cs = r.querySelector(".cards");
      h.forEach((c) => {
        const click = plays.has(c) ? () => {
          if (oneClick || pick === c) act(plays.get(c));
          else { pick = c; drawInfo(view); drawHand(view); drawActions(view); }
        } : null;
        const n = card(c, click);
        if (click) n.classList.add("legal");
        if (pick === c) n.classList.add("selected");
        cs.append(n);
      });
      open.append(r);
    });
  }

  // ---- your turn -------------------------------------------------------------------------------
  function ofKind(v, kind) { return v.legal.map((t, i) => [t, v.labels[i], i]).filter(([, , i]) => v.legal_kinds[i] === kind); }
  function cardsOf(t) { return t.split(" ").slice(1); }
  function discardChoices(v) { return ofKind(v, "discard").map(([t]) => [t, cardsOf(t).sort()]); }
  function oneByOne(v) {       // the rules lay cards away one at a time: each discard action is one card
    const d = discardChoices(v);
    return d.length > 0 && d.every(([, cs]) => cs.length === 1);
  }
  function discardSize(v) {
    if (oneByOne(v)) return v.discard_left || 1;
    const d = discardChoices(v);
    return d.length ? d[0][1].length : 0;
  }
  function matchDiscard(v) {   // the legal discard the chosen cards make, if any
    const chosen = [...selected].sort();
    const m = discardChoices(v).find(([, d]) => d.length === chosen.length && d.every((c, i) => c === chosen[i]));
    return m ? m[0] : null;
  }

  function nextQueued(v) {     // one card at a time: send the first chosen card the rules allow now
    if (!queue.length || v.to_act !== seat || !oneByOne(v) || answered === v.version) return;
    const allowed = new Map(discardChoices(v).map(([t, cs]) => [cs[0], t]));
    const go = queue.find((c) => allowed.has(c));
    if (!go) {
      say("these cards cannot be laid away now: " + queue.map((c) => face(c).title).join(", ") + "; choose again", true);
      selected = new Set(queue.filter((c) => v.hand.includes(c)));
      queue = [];
      drawHand(v); drawActions(v);
      return;
    }
    queue = queue.filter((c) => c !== go);
    answered = v.version;
    send({ type: "act", action: allowed.get(go), version: v.version });
  }

  function drawHand(v) {
    const plays = new Map(ofKind(v, "play").map(([t]) => [cardsOf(t)[0], t]));
    const size = v.to_act === seat && !queue.length ? discardSize(v) : 0;
    const hand = $("hand");
    hand.replaceChildren();
    hand.style.setProperty("--n", Math.max(v.hand.length, 2));
    if (v.phase === "knock") hand.append(el("p", "hint", "not dealt yet: the deck is cut or knocked first"));
    const fromTalon = new Set(v.from_talon || []);
    const allowedNow = new Set(discardChoices(v).filter(([, cs]) => cs.length === 1).map(([, cs]) => cs[0]));
    v.hand.forEach((c) => {
      let click = null;
      if (plays.has(c)) {
        click = () => {
          if (oneClick || pick === c) act(plays.get(c));
          else { pick = c; drawInfo(view); drawHand(view); drawActions(view); }
        };
      } else if (size) {
        click = () => {
          if (selected.has(c)) selected.delete(c);
          else if (size === 1 && oneByOne(v)) selected = new Set([c]);
          else if (selected.size < size) selected.add(c);
          drawHand(view); drawActions(view);
        };
      }
      const n = card(c, click);
      if (plays.has(c)) n.classList.add("legal");
      if (size && oneByOne(v) && allowedNow.has(c)) n.classList.add("allowed");
      if (selected.has(c) || pick === c) n.classList.add("selected");
      if (queue.includes(c)) n.classList.add("going");
      if (fromTalon.has(c)) n.classList.add("talon");
      hand.append(n);
    });
  }

  function drawActions(v) {
    const box = $("actions");
    box.replaceChildren();
    if (v.to_act !== seat || !v.legal.length) {
      if (v.to_act !== null && v.to_act !== undefined) box.append(el("p", "muted", "waiting for " + who(v.to_act)));
      return;
    }
    if (queue.length) { box.append(el("p", "hint", "laying away the cards you chose: " + queue.length + " more")); return; }
    box.append(el("p", "turn", "your turn"));
    const plays = ofKind(v, "play");
    if (plays.length) {
      if (pick !== null && plays.some(([t]) => cardsOf(t)[0] === pick)) {
        const t = plays.find(([x]) => cardsOf(x)[0] === pick);
        const b = rich(t[1], el("button", "action primary"));
        b.id = "confirm";
        b.addEventListener("click", () => act(t[0]));
        const undo = el("button", "action", "choose another");
        undo.id = "undo";
        undo.addEventListener("click", () => { pick = null; drawInfo(view); drawHand(view); drawActions(view); });
        box.append(b, undo);
      } else {
        box.append(el("p", "hint", oneClick ? "click a raised card to play it" : "choose a raised card, then press play (or press the card again)"));
      }
    }
    const size = queue.length ? 0 : discardSize(v);
    if (size) {
      const one = oneByOne(v);
      const word = (words.discard || "discard");
      box.append(el("p", "hint", "choose " + size + " card" + (size > 1 ? "s" : "") + " of your hand to lay away, then press "
        + word + " (" + selected.size + " of " + size + " chosen)" + (one ? "; they go one at a time, as the rules allow" : "")));
      const match = one ? null : matchDiscard(v);
      const ready = one ? selected.size === size : match !== null;
      const b = el("button", "action primary");
      b.id = "discard";
      if (one || !match) b.textContent = word + " (" + selected.size + " of " + size + ")";
      else rich(v.labels[v.legal.indexOf(match)], b);
      b.disabled = !ready;
      b.dataset.size = size;
      b.addEventListener("click", () => {
        if (one) { queue = [...selected]; selected.clear(); nextQueued(view); drawHand(view); drawActions(view); }
        else if (match) { act(match); selected.clear(); }
      });
      box.append(b);
    }
    v.legal.forEach((t, i) => {
      if (["play", "discard"].includes(v.legal_kinds[i])) return;
      const b = rich(v.labels[i], el("button", "action"));
      b.dataset.text = t;
      b.addEventListener("click", () => act(t));
      box.append(b);
    });
  }

  // ---- the deal's end --------------------------------------------------------------------------
  function drawEvents(v) {
    const list = $("events");
    list.replaceChildren();
    v.events.forEach((e) => { const li = el("li", null, who(e.seat) + ": "); rich(e.label, li); list.append(li); });
  }

  function draw(v) {
    const moved = !view || view.version !== v.version;
    view = v;
    if (moved && v.to_act !== seat) { selected.clear(); pick = null; }
    if (moved && !discardChoices(v).length) selected.clear();
    if (moved && pick !== null && !v.hand.includes(pick)) pick = null;
    if (v.to_act !== seat || !oneByOne(v)) queue = [];
    drawSeats(v); drawGame(v); drawBoard(v); drawInfo(v); drawHand(v); drawActions(v); window.StwResult.draw(v, { seat, who, send }); drawEvents(v);
    root.dataset.version = v.version;
    root.dataset.phase = v.phase;
    root.dataset.over = v.result ? "yes" : "no";
    nextQueued(v);
  }

  function download(name, text) {
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
  }

  // ---- the connection --------------------------------------------------------------------------
  function dead(text) {        // this page no longer plays: say so, and offer nothing to click
    done = true;
    root.dataset.dead = "yes";
    $("status").textContent = "not connected";
    const b = $("banner");
    b.replaceChildren(el("strong", null, text));
    b.hidden = false;
    $("actions").replaceChildren();
    $("hand").querySelectorAll("button").forEach((x) => { x.disabled = true; });
  }

  const CLOSED = {
    4001: "This tab is no longer connected: your seat was opened in another tab or device. Reload this page to play here again.",
    4403: "This link does not open a seat at this table. Ask whoever opened the table for your seat's link.",
    4404: "There is no such table: it was closed, or the link is wrong. Open a new one from the list of games.",
    4400: "The table did not hear from this page in time. Reload the page to join again.",
  };

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let last = "";
    ws = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
    ws.onopen = () => { retry = 500; ws.send(JSON.stringify({ type: "join", token: token })); };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "hello") {
        window.Stw.faces = m.faces; words = m.words; seat = m.seat; failures = 0;
        $("status").textContent = "you are seat " + seat;
        $("banner").hidden = true;
      } else if (m.type === "view") {
        if (view && m.version < view.version) return;     // an older view overtaken on its way
        say(""); draw(m);
      }
      else if (m.type === "hint") {
        if (!view || m.version !== view.version) return;
        const i = view.legal.indexOf(m.text);      // said as its label, the rule file's names
        say("");
        rich("the rule bot would choose: " + (i >= 0 ? view.labels[i] : m.text), $("message"));
      }
      else if (m.type === "error") { last = m.message; say(m.message, true); }
      else if (m.type === "save") download(m.name, m.text);
    };
    ws.onclose = (ev) => {
      if (done) return;
      if (CLOSED[ev.code]) { dead(CLOSED[ev.code] + (last && ev.code !== 4001 ? " (" + last + ")" : "")); return; }
      if (ev.code >= 4400 && ev.code < 4500) { dead("This page is no longer connected" + (last ? ": " + last : ".") + " Reload the page to try again."); return; }
      failures += 1;
      $("status").textContent = failures > 3 ? "cannot reach the table; trying again…" : "reconnecting…";
      if (failures > 3) { const b = $("banner"); b.replaceChildren(el("strong", null, "The server does not answer; this page keeps trying.")); b.hidden = false; }
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  const option = $("oneclick");
  option.checked = oneClick;
  option.addEventListener("change", () => {
    oneClick = option.checked;
    try { localStorage.setItem(OPTION, oneClick ? "yes" : "no"); } catch (e) { /* kept for this page only */ }
    pick = null;
    if (view) { drawHand(view); drawActions(view); }
  });
  $("save").addEventListener("click", () => send({ type: "save" }));
  $("hint").addEventListener("click", () => { if (view) send({ type: "hint", version: view.version }); });
  if (!token) { dead("This page needs the seat link you were given (it ends in #…): without it no seat is yours."); return; }
  connect();
})();
