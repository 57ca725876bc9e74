// The lobby: choose a game, its seats (people or bots), options and house rules.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let games = [];
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  };
  const current = () => games.find((g) => g.name === $("game").value);
  // A GET of the server's JSON API: its data, or a rejection saying why (no answer, a proxy's
  // page that is no JSON, or the error the server answered).
  async function getJSON(url) {
    const r = await fetch(url);
    let d;
    try { d = await r.json(); } catch (e) { throw new Error("HTTP " + r.status + ", not the server's answer"); }
    if (!r.ok) throw new Error(d && typeof d.error === "string" ? d.error : "HTTP " + r.status);
    return d;
  }

  // The seats the options allow now: an option named max_players (or min_players) narrows the
  // game's declared range, as the server checks (Tonk: 2 to 4 declared, 3 unless raised).
  function seatRange() {
    const g = current();
    const chosen = (name) => {
      const o = g.options.find((x) => x.name === name);
      const input = document.querySelector('[data-option="' + name + '"]');
      if (!o) return null;
      const v = !input || input.value === "" ? o.default : Number(input.tagName === "SELECT" ? JSON.parse(input.value) : input.value);
      return Number.isInteger(v) ? v : null;
    };
    const lo = chosen("min_players"), hi = chosen("max_players");
    const min = lo === null ? g.min_players : Math.max(g.min_players, Math.min(g.max_players, lo));
    return [min, hi === null ? g.max_players : Math.max(min, Math.min(g.max_players, hi))];
  }

  function seats() {
    const [min, max] = seatRange();
    $("count").min = min; $("count").max = max;
    $("count").value = Math.max(min, Math.min(max, Number($("count").value) || min));
    seatRows();
  }

  function seatRows() {
    const g = current();
    const [min, max] = seatRange();
    const n = Math.max(min, Math.min(max, Number($("count").value) || min));
    const box = $("seats");
    // what was typed or chosen stays when the seat count (or the game) changes
    const kept = [...box.querySelectorAll(".seat")].map((row) => ({
      name: row.querySelector(".name").value, who: row.querySelector(".who").value, params: row.querySelector(".params").value,
    }));
    box.textContent = "";
    for (let s = 0; s < n; s++) {
      const before = kept[s];
      const who = el("select", { "data-seat": s, class: "who", "aria-label": "Seat " + (s + 1) + " player" });
      who.append(el("option", { value: "", text: "a person" }));
      for (const a of g.agents) who.append(el("option", { value: a.name, text: "bot: " + a.name }));
      if (before && (before.who === "" || g.agents.some((a) => a.name === before.who))) who.value = before.who;
      else if (s > 0 && g.agents.length) who.value = g.agents[0].name;
      const params = el("input", { class: "params", placeholder: "bot parameters, e.g. seed=1", "data-seat": s, "aria-label": "Seat " + (s + 1) + " bot parameters" });
      if (before) params.value = before.params;
      const name = el("input", { class: "name", "data-seat": s, "aria-label": "Seat " + (s + 1) + " name" });
      name.value = before ? before.name : "Player " + (s + 1);  // every page shows it: never "You"
      box.append(el("div", { class: "seat" }, name, who, params));
    }
  }

  // The input for one option: a list of choices, a number within bounds, a box or text.
  function optionInput(o) {
    let input;
    // an untyped option with bounds takes a choice or a number (Golf's dealer: "random" or a seat)
    const either = o.kind === "object" && (o.minimum !== null || o.maximum !== null);
    if (o.choices && !either) {
      input = el("select", { "data-option": o.name });
      if (!o.choices.includes(o.default)) input.append(el("option", { value: "null", text: "none" }));
      const shown = new Set();  // one entry per spelling: Golf's layout 6 is 6 or "6"
      for (const c of o.choices) {
        const text = String(c).toLowerCase();
        if (shown.has(text) && c !== o.default) continue;
        shown.add(text);
        input.append(el("option", { value: JSON.stringify(c), text: String(c) }));
      }
      input.value = JSON.stringify(o.default);
    } else if (either) {
      const span = o.minimum === null ? "at most " + o.maximum
        : o.maximum === null ? "at least " + o.minimum : o.minimum + " to " + o.maximum;
      const takes = [...(o.choices || []), span].join(", or ");
      input = el("input", { "data-option": o.name, "data-kind": "object", "data-either": "1",
        placeholder: (o.default === null ? "none" : String(o.default)) + " (" + takes + ")" });
    } else if (o.kind === "bool") {
      input = el("input", { type: "checkbox", "data-option": o.name });
      input.checked = !!o.default;
    } else {
      input = el("input", { "data-option": o.name, "data-kind": o.kind,
        placeholder: o.default === null ? "none" : String(o.default) });
      if (o.kind === "int" || o.kind === "float") {
        input.type = "number";
        if (o.minimum !== null) input.min = o.minimum;
        if (o.maximum !== null) input.max = o.maximum;
        if (o.kind === "float") input.step = "any";
      }
    }
    return input;
  }

  function pick() {
    const g = current();
    $("summary").textContent = g.summary + (g.realtime ? " (real time)" : "");
    // in real time the turn clock is how long a seat that may play can stay idle
    $("turn-label").textContent = g.realtime ? "Seconds a seat may stay idle" : "Seconds per turn";
    const opts = $("options"); opts.textContent = "";
    for (const o of g.options) {
      const input = optionInput(o);
      opts.append(el("label", { title: o.doc }, o.name + " ", input, el("span", { class: "doc", text: " " + o.doc })));
      if (o.name === "min_players" || o.name === "max_players") input.addEventListener("input", seats);
    }
    seats();
    const rules = $("rules"); rules.textContent = "";
    if (!g.rules.length) rules.append(el("p", { class: "doc", text: "none for this game" }));
    for (const r of g.rules) {
      const box = el("input", { type: "checkbox", "data-rule": r.name });
      if (r.default) { box.checked = true; box.dataset.default = "1"; }  // on unless switched off
      rules.append(el("label", { class: "rule", title: r.summary }, box, " " + r.name,
        el("span", { class: "doc", text: " " + r.summary + (r.default ? " (on by default)" : "") })));
      for (const o of r.options || []) {  // the rule's own parameters, sent while it is chosen
        const input = optionInput(o);
        input.dataset.forRule = r.name;
        rules.append(el("label", { class: "rule-option", title: o.doc }, o.name + " ", input,
          el("span", { class: "doc", text: " " + o.doc })));
      }
    }
  }

  // A number the page can send as typed: JSON has no Infinity (1e400 would be sent as
  // null), and a whole number past 2^53 would be rounded to another.
  function sendable(value, what) {
    if (typeof value !== "number") return value;
    if (Number.isNaN(value)) throw new Error(what + " is not a number.");
    if (!Number.isFinite(value)) throw new Error(what + " is a number too large to send.");
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw new Error(what + " is a whole number larger than this page can send exactly (at most 9007199254740991).");
    }
    return value;
  }

  // A bot's parameters as typed: "name=value" parts split by commas, each value read as
  // JSON, else kept as text. A part without "=", a name given twice, or a number the page
  // cannot send as typed is refused (an Error saying which) rather than changed or dropped.
  function parseParams(text, seat) {
    const out = Object.create(null);  // (a key named __proto__ is a key)
    const where = "Seat " + (seat + 1) + ": ";
    for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
      const at = part.indexOf("=");
      const k = at < 0 ? "" : part.slice(0, at).trim();
      if (!k) throw new Error(where + "bot parameter '" + part + "' is not name=value.");
      if (Object.prototype.hasOwnProperty.call(out, k)) throw new Error(where + "bot parameter '" + k + "' is given twice.");
      const v = part.slice(at + 1).trim();
      let value;
      try { value = JSON.parse(v); } catch (e) { value = v; }
      out[k] = sendable(value, where + k + "=" + v);
    }
    return out;
  }

  async function create(ev) {
    ev.preventDefault();
    $("error").textContent = "";
    const g = current();
    let seats;
    try {
      seats = [...document.querySelectorAll("#seats .seat")].map((row, s) => {
        const seat = { name: row.querySelector(".name").value };
        const agent = row.querySelector(".who").value;
        if (agent) { seat.agent = agent; seat.params = parseParams(row.querySelector(".params").value, s); }
        return seat;
      });
    } catch (e) { $("error").textContent = e.message + " The game was not made."; return; }
    const options = Object.create(null);  // keyed by the server's option names, any of them
    try {
      for (const input of document.querySelectorAll("[data-option]")) {
        const rule = input.dataset.forRule;  // a rule's own option counts only with the rule on
        if (rule && !document.querySelector(`[data-rule="${CSS.escape(rule)}"]`).checked) continue;
        if (input.type === "checkbox") options[input.dataset.option] = input.checked;
        else if (input.tagName === "SELECT") options[input.dataset.option] = JSON.parse(input.value);
        else if (input.value !== "") options[input.dataset.option] =
          input.dataset.kind === "int" || input.dataset.kind === "float" ||
          (input.dataset.either === "1" && /^-?[0-9]+$/.test(input.value.trim()))
            ? sendable(Number(input.value), "Option " + input.dataset.option + " " + input.value.trim()) : input.value;
      }
    } catch (e) { $("error").textContent = e.message + " The game was not made."; return; }
    const boxes = [...document.querySelectorAll("[data-rule]")];
    const rules = boxes.filter((b) => b.checked && !b.dataset.default).map((b) => b.dataset.rule);
    const without = boxes.filter((b) => !b.checked && b.dataset.default).map((b) => b.dataset.rule);
    const request = { game: g.name, seats, options, rules, without };
    const time = {};  // the clocks: none unless a number of seconds is given
    if ($("turn-clock").value !== "") time.turn = Number($("turn-clock").value);
    if ($("total-clock").value !== "") time.total = Number($("total-clock").value);
    if (Object.keys(time).length) {
      if ($("forfeit").checked && time.turn !== undefined) time.forfeit = true;  // a seat's own clock
      request.time = time;
    }
    let r, data = null;
    try {
      r = await fetch("/api/sessions", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(request) });
    } catch (e) { $("error").textContent = "The server did not answer (" + e.message + "): the game was not made."; return; }
    try { data = await r.json(); } catch (e) { /* a proxy's page, no answer of the server's */ }
    if (!r.ok || !data || !Array.isArray(data.seats)) {  // the server's refusal, or another's page
      $("error").textContent = data && typeof data.error === "string" ? data.error : "HTTP " + r.status + ", not the server's answer: the game was not made.";
      return;
    }
    const links = $("links"); links.textContent = "";
    for (const s of data.seats) {
      const url = s.link ? new URL(s.link, location.href).href : null;  // a bot's seat has none
      links.append(el("p", {}, s.name + (s.bot ? " (bot " + s.bot + ")" : "") + ": ",
        url ? el("a", { href: url, class: "seat-link", text: url }) : el("span", { class: "doc", text: "plays by itself" })));
    }
    if (data.watch) links.append(el("p", {}, "Watch: ", el("a", { href: data.watch, class: "watch-link", text: new URL(data.watch, location.href).href })));
    refresh();
  }

  async function refresh() {
    let list;
    try { list = await getJSON("/api/sessions"); } catch (e) { return; }  // kept as it was; shown at the next refresh
    if (!Array.isArray(list)) return;
    const ul = $("sessions"); ul.textContent = "";
    for (const s of list) {
      const item = el("li", {}, s.game + " · " + s.phase + " · " + (Array.isArray(s.seats) ? s.seats : []).map((x) => x.name).join(", ") + " ");
      if (s.watch) item.append(el("a", { href: s.watch, text: "watch" }));
      if (s.record) item.append(" ", el("a", { href: s.record, download: "", text: "record" }));
      ul.append(item);
    }
  }

  async function init() {
    try {
      games = await getJSON("/api/games");
      if (!Array.isArray(games) || !games.length) throw new Error("no games listed");
    } catch (e) {
      games = [];
      $("error").textContent = "The list of games could not be fetched (" + e.message + "); reload the page to try again."; return;
    }
    for (const g of games) $("game").append(el("option", { value: g.name, text: g.name }));
    const wanted = new URLSearchParams(location.search).get("game");
    $("game").value = games.some((g) => g.name === wanted) ? wanted : (games.some((g) => g.name === "golf") ? "golf" : games[0].name);
    $("game").addEventListener("change", pick);
    $("count").addEventListener("change", seats);
    $("create").addEventListener("submit", create);
    pick();
    refresh();
  }
  init();
})();
