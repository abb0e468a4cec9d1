// The end of a deal on the table page: the contract and its outcome, tricks and card points, every
// payment row with its amount (the stake before the deal, the pot, the balance), the figures, the
// hands as dealt and the score sheets. Called by table.js with the page's seat, names and requests.
"use strict";
window.StwResult = (function () {
  const { el, row, table } = window.Stw;
  const $ = (id) => document.getElementById(id);

  const signed = (x) => (x === undefined || x === null || x === "" ? "" : (String(x).startsWith("-") || String(x) === "0" ? String(x) : "+" + x));

  function draw(v, env) {       // env: the page's seat, who(seat) in words, send(request)
    const { seat, who, send } = env;
    const sheetWho = (x) => { const m = /^seat (\d+)$/.exec(x); return m ? who(Number(m[1])) : x; };
    const box = $("result");
    box.replaceChildren();
    const sheets = $("sheets");
    sheets.replaceChildren();
    if (!v.result) return;
    const r = v.result;
    const heading = r.title ? r.title + (r.trump ? " (" + r.trump + ")" : "") : (r.all_passed ? "all passed" : "no contract");
    const partners = (r.side || []).filter((s) => s !== r.declarer);
    box.append(el("h2", null, "deal " + v.deal + ": " + heading
      + (r.declarer !== null ? ", declarer " + who(r.declarer) + (partners.length ? " with " + partners.map(who).join(", ") : "")
        + (r.made === null ? "" : r.made ? ": made" : ": lost") : "")));
    const seats = Object.keys(r.payments);
    const pot = new Set();
    [r.stake, ...(r.rows || []), ...(r.reckoning || [])].forEach((x) => x && Object.keys(x.amounts).forEach((k) => { if (!seats.includes(k)) pot.add(k); }));
    const cols = [...seats, ...pot];
    const headers = [""].concat(cols.map((k) => (seats.includes(k) ? who(Number(k)) : k)));
    const rows = [];
    if (r.points) {
      rows.push(["tricks"].concat(cols.map((k) => (r.tricks[k] !== undefined ? String(r.tricks[k]) : ""))));
      rows.push(["card points"].concat(cols.map((k) => (r.points.seats[k] !== undefined ? String(r.points.seats[k]) : ""))));
    } else {
      rows.push(["tricks"].concat(cols.map((k) => (r.tricks[k] !== undefined ? String(r.tricks[k]) : ""))));
    }
    if (r.stake) rows.push([r.stake.note].concat(cols.map((k) => signed(r.stake.amounts[k]))));
    (r.rows || []).forEach((x) => rows.push([x.note].concat(cols.map((k) => signed(x.amounts[k])))));
    const pay = table(headers, rows, null, "payments");
    const add = (head, cells, cls) => {
      const tr = el("tr", cls || null);
      tr.append(el("th", null, head));
      cells.forEach((x) => tr.append(x instanceof Node ? x : el("td", null, x)));
      pay.append(tr);
    };
    add("payments of the deal", cols.map((k) => {
      if (!seats.includes(k)) return el("td");
      const td = el("td", "payment", r.payments[k]);
      td.dataset.seat = k;
      return td;
    }), "total");
    if (r.with_stake) add("with the stake", cols.map((k) => signed(r.with_stake[k])));
    (r.reckoning || []).forEach((x) => add("final reckoning: " + x.note, cols.map((k) => signed(x.amounts[k]))));
    add("balance", cols.map((k) => (r.balance[k] !== undefined ? String(r.balance[k]) : (pot.has(k) && k === (r.pot_title || "pot") ? String(r.pot) : ""))), "balance");
    const wrap = el("div", "scroll");
    wrap.append(pay);
    box.append(wrap);
    if (r.points && r.points.declarers !== undefined) {
      box.append(el("p", null, "card points: declaring side " + r.points.declarers + ", defenders " + r.points.defenders));
    }
    if ((r.figures || []).length) {
      const w = el("div", "scroll");
      w.append(table(["game and figures", "side", "outcome"], r.figures.map((f) => [f.figure, f.side, f.how]), null, "sheet figures"));
      box.append(w);
    }
    if (v.final) {
      const f = el("p", "final");
      f.append(el("span", "label", "final result: "), el("span", null,
        Object.entries(v.final).map(([s, x]) => (v.final_by === "player" ? "player " + (Number(s) + 1) : who(Number(s))) + " " + x).join(" · ")));
      box.append(f);
    } else if (v.waiting.includes(seat)) {
      const b = el("button", "action primary", "next deal");
      b.id = "next";
      b.addEventListener("click", () => send({ type: "next" }));
      box.append(b);
    } else {
      box.append(el("p", "muted", "waiting for " + v.waiting.map(who).join(", ") + " to start the next deal"));
    }
    const hands = el("details", "hands");
    hands.append(el("summary", null, "the hands as dealt"));
    Object.entries(r.hands || {}).forEach(([s, h]) => hands.append(row(who(Number(s)), h)));
    box.append(hands);
    if (v.protocol) {       // players change seats: the written protocol, by player
      sheets.append(el("h3", null, "protocol"), el("pre", "protocol", v.protocol.join("\n")));
      return;
    }
    (v.sheets || []).forEach((s) => {
      const w = el("div", "scroll");
      w.append(table(s.headers, s.rows.map((r) => r.map(sheetWho)), "score sheet: " + (s.title === "seat " + seat ? "you" : sheetWho(s.title))));
      sheets.append(w);
    });
  }

  return { draw };
})();
