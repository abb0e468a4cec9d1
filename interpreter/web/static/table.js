// The table page: one websocket, the seat's view drawn as it arrives. Everything shown comes from the
// server's messages; the cards' faces come from the deck (the "hello" message), the actions' words
// from the rule file. Clicking a card or a button sends the action's text and the view's version.
"use strict";
(function () {
  const root = document.getElementById("table");
  const tableId = root.dataset.table;
  const token = decodeURIComponent(location.hash.slice(1));
  const $ = (id) => document.getElementById(id);
  let faces = {}, words = {}, seat = null, view = null, selected = new Set(), retry = 500, ws = null, done = false;

  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  function card(code, onClick) {
    const f = faces[code] || { label: code, symbol: "", colour: "black", title: code, named: true };
    const c = el(onClick ? "button" : "div", "card" + (f.named ? " named" : ""));
    c.title = f.title;
    c.dataset.code = code;
    c.style.color = f.colour;
    const corner = el("span", "corner");
    corner.append(el("b", null, f.label), el("i", null, f.symbol));
    c.append(corner, el("span", "pip", f.named ? f.label : f.symbol));
    if (onClick) { c.type = "button"; c.addEventListener("click", onClick); }
    return c;
  }

  function who(s) {
    if (s === seat) return "you";
    const k = view && view.seats[s];
    return "seat " + s + (k && !k.person ? " (" + k.kind + ")" : "");
  }

  function send(obj) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(obj));
  }
  function act(text) { send({ type: "act", action: text, version: view.version }); }
  function say(text, bad) {
    const m = $("message");
    m.textContent = text || "";
    m.className = bad ? "error" : "";
  }

  function drawSeats(v) {
    const box = $("seats");
    box.replaceChildren();
    v.seats.forEach((s) => {
      const b = el("span", "seat" + (s.seat === v.to_act ? " turn" : "") + (s.seat === seat ? " me" : ""));
      const kind = s.person ? (s.connected ? "person" : "person, away") : "bot " + s.kind;
      const role = (s.seat === v.dealer ? " · dealer" : "") + (s.seat === v.declarer ? " · declarer" : "")
        + (v.seating ? " · player " + v.seating.players[s.seat] : "");
      const playing = !v.active || v.active.includes(s.seat);
      b.textContent = (s.seat === seat ? "you (seat " + s.seat + ")" : "seat " + s.seat) + ": " + kind + role
        + (playing ? " · tricks " + (v.tricks[s.seat] !== undefined ? v.tricks[s.seat] : "–") : " · sits out this deal");
      if (!playing) b.classList.add("out");
      b.dataset.seat = s.seat;
      box.append(b);
    });
  }

  function row(label, cards) {
    const r = el("div", "row");
    r.append(el("span", "label", label));
    const cs = el("span", "cards small");
    cards.forEach((c) => cs.append(card(c)));
    r.append(cs);
    return r;
  }

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
      last.append(el("span", "label", "last trick: "));
      v.last_trick.forEach(([s, c]) => {
        const f = faces[c];
        last.append(el("span", "mini", who(s) + " " + (f && !f.named ? f.label + f.symbol : c)));
      });
    }
  }

  function drawInfo(v) {
    const box = $("info");
    box.replaceChildren();
    const line = (label, text) => { const p = el("p"); p.append(el("span", "label", label + " "), el("span", null, text)); box.append(p); };
    line("deal", v.deal + " of " + v.deals + " · dealer " + who(v.dealer) + " · " + v.phase);
    if (v.calls.length) line("bidding", v.calls.map(([s, c]) => who(s) + ": " + c).join(" · "));
    if (v.contract) line("contract", v.contract + (v.declarer !== null ? " · declarer " + who(v.declarer) : ""));
    const announced = v.events.filter((e) => e.announce);
    if (announced.length) line("announced", announced.map((e) => who(e.seat) + ": " + e.text).join(" · "));
    const kontras = v.events.filter((e) => e.kontra);
    if (kontras.length) line("kontra", kontras.map((e) => who(e.seat) + ": " + e.text).join(" · "));
    const out = v.active ? v.seats.map((s) => s.seat).filter((s) => !v.active.includes(s)) : [];
    if (out.length) line("sitting out this deal", out.map((s) => who(s) + (s === v.dealer ? " (the dealer)" : "")).join(", "));
    if (v.seating) {
      const me = v.seating.players[seat];
      line("seating", "sit " + v.seating.sit + " of rubber " + v.seating.rubber + " · in your chair this deal: player " + me
        + (v.seating.bench.length ? " · on the bench: player " + v.seating.bench.join(", player ") : ""));
    }
    if (v.teams) line("partnerships", v.teams.map((t) => t.map(who).join(" + ")).join(" against "));
    if (v.talon && !(v.more && v.more.packets)) box.append(row("talon", v.talon));     // packets: shown below, each apart
    if (v.discards && v.discards.length) box.append(row("your discards", v.discards));
    const more = Object.assign({}, v.more || {});
    if ("declarers" in more) {     // the declaring side as this seat knows it (a called partner may be hidden)
      const hidden = more.partner_revealed === false;
      line("declaring side", more.declarers.map(who).join(" + ") + (hidden ? " (as far as you know: the side is not yet shown to the table)" : ""));
      delete more.declarers; delete more.partner_revealed;
    }
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
    Object.entries(more).forEach(([k, x]) => {
      const cards = (Array.isArray(x) ? x : [x]).every((c) => typeof c === "string" && faces[c]);
      if (cards) box.append(row(k.replace(/_/g, " "), Array.isArray(x) ? x : [x]));
      else line(k.replace(/_/g, " "), typeof x === "object" ? JSON.stringify(x) : String(x));
    });
    const open = $("open");
    open.replaceChildren();
    Object.entries(v.open_hands || {}).forEach(([s, h]) => open.append(row("open hand of " + who(Number(s)), h)));
  }

  // the legal discards: [text, its cards sorted] (the text is sent as the rules spell it)
  function ofKind(v, kind) { return v.legal.filter((t, i) => (v.legal_kinds || [])[i] === kind); }
  function cardsOf(t) { return t.split(" ").slice(1); }
  function discardChoices(v) {
    return ofKind(v, "discard").map((t) => [t, cardsOf(t).sort()]);
  }
  // a discard of one card at a time (card by card): the card itself is the button
  function oneByOne(v) {
    const d = discardChoices(v);
    return d.length > 0 && d.every(([, cs]) => cs.length === 1);
  }

  function drawHand(v) {
    const direct = new Map();       // card → the action a click on it sends
    ofKind(v, "play").forEach((t) => direct.set(cardsOf(t)[0], t));
    if (oneByOne(v)) discardChoices(v).forEach(([t, cs]) => direct.set(cs[0], t));
    const playable = new Set(direct.keys());
    const discards = oneByOne(v) ? [] : discardChoices(v);
    const size = discards.length ? discards[0][1].length : 0;
    const hand = $("hand");
    hand.replaceChildren();
    if (v.phase === "knock") hand.append(el("p", "hint", "not dealt yet: the deck is cut or knocked first"));
    v.hand.forEach((c) => {
      let click = null;
      if (playable.has(c)) click = () => act(direct.get(c));
      else if (size) click = () => { selected.has(c) ? selected.delete(c) : selected.add(c); drawHand(view); drawActions(view); };
      const n = card(c, click);
      if (playable.has(c)) n.classList.add("legal");
      if (selected.has(c)) n.classList.add("selected");
      hand.append(n);
    });
  }

  function drawActions(v) {
    const box = $("actions");
    box.replaceChildren();
    if (v.to_act === seat && v.legal.length) {
      box.append(el("p", "turn", "your turn"));
      const discards = oneByOne(v) ? [] : discardChoices(v);
      if (oneByOne(v)) box.append(el("p", "hint", "discard: click a raised card of your hand, one card at a time"));
      if (discards.length) {
        const pick = [...selected].sort();
        const match = discards.find(([, d]) => d.length === pick.length && d.every((c, i) => c === pick[i]));
        const b = el("button", "action", match ? match[0] : words.discard + " " + (pick.join(" ") || "…"));
        b.disabled = !match;
        b.title = "choose " + discards[0][1].length + " cards of your hand";
        b.addEventListener("click", () => { if (match) { act(match[0]); selected.clear(); } });
        box.append(b);
      }
      v.legal.filter((t, i) => !["play", "discard"].includes((v.legal_kinds || [])[i])).forEach((t) => {
        const b = el("button", "action", t);
        b.addEventListener("click", () => act(t));
        box.append(b);
      });
    } else if (v.to_act !== null && v.to_act !== undefined) {
      box.append(el("p", "muted", "waiting for " + who(v.to_act)));
    }
  }

  function table(headers, rows, caption) {
    const t = el("table", "sheet");
    if (caption) t.append(el("caption", null, caption));
    const h = el("tr");
    headers.forEach((x) => h.append(el("th", null, x)));
    t.append(h);
    rows.forEach((r) => { const tr = el("tr"); r.forEach((x) => tr.append(el("td", null, x))); t.append(tr); });
    return t;
  }

  function drawResult(v) {
    const box = $("result");
    box.replaceChildren();
    const sheets = $("sheets");
    sheets.replaceChildren();
    if (!v.result) return;
    const r = v.result;
    box.append(el("h2", null, "deal " + v.deal + ": " + (r.contract || (r.all_passed ? "all passed" : "no contract"))
      + (r.declarer !== null ? ", declarer " + who(r.declarer) + (r.made === null ? "" : r.made ? ", made" : ", lost") : "")));
    const pay = el("table", "payments");
    const head = el("tr"), body = el("tr");
    Object.keys(r.payments).forEach((s) => {
      head.append(el("th", null, who(Number(s))));
      const td = el("td", "payment", r.payments[s]);
      td.dataset.seat = s;
      body.append(td);
    });
    pay.append(el("caption", null, "payments"), head, body);
    box.append(pay);
    if (v.final) {
      const f = el("p", "final");
      f.append(el("span", "label", "final result: "), el("span", null,
        Object.entries(v.final).map(([s, x]) => (v.final_by === "player" ? "player " + (Number(s) + 1) : who(Number(s))) + " " + x).join(" · ")));
      box.append(f);
    } else if (v.waiting.includes(seat)) {
      const b = el("button", "action", "next deal");
      b.id = "next";
      b.addEventListener("click", () => send({ type: "next" }));
      box.append(b);
    } else {
      box.append(el("p", "muted", "waiting for " + v.waiting.map(who).join(", ") + " to start the next deal"));
    }
    if (v.protocol) {       // players change seats: the written protocol, by player
      sheets.append(el("h3", null, "protocol"), el("pre", "protocol", v.protocol.join("\n")));
      return;
    }
    (v.sheets || []).forEach((s) => sheets.append(table(s.headers, s.rows, "score sheet: " + (s.title === "seat " + seat ? "you" : s.title))));
  }

  function drawEvents(v) {
    const list = $("events");
    list.replaceChildren();
    v.events.forEach((e) => list.append(el("li", null, who(e.seat) + ": " + e.text)));
  }

  function draw(v) {
    const turnChanged = !view || view.version !== v.version;
    view = v;
    if (turnChanged && !discardChoices(v).length) selected.clear();
    drawSeats(v); drawBoard(v); drawInfo(v); drawHand(v); drawActions(v); drawResult(v); drawEvents(v);
    root.dataset.version = v.version;
    root.dataset.phase = v.phase;
    root.dataset.over = v.result ? "yes" : "no";
  }

  function download(name, text) {
    const a = el("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(tableId));
    ws.onopen = () => { retry = 500; ws.send(JSON.stringify({ type: "join", token: token })); };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "hello") {
        faces = m.faces; words = m.words; seat = m.seat;
        $("status").textContent = "you are seat " + seat;
      } else if (m.type === "view") {
        if (view && m.version < view.version) return;     // an older view overtaken on its way
        say(""); draw(m);
      }
      else if (m.type === "hint") { if (view && m.version === view.version) say("the rule bot would choose: " + m.text); }
      else if (m.type === "error") say(m.message, true);
      else if (m.type === "save") download(m.name, m.text);
    };
    ws.onclose = (ev) => {
      if (ev.code >= 4400 && ev.code < 4500) { done = true; $("status").textContent = "not seated"; return; }
      if (ev.code === 4001) { $("status").textContent = "opened in another tab"; return; }
      if (done) return;
      $("status").textContent = "reconnecting…";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  $("save").addEventListener("click", () => send({ type: "save" }));
  $("hint").addEventListener("click", () => { if (view) send({ type: "hint", version: view.version }); });
  if (!token) { say("This page needs the seat link you were given (it ends in #…).", true); return; }
  connect();
})();
