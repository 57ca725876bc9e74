// The dedicated layouts: Golf (grids), Tonk (hands, spreads, hits, drop), Spit and
// Speed (real time: click a card or pile of yours, then a centre pile). Each takes the
// view and its table (the fields the game declares) and returns one element; play.js
// draws any other game from the zones.
"use strict";
window.Layouts = function (ui) {
  const { S, el, has, act, clickTo, say, render } = ui;
  const card = (c, o) => Cards.card(c, o);
  const name = (s) => S.players[s] + (s === S.seat ? " (you)" : "");
  const toAct = (v, s) => (v.to_act.includes(s) ? " to-act" : "");

  // -- Golf: the stock and discard, the card held, one grid per seat ------------------
  function golf(v, t) {
    const box = el("div", { class: "golf", "data-layout": "golf" });
    const centre = el("div", { class: "row centre" });
    const stock = el("div", { class: "pile", "data-pile": "stock" }, t.stock ? card(null) : Cards.empty(), el("div", { class: "label", text: "stock " + t.stock }));
    if (has("draw")) clickTo(stock, "draw");
    const discard = el("div", { class: "pile", "data-pile": "discard" },
      t.discard ? card(t.discard) : Cards.empty(), el("div", { class: "label", text: "discard " + t.discards }));
    if (has("take")) clickTo(discard, "take"); else if (has("discard")) clickTo(discard, "discard");
    centre.append(stock, discard);
    if (t.held) {  // {seat, card}: the card is null when this seat may not see it
      centre.append(el("div", { class: "pile held", "data-pile": "held" }, card(t.held.card),
        el("div", { class: "label", text: "held by " + name(t.held.seat) })));
    }
    if (has("knock")) centre.append(clickTo(el("button", { class: "big", text: "Knock" }), "knock"));
    box.append(centre);
    t.grids.forEach((grid, s) => {
      const g = el("div", { class: "grid", "data-seat": s });
      g.style.gridTemplateColumns = "repeat(" + t.cols + ", minmax(0, 58px))";  // CSSOM: allowed by the CSP
      grid.forEach((c, i) => {
        const cell = c === "--" ? Cards.empty() : card(c);  // "--": the position was removed
        cell.classList.add("cell");
        cell.dataset.pos = i;
        if (s === S.seat) {
          const move = ["flip " + i, "peek " + i, "replace " + i].find(has);
          if (move) clickTo(cell, move);
        }
        g.append(cell);
      });
      box.append(el("div", { class: "seat-box" + toAct(v, s) },
        el("div", { class: "label", text: name(s) + " · total " + t.totals[s] }), g));
    });
    const last = t.final_turns_left !== null ? " · final turns left " + t.final_turns_left : "";
    box.append(el("p", { class: "doc", text: "round " + t.round + " · " + t.phase + last }));
    return box;
  }

  // -- Tonk: pick cards of your hand, then spread them, hit a spread, or discard ------
  function tonk(v, t) {
    const box = el("div", { class: "tonk", "data-layout": "tonk" });
    const picked = S.picked = S.picked.filter((c) => (t.hand || []).includes(c));
    const centre = el("div", { class: "row centre" });
    const stock = el("div", { class: "pile", "data-pile": "stock" }, t.stock ? card(null) : Cards.empty(), el("div", { class: "label", text: "stock " + t.stock }));
    if (has("draw")) clickTo(stock, "draw");
    const discard = el("div", { class: "pile", "data-pile": "discard" },
      t.discard_top ? card(t.discard_top) : Cards.empty(), el("div", { class: "label", text: "discard " + t.discard_count }));
    if (picked.length === 1 && has("discard " + picked[0])) clickTo(discard, "discard " + picked[0]);
    else if (has("take") && !picked.length) clickTo(discard, "take");
    else if (picked.length && !v.is_over) {  // never a take meant as a discard
      discard.classList.add("drop");  // a keyboard button too
      discard.addEventListener("click", () => say(
        !ui.legal().length ? "It is not your turn: a card is discarded at the end of your turn." :
        has("take") ? "Draw or take first: a card is discarded at the end of a turn (clear the selection to take this one)." :
        has("draw") ? "Draw first: a card is discarded at the end of a turn." :
        !ui.legal().some((a) => a.startsWith("discard ")) ? "No card can be discarded now." :
        picked.length === 1 && t.taken === picked[0] ? "You cannot discard " + picked[0] + " this turn: a card taken from the discard pile stays in your hand until your next turn (TONK-TURN-4)." :
        picked.length === 1 ? "You cannot discard " + picked[0] + " now." :
        "Pick one card of your hand to discard it.", "info"));
    }
    centre.append(stock, discard);
    if (has("drop")) centre.append(clickTo(el("button", { class: "big", "data-tonk": "drop", text: "Drop" }), "drop"));
    if (has("deal")) centre.append(clickTo(el("button", { class: "big", text: "Deal" }), "deal"));
    const spreadAct = picked.length >= 3 ? ui.legal().find((a) => a.startsWith("spread ") && sameCards(a.slice(7), picked)) : null;
    if (spreadAct) centre.append(clickTo(el("button", { class: "big", "data-tonk": "spread", text: "Spread " + picked.join(" ") }), spreadAct));
    box.append(centre);
    const spreads = el("div", { class: "row spreads", "data-tonk": "spreads" }, el("span", { class: "label", text: "spreads: " + (t.spreads.length ? "" : "none yet") }));
    for (const sp of t.spreads) {
      const who = sp.owner === null || sp.owner === undefined ? "" : " " + name(sp.owner);
      const e = el("div", { class: "spread", "data-spread": sp.number }, el("div", { class: "label", text: "#" + sp.number + who }),
        ...sp.cards.map((c) => card(c, { small: true })));
      const hit = picked.length === 1 ? "hit " + sp.number + " " + picked[0] : null;
      if (hit && has(hit)) clickTo(e, hit);
      spreads.append(e);
    }
    box.append(spreads);
    const me = v.seat === undefined ? S.seat : v.seat;  // null in a replay's public view
    for (let s = 0; s < S.players.length; s++) {
      const hand = el("div", { class: "hand", "data-seat": s });
      if (s === me && t.hand) {
        for (const c of t.hand) {
          const e = card(c);
          e.classList.add("target");
          if (picked.includes(c)) e.classList.add("selected");
          e.setAttribute("aria-pressed", String(picked.includes(c)));  // a toggle: picked or not
          e.addEventListener("click", () => {
            S.picked = picked.includes(c) ? picked.filter((x) => x !== c) : picked.concat([c]);
            render();
          });
          hand.append(e);
        }
      } else {  // the cards this page may see (a hand turned face up after a drop), else backs
        const zone = (v.zones || []).find((z) => z.name === "hand." + s);
        const cards = zone && zone.cards && zone.cards.length === t.hand_sizes[s] ? zone.cards : Array(t.hand_sizes[s]).fill(null);
        for (const c of cards) hand.append(card(c, { small: true }));
      }
      box.append(el("div", { class: "seat-box" + toAct(v, s) },
        el("div", { class: "label", text: name(s) + " · " + t.hand_sizes[s] + " cards · balance " + t.balances[s] }), hand));
    }
    const mine = me !== null && t.hand ? "your count: " + t.total + " · " : "";
    box.append(el("p", { class: "doc", text: mine + "hand " + t.hand_number + " of " + t.hands + " · " + t.phase +
      " · pick cards, then Spread, a spread to hit, or the discard pile" }));
    return box;
  }
  const sameCards = (text, cards) => {
    const a = text.split(" ").sort(), b = cards.slice().sort();
    return a.length === b.length && a.every((x, i) => x === b[i]);
  };

  // -- Spit and Speed: the centre piles between the two seats -------------------------
  function centrePiles(t, playFor) {
    const row = el("div", { class: "row centre" });
    for (const [p, cards] of Object.entries(t.piles)) {
      if (cards === null) {  // a pile not in use (setup, or a single-pile deal)
        row.append(el("div", { class: "pile unused", "data-pile": p }, Cards.empty(p), el("div", { class: "label", text: "pile " + p + " (not in use)" })));
        continue;
      }
      const pile = el("div", { class: "pile", "data-pile": p }, cards.length ? card(cards[0]) : Cards.empty(p),
        el("div", { class: "label", text: "pile " + p + " (" + cards.length + ")" }));
      const text = S.selected ? playFor(S.selected, p) : null;
      const claim = ui.legal().find((a) => !a.startsWith("play ") && a.endsWith(" " + p));  // a pick or not
      if (text && has(text)) clickTo(pile, text);
      else if (claim) clickTo(pile, claim);  // slap L / choose R when a deal ends
      else {
        pile.classList.add("drop");
        pile.addEventListener("click", () => {
          if (S.selected) say("Not allowed — " + (playFor(S.selected, p) || "that") + " is not a legal play on pile " + p + " now (a card goes on a centre pile one rank above or below its top card, once play has started).", "illegal");
          else say("Pick a card of yours first, then the centre pile.", "info");
        });
      }
      row.append(pile);
    }
    return row;
  }
  function timing() {
    const parts = [];
    if (S.latency !== null) parts.push("your last move took " + S.latency + " ms to be confirmed");
    if (S.ping !== null) parts.push("ping " + S.ping + " ms");
    return el("p", { class: "latency", "data-latency": S.latency === null ? "" : S.latency, text: parts.length ? parts.join(" · ") : S.seat === null ? "" : "latency: no move yet" });  // (a watcher makes none)
  }
  const pickPile = (stack, k) => {  // a layout pile of mine: select it, or move the selected one onto it
    stack.classList.add("target");
    if (S.selected && S.selected.pile === k) stack.classList.add("selected");
    stack.setAttribute("aria-pressed", String(!!(S.selected && S.selected.pile === k)));
    stack.addEventListener("click", () => {
      const from = S.selected && S.selected.pile;
      const move = from && from !== k ? ["combine " + from + " " + k, "fill " + from + " " + k].find(has) : null;
      if (move) act(move);
      else { S.selected = from === k ? null : { key: "pile:" + k, pile: k }; render(); }
    });
  };

  function spit(v, t) {
    const box = el("div", { class: "spit", "data-layout": "spit" });
    const order = S.seat === null ? [0, 1] : [1 - S.seat, S.seat];
    const seatRow = (s) => {
      const st = t.seats[s];
      const row = el("div", { class: "row" });
      st.layout.forEach((pile, k) => {
        const top = pile.length ? card(pile[0]) : Cards.empty();
        const stack = el("div", { class: "stack", "data-layout": k + 1, "data-seat": s }, top, el("div", { class: "label", text: "#" + (k + 1) + " · " + pile.length }));
        if (s === S.seat) pickPile(stack, k + 1);
        row.append(stack);
      });
      const spitPile = el("div", { class: "stack spit-pile", "data-seat": s }, st.spit_cards ? card(null) : Cards.empty(), el("div", { class: "label", text: "spit " + st.spit_cards }));
      if (s === S.seat && has("spit")) clickTo(spitPile, "spit");
      row.append(spitPile);
      const state = st.ready ? "" : " · not ready";
      return el("div", { class: "seat-box", "data-seat": s }, el("div", { class: "label", text: name(s) + " · " + st.cards + " cards" + state }), row);
    };
    box.append(seatRow(order[0]));
    box.append(centrePiles(t, (sel, p) => (sel.pile ? "play " + sel.pile + " " + p : null)));
    box.append(seatRow(order[1]));
    box.append(timing());
    box.append(el("p", { class: "doc", text: "phase " + t.phase + " · deal " + t.deal + " · " + t.mode + " · click one of your piles, then a centre pile" }));
    return box;
  }

  function speed(v, t) {
    const box = el("div", { class: "speed", "data-layout": "speed" });
    const order = S.seat === null ? [0, 1] : [1 - S.seat, S.seat];
    const seatRow = (s) => {
      const st = t.seats[s];
      const hand = el("div", { class: "hand", "data-seat": s });
      for (const c of st.hand) {
        if (s === S.seat && c) {
          const e = card(c);
          e.classList.add("target");
          if (S.selected && S.selected.card === c) e.classList.add("selected");
          e.setAttribute("aria-pressed", String(!!(S.selected && S.selected.card === c)));
          e.addEventListener("click", () => { S.selected = S.selected && S.selected.card === c ? null : { key: "card:" + c, card: c }; render(); });
          hand.append(e);
        } else hand.append(card(c, { small: true }));
      }
      return el("div", { class: "seat-box", "data-seat": s }, el("div", { class: "label", text: name(s) + " · stock " + st.stock + " · side " + st.side }), hand);
    };
    box.append(seatRow(order[0]));
    box.append(centrePiles(t, (sel, p) => (sel.card ? "play " + sel.card + " " + p : null)));
    box.append(seatRow(order[1]));
    if (has("stuck")) box.append(clickTo(el("button", { class: "big", text: "Stuck: turn the side cards when both say so" }), "stuck"));
    box.append(timing());
    box.append(el("p", { class: "doc", text: "click a card of your hand, then a centre pile" }));
    return box;
  }

  ui.timing = timing;  // (a ping's answer redraws only this line)
  return { golf, tonk, spit, speed };
};
