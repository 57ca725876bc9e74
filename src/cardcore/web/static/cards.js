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
  const RANKS = { A: "ace", J: "jack", Q: "queen", K: "king", T: "ten", 10: "ten", 9: "nine", 8: "eight", 7: "seven",
    6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
  const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  // A card in words for a screen reader ("queen of hearts"); null for a word that is no card code.
  function words(code) {
    if (typeof code !== "string") return null;
    if (/^(JK|JOKER|\*)$/i.test(code)) return "joker";
    const suit = code.slice(-1).toUpperCase(), rank = code.slice(0, -1).toUpperCase();
    return suit in SUIT_WORDS && rank in RANKS ? RANKS[rank] + " of " + SUIT_WORDS[suit] : null;
  }
  function card(code, opts) {
    const e = document.createElement("span");
    e.className = "card";
    if (opts && opts.small) e.classList.add("small");
    if (code === null || code === undefined) {
      e.classList.add("back");
      e.setAttribute("role", "img");  // (a label on a span with no role is dropped)
      e.setAttribute("aria-label", "a face-down card");
      e.dataset.card = "";
      return e;
    }
    const c = parse(code);
    e.dataset.card = code;
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", words(code) || code);
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
  return { card, empty, parse, words };
})();
