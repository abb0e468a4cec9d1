// Cards and labels drawn for the table page (table.js) and its result (result.js): a card's face from
// the deck (the "hello" message gives the faces), a card inside a line of text, and a label with its
// cards written {CODE} drawn as such.
"use strict";
window.Stw = (function () {
  const S = { faces: {} };
  function el(tag, cls, text) {
    const n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  }

  function face(code) {
    return S.faces[code] || { label: code, symbol: "", colour: "black", title: code, named: true, name: code };
  }

  function chip(code) {        // a card inside a line of text
    const f = face(code);
    const c = el("span", "chip" + (f.named ? " named" : ""), f.named ? f.label : f.label + f.symbol);
    c.style.color = f.colour;
    c.title = f.title;
    c.dataset.code = code;
    return c;
  }

  function rich(text, into) {   // a label: its text, with each {CODE} drawn as a card
    const box = into || el("span");
    String(text).split(/(\{[A-Za-z0-9]+\})/).forEach((part) => {
      const m = /^\{([A-Za-z0-9]+)\}$/.exec(part);
      if (m && S.faces[m[1]]) box.append(chip(m[1]));
      else if (part) box.append(document.createTextNode(m ? m[1] : part));
    });
    return box;
  }

  function card(code, onClick) {
    const f = face(code);
    const c = el(onClick ? "button" : "div", "card" + (f.named ? " named" : ""));
    c.title = f.title;
    c.dataset.code = code;
    c.style.color = f.colour;
    const corner = el("span", "corner");
    corner.append(el("b", null, f.label), el("i", null, f.named ? "" : f.symbol));
    const pip = el("span", "pip" + (f.named && f.label.length > 3 ? " long" : ""), f.named ? (f.name !== code ? f.name : f.label) : f.symbol);
    if (f.named && f.name !== code && f.name.length > 5) pip.classList.add("long");
    c.append(corner, pip);
    if (onClick) { c.type = "button"; c.addEventListener("click", onClick); }
    return c;
  }

  function row(label, cards) {
    const r = el("div", "row");
    r.append(el("span", "label", label));
    const cs = el("span", "cards small");
    cards.forEach((c) => cs.append(card(c)));
    r.append(cs);
    return r;
  }

  function table(headers, rows, caption, cls) {
    const t = el("table", cls || "sheet");
    if (caption) t.append(el("caption", null, caption));
    const h = el("tr");
    headers.forEach((x) => h.append(el("th", null, x)));
    t.append(h);
    rows.forEach((r) => {
      const tr = el("tr");
      r.forEach((x, i) => tr.append(el(i ? "td" : "th", null, x)));
      t.append(tr);
    });
    return t;
  }
  Object.assign(S, { el, face, chip, rich, card, row, table });
  return S;
})();
