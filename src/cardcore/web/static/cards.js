// Cards drawn as styled text: rank and suit, red or black; a back for a hidden card.
"use strict";
window.Cards = (function () {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  function parse(code) {
    if (typeof code !== "string") return null;
    const suit = code.slice(-1).toUpperCase();
    if (!(suit in SUITS)) return { rank: code, suit: "", red: false, joker: true };
    return { rank: code.slice(0, -1), suit: SUITS[suit], red: suit === "D" || suit === "H", joker: false };
  }
  function card(code, opts) {
    const e = document.createElement("span");
    e.className = "card";
    if (opts && opts.small) e.classList.add("small");
    if (code === null || code === undefined) {
      e.classList.add("back");
      e.setAttribute("aria-label", "a hidden card");
      e.dataset.card = "";
      return e;
    }
    const c = parse(code);
    e.dataset.card = code;
    e.setAttribute("aria-label", code);
    if (c.red) e.classList.add("red");
    if (c.joker) e.classList.add("joker");
    const corner = document.createElement("span");
    corner.className = "corner";
    corner.textContent = c.rank + c.suit;
    const pip = document.createElement("span");
    pip.className = "pip";
    pip.textContent = c.joker ? "★" : c.suit;
    e.append(corner, pip);
    return e;
  }
  function empty(label) {
    const e = document.createElement("span");
    e.className = "card empty";
    e.textContent = label || "";
    return e;
  }
  return { card, empty, parse };
})();
