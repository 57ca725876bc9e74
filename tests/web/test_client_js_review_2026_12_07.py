"""Review of the browser client (``static/lobby.js``, ``layouts.js``, ``cards.js``, ``play.js``).

The real files run in node (``/usr/bin/node``) against a small stub DOM with a selector
engine of its own (ids, classes, attributes, descendants): the game page is fed real
views from :func:`cardcore.new_game`, and the lobby is filled in and submitted with the
server's own ``GET /api/games`` answer, its ``POST /api/sessions`` body then sent to the
real server (:func:`cardcore.web.app.create_app` behind Starlette's TestClient).

Its seven findings (bot parameters cut, dropped or rounded by the lobby, a game named
``constructor`` drawn by a built-in method, an empty stock drawn as a card back) were
strict xfails, fixed the same day; each other test is a claim that held. Skipped where
node is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.web._lobby import lobby_games

STATIC = Path(__file__).resolve().parents[2] / "src/cardcore/web/static"

_DOM = r"""
const fs = require("fs");
const camel = (n) => n.slice(5).replace(/-([a-z])/g, (m, c) => c.toUpperCase());
class Text { constructor(t) { this.nodeType = 3; this.data = String(t); this.parentElement = null; }
  get textContent() { return this.data; } }
class El {
  constructor(tag) {
    this.tagName = tag.toUpperCase(); this.nodeType = 1; this.childNodes = []; this.parentElement = null;
    this.attrs = {}; this.dataset = {}; this.className = ""; this.style = {}; this.listeners = {};
    this.checked = false; this._value = ""; this.id = ""; this.tabIndex = -1;
    const self = this;
    this.classList = {
      add(...c) { const s = new Set(self.className.split(" ").filter(Boolean)); c.forEach((x) => s.add(x)); self.className = [...s].join(" "); },
      remove(...c) { self.className = self.className.split(" ").filter((x) => x && !c.includes(x)).join(" "); },
      contains(c) { return self.className.split(" ").includes(c); },
      toggle(c) { if (this.contains(c)) this.remove(c); else this.add(c); },
    };
  }
  get children() { return this.childNodes.filter((k) => k.nodeType === 1); }
  get type() { return this.attrs.type || (this.tagName === "INPUT" ? "text" : ""); }
  set type(v) { this.attrs.type = String(v); }
  get value() {
    if (this.tagName !== "SELECT") return this._value;
    const opts = this.querySelectorAll("option");
    if (this._value === null) return opts.length ? opts[0].getAttribute("value") : "";
    return this._value;
  }
  set value(v) {
    v = String(v);
    if (this.tagName === "SELECT") {
      const opts = this.querySelectorAll("option");
      this._value = opts.some((o) => o.getAttribute("value") === v) ? v : "";
    } else this._value = v;
  }
  setAttribute(k, v) {
    v = String(v);
    if (k === "class") this.className = v;
    else if (k === "id") this.id = v;
    else if (k.startsWith("data-")) this.dataset[camel(k)] = v;
    else this.attrs[k] = v;
  }
  getAttribute(k) {
    if (k === "class") return this.className || null;
    if (k === "id") return this.id || null;
    if (k.startsWith("data-")) { const v = this.dataset[camel(k)]; return v === undefined ? null : String(v); }
    return k in this.attrs ? this.attrs[k] : null;
  }
  hasAttribute(k) { return this.getAttribute(k) !== null; }
  removeAttribute(k) { delete this.attrs[k]; }
  addEventListener(t, f) { (this.listeners[t] = this.listeners[t] || []).push(f); }
  dispatch(t, ev) { for (const f of this.listeners[t] || []) f(ev || { preventDefault() {} }); }
  click() { this.dispatch("click"); }
  focus() { document.activeElement = this; }
  _adopt(k) {
    if (typeof k === "string" || typeof k === "number" || typeof k === "boolean") k = new Text(k);
    else if (!(k instanceof El) && !(k instanceof Text)) k = new Text(String(k));
    if (k.parentElement) k.parentElement.childNodes = k.parentElement.childNodes.filter((x) => x !== k);
    k.parentElement = this; return k;
  }
  append(...ks) { for (const k of ks) this.childNodes.push(this._adopt(k)); }
  appendChild(k) { this.append(k); return k; }
  prepend(...ks) { this.childNodes.unshift(...ks.map((k) => this._adopt(k))); }
  remove() { if (this.parentElement) this.parentElement.childNodes = this.parentElement.childNodes.filter((x) => x !== this); this.parentElement = null; }
  replaceWith(n) { const p = this.parentElement; if (!p) return; const i = p.childNodes.indexOf(this); p.childNodes[i] = p._adopt(n); this.parentElement = null; }
  contains(n) { for (let x = n; x; x = x.parentElement) if (x === this) return true; return false; }
  get textContent() { return this.childNodes.map((k) => k.textContent).join(""); }
  set textContent(v) { this.childNodes = []; if (v !== "" && v !== null && v !== undefined) this.childNodes.push(this._adopt(String(v))); }
  descendants() { const out = []; const walk = (e) => { for (const k of e.children) { out.push(k); walk(k); } }; walk(this); return out; }
  querySelectorAll(sel) { return this.descendants().filter((e) => matches(e, sel, this)); }
  querySelector(sel) { return this.querySelectorAll(sel)[0] || null; }
  closest(sel) { for (let x = this; x; x = x.parentElement) if (matches(x, sel, null)) return x; return null; }
}
function compound(e, c) {
  const m = /^([a-zA-Z]*)((?:#[\w-]+|\.[\w-]+|\[[^\]]+\])*)$/.exec(c);
  if (!m) throw new Error("selector " + c);
  if (m[1] && e.tagName !== m[1].toUpperCase()) return false;
  for (const p of m[2].match(/#[\w-]+|\.[\w-]+|\[[^\]]+\]/g) || []) {
    if (p[0] === "#") { if (e.id !== p.slice(1)) return false; }
    else if (p[0] === ".") { if (!e.classList.contains(p.slice(1))) return false; }
    else {
      const a = /^\[([\w-]+)(?:=(?:"((?:[^"\\]|\\.)*)"|([^\]]*)))?\]$/.exec(p);
      const v = e.getAttribute(a[1]);
      if (v === null) return false;
      const want = a[2] !== undefined ? a[2].replace(/\\(.)/g, "$1") : a[3];
      if (want !== undefined && v !== want) return false;
    }
  }
  return true;
}
function matches(e, sel, scope) {
  return sel.split(",").some((g) => {
    const parts = g.trim().split(/\s+/);
    if (!compound(e, parts[parts.length - 1])) return false;
    let x = e.parentElement;
    for (let i = parts.length - 2; i >= 0; i--) {
      while (x && !compound(x, parts[i])) x = x.parentElement;
      if (!x) return false;
      x = x.parentElement;
    }
    return true;
  });
}
const body = new El("body");
globalThis.window = globalThis;
globalThis.document = {
  body, activeElement: body, title: "",
  createElement: (t) => new El(t), createTextNode: (t) => new Text(t),
  getElementById(id) { let e = body.querySelector("#" + id); if (!e) { e = new El(id === "game" || id === "count" ? (id === "game" ? "select" : "input") : "div"); e.id = id; body.append(e); } return e; },
  querySelector: (s) => body.querySelector(s), querySelectorAll: (s) => body.querySelectorAll(s),
  addEventListener() {},
};
globalThis.CSS = { escape: (s) => String(s).replace(/["\\]/g, "\\$&") };
globalThis.history = { replaceState() {} };
globalThis.localStorage = { getItem: () => null, setItem() {} };
globalThis.setInterval = () => 0; globalThis.setTimeout = () => 0;
const tick = () => new Promise((r) => setImmediate(r));
function tree(e) {
  if (e.nodeType === 3) return e.data;
  return { tag: e.tagName.toLowerCase(), cls: e.className, data: { ...e.dataset }, attrs: { ...e.attrs }, kids: e.childNodes.map(tree) };
}
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const root = process.argv[2];
const load = (f) => eval(fs.readFileSync(root + "/" + f, "utf8"));
"""

_PLAY = r"""
globalThis.location = { hash: input.hash, pathname: "/play/s1", protocol: "http:", host: "x", href: "http://x/play/s1" };
const sockets = [];
globalThis.WebSocket = class { constructor() { this.readyState = 1; sockets.push(this); } send() {} close() {} };
globalThis.fetch = () => new Promise(() => {});
globalThis.performance = { now: () => 0 };
console.error = () => {};
for (const f of ["cards.js", "layouts.js", "play.js"]) load(f);
const ws = sockets[sockets.length - 1];
const errors = [];
for (const m of input.messages) {
  try { ws.onmessage({ data: JSON.stringify(m) }); } catch (e) { errors.push(String(e)); }
}
const table = document.getElementById("table");
process.stdout.write(JSON.stringify({
  errors, layoutErrors: window.cardcore.layoutErrors, layout: table.dataset.layout || null,
  text: table.textContent, table: tree(table), fields: document.getElementById("fieldlist").textContent,
  rules: document.getElementById("rules").textContent,
}));
"""

_LOBBY = r"""
globalThis.location = { search: "?game=" + input.game, href: "http://x/" };
let posted = null;
globalThis.fetch = async (url, opts) => {
  if (opts && opts.method === "POST") { posted = opts.body; return { ok: false, status: 400, json: async () => ({ error: "stub" }) }; }
  const data = url === "/api/games" ? input.games : [];
  return { ok: true, status: 200, json: async () => data };
};
(async () => {
  load("lobby.js");
  for (let i = 0; i < 5; i++) await tick();
  const out = {};
  for (const [sel, prop, value] of input.set) {
    const e = document.querySelector(sel);
    if (!e) throw new Error("no " + sel);
    e[prop] = value;
    if (e.dataset.option === "max_players" || e.dataset.option === "min_players") e.dispatch("input");
  }
  if (input.count !== undefined) { document.getElementById("count").value = String(input.count); document.getElementById("count").dispatch("change"); }
  out.seats = document.querySelectorAll("#seats .seat").length;
  document.getElementById("create").dispatch("submit");
  for (let i = 0; i < 5; i++) await tick();
  out.body = posted === null ? null : JSON.parse(posted);
  out.error = document.getElementById("error").textContent;
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { process.stdout.write(JSON.stringify({ crash: String(e) })); });
"""


def _node(tmp_path: Path, program: str, payload: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node") or ("/usr/bin/node" if Path("/usr/bin/node").exists() else None)
    if node is None:  # pragma: no cover - node is installed here
        pytest.skip("node is needed to run the browser client")
    script = tmp_path / "harness.js"
    script.write_text(_DOM + program, encoding="utf-8")
    try:
        proc = subprocess.run(
            [node, str(script), str(STATIC)],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    finally:
        script.unlink()
    return dict(json.loads(proc.stdout))


def _page(
    tmp_path: Path,
    game: cardcore.Game,
    seat: int | None,
    *,
    view: dict[str, Any] | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """The game page of *seat* (``None``: watching) drawing *game*'s view (or *view*)."""
    v = game.view(seat) if view is None else view
    welcome = {
        "type": "welcome",
        "game": name or game.name,
        "players": list(game.players),
        "phase": "playing",
        "schema": game.view_schema(),
        "realtime": len(game.to_act) > 1,
    }
    hash_ = "#watch" if seat is None else f"#seat={seat}&token=t"
    messages = [welcome, {"type": "view", "n": 1, "view": v, "version": v.get("version", 0)}]
    return _node(tmp_path, _PLAY, {"hash": hash_, "messages": messages})


def _cards_drawn(node: Any) -> list[str | None]:
    """Every card the table draws: its code, ``None`` for a back (``data-card=""``)."""
    out: list[str | None] = []
    if isinstance(node, dict):
        if "card" in node["data"]:
            out.append(node["data"]["card"] or None)
        for k in node["kids"]:
            out.extend(_cards_drawn(k))
    return out


def _visible(view: dict[str, Any]) -> set[str]:
    """Every card code anywhere in *view* (what the seat was given)."""
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str) and re.fullmatch(r"(10|[2-9TJQKA])[CDHS]|JK", x):
            found.add(x)
        elif isinstance(x, dict):
            for y in x.values():
                walk(y)
        elif isinstance(x, list):
            for y in x:
                walk(y)

    walk({k: v for k, v in view.items() if k != "legal"})
    return found


def _lobby(
    tmp_path: Path, game: str, sets: list[list[Any]], count: int | None = None
) -> dict[str, Any]:
    payload: dict[str, Any] = {"game": game, "games": lobby_games(), "set": sets}
    if count is not None:
        payload["count"] = count
    out = _node(tmp_path, _LOBBY, payload)
    assert "crash" not in out, out
    return out


def _lobby_params(tmp_path: Path, text: str) -> dict[str, Any]:
    """The lobby's answer to a Golf game whose bot seat 1 has *text* as its parameters."""
    return _lobby(tmp_path, "golf", [['.params[data-seat="1"]', "value", text]])


def _post(body: dict[str, Any]) -> tuple[int, Any]:
    from starlette.testclient import TestClient

    from cardcore.web.app import create_app

    with TestClient(create_app(bot_delay=0)) as client:
        r = client.post("/api/sessions", json=body)
        return r.status_code, r.json()


def _played(game: cardcore.Game, until: Any, limit: int = 400) -> cardcore.Game:
    """*game* played by the last legal move (never a resignation) of the seats to act until *until(game)*."""
    for _ in range(limit):
        if until(game) or game.is_over:
            return game
        moves = [a for s in game.to_act for a in game.legal_actions(s) if str(a) != "resign"]
        if not moves:
            return game
        game.apply(moves[-1])
    return game


# --------------------------------------------------------------------------------------------
# Findings (strict xfails, fixed 2026-12-07)
# --------------------------------------------------------------------------------------------


def _refused_or_sent(out: dict[str, Any], want: dict[str, Any]) -> bool:
    """Whether the lobby refused the parameters in words (nothing sent), or sent *want*."""
    if out["body"] is None:
        return bool(out["error"]) and out["error"] != "stub"
    return bool(out["body"]["seats"][1].get("params") == want)


def test_lobby_params_with_a_second_equals_sign_are_not_silently_cut(tmp_path: Path) -> None:
    # "seed=1=2" reaches the server as seed 1: a bot other than the one asked for, no word said
    # (sent whole, the server refuses it: "seed must be a whole number ..., not '1=2'")
    out = _lobby_params(tmp_path, "seed=1=2")
    assert _refused_or_sent(out, {"seed": "1=2"})


def test_lobby_params_with_no_equals_sign_are_not_silently_dropped(tmp_path: Path) -> None:
    # "seed 5" vanishes from the request: the bot plays on a fresh seed, and nothing says so
    # (refused in the lobby, or sent under its own name for the server to refuse)
    out = _lobby_params(tmp_path, "seed 5, iterations=10")
    sent = out["body"] and "seed 5" in out["body"]["seats"][1]["params"]
    assert sent or (out["body"] is None and out["error"] and out["error"] != "stub")


def test_lobby_params_named_proto_are_not_silently_dropped(tmp_path: Path) -> None:
    # sent, the server refuses it: "agent 'random' has no parameter '__proto__'"
    out = _lobby_params(tmp_path, '__proto__={"seed":5}')
    assert _refused_or_sent(out, {"__proto__": {"seed": 5}})


def test_lobby_params_keep_a_large_seed_exactly(tmp_path: Path) -> None:
    # the server draws 62-bit seeds and takes this one (201); the lobby sends 2**53 instead
    out = _lobby_params(tmp_path, "seed=9007199254740993")
    assert _refused_or_sent(out, {"seed": 9007199254740993})


def test_a_game_named_constructor_is_drawn_from_its_zones(tmp_path: Path) -> None:
    # "constructor" is a valid game name (GameInfo's [A-Za-z0-9][A-Za-z0-9._-]{0,63});
    # the page calls Object(v, v.table) as its layout and draws "[object Object]"
    from cardcore.info import _GAME_NAME

    assert _GAME_NAME.fullmatch("constructor")
    game = cardcore.new_game("gofish", 3, seed=1)
    out = _page(tmp_path, game, 1, name="constructor")
    assert out["errors"] == []
    assert out["layout"] == "generic"
    assert "[object Object]" not in out["text"]


def _stock_emptied(name: str) -> cardcore.Game:
    """A two-seat *name* played, drawing whenever it can (else a random move, seeded), until
    its stock is empty: the first seed from 0 that gets there."""
    import random

    for seed in range(50):
        game = cardcore.new_game(name, 2, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            moves = [
                a for s in game.to_act for a in game.legal_actions(s)
                if str(a) not in ("resign", "drop", "knock")
            ]  # fmt: skip
            if not moves:
                break
            game.apply(next((a for a in moves if str(a) == "draw"), rng.choice(moves)))
            if game.view(0)["table"]["stock"] == 0:
                return game
    raise AssertionError("the stock never emptied")  # pragma: no cover


def _pile(node: Any, pile: str) -> Any:
    if isinstance(node, dict):
        if node["data"].get("pile") == pile:
            return node
        for k in node["kids"]:
            if (found := _pile(k, pile)) is not None:
                return found
    return None


@pytest.mark.parametrize("name", ["golf", "tonk"])
def test_an_empty_stock_is_not_drawn_as_a_face_down_card(tmp_path: Path, name: str) -> None:
    # Golf (a card held, before the discard is turned over) and Tonk (in play) reach stock 0;
    # the page still shows a card back there, read out as "a face-down card" (Spit's spit
    # pile draws an empty place for 0)
    game = _stock_emptied(name)
    v = game.view(0)
    assert next(z for z in v["zones"] if z["name"] == "stock")["count"] == 0
    out = _page(tmp_path, game, 0, view=v)
    assert out["layout"] == name and out["layoutErrors"] == []
    assert _cards_drawn(_pile(out["table"], "stock")) == []


# --------------------------------------------------------------------------------------------
# Claims that held
# --------------------------------------------------------------------------------------------


def test_the_server_takes_a_large_seed_and_refuses_what_the_lobby_drops(tmp_path: Path) -> None:
    # what the lobby should send for the xfails above, and the server's answer to each
    from starlette.testclient import TestClient

    from cardcore.web.app import create_app

    answers = []
    with TestClient(create_app(bot_delay=0)) as client:
        for params in ({"seed": 9007199254740993}, {"seed": "1=2"}, {"__proto__": 5}):
            seats = [{"name": "A"}, {"name": "B", "agent": "random", "params": params}]
            r = client.post("/api/sessions", json={"game": "golf", "seats": seats})
            answers.append((r.status_code, r.json().get("error")))
    assert answers[0] == (201, None)
    assert answers[1][0] == 400 and "'1=2'" in answers[1][1]
    assert answers[2][0] == 400 and "no parameter '__proto__'" in answers[2][1]


@pytest.mark.parametrize(
    ("name", "players", "seat"),
    [
        ("golf", 2, 1),
        ("golf", 6, 4),
        ("golf", 2, None),
        ("tonk", 4, 2),
        ("tonk", 2, None),
        ("spit", 2, 0),
        ("speed", 2, 1),
        ("speed", 2, None),
        ("gofish", 6, 5),
    ],
)
def test_the_page_draws_no_card_the_view_does_not_give(
    tmp_path: Path, name: str, players: int, seat: int | None
) -> None:
    options = {"max_players": 4} if name == "tonk" and players == 4 else None
    game = cardcore.new_game(name, players, seed=3, options=options)
    game = _played(game, lambda g: g.version >= 6)
    v = game.view(seat)
    out = _page(tmp_path, game, seat, view=v)
    assert out["errors"] == [] and out["layoutErrors"] == []
    assert out["layout"] == (name if name != "gofish" else "generic")
    drawn = _cards_drawn(out["table"])
    assert drawn and None in drawn  # backs for what the seat does not see
    assert {c for c in drawn if c is not None} <= _visible(v)


def test_a_dropped_tonk_hand_is_drawn_face_up_for_the_other_seat(tmp_path: Path) -> None:
    game = cardcore.new_game("tonk", 2, seed=1)
    game.act(1, "drop")
    v = game.view(0)
    shown = next(z for z in v["zones"] if z["name"] == "hand.1")["cards"]
    assert None not in shown  # the view gives them after the drop
    out = _page(tmp_path, game, 0, view=v)
    assert out["layout"] == "tonk" and out["layoutErrors"] == []
    assert set(shown) <= {c for c in _cards_drawn(out["table"]) if c}


def test_server_text_is_drawn_as_text_never_as_html(tmp_path: Path) -> None:
    for f in ("lobby.js", "layouts.js", "cards.js", "play.js"):
        src = (STATIC / f).read_text(encoding="utf-8")
        assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", src), f
    game = cardcore.new_game("golf", ["<img src=x onerror=alert(1)>", "<b>B</b>"], seed=1)
    out = _page(tmp_path, game, 0)
    assert "<img src=x onerror=alert(1)> (you)" in out["text"]


def test_empty_and_unused_centre_piles_draw(tmp_path: Path) -> None:
    game = cardcore.new_game("spit", 2, seed=2)
    v = game.view(0)
    v["table"]["piles"] = {"L": [], "R": None}  # an empty pile, one not in use
    out = _page(tmp_path, game, 0, view=v)
    assert out["errors"] == [] and out["layoutErrors"] == [] and out["layout"] == "spit"
    assert "pile R (not in use)" in out["text"] and "pile L (0)" in out["text"]


def test_a_table_missing_a_field_falls_back_to_the_zones(tmp_path: Path) -> None:
    game = cardcore.new_game("golf", 2, seed=1)
    v = game.view(1)
    del v["table"]["grids"]
    out = _page(tmp_path, game, 1, view=v)
    assert out["errors"] == []
    assert out["layout"] == "generic" and out["layoutErrors"]
    assert "grid.1" in out["text"]


def test_null_cards_in_a_generic_zone_are_backs(tmp_path: Path) -> None:
    game = cardcore.new_game("gofish", 2, seed=1)
    out = _page(tmp_path, game, None)
    drawn = _cards_drawn(out["table"])
    assert out["errors"] == [] and drawn and set(drawn) == {None}


def test_lobby_sends_what_the_server_accepts(tmp_path: Path) -> None:
    out = _lobby(
        tmp_path,
        "golf",
        [
            ['[data-option="dealer"]', "value", "1"],
            ['[data-option="rounds"]', "value", "2"],
            ['.params[data-seat="1"]', "value", "seed = 4, iterations=3"],
            ['.who[data-seat="1"]', "value", "ismcts"],
        ],
    )
    body = out["body"]
    assert body["options"] == {"layout": 6, "rounds": 2, "dealer": 1}
    assert body["seats"][1] == {
        "name": "Player 2",
        "agent": "ismcts",
        "params": {"seed": 4, "iterations": 3},
    }
    assert body["rules"] == [] and body["without"] == [] and "time" not in body
    status, answer = _post(body)
    assert status == 201, answer


def test_either_option_sends_a_word_as_text_and_digits_as_a_number(tmp_path: Path) -> None:
    word = _lobby(tmp_path, "golf", [['[data-option="dealer"]', "value", "random"]])
    num = _lobby(tmp_path, "golf", [['[data-option="dealer"]', "value", " 0 "]])
    assert word["body"]["options"]["dealer"] == "random"
    assert num["body"]["options"]["dealer"] == 0


def test_a_rule_option_is_sent_only_with_its_rule_on(tmp_path: Path) -> None:
    off = _lobby(tmp_path, "golf", [['[data-option="bonus_card"]', "value", '"QH"']])
    assert "bonus_card" not in off["body"]["options"]
    on = _lobby(
        tmp_path,
        "golf",
        [
            ['[data-option="bonus_card"]', "value", '"QH"'],
            ['[data-rule="golf.bonus-card"]', "checked", True],
        ],
    )
    assert on["body"]["options"]["bonus_card"] == "QH"
    assert on["body"]["rules"] == ["golf.bonus-card"]
    status, answer = _post(on["body"])
    assert status == 201, answer


def test_tonk_seat_box_follows_max_players(tmp_path: Path) -> None:
    three = _lobby(tmp_path, "tonk", [], count=4)
    four = _lobby(tmp_path, "tonk", [['[data-option="max_players"]', "value", "4"]], count=4)
    assert three["seats"] == 3 and four["seats"] == 4
    assert four["body"]["options"]["max_players"] == 4
    status, answer = _post(four["body"])
    assert status == 201, answer
