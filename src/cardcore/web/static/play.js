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
    frames: [], pending: {}, nextId: 0, selected: null, picked: [], layoutErrors: [], confirmed: 0, latency: null, ping: null, presence: null,
    lobby: null, replay: null, closed: false, ws: null, notes: [], resigning: false,
    clocks: null, offset: 0,  // deadlines on the server's clock; server time minus ours
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
  // Who the table waits for, by name, after a refusal for acting out of turn (the library's
  // message names seats by number).
  function waiting(rule) {
    const to = rule === "CORE-TURN-1" && S.view && Array.isArray(S.view.to_act) ? S.view.to_act : [];
    const names = to.filter((s) => s !== seat && S.players[s] !== undefined).map((s) => S.players[s]);
    return names.length ? " Waiting for " + names.join(", ") + "." : "";
  }
  // The game's lines of what no action names (Speed: the side cards turned): the last few stay.
  function tell(lines) {
    if (!Array.isArray(lines) || !lines.length) return;
    S.notes = S.notes.concat(lines).slice(-4);
    const box = $("notes");
    box.textContent = "";
    for (const line of S.notes) box.append(el("div", { class: "note", text: line }));
  }

  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?session=" + encodeURIComponent(sid));  // a proxy can pin the game by it
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
      if (Object.keys(S.pending).length) {  // sent, never answered: the table will show whether it was made
        S.pending = {};
        say("The connection dropped before your move was answered: the table shows whether it was made.", "stale");
      }
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

  // A GET of the server's JSON API: its data, or a rejection saying why (no answer, a proxy's
  // page that is no JSON, or the error the server answered).
  async function getJSON(url) {
    const r = await fetch(url);
    let d;
    try { d = await r.json(); } catch (e) { throw new Error("HTTP " + r.status + ", not the server's answer"); }
    if (!r.ok) throw new Error(d && typeof d.error === "string" ? d.error : "HTTP " + r.status);
    return d;
  }

  function askSchema() {  // the welcome of a game not yet started has none
    if (S.schema || S.schemaAsked) return;
    S.schemaAsked = true;
    getJSON("/api/sessions/" + encodeURIComponent(sid)).then((d) => { if (d.schema) { S.schema = d.schema; render(); } })
      .catch(() => { S.schemaAsked = false; });  // no answer: asked again at the next view or update
  }

  function handle(m) {
    switch (m.type) {
      case "welcome":
        S.game = m.game; S.players = m.players; S.phase = m.phase; S.schema = m.schema; S.realtime = m.realtime;
        if (typeof m.server_time === "number") S.offset = m.server_time - Date.now() / 1000;
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
        if (m.clocks) S.clocks = m.clocks;
        tell(m.notes);  // the deal's, in a start view
        askSchema();
        break;
      case "update":
        if (m.n !== S.last + 1) { send({ type: "resync", last: S.last }); return; }
        S.last = m.n; S.view = applyPatch(S.view, m.patch); S.version = m.version;
        if (m.clocks) S.clocks = m.clocks;
        if (m.action && m.action.text) {
          const a = m.action, lost = a.cause === "timeout" && a.text === "resign";  // forfeit
          if (a.seat !== seat) say(played(a), "info");
          else if (lost) say("Your time ran out: you lost on time", "info");
          else if (a.cause === "timeout") say("Your time ran out: “" + a.text + "” was played for you", "info");
        }
        tell(m.notes);
        askSchema();
        break;
      case "takeback": case "reveal":
        S.last = m.n;
        break;
      case "ok": {
        const p = S.pending[m.id];
        if (p) { S.confirmed++; S.latency = Math.round(performance.now() - p.t); delete S.pending[m.id]; say(p.text + " ✓ (" + S.latency + " ms)", "ok"); }
        break;
      }
      case "error": {
        const p = S.pending[m.id];
        if (p) { S.latency = Math.round(performance.now() - p.t); delete S.pending[m.id]; }
        const what = p ? "“" + p.text + "”: " : "";
        const told = String(m.message).replace(/[.\s]+$/, "");
        if (m.code === "stale") say("Too late — " + what + told + (/look again$/.test(told) ? "." : ". The table changed before your move arrived; look again."), "stale");
        else if (m.code === "illegal") say("Not allowed — " + what + m.message + (m.rule && !String(m.message).includes(m.rule) ? " [" + m.rule + "]" : "") + waiting(m.rule), "illegal");
        else if (m.code === "notation") say("Cannot read — " + what + m.message, "illegal");
        else if (m.code === "seat-taken") say("This seat is taken: open it from the link that holds its token. " + m.message, "illegal");
        else say(m.code + ": " + m.message, "illegal");
        break;
      }
      case "clocks":  // a clock started again without an action
        S.clocks = m.clocks;
        break;
      case "pong": {  // only the lines that show the ping: the table and the moves stay as they are
        if (typeof m.t === "number") S.ping = Math.round(performance.now() - m.t);
        net();
        const line = document.querySelector("#table .latency");
        if (line && UI.timing) line.replaceWith(UI.timing());
        return;
      }
      case "presence":  // (not drawn)
        S.presence = m;
        return;
      case "closed":
        S.closed = true; say("closed: " + m.reason, "illegal");
        break;
      default:
        break;
    }
    render();
  }

  // The clocks, counted down each second: "Ann 0:42" for each running turn clock, and the game's.
  function clocks() {
    const box = $("clocks");
    box.textContent = "";
    const c = S.clocks;
    if (!c || !S.view || S.view.is_over) return;
    const now = Date.now() / 1000 + S.offset;
    const left = (deadline) => {
      const s = Math.max(0, Math.ceil(deadline - now));
      const mmss = String(Math.floor(s / 60) % 60).padStart(s >= 3600 ? 2 : 1, "0") + ":" + String(s % 60).padStart(2, "0");
      return el("span", { class: s <= 10 ? "low" : "", text: (s >= 3600 ? Math.floor(s / 3600) + ":" : "") + mmss });
    };
    const parts = [];
    for (const [s, deadline] of Object.entries(c.turn || {})) {
      if (typeof deadline === "number" && S.players[s] !== undefined) parts.push([name(Number(s)) + " ", left(deadline)]);
    }
    if (typeof c.total === "number") parts.push(["game ", left(c.total)]);
    parts.forEach(([who, time], i) => box.append(i ? " · " : "⏱ ", who, time));
  }
  setInterval(clocks, 1000);

  function act(text) {
    if (!S.ws || S.ws.readyState !== 1) {  // never kept waiting for an answer to a move not sent
      say("Not sent — “" + text + "”: the connection is down. Try again once it is back.", "illegal");
      return;
    }
    // a double click: one move per view in a game of turns (real time may race on one view);
    // a move unanswered for 5 s (dropped unread) no longer holds the next one back
    const now = performance.now();
    const waiting = Object.values(S.pending).find((p) => p.seen === S.version && now - p.t < 5000);
    if (!S.realtime && waiting && text !== "resign") {  // (a resignation is never held back)
      say("Waiting for the answer to “" + waiting.text + "”…", "info");
      return;
    }
    const id = ++S.nextId;
    S.pending[id] = { t: now, text, seen: S.version };
    S.selected = null; S.picked = [];
    send({ type: "act", action: text, seen: S.version, id });
  }
  S.act = act;
  const legal = () => (S.view && S.view.legal) || [];
  const has = (text) => legal().includes(text);
  function clickTo(e, text, what) {
    e.classList.add("target");  // (render() makes every target a keyboard button: keyable)
    e.dataset.target = what || text;
    e.addEventListener("click", () => { if (typeof text === "function") text(); else act(text); });
    return e;
  }
  const card = (c, o) => Cards.card(c, o);
  const name = (s) => S.players[s] + (s === seat ? " (you)" : "");
  // who made an action: a seat's name, or the host's own (seat -1: the game clock, an operator)
  function actor(s, cause) {
    if (S.players[s] !== undefined) return S.players[s];
    return cause === "clock" ? "the game clock" : s === -1 ? "the host" : "seat " + s;
  }

  // An action as a line: "Ann: draw", "Ann ran out of time and resigned", "Ann (time ran out): draw".
  function played(a) {
    if (a.cause === "timeout") return actor(a.seat) + (a.text === "resign" ? " ran out of time and resigned" : " (time ran out): " + a.text);
    return actor(a.seat, a.cause) + ": " + a.text;
  }

  // How a game ended when no seat's own move ended it (describe's ended_by).
  function ended(e) {
    if (e.cause === "timeout" && e.text === "resign") return actor(e.seat) + " lost on time";
    return e.cause === "clock" ? "The game clock ended the game" : played(e);
  }

  function generic(v) {
    const box = el("div", { class: "generic" });
    for (const z of v.zones || []) {
      const cards = el("div", { class: "hand" });
      for (const c of z.cards.slice(0, 16)) cards.append(card(c, { small: true }));
      if (z.cards.length > 16) cards.append(el("span", { class: "doc", text: " +" + (z.cards.length - 16) }));
      const owner = z.owner === null ? "" : " · " + name(z.owner);
      const top = z.count > 1 && z.cards.length ? " · top first" : "";  // drawn left to right from the top
      box.append(el("div", { class: "zone", "data-zone": z.name }, el("div", { class: "label", text: z.name + owner + " (" + z.count + ")" + top }), cards));
    }
    return box;
  }

  const UI = { S, el, has, act, legal, clickTo, say, render: () => render() };
  const LAYOUTS = Layouts(UI);

  function fields(v) {
    const list = $("fieldlist");
    list.textContent = "";
    const table = v.table || {};
    const declared = (S.schema && S.schema.fields) || Object.keys(table).map((n) => ({ name: n, label: n, doc: "" }));
    for (const f of declared) {
      const value = table[f.name];
      const shown = typeof value === "string" && f.kind === "card" ? card(value, { small: true })
        : f.kind === "seat" && Number.isInteger(value) && S.players[value] !== undefined ? name(value) + " (seat " + value + ")"
        : f.kind === "per-seat" && Array.isArray(value) && value.length === S.players.length ? value.map((x, s) => name(s) + " " + JSON.stringify(x)).join(", ")
        : JSON.stringify(value);
      list.append(el("div", { class: "field", title: f.doc || "" }, el("b", { text: (f.label || f.name) + ": " }), shown));
    }
  }

  // Draw view *v* into *box* with the game's layout, or from the zones; box.dataset.layout says which.
  function draw(box, v) {
    const layout = Object.prototype.hasOwnProperty.call(LAYOUTS, S.game) && v.table ? S.game : "generic";  // (a game named "constructor" too)
    box.dataset.layout = layout;
    try {
      box.append(layout === "generic" ? generic(v) : LAYOUTS[layout](v, v.table));
    } catch (err) {  // a table the layout does not know: say so, draw the zones
      console.error("layout", err);
      S.layoutErrors.push(layout + ": " + err);
      box.textContent = "";
      box.dataset.layout = "generic";
      box.append(generic(v));
    }
  }

  // Every clickable card or pile of the table as a keyboard button: Tab reaches it, Enter or
  // Space presses it.
  function keyable(root) {
    for (const e of root.querySelectorAll(".target, .drop")) {
      if (e.tagName === "BUTTON") continue;
      if (e.dataset.target) {  // named by its move, then what it shows: "peek 0: a face-down card"
        const shows = e.getAttribute("aria-label") || [...e.querySelectorAll("[role=img]")].map((x) => x.getAttribute("aria-label")).join(", ");
        e.setAttribute("aria-label", e.dataset.target + (shows ? ": " + shows : ""));
      }
      e.setAttribute("role", "button");
      e.tabIndex = 0;
      e.addEventListener("keydown", (k) => { if (k.key === "Enter" || k.key === " ") { k.preventDefault(); e.click(); } });
    }
  }
  // What is focused in the table or the moves, as a selector to find it again once they are
  // drawn anew (each message redraws them: the focus must not fall back to the page). A table
  // element is found by its own and its parents' data attributes (seat, pile, position, card).
  const KEYS = ["data-layout", "data-seat", "data-pile", "data-pos", "data-spread", "data-tonk", "data-card"];
  function focused() {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    if (e.id) return "#" + CSS.escape(e.id);
    if (e.closest("#actions")) return e.dataset.action ? '#actions [data-action="' + CSS.escape(e.dataset.action) + '"]' : "#actions";
    if (!e.closest("#table")) return null;
    const parts = [];
    for (let x = e; x && x.id !== "table"; x = x.parentElement) {
      const at = KEYS.filter((a) => x.hasAttribute(a)).map((a) => "[" + a + '="' + CSS.escape(x.getAttribute(a)) + '"]').join("");
      if (at) parts.unshift(at);
    }
    return parts.length ? "#table " + parts.join(" ") : "#actions";
  }
  // Back to what had the focus; when it is gone, never onto another move (an Enter would make
  // it) but onto the moves as a whole (Tab then reaches the first), and from "Resign…" to
  // "Keep playing".
  function refocus(sel) {
    if (sel === null || document.activeElement !== document.body) return;
    const to = sel === "#resign" ? "#resign-no" : sel === "#resign-no" || sel === "#resign-yes" ? "#resign" : sel;
    const e = document.querySelector(sel) || document.querySelector(to) || $("actions");
    e.focus({ preventScroll: true });
    if (document.activeElement === document.body) $("actions").focus({ preventScroll: true });  // (no longer focusable)
  }
  // A move's words for a screen reader: its text, then the cards it names ("play 9D L: nine of diamonds").
  function spoken(a) {
    const named = a.split(" ").map((w) => (/^(10|[2-9TJQKA])[CDHS]$/.test(w) ? Cards.words(w) : null)).filter(Boolean);
    return named.length ? a + ": " + named.join(", ") : a;
  }
  // Whose turn it is, told once when it changes (a live region: "Your turn.").
  function announce(v) {
    const mine = !v.is_over && !S.realtime && S.seat !== null && v.to_act.includes(S.seat);
    const text = v.is_over || S.realtime ? "" : mine ? "Your turn." : watching ? "To act: " + v.to_act.map((s) => S.players[s]).join(", ") + "." : "";
    if ($("turn").textContent !== text) $("turn").textContent = text;
  }

  // The header's connection line: connected or not, the ping, the last move's latency.
  function net() {
    const parts = [S.ws && S.ws.readyState === 1 ? "connected" : "disconnected"];
    if (S.ping !== null) parts.push("ping " + S.ping + " ms");
    if (S.latency !== null) parts.push("last move " + S.latency + " ms");
    $("net").textContent = parts.join(" · ");
  }

  function render() {
    const sel = focused();
    try { paint(); } finally { refocus(sel); }
  }

  function paint() {
    const v = S.view;
    const status = $("status");
    status.textContent = "";
    net();
    if (!v) {
      if (!S.players.length) { $("table").textContent = ""; $("actions").textContent = ""; return; }  // no game joined (an unknown id): the error says why
      // the count only once the lobby told it (the welcome comes first: "0 of 3" would be a guess)
      status.append(S.lobby ? "Waiting for players (" + S.lobby.claimed.filter(Boolean).length + " of " + S.players.length + " seats taken). Send the others their link." : "Waiting for players.");
      $("table").textContent = ""; $("actions").textContent = "";
      return;
    }
    if (!Array.isArray(v.to_act)) {  // {}: the game failed to draw this seat's view (the server logged it)
      status.append("The table could not be drawn; it comes back with the next move, or a reload.");
      $("table").textContent = ""; $("actions").textContent = ""; $("turn").textContent = "";
      return;
    }
    // the house rules and options in play (a bonus card, a layout): what the scores are read by
    const opts = Object.entries(v.options || {}).filter(([, x]) => x !== null).map(([k, x]) => k + " " + x);
    $("rules").textContent = ((v.rules || []).length ? "House rules: " + v.rules.join(", ") + ". " : "") +
      (opts.length ? "Options: " + opts.join(" · ") + "." : "");
    const turn = v.to_act.map((s) => name(s)).join(", ");
    status.append(v.is_over ? "Game over." : (S.realtime ? "Real time: play whenever you can." : "To act: " + turn + "."), " version " + S.version);
    // the tab tells a player whose page is behind another that it is their move
    document.title = (!v.is_over && !S.realtime && v.to_act.includes(S.seat) ? "● Your turn · " : "") + "cardcore: " + S.game;
    announce(v);
    const table = $("table");
    table.textContent = "";
    draw(table, v);
    keyable(table);
    const acts = $("actions");
    acts.textContent = "";
    let shown = legal();
    // a pick narrows the plays, never the other moves (a slap, spit, ready or stuck stays listed)
    const narrow = (word) => (a) => !a.startsWith("play ") || a.split(" ").includes(word);
    if (S.selected && S.selected.card) shown = shown.filter(narrow(S.selected.card));
    if (S.selected && S.selected.pile) shown = shown.filter(narrow(String(S.selected.pile)));
    for (const c of S.picked) shown = shown.filter((a) => a.split(" ").includes(c));
    for (const a of shown) acts.append(el("button", { class: "act", "data-action": a, text: a, "aria-label": spoken(a), onclick: () => act(a) }));
    if (S.selected || S.picked.length) acts.append(el("button", { class: "clear", text: "clear selection", onclick: () => { S.selected = null; S.picked = []; render(); } }));
    if (!watching && !v.is_over) resign(acts);
    fields(v);
    clocks();
    after(v);
  }

  // Resigning takes two clicks (the game's "resign" action: any time, in or out of turn).
  function resign(box) {
    const span = el("span", { class: "resign-box" });
    if (!S.resigning) span.append(el("button", { id: "resign", class: "resign", text: "Resign…", onclick: () => { S.resigning = true; render(); } }));
    else {
      span.append(el("span", { class: "label", text: "Resign this game? " }),
        el("button", { id: "resign-yes", class: "resign", text: "Yes, resign", onclick: () => { S.resigning = false; act("resign"); } }), " ",
        el("button", { id: "resign-no", text: "Keep playing", onclick: () => { S.resigning = false; render(); } }));
    }
    box.append(span);
  }

  function after(v) {
    const box = $("after");
    if (!v.is_over) { box.textContent = ""; return; }
    if (box.dataset.done === "1") return;
    box.textContent = "";
    box.dataset.done = "1";
    const r = v.result || {};
    const line = [];
    if (Array.isArray(r.winners)) line.push((r.winners.length > 1 ? "Winners: " : "Winner: ") + r.winners.map((s) => S.players[s]).join(", "));
    if (Array.isArray(r.scores)) line.push("scores: " + r.scores.map((x, s) => S.players[s] + " " + x).join(", "));
    const summary = el("p", { class: "summary", text: line.join(" · ") });
    box.append(el("h2", { text: "Result" }), summary,
      el("pre", { class: "result", text: JSON.stringify(v.result, null, 1) }));
    getJSON("/api/sessions/" + encodeURIComponent(sid)).then((d) => {  // a loss on time, the clock, the host
      if (d.ended_by) summary.prepend(el("span", { class: "ended-by", text: ended(d.ended_by) + " · " }));
    }).catch(() => {});
    box.append(el("p", {}, el("a", { href: "/api/sessions/" + sid + "/record", download: S.game + "-" + sid + ".json", id: "record", text: "Download the record" })));
    const replay = el("div", { class: "replay" });
    const step = (k) => getJSON("/api/sessions/" + sid + "/replay/" + k).then((d) => {
      S.replay = d;
      const was = replay.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
      replay.textContent = "";
      const shown = el("div", { class: "table replay-table" });
      replay.append(
        el("button", { text: "◀", "aria-label": "Step back", title: "Step back", onclick: () => step(Math.max(0, d.step - 1)) }),
        el("span", { class: "label", "data-step": d.step, text: " step " + d.step + " of " + d.steps + (d.action ? " · " + played({ seat: d.actor, text: d.action, cause: d.cause }) : "") + " " }),
        el("button", { text: "▶", "aria-label": "Step forward", title: "Step forward", onclick: () => step(Math.min(d.steps, d.step + 1)) }),
        shown);
      draw(shown, d.view);  // the public view after d.step actions, in the game's own layout
      const again = was && replay.querySelector('button[aria-label="' + was + '"]');
      if (again) again.focus();  // the step button pressed from the keyboard keeps the focus
    }).catch((e) => {  // no answer, or an error answered: said, and the step and its buttons stay
      replay.querySelector(".replay-error")?.remove();
      replay.append(el("p", { class: "replay-error error", role: "alert", text: "The replay could not be fetched (" + e.message + "); try again." }));
    });
    box.append(el("button", { id: "replay", text: "Replay step by step", onclick: () => step(0) }), replay);
  }

  connect();
})();
