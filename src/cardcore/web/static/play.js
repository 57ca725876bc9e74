// The game page: joins a seat (or watches) over the WebSocket, keeps the view
// (whole views and patches), and draws it: Golf, Tonk, Spit and Speed have their
// own layouts; any other game is drawn from the declared view structure (zones + fields).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v; else if (k === "onclick") e.addEventListener("click", v); else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  };
  const frag = new URLSearchParams(location.hash.slice(1));
  const sid = decodeURIComponent(location.pathname.split("/").pop());
  const watching = frag.has("watch") || !frag.has("seat");
  const seat = watching ? null : Number(frag.get("seat"));
  const key = "cardcore." + sid + "." + seat;
  const S = {
    sid, seat, watching, token: frag.get("token") || (watching ? null : localStorage.getItem(key)),
    view: null, version: null, schema: null, last: 0, game: null, players: [], phase: null,
    frames: [], pending: {}, nextId: 0, selected: null, latency: null, ping: null, presence: null,
    lobby: null, replay: null, closed: false, ws: null,
  };
  window.cardcore = S;  // for the tests: every frame received, the current view

  function send(msg) {
    if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(msg));
  }
  function say(text, kind) {
    const m = $("message");
    m.textContent = text;
    m.className = "message " + (kind || "");
  }

  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    S.ws = ws;
    ws.onopen = () => {
      $("net").textContent = "connected";
      if (watching) send({ type: "watch", session: sid });
      else {
        const msg = { type: "join", session: sid, seat };
        if (S.token) msg.token = S.token;
        send(msg);
      }
    };
    ws.onmessage = (e) => { S.frames.push(e.data); handle(JSON.parse(e.data)); };
    ws.onclose = () => {
      $("net").textContent = S.closed ? "closed" : "disconnected: reconnecting…";
      if (!S.closed) setTimeout(connect, 1000);
    };
  }
  setInterval(() => send({ type: "ping", t: performance.now() }), 3000);

  function applyPatch(doc, ops) {
    for (const [op, path, value] of ops) {
      if (!path.length) { doc = value; continue; }
      let t = doc;
      for (let i = 0; i < path.length - 1; i++) t = t[path[i]];
      const k = path[path.length - 1];
      if (op === "set") t[k] = value; else delete t[k];
    }
    return doc;
  }

  function handle(m) {
    switch (m.type) {
      case "welcome":
        S.game = m.game; S.players = m.players; S.phase = m.phase; S.schema = m.schema; S.realtime = m.realtime;
        if (m.token) {
          S.token = m.token;
          localStorage.setItem(key, m.token);
          history.replaceState(null, "", "#seat=" + seat + "&token=" + encodeURIComponent(m.token));
        }
        $("title").textContent = m.game + " · " + (watching ? "watching" : "seat " + seat + " (" + m.players[seat] + ")");
        document.title = "cardcore: " + m.game;
        break;
      case "lobby":
        S.last = m.n; S.lobby = m;
        break;
      case "view":
        S.last = m.n; S.view = m.view; S.version = m.version; S.phase = m.phase || S.phase;
        if (S.view && !S.schema) S.schema = null;
        break;
      case "update":
        if (m.n !== S.last + 1) { send({ type: "resync", last: S.last }); return; }
        S.last = m.n; S.view = applyPatch(S.view, m.patch); S.version = m.version;
        if (m.action && m.action.seat !== seat && m.action.text) say(S.players[m.action.seat] + ": " + m.action.text, "info");
        break;
      case "takeback": case "reveal":
        S.last = m.n;
        break;
      case "ok": {
        const p = S.pending[m.id];
        if (p) { S.latency = Math.round(performance.now() - p.t); delete S.pending[m.id]; say(p.text + " ✓ (" + S.latency + " ms)", "ok"); }
        break;
      }
      case "error": {
        const p = S.pending[m.id];
        if (p) { S.latency = Math.round(performance.now() - p.t); delete S.pending[m.id]; }
        const what = p ? "“" + p.text + "”: " : "";
        if (m.code === "stale") say("Too late — " + what + m.message + " The table changed before your move arrived; look again.", "stale");
        else if (m.code === "illegal") say("Not allowed — " + what + m.message + (m.rule ? " [" + m.rule + "]" : ""), "illegal");
        else if (m.code === "seat-taken") say("This seat is taken: open it from the link that holds its token. " + m.message, "illegal");
        else say(m.code + ": " + m.message, "illegal");
        break;
      }
      case "pong":
        if (typeof m.t === "number") S.ping = Math.round(performance.now() - m.t);
        break;
      case "presence":
        S.presence = m;
        break;
      case "closed":
        S.closed = true; say("closed: " + m.reason, "illegal");
        break;
      default:
        break;
    }
    render();
  }

  function act(text) {
    const id = ++S.nextId;
    S.pending[id] = { t: performance.now(), text };
    S.selected = null;
    send({ type: "act", action: text, seen: S.version, id });
  }
  S.act = act;
  const legal = () => (S.view && S.view.legal) || [];
  const has = (text) => legal().includes(text);
  function clickTo(e, text, what) {
    e.classList.add("target");
    e.dataset.target = what || text;
    e.addEventListener("click", () => { if (typeof text === "function") text(); else act(text); });
    return e;
  }
  function selectable(e, sel) {
    e.classList.add("target");
    if (S.selected && S.selected.key === sel.key) e.classList.add("selected");
    e.addEventListener("click", () => { S.selected = S.selected && S.selected.key === sel.key ? null : sel; render(); });
    return e;
  }
  const card = (c, o) => Cards.card(c, o);
  const name = (s) => S.players[s] + (s === seat ? " (you)" : "");

  // -- the layouts -------------------------------------------------------------------
  function golf(v, t) {
    const box = el("div", { class: "golf" });
    const centre = el("div", { class: "row centre" });
    const stock = el("div", { class: "pile" }, card(null), el("div", { class: "label", text: "stock " + t.stock }));
    if (has("draw")) clickTo(stock, "draw");
    const discard = el("div", { class: "pile" }, t.discard ? card(t.discard) : Cards.empty(), el("div", { class: "label", text: "discard" }));
    if (has("take")) clickTo(discard, "take"); else if (has("discard")) clickTo(discard, "discard");
    centre.append(stock, discard);
    if (t.held) centre.append(el("div", { class: "pile held" }, card(t.held), el("div", { class: "label", text: "in hand" })));
    box.append(centre);
    t.grids.forEach((grid, s) => {
      const g = el("div", { class: "grid" });
      g.style.gridTemplateColumns = "repeat(" + t.cols + ", auto)";  // CSSOM: allowed by the CSP
      grid.forEach((c, i) => {
        const cell = c === "" ? Cards.empty() : card(c);
        cell.dataset.pos = i;
        if (s === seat) {
          const move = ["flip " + i, "replace " + i].find(has);
          if (move) clickTo(cell, move);
        }
        g.append(cell);
      });
      box.append(el("div", { class: "seat-box" + (v.to_act.includes(s) ? " to-act" : "") },
        el("div", { class: "label", text: name(s) + " · total " + t.totals[s] }), g));
    });
    box.append(el("p", { class: "doc", text: "round " + t.round + " · " + t.phase + (t.final_turns_left !== null ? " · final turns left " + t.final_turns_left : "") }));
    return box;
  }

  function tonk(v, t) {
    const box = el("div", { class: "tonk" });
    const centre = el("div", { class: "row centre" });
    const stock = el("div", { class: "pile" }, card(null), el("div", { class: "label", text: "stock " + t.stock }));
    if (has("draw")) clickTo(stock, "draw");
    const discard = el("div", { class: "pile" }, t.discard_top ? card(t.discard_top) : Cards.empty(), el("div", { class: "label", text: "discard " + t.discard_count }));
    if (has("take")) clickTo(discard, "take");
    centre.append(stock, discard);
    if (has("drop")) centre.append(clickTo(el("button", { class: "big", text: "Drop" }), "drop"));
    box.append(centre);
    const spreads = el("div", { class: "row spreads" }, el("span", { class: "label", text: "spreads: " }));
    (t.spreads || []).forEach((sp, i) => {
      const cards = Array.isArray(sp) ? sp : (sp.cards || []);
      const who = sp.owner !== undefined ? name(sp.owner) : "";
      spreads.append(el("div", { class: "spread", "data-spread": i }, el("div", { class: "label", text: "#" + i + " " + who }), ...cards.map((c) => card(c, { small: true }))));
    });
    box.append(spreads);
    for (let s = 0; s < S.players.length; s++) {
      const hand = el("div", { class: "hand" });
      if (s === seat && t.hand) for (const c of t.hand) hand.append(selectable(card(c), { key: "card:" + c, card: c }));
      else for (let i = 0; i < t.hand_sizes[s]; i++) hand.append(card(null, { small: true }));
      box.append(el("div", { class: "seat-box" + (v.to_act.includes(s) ? " to-act" : "") },
        el("div", { class: "label", text: name(s) + " · " + t.hand_sizes[s] + " cards · balance " + t.balances[s] }), hand));
    }
    if (s_mine(t)) box.append(el("p", { class: "doc", text: "your count: " + t.total + " · hand " + t.hand_number + " of " + t.hands }));
    return box;
  }
  const s_mine = (t) => seat !== null && t.total !== undefined && t.total !== null;

  function centrePiles(t, playFor) {
    const row = el("div", { class: "row centre" });
    for (const [p, cards] of Object.entries(t.piles)) {
      const pile = el("div", { class: "pile", "data-pile": p }, cards.length ? card(cards[0]) : Cards.empty(p),
        el("div", { class: "label", text: "pile " + p + " (" + cards.length + ")" }));
      const text = S.selected ? playFor(S.selected, p) : null;
      if (text && has(text)) clickTo(pile, text);
      else pile.addEventListener("click", () => {
        if (S.selected) say("Not allowed — " + (playFor(S.selected, p) || "that") + " is not a legal play on pile " + p + " now.", "illegal");
      });
      row.append(pile);
    }
    return row;
  }

  function spit(v, t) {
    const box = el("div", { class: "spit" });
    const order = seat === null ? [0, 1] : [1 - seat, seat];
    const seatRow = (s) => {
      const st = t.seats[s];
      const row = el("div", { class: "row" });
      st.layout.forEach((pile, k) => {
        const top = pile.length ? card(pile[0]) : Cards.empty();
        const stack = el("div", { class: "stack", "data-layout": k + 1 }, top, el("div", { class: "label", text: String(pile.length) }));
        if (s === seat && pile.length && pile[0]) selectable(stack, { key: "pile:" + (k + 1), pile: k + 1 });
        row.append(stack);
      });
      row.append(el("div", { class: "stack" }, st.spit_cards ? card(null) : Cards.empty(), el("div", { class: "label", text: "spit " + st.spit_cards })));
      return el("div", { class: "seat-box" }, el("div", { class: "label", text: name(s) + " · " + st.cards + " cards" + (st.ready ? "" : " · not ready") }), row);
    };
    box.append(seatRow(order[0]));
    box.append(centrePiles(t, (sel, p) => sel.pile ? "play " + sel.pile + " " + p : null));
    box.append(seatRow(order[1]));
    box.append(el("p", { class: "doc", text: "phase " + t.phase + " · deal " + t.deal + " · click one of your piles, then a centre pile" }));
    return box;
  }

  function speed(v, t) {
    const box = el("div", { class: "speed" });
    const order = seat === null ? [0, 1] : [1 - seat, seat];
    const seatRow = (s) => {
      const st = t.seats[s];
      const hand = el("div", { class: "hand" });
      for (const c of st.hand) hand.append(s === seat && c ? selectable(card(c), { key: "card:" + c, card: c }) : card(c, { small: true }));
      return el("div", { class: "seat-box" }, el("div", { class: "label", text: name(s) + " · stock " + st.stock + " · side " + st.side }), hand);
    };
    box.append(seatRow(order[0]));
    box.append(centrePiles(t, (sel, p) => sel.card ? "play " + sel.card + " " + p : null));
    box.append(seatRow(order[1]));
    box.append(el("p", { class: "doc", text: "click a card of your hand, then a centre pile" }));
    return box;
  }

  function generic(v) {
    const box = el("div", { class: "generic" });
    for (const z of v.zones || []) {
      const cards = el("div", { class: "hand" });
      for (const c of z.cards.slice(0, 16)) cards.append(card(c, { small: true }));
      if (z.cards.length > 16) cards.append(el("span", { class: "doc", text: " +" + (z.cards.length - 16) }));
      const owner = z.owner === null ? "" : " · " + name(z.owner);
      box.append(el("div", { class: "zone", "data-zone": z.name }, el("div", { class: "label", text: z.name + owner + " (" + z.count + ")" }), cards));
    }
    return box;
  }

  const LAYOUTS = { golf, tonk, spit, speed };

  function fields(v) {
    const list = $("fieldlist");
    list.textContent = "";
    const table = v.table || {};
    const declared = (S.schema && S.schema.fields) || Object.keys(table).map((n) => ({ name: n, label: n, doc: "" }));
    for (const f of declared) {
      const value = table[f.name];
      const shown = typeof value === "string" && f.kind === "card" ? card(value, { small: true }) : JSON.stringify(value);
      list.append(el("div", { class: "field", title: f.doc || "" }, el("b", { text: (f.label || f.name) + ": " }), shown));
    }
  }

  function render() {
    const v = S.view;
    const status = $("status");
    status.textContent = "";
    let pingText = S.ping === null ? "" : "ping " + S.ping + " ms";
    if (S.latency !== null) pingText += " · last move " + S.latency + " ms";
    $("net").textContent = (S.ws && S.ws.readyState === 1 ? "connected" : "disconnected") + (pingText ? " · " + pingText : "");
    if (!v) {
      const claimed = S.lobby ? S.lobby.claimed.filter(Boolean).length : 0;
      status.append("Waiting for players (" + claimed + " of " + S.players.length + " seats taken). Send the others their link.");
      $("table").textContent = ""; $("actions").textContent = "";
      return;
    }
    const turn = v.to_act.map((s) => name(s)).join(", ");
    status.append(v.is_over ? "Game over." : (S.realtime ? "Real time: play whenever you can." : "To act: " + turn + "."), " version " + S.version);
    const table = $("table");
    table.textContent = "";
    const layout = LAYOUTS[S.game];
    try { table.append(layout && v.table ? layout(v, v.table) : generic(v)); } catch (err) { console.error("layout", err); table.append(generic(v)); }
    const acts = $("actions");
    acts.textContent = "";
    let shown = legal();
    if (S.selected && S.selected.card) shown = shown.filter((a) => a.split(" ").includes(S.selected.card));
    if (S.selected && S.selected.pile) shown = shown.filter((a) => a.split(" ").includes(String(S.selected.pile)));
    for (const a of shown) acts.append(el("button", { class: "act", "data-action": a, text: a, onclick: () => act(a) }));
    if (S.selected) acts.append(el("button", { class: "clear", text: "clear selection", onclick: () => { S.selected = null; render(); } }));
    fields(v);
    after(v);
  }

  function after(v) {
    const box = $("after");
    if (!v.is_over) { box.textContent = ""; return; }
    if (box.dataset.done === "1") return;
    box.textContent = "";
    box.dataset.done = "1";
    box.append(el("h2", { text: "Result" }), el("pre", { class: "result", text: JSON.stringify(v.result, null, 1) }));
    box.append(el("p", {}, el("a", { href: "/api/sessions/" + sid + "/record", download: S.game + "-" + sid + ".json", id: "record", text: "Download the record" })));
    const replay = el("div", { class: "replay" });
    const step = (k) => fetch("/api/sessions/" + sid + "/replay/" + k).then((r) => r.json()).then((d) => {
      S.replay = d;
      replay.textContent = "";
      replay.append(
        el("button", { text: "◀", onclick: () => step(Math.max(0, d.step - 1)) }),
        el("span", { class: "label", text: " step " + d.step + " of " + d.steps + (d.action ? " · " + S.players[d.actor] + ": " + d.action : "") + " " }),
        el("button", { text: "▶", onclick: () => step(Math.min(d.steps, d.step + 1)) }),
        generic(d.view));
    });
    box.append(el("button", { text: "Replay step by step", onclick: () => step(0) }), replay);
  }

  connect();
})();
