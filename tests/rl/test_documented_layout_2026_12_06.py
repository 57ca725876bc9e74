"""An RL researcher's audit of the DOCUMENTED observation and action layouts.

Every decoder here is written from the documentation alone: the module docstrings of
``cardcore_golf.encoding``, ``cardcore_tonk.encoding``, ``cardcore_spit.encoding``,
``cardcore_spit.speed.encoding``, the ``GenericEncoding`` docstring and ``docs/rl.rst``
(never the encoding code). Random legal games with fixed seeds are played through the
public API (``cardcore.new_game``, ``cardcore.rl.observe``, ``cardcore.rl.aec_env``); at
every step each seat's observation is decoded and compared, field by field, with the
same facts read from that seat's own ``game.view(seat)``, and the action mask with the
seat's legal actions under the documented index scheme.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest

import cardcore

np = pytest.importorskip("numpy")
rl = pytest.importorskip("cardcore.rl")

# --------------------------------------------------------------------------- cards

RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}
SUITS = "SHDC"


def rank_of(text: str) -> int:
    """0 for a joker, 1 ace ... 13 king (the pairing rank the docs number)."""
    if text == "JK":
        return 0
    head = text[:-1]
    return RANKS[head] if head in RANKS else int(head)


def card_index(text: str) -> int:
    """The docs' card number: 0..51 by rank (ace first), then suit S-H-D-C; 52 a joker."""
    if text == "JK":
        return 52
    return 4 * (rank_of(text) - 1) + SUITS.index(text[-1])


def golf_points(text: str, rules: tuple[str, ...], bonus: str = "2") -> int:
    """golf.rst: BASIC A 1, 2-10 face, J/Q 10, K 0; HARD J 11 Q 12 K 13; jokers -2;
    bonus cards -2 (``golf.bonus-twos``: every 2; ``golf.one-eyed-jacks``: JH and JS;
    ``golf.bonus-card``: the rank or card named by option ``bonus_card``)."""
    r = rank_of(text)
    if r == 0:
        return -2
    if "golf.bonus-twos" in rules and r == 2:
        return -2
    if "golf.one-eyed-jacks" in rules and text in ("JH", "JS"):
        return -2
    if "golf.bonus-card" in rules and bonus in (text, text[:-1]):
        return -2
    if "golf.hard" in rules:
        return r
    return {11: 10, 12: 10, 13: 0}.get(r, r)


class Reader:
    """Walks an observation vector as the documentation lays it out."""

    def __init__(self, vec: Any) -> None:
        self.vec = [float(x) for x in vec]
        self.pos = 0

    def block(self, size: int) -> list[float]:
        out = self.vec[self.pos : self.pos + size]
        assert len(out) == size, "observation shorter than documented"
        self.pos += size
        return out

    def onehot(self, size: int) -> int | None:
        """The index of the single 1 (None when all are 0; 'bad' when not one-hot)."""
        part = self.block(size)
        ones = [i for i, x in enumerate(part) if x == 1.0]
        if len(ones) == 1 and sum(part) == 1.0:
            return ones[0]
        if not any(part):
            return None
        return -1  # not a one-hot

    def counts(self, size: int) -> list[float]:
        return self.block(size)

    def scalar(self) -> float:
        return self.block(1)[0]

    def done(self) -> bool:
        return self.pos == len(self.vec)


def close(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple):
        return (
            isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(close(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(b, int | float) and abs(float(a) - float(b)) < 1e-5
    return a == b


# --------------------------------------------------------------------------- golf

GOLF_PHASES = ["setup", "draw", "place", "over"]
GOLF_SIZES = {6: 6, 8: 8, 9: 9, 10: 10, 4: 4, "4h": 4}


def golf_names(size: int) -> list[str]:
    """``0 draw 1 take 2 discard 3 knock 4 + p: replace p 4 + S + p: flip p 4 + 2 S + p: peek p``."""
    return (
        ["draw", "take", "discard", "knock"]
        + [f"replace {p}" for p in range(size)]
        + [f"flip {p}" for p in range(size)]
        + [f"peek {p}" for p in range(size)]
    )


def golf_decode(vec: Any, n: int, size: int) -> dict[str, Any]:
    rd = Reader(vec)
    out: dict[str, Any] = {}
    out["grids"] = [[rd.onehot(16) for _ in range(size)] for _ in range(n)]
    out["discard"] = rd.onehot(15)
    out["held"] = rd.onehot(16)
    out["phase"] = rd.onehot(4)
    out["to_act"] = rd.onehot(n + 1)
    out["ender"] = rd.onehot(n + 1)
    out["points"] = [[rd.scalar() for _ in range(size)] for _ in range(n)]
    out["discard_points"] = rd.scalar()
    out["held_points"] = rd.scalar()
    out["stock"] = rd.scalar()
    out["discards"] = rd.scalar()
    out["round"] = rd.scalar()
    out["final_turns"] = rd.scalar()
    out["totals"] = [rd.scalar() for _ in range(n)]
    out["length"] = rd.done()
    return out


def golf_expected(view: dict[str, Any], seat: int, rules: tuple[str, ...]) -> dict[str, Any]:
    t = view["table"]
    n = len(view["players"])
    order = [(seat + r) % n for r in range(n)]
    deck = sum(z["count"] for z in view["zones"])

    def code(c: Any) -> int:
        return 14 if c is None else 15 if c == "--" else rank_of(c)

    bonus = str(view["options"].get("bonus_card", "2"))

    def pts(c: Any) -> float:
        return 0.0 if c is None or c == "--" else golf_points(c, rules, bonus) / 10

    held = t["held"]
    held_card = None if held is None else held["card"]
    opts = view["options"]
    cap = opts["rounds"] if opts["rounds"] is not None else (None if opts["points_limit"] else 9)
    ftl = t["final_turns_left"]
    return {
        "grids": [[code(c) for c in t["grids"][s]] for s in order],
        "discard": 14 if t["discard"] is None else rank_of(t["discard"]),
        "held": 14 if held is None else 15 if held_card is None else rank_of(held_card),
        "phase": GOLF_PHASES.index(t["phase"]),
        "to_act": n if t["turn"] is None else (t["turn"] - seat) % n,
        "ender": n if t["ender"] is None else (t["ender"] - seat) % n,
        "points": [[pts(c) for c in t["grids"][s]] for s in order],
        "discard_points": pts(t["discard"]),
        "held_points": pts(held_card),
        "stock": t["stock"] / deck,
        "discards": t["discards"] / deck,
        "round": 0.0 if cap is None else t["round"] / cap,
        "final_turns": 0.0 if ftl is None else (ftl + 1) / n,
        "totals": [t["totals"][s] / 100 for s in order],
        "length": True,
    }


# --------------------------------------------------------------------------- tonk

TONK_PHASES = ["start", "play", "between", "over"]
RUN_OFFSET = {3: 0, 4: 11, 5: 21, 6: 30}


def tonk_index(text: str) -> int:
    """The documented Tonk index of an action's notation (-1: none)."""
    words = text.split()
    fixed = {"drop": 0, "draw": 1, "take": 2, "deal": 3}
    if words[0] in fixed:
        return fixed[words[0]]
    if words[0] == "discard":
        return 4 + card_index(words[1])
    if words[0] == "hit":
        return 56 + 52 * (int(words[1]) - 1) + card_index(words[2])
    cards = words[1:]
    ranks = sorted(rank_of(c) for c in cards)
    if len(set(ranks)) == 1:
        suits = {c[-1] for c in cards}
        missing = [m for m in range(4) if SUITS[m] not in suits]
        return 940 + 5 * (ranks[0] - 1) + (missing[0] if len(cards) == 3 else 4)
    if len(cards) > 6:
        return -1
    suit = SUITS.index(cards[0][-1])
    return 1005 + 38 * suit + RUN_OFFSET[len(cards)] + ranks[0] - 1


def tonk_decode(vec: Any, n: int) -> dict[str, Any]:
    rd = Reader(vec)
    out: dict[str, Any] = {}
    out["hand"] = rd.counts(52)
    out["discard_top"] = rd.onehot(53)
    out["taken"] = rd.onehot(53)
    out["spreads"] = [rd.counts(52) for _ in range(17)]
    out["owners"] = [rd.onehot(n) for _ in range(17)]
    out["phase"] = rd.onehot(4)
    out["dealer"] = rd.onehot(n)
    out["to_act"] = rd.onehot(n)
    out["stock"] = rd.scalar()
    out["discards"] = rd.scalar()
    out["hand_sizes"] = [rd.scalar() for _ in range(n)]
    out["total"] = rd.scalar()
    out["balances"] = [rd.scalar() for _ in range(n)]
    out["hand_number"] = rd.scalar()
    out["length"] = rd.done()
    return out


def tonk_expected(view: dict[str, Any], seat: int) -> dict[str, Any]:
    t = view["table"]
    n = len(view["players"])
    order = [(seat + r) % n for r in range(n)]
    hand = [0.0] * 52
    for c in t["hand"]:
        hand[card_index(c)] += 1
    spreads = [[0.0] * 52 for _ in range(17)]
    owners: list[int | None] = [None] * 17
    for s in t["spreads"]:
        for c in s["cards"]:
            spreads[s["number"] - 1][card_index(c)] += 1
        owners[s["number"] - 1] = (s["owner"] - seat) % n
    stake = t["stake"]
    return {
        "hand": hand,
        "discard_top": 52 if t["discard_top"] is None else card_index(t["discard_top"]),
        "taken": 52 if t["taken"] is None else card_index(t["taken"]),
        "spreads": spreads,
        "owners": owners,
        "phase": TONK_PHASES.index(t["phase"]),
        "dealer": (t["dealer"] - seat) % n,
        "to_act": None if t["turn"] is None else (t["turn"] - seat) % n,
        "stock": t["stock"] / 52,
        "discards": t["discard_count"] / 52,
        "hand_sizes": [t["hand_sizes"][s] / 6 for s in order],
        "total": t["total"] / 50,
        "balances": [t["balances"][s] / stake / 10 for s in order],
        "hand_number": t["hand_number"] / t["hands"],
        "length": True,
    }


# --------------------------------------------------------------------------- spit

SPIT_PHASES = ["setup", "play", "claim", "over"]


def spit_index(text: str) -> int:
    """``2 k + t`` play, ``10 + 5 j + i`` combine, ``35 + 5 j + i`` fill, 60-63."""
    w = text.split()
    lr = {"L": 0, "R": 1}
    if w[0] == "play":
        return 2 * (int(w[1]) - 1) + lr[w[2]]
    if w[0] in ("combine", "fill"):
        return (10 if w[0] == "combine" else 35) + 5 * (int(w[1]) - 1) + int(w[2]) - 1
    if w[0] in ("slap", "choose"):
        return 62 + lr[w[1]]
    return {"ready": 60, "spit": 61}[w[0]]


def spit_names() -> list[str]:
    names = [""] * 64
    for k in range(5):
        for t, lr in enumerate("LR"):
            names[2 * k + t] = f"play {k + 1} {lr}"
    for j in range(5):
        for i in range(5):
            names[10 + 5 * j + i] = f"combine {j + 1} {i + 1}"
            names[35 + 5 * j + i] = f"fill {j + 1} {i + 1}"
    names[60:] = ["ready", "spit", "slap L", "slap R"]
    return names


def spit_decode(vec: Any) -> dict[str, Any]:
    rd = Reader(vec)
    out: dict[str, Any] = {}
    out["layout_tops"] = [[rd.onehot(14) for _ in range(5)] for _ in range(2)]
    out["pile_tops"] = [rd.onehot(14) for _ in range(2)]
    out["phase"] = rd.onehot(4)
    out["emptier"] = rd.onehot(3)
    out["observer"] = rd.onehot(2)
    out["pile_sizes_down"] = [[(rd.scalar(), rd.scalar()) for _ in range(5)] for _ in range(2)]
    out["seat_scalars"] = [[rd.scalar() for _ in range(4)] for _ in range(2)]
    out["spit_sizes"] = [rd.scalar(), rd.scalar()]
    out["single"] = rd.scalar()
    out["stall"] = rd.scalar()
    out["deal"] = rd.scalar()
    out["length"] = rd.done()
    return out


def spit_expected(view: dict[str, Any], seat: int) -> dict[str, Any]:
    t = view["table"]
    order = [seat, 1 - seat]

    def top(cards: list[Any] | None) -> int:
        if not cards:
            return 13
        assert cards[0] is not None, "a face-down top card: the docs give it no code"
        return rank_of(cards[0]) - 1

    piles = [t["piles"][x] for x in "LR"]
    return {
        "layout_tops": [[top(p) for p in t["seats"][s]["layout"]] for s in order],
        "pile_tops": [top(p) for p in piles],
        "phase": SPIT_PHASES.index(t["phase"]),
        "emptier": 2 if t["emptier"] is None else 0 if t["emptier"] == seat else 1,
        "observer": seat,
        "pile_sizes_down": [
            [(len(p) / 13, sum(c is None for c in p) / 13) for p in t["seats"][s]["layout"]]
            for s in order
        ],
        "seat_scalars": [
            [
                t["seats"][s]["spit_cards"] / 26,
                t["seats"][s]["cards"] / 52,
                float(t["seats"][s]["ready"]),
                float(t["seats"][s]["requested"]),
            ]
            for s in order
        ],
        "spit_sizes": [len(p or []) / 52 for p in piles],
        "single": float(t["mode"] == "single-pile"),
        "stall": t["stall"] / view["options"]["stall_limit"],
        "deal": t["deal"] / 10,
        "length": True,
    }


# --------------------------------------------------------------------------- speed


def speed_index(text: str) -> int:
    w = text.split()
    if w[0] == "stuck":
        return 106
    return 2 * card_index(w[1]) + {"L": 0, "R": 1}[w[2]]


def speed_decode(vec: Any) -> dict[str, Any]:
    rd = Reader(vec)
    out: dict[str, Any] = {}
    out["hand_cards"] = rd.counts(53)
    out["hand_ranks"] = rd.counts(14)
    out["piles"] = [(rd.onehot(53), rd.onehot(14)) for _ in range(2)]
    out["observer"] = rd.onehot(2)
    out["seats"] = [[rd.scalar() for _ in range(4)] for _ in range(2)]
    out["pile_sizes"] = [rd.scalar(), rd.scalar()]
    out["length"] = rd.done()
    return out


def speed_expected(view: dict[str, Any], seat: int) -> dict[str, Any]:
    t = view["table"]
    cards = [0.0] * 53
    ranks = [0.0] * 14
    for c in t["seats"][seat]["hand"]:
        cards[card_index(c)] += 1
        ranks[rank_of(c)] += 1
    piles = [t["piles"][x] for x in "LR"]
    return {
        "hand_cards": cards,
        "hand_ranks": ranks,
        "piles": [(card_index(p[0]), rank_of(p[0])) if p else (None, None) for p in piles],
        "observer": seat,
        "seats": [
            [
                len(t["seats"][s]["hand"]) / 5,
                t["seats"][s]["stock"] / 15,
                t["seats"][s]["side"] / 15,
                float(t["seats"][s]["requested"]),
            ]
            for s in (seat, 1 - seat)
        ],
        "pile_sizes": [len(p) / 52 for p in piles],
        "length": True,
    }


# --------------------------------------------------------------------------- driver

Decoder = Callable[[Any, int], dict[str, Any]]
"""(observation, seat) -> decoded fields"""
Expecter = Callable[[dict[str, Any], int], dict[str, Any]]
"""(view, seat) -> the same fields read from the seat's view"""
Indexer = Callable[[str], int]


class Audit:
    """Per field: steps compared and the first mismatch; per game: mask mismatches."""

    def __init__(self) -> None:
        self.compared = 0
        self.bad: dict[str, tuple[int, Any]] = {}
        self.mask_bad: list[Any] = []
        self.masks = 0
        self.tags: set[str] = set()

    def field_ok(self, name: str) -> bool:
        return name not in self.bad


def play(
    game: cardcore.Game,
    seed: int,
    decode: Decoder,
    expect: Expecter,
    index: Indexer,
    audit: Audit,
    limit: int = 400,
    tags: Callable[[dict[str, Any]], set[str]] = lambda want: set(),
    prefer: tuple[str, ...] = (),
) -> None:
    """Random legal play; every seat's observation and mask checked before each action."""
    rng = random.Random(seed)
    n = len(game.players)
    for _ in range(limit):
        movers = []
        for seat in range(n):
            view = game.view(seat)
            obs = rl.observe(game, seat)
            got = decode(obs["observation"], seat)
            want = expect(view, seat)
            audit.tags |= tags(want)
            audit.compared += 1
            for key, value in want.items():
                if not close(value, got[key]) and key not in audit.bad:
                    audit.bad[key] = (game.version, {"seat": seat, "want": value, "got": got[key]})
            legal = game.legal_actions(seat)
            want_mask = sorted(i for i in (index(str(a)) for a in legal) if i >= 0)
            got_mask = sorted(int(i) for i in np.flatnonzero(obs["action_mask"]))
            audit.masks += 1
            if want_mask != got_mask and len(audit.mask_bad) < 3:
                audit.mask_bad.append((game.version, seat, [str(a) for a in legal], got_mask))
            if legal:
                movers.append(seat)
        if game.is_over or not movers:
            return
        seat = rng.choice(movers)
        legal = game.legal_actions(seat)
        liked = [a for a in legal if str(a).split()[0] in prefer]
        game.apply(rng.choice(liked if liked and rng.random() < 0.8 else legal))


# --------------------------------------------------------------------------- generic


def generic_layout(game: cardcore.Game, seat: int) -> tuple[list[str], list[str]]:
    """The zones in the documented order (shared first, then each seat's, the observer's
    first) and the card positions of a plane (see ``test_generic_plane_order_is_documented``)."""
    schema = game.view_schema()
    n = len(game.players)
    zones = [z["name"] for z in schema["zones"] if z["owner"] is None]
    for r in range(n):
        zones += [z["name"] for z in schema["zones"] if z["owner"] == (seat + r) % n]
    deck = game.logic.deck(n, game.options)
    positions = sorted({str(c) for c in deck})
    return zones, positions


def field_entries(field: dict[str, Any], n: int) -> list[str]:
    """A field's entries: one, or one per seat (relative) for ``per-seat``; none for the
    ``str`` and ``json`` kinds the docs leave out."""
    kind = field["of"] if field["kind"] == "per-seat" else field["kind"]
    assert kind in ("int", "float", "bool", "seat", "card", "cards", "str", "json"), field
    if kind in ("str", "json"):
        return []
    if field["kind"] == "per-seat":
        return [f"{field['name']}[{r}]" for r in range(n)]
    return [field["name"]]


def generic_decode(game: cardcore.Game, vec: Any, seat: int) -> dict[str, Any]:
    zones, positions = generic_layout(game, seat)
    fields = game.view_schema()["fields"]
    n = len(game.players)
    d = len(positions)
    rd = Reader(vec)
    out: dict[str, Any] = {}
    for z in zones:
        out[f"{z} cards"] = rd.counts(d)
        out[f"{z} top"] = rd.counts(d)
    for f in fields:  # the planes and one-hots of the fields
        for key in field_entries(f, n):
            if f["kind"] in ("card", "cards") or f["of"] in ("card", "cards"):
                out[key] = rd.counts(d)
            elif f["kind"] == "seat" or f["of"] == "seat":
                out[key] = rd.onehot(n + 1)
    for z in zones:
        out[f"{z} count"] = rd.scalar()
        out[f"{z} hidden"] = rd.scalar()
    for f in fields:
        for key in field_entries(f, n):
            if f["kind"] in ("int", "float", "bool") or f["of"] in ("int", "float", "bool"):
                out[key] = rd.scalar()
    out["may act"] = rd.scalar()
    out["is over"] = rd.scalar()
    out["length"] = rd.done()
    return out


def generic_expected(game: cardcore.Game, view: dict[str, Any], seat: int) -> dict[str, Any]:
    _, positions = generic_layout(game, seat)
    n = len(game.players)
    d = len(game.logic.deck(n, game.options))
    order = [(seat + r) % n for r in range(n)]
    out: dict[str, Any] = {}
    for z in view["zones"]:
        plane = [0.0] * len(positions)
        top = [0.0] * len(positions)
        for c in z["cards"]:
            if c is not None:
                plane[positions.index(c)] += 1
        if z["cards"] and z["cards"][0] is not None:
            top[positions.index(z["cards"][0])] = 1.0
        out[f"{z['name']} cards"] = plane
        out[f"{z['name']} top"] = top
        out[f"{z['name']} count"] = z["count"] / d
        out[f"{z['name']} hidden"] = sum(c is None for c in z["cards"]) / d
    for f in game.view_schema()["fields"]:
        kind = f["of"] if f["kind"] == "per-seat" else f["kind"]
        value = view["table"][f["name"]]
        entries = field_entries(f, n)
        values = [value[s] for s in order] if f["kind"] == "per-seat" else [value]
        for key, v in zip(entries, values if entries else [], strict=True):
            if kind in ("int", "float", "bool"):
                out[key] = float(v)
            elif kind in ("card", "cards"):
                plane = [0.0] * len(positions)
                for c in [v] if kind == "card" else v:
                    if c is not None:
                        plane[positions.index(c)] += 1
                out[key] = plane
            elif kind == "seat":
                out[key] = n if v is None else (v - seat) % n
    out["may act"] = float(seat in view["to_act"])
    out["is over"] = float(view["is_over"])
    out["length"] = True
    return out


def audit_failures(audit: Audit) -> dict[str, Any]:
    return {"fields": audit.bad, "masks": audit.mask_bad}


# --------------------------------------------------------------------------- golf tests


def golf_tags(want: dict[str, Any]) -> set[str]:
    tags = {f"phase {GOLF_PHASES[want['phase']]}"}
    n = len(want["totals"])
    if want["held"] == 15:
        tags.add("held unseen")
    elif want["held"] < 14:
        tags.add("held seen")
    if any(c == 15 for row in want["grids"] for c in row):
        tags.add("removed")
    if any(c == 14 for row in want["grids"] for c in row):
        tags.add("face down")
    if want["ender"] != n:
        tags.add("ender")
    if want["final_turns"]:
        tags.add("final turns")
    if want["to_act"] == n:
        tags.add("nobody to act")
    if want["to_act"] not in (0, n):
        tags.add("another to act")
    if any(t for t in want["totals"]):
        tags.add("totals")
    return tags


def run_golf(
    layout: Any, n: int, rules: tuple[str, ...], options: dict[str, Any], seeds: range
) -> Audit:
    size = GOLF_SIZES[layout]
    names = golf_names(size)
    audit = Audit()
    for seed in seeds:
        game = cardcore.new_game(
            "golf", n, rules=rules, options={"layout": layout, **options}, seed=seed
        )
        play(
            game,
            seed,
            lambda v, seat: golf_decode(v, n, size),
            lambda v, seat: golf_expected(v, seat, rules),
            lambda text: names.index(text),
            audit,
            limit=1000,
            tags=golf_tags,
        )
        assert game.is_over, "the random game should run to its end"
    return audit


GOLF_LAYOUTS = [(layout, n) for layout in (6, 8, 9, 10, 4, "4h") for n in (2, 3, 4)]


@pytest.mark.parametrize(
    ("layout", "n"), GOLF_LAYOUTS, ids=[f"{lay}-{n}" for lay, n in GOLF_LAYOUTS]
)
def test_golf_observation_and_mask_match_the_documented_layout(layout: Any, n: int) -> None:
    """Every field of the Golf docstring, decoded at every step for every seat (grids,
    discard, held, phase, seat to act, ender, points, pile sizes, round, final turns,
    totals), equals the seat's own view; the mask is exactly the legal actions'
    documented indices; the vector has exactly the documented length."""
    audit = run_golf(layout, n, (), {"rounds": 2 if n == 2 else 1}, range(2 if n < 4 else 1))
    assert audit_failures(audit) == {"fields": {}, "masks": []}
    assert audit.compared > 40
    need = {"phase draw", "phase place", "phase over", "held seen", "held unseen", "face down"}
    need |= {"nobody to act", "another to act", "ender", "totals"}
    if layout != "4h":
        need.add("phase setup")
    assert need <= audit.tags


GOLF_HOUSE = [
    (6, 2, ("golf.jokers",), {}),
    (6, 3, ("golf.hard", "golf.one-eyed-jacks"), {}),
    (9, 2, ("golf.bonus-twos", "golf.remove-triples"), {}),
    (6, 2, ("golf.bonus-card", "golf.remove-columns"), {"bonus_card": "QH"}),
    ("4h", 3, ("golf.jokers",), {}),
    (4, 2, ("golf.ender-penalty-10", "golf.bonus-card"), {"bonus_card": "5"}),
    (8, 2, ("golf.no-final-turns",), {"max_turns": 12}),
    (6, 2, (), {"rounds": None}),
    (6, 2, (), {"rounds": None, "points_limit": 40}),
]


@pytest.mark.parametrize(("layout", "n", "rules", "options"), GOLF_HOUSE)
def test_golf_house_rules_change_points_and_sizes_as_documented(
    layout: Any, n: int, rules: tuple[str, ...], options: dict[str, Any]
) -> None:
    """ "Card points are the configuration's (house rules such as jokers at -2 included)";
    "the round over the match's rounds (0 in a match with no round cap)": the default
    ``rounds`` is 9, so ``rounds=None`` without a points limit still has a cap."""
    opts = {"rounds": 2, **options}
    audit = run_golf(layout, n, rules, opts, range(1 if opts["rounds"] is None else 2))
    assert audit_failures(audit) == {"fields": {}, "masks": []}
    if "golf.remove-columns" in rules:
        assert "removed" in audit.tags


def test_golf_jokers_points_are_minus_two_over_ten() -> None:
    """Golf with ``golf.jokers``: a joker face up in a grid or on the discard pile shows as
    pairing rank 0 and as points -0.2 (-2 over 10)."""
    seen = 0
    for seed in range(6):
        game = cardcore.new_game("golf", 2, rules=["golf.jokers"], options={"rounds": 1}, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            for seat in (0, 1):
                got = golf_decode(rl.observe(game, seat)["observation"], 2, 6)
                table = game.view(seat)["table"]
                for r in range(2):
                    for p, c in enumerate(table["grids"][(seat + r) % 2]):
                        if c == "JK":
                            seen += 1
                            assert got["grids"][r][p] == 0
                            assert got["points"][r][p] == pytest.approx(-0.2)
                if table["discard"] == "JK":
                    seen += 1
                    assert got["discard"] == 0 and got["discard_points"] == pytest.approx(-0.2)
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    assert seen > 0


# --------------------------------------------------------------------------- tonk tests


def tonk_tags(want: dict[str, Any]) -> set[str]:
    tags = {f"phase {TONK_PHASES[want['phase']]}"}
    if want["taken"] != 52:
        tags.add("taken")
    if any(o is not None for o in want["owners"]):
        tags.add("spread")
    if any(o not in (None, 0) for o in want["owners"]):
        tags.add("another's spread")
    if want["to_act"] is None:
        tags.add("nobody to act")
    if any(b < 0 for b in want["balances"]):
        tags.add("balance")
    if want["discard_top"] == 52:
        tags.add("no discard")
    return tags


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tonk_observation_and_mask_match_the_documented_layout(n: int) -> None:
    """Tonk's docstring fields (hand, discard top, taken, spreads and owners, phase,
    dealer, seat to act, pile sizes, hand sizes, total, balances in stakes, hand number)
    equal the seat's view at every step; the mask is the legal actions' documented
    indices (drop/draw/take/deal, discard c, hit k c, books, runs)."""
    audit = Audit()
    options = {"hands": 3, "stake": 3, "max_players": 4}
    for seed in range(3):
        game = cardcore.new_game("tonk", n, options=options, seed=seed)
        play(
            game,
            seed,
            lambda v, seat: tonk_decode(v, n),
            tonk_expected,
            tonk_index,
            audit,
            tags=tonk_tags,
            prefer=("spread", "hit", "take"),
        )
        assert game.is_over
    assert audit_failures(audit) == {"fields": {}, "masks": []}
    need = {"phase start", "phase play", "phase over", "taken", "spread", "another's spread"}
    need |= {"nobody to act", "balance", "phase between", "no discard"}
    assert need <= audit.tags


def test_tonk_index_scheme_names_every_index() -> None:
    """The 1157 names are the notations the documented scheme gives each index: parsing
    each name back with the documented formulas gives its own index."""
    env = rl.aec_env("tonk", 2)
    names = list(env.config.observer.names)
    assert len(names) == 1157
    assert [tonk_index(name) for name in names] == list(range(1157))


def test_tonk_books_and_runs_cover_their_documented_blocks() -> None:
    """65 books (13 ranks x (4 missing suits + all four)) and 152 runs (4 suits x 38
    (start, length) pairs for lengths 3-6, ace low)."""
    env = rl.aec_env("tonk", 3)
    names = list(env.config.observer.names)
    books = names[940:1005]
    runs = names[1005:]
    assert all(len({rank_of(c) for c in b.split()[1:]}) == 1 for b in books)
    assert sorted(len(b.split()) - 1 for b in books) == [3] * 52 + [4] * 13
    assert len(runs) == 152
    for i, run in enumerate(runs):
        cards = run.split()[1:]
        suit, offset = divmod(i, 38)
        assert {c[-1] for c in cards} == {SUITS[suit]}
        length = max(k for k, v in RUN_OFFSET.items() if v <= offset)
        start = offset - RUN_OFFSET[length] + 1
        assert sorted(rank_of(c) for c in cards) == list(range(start, start + length))


# --------------------------------------------------------------------------- spit / speed


def spit_tags(want: dict[str, Any]) -> set[str]:
    tags = {f"phase {SPIT_PHASES[want['phase']]}", f"emptier {want['emptier']}"}
    tags.add(f"observer {want['observer']}")
    if want["single"]:
        tags.add("single")
    if want["stall"]:
        tags.add("stall")
    if 13 in want["pile_tops"]:
        tags.add("spit pile empty or unused")
    if any(13 in row for row in want["layout_tops"]):
        tags.add("layout pile empty")
    if any(down for row in want["pile_sizes_down"] for _, down in row):
        tags.add("face down")
    if any(x[2] for x in want["seat_scalars"]):
        tags.add("ready")
    if any(x[3] for x in want["seat_scalars"]):
        tags.add("requested")
    return tags


SPIT_CASES = [
    ((), {}, 0),
    (("spit.chooser", "spit.same-rank"), {}, 1),
    (("spit.canfield",), {"stall_limit": 5}, 0),
]


@pytest.mark.parametrize(("rules", "options", "seed"), SPIT_CASES)
def test_spit_observation_and_mask_match_the_documented_layout(
    rules: tuple[str, ...], options: dict[str, Any], seed: int
) -> None:
    """Spit's docstring fields (layout tops per relative seat, absolute spit pile tops,
    phase, emptier me/other/none, observing seat, pile sizes and face-down counts over
    13, spit cards over 26, cards held over 52, ready, requested, spit pile sizes over
    52, single-pile mode, stall over its limit, deal over 10) equal the view, for both
    seats at every step of a whole game; the mask is the documented indices."""
    audit = Audit()
    game = cardcore.new_game("spit", 2, rules=rules, options=options, seed=seed)
    play(
        game,
        seed,
        lambda v, seat: spit_decode(v),
        spit_expected,
        spit_index,
        audit,
        limit=2000,
        tags=spit_tags,
        prefer=("play", "slap", "choose", "ready", "spit"),
    )
    assert game.is_over
    assert audit_failures(audit) == {"fields": {}, "masks": []}
    need = {f"phase {p}" for p in SPIT_PHASES} | {"emptier 0", "emptier 1", "emptier 2"}
    need |= {"observer 0", "observer 1", "single", "stall", "ready", "requested", "face down"}
    need |= {"spit pile empty or unused", "layout pile empty"}
    assert need <= audit.tags


@pytest.mark.parametrize("rules", [(), ("spit.chooser",)])
def test_spit_action_names_follow_the_documented_indices(rules: tuple[str, ...]) -> None:
    """``2 k + t`` play, ``10 + 5 j + i`` combine, ``35 + 5 j + i`` fill, 60 ready, 61
    spit, 62/63 the claims (``slap``, or ``choose`` under ``spit.chooser``)."""
    names = list(rl.aec_env("spit", 2, rules=rules).config.observer.names)
    word = "choose" if rules else "slap"
    want = [*spit_names()[:62], f"{word} L", f"{word} R"]
    assert names == want


def speed_tags(want: dict[str, Any]) -> set[str]:
    tags = {f"observer {want['observer']}"}
    if want["hand_ranks"][0]:
        tags.add("joker in hand")
    if any(p[1] == 0 for p in want["piles"]):
        tags.add("joker on a pile")
    if any(s[3] for s in want["seats"]):
        tags.add("stuck")
    if max(want["hand_cards"]) > 1:
        tags.add("copies")
    return tags


SPEED_CASES = [
    ({}, (), range(3)),
    ({"jokers": 2}, (), range(4)),
    ({"side_pile": 15}, ("speed.stuck-on-request",), range(3)),
]


@pytest.mark.parametrize(("options", "rules", "seeds"), SPEED_CASES)
def test_speed_observation_and_mask_match_the_documented_layout(
    options: dict[str, Any], rules: tuple[str, ...], seeds: range
) -> None:
    """Speed's docstring fields (own hand by card and by rank, each play pile's top card
    and rank, observing seat, per relative seat hand over 5, stock and side over 15,
    declared stuck, play pile sizes over 52) equal the view; the mask is ``2 c + t`` and
    106 ``stuck``."""
    audit = Audit()
    for seed in seeds:
        game = cardcore.new_game("speed", 2, rules=rules, options=options, seed=seed)
        play(
            game,
            seed,
            lambda v, seat: speed_decode(v),
            speed_expected,
            speed_index,
            audit,
            limit=600,
            tags=speed_tags,
            prefer=("play",),
        )
    assert audit_failures(audit) == {"fields": {}, "masks": []}
    need = {"observer 0", "observer 1", "stuck"}
    if options.get("jokers"):
        need |= {"joker in hand", "joker on a pile"}
    assert need <= audit.tags


def test_speed_action_names_follow_the_documented_indices() -> None:
    names = list(rl.aec_env("speed", 2, options={"jokers": 2}).config.observer.names)
    assert len(names) == 107
    assert [speed_index(name) for name in names] == list(range(107))


# --------------------------------------------------------------------------- generic


def run_generic(
    game: cardcore.Game, seed: int, encoding: Any, max_legal: int, audit: Audit
) -> None:
    rng = random.Random(seed)
    n = len(game.players)
    for _ in range(300):
        movers = []
        for seat in range(n):
            obs = rl.observe(game, seat, encoding)
            got = generic_decode(game, obs["observation"], seat)
            want = generic_expected(game, game.view(seat), seat)
            audit.compared += 1
            for key, value in want.items():
                if not close(value, got[key]) and key not in audit.bad:
                    audit.bad[key] = (game.version, seat, value, got[key])
            legal = game.legal_actions(seat)
            audit.masks += 1
            mask = [int(i) for i in np.flatnonzero(obs["action_mask"])]
            if mask != list(range(min(len(legal), max_legal))):
                audit.mask_bad.append((game.version, seat, len(legal), mask))
            if legal:
                movers.append(seat)
        if game.is_over or not movers:
            return
        seat = rng.choice(movers)
        game.apply(rng.choice(game.legal_actions(seat)))


@pytest.mark.parametrize("n", [2, 3, 6])
def test_generic_encoding_of_go_fish_matches_its_docstring(n: int) -> None:
    """Go Fish (no encoding of its own) under GenericEncoding: per zone (stock, then each
    seat's hand and books, the observer's first) a plane of visible cards and of the
    visible top card, their count and hidden count over the deck; the ``int`` fields raw
    (``stock``, ``books`` per seat, observer first; ``asked`` is json, left out); may act;
    is over. Actions: index i is the i-th legal action, up to ``max_legal = 65``."""
    assert "gofish" in cardcore.available_games()
    audit = Audit()
    for seed in range(2 if n < 6 else 1):
        game = cardcore.new_game("gofish", n, seed=seed)
        run_generic(game, seed, None, 65, audit)
    assert audit_failures(audit) == {"fields": {}, "masks": []}
    assert audit.compared > 50


GENERIC_BUILTIN = [
    ("golf", 5, {"rounds": 1}, ("golf.jokers",)),
    ("golf", 3, {"rounds": 1}, ()),
    ("golf", 2, {"layout": "4h", "rounds": 1}, ("golf.jokers",)),
    ("tonk", 3, {"hands": 2}, ()),
    ("speed", 2, {"jokers": 2}, ()),
]


@pytest.mark.parametrize(("name", "n", "options", "rules"), GENERIC_BUILTIN)
def test_generic_encoding_of_builtin_views_matches_its_docstring(
    name: str, n: int, options: dict[str, Any], rules: tuple[str, ...]
) -> None:
    """The public GenericEncoding applied to built-in games, whose views declare the
    other field kinds: ``seat`` (a one-hot over relative seats and none), ``card`` and
    ``cards`` (a card plane), ``per-seat`` of int/bool (one scalar per seat, observer
    first), ``str``/``json`` left out; a small ``max_legal`` cuts the mask to the first
    legal actions."""
    audit = Audit()
    for seed in range(2):
        game = cardcore.new_game(name, n, rules=rules, options=options, seed=seed)
        encoding = rl.GenericEncoding(game.view_schema(), game.logic.deck(n, game.options), n, 5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # "left out": tested below
            run_generic(game, seed, encoding, 5, audit)
    assert audit_failures(audit) == {"fields": {}, "masks": []}


def test_generic_plane_order_is_documented() -> None:
    """Doc gap, pinned: the GenericEncoding docstring says a plane has "one position per
    distinct card of the deck" but not their order. It is the cards' text, sorted
    (``10C`` < ``2C`` < ... < ``AS``), not the order of ``GameLogic.deck()`` (AS 2S 3S
    ...). This pins the order the decoder above relies on."""
    game = cardcore.new_game("gofish", 2, seed=0)
    hand = game.view(0)["zones"][1]
    assert hand["name"] == "hand.0"
    obs = rl.observe(game, 0)["observation"]
    order = sorted({str(c) for c in game.logic.deck(2, game.options)})
    deck_order = list(dict.fromkeys(str(c) for c in game.logic.deck(2, game.options)))
    assert order != deck_order
    plane = [float(x) for x in obs[104:156]]  # after the stock's two planes
    assert plane == [float(c in hand["cards"]) for c in order]


# --------------------------------------------------------------------------- stepping and rewards


def golf_standing(view: dict[str, Any], seat: int) -> float:
    """``(mean of the other seats' totals - own total) / 10``."""
    totals = view["table"]["totals"]
    others = [t for s, t in enumerate(totals) if s != seat]
    return (sum(others) / len(others) - totals[seat]) / 10


def tonk_standing(view: dict[str, Any], seat: int) -> float:
    """The seat's balance, in stakes."""
    return view["table"]["balances"][seat] / view["table"]["stake"]


def drive_aec(
    game: str,
    n: int,
    seed: int,
    names: Callable[[int], str] | None,
    standing: Callable[[dict[str, Any], int], float] | None,
    **kwargs: Any,
) -> dict[str, Any]:
    """Random masked play in the AEC environment: after each step, the action recorded is
    the one the documented index names, and each agent's summed rewards equal its
    documented standing read from its own view."""
    env = rl.aec_env(game, n, **kwargs)
    env.reset(seed=seed)
    rng = random.Random(seed)
    summed = dict.fromkeys(env.possible_agents, 0.0)
    report: dict[str, Any] = {"steps": 0, "paid": 0, "bad": []}
    for agent in env.agent_iter(max_iter=3000):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        match_game = env.match.game
        choice = int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        seat = env.possible_agents.index(agent)
        legal = [str(a) for a in match_game.legal_actions(seat)]
        before = len(match_game.record_entries())
        env.step(choice)
        report["steps"] += 1
        entry = match_game.record_entries()[before]
        want = names(choice) if names else legal[choice]
        if (entry[0], entry[1].notation()) != (seat, want):
            report["bad"].append(("applied", choice, want, entry[0], entry[1].notation()))
        for other in env.agents:
            summed[other] += env.rewards[other]
            report["paid"] += env.rewards[other] != 0
        if standing is not None:
            for other in env.possible_agents:
                s = env.possible_agents.index(other)
                want_total = standing(match_game.view(s), s)
                if abs(summed[other] - want_total) > 1e-6:
                    report["bad"].append(
                        ("reward", match_game.version, s, summed[other], want_total)
                    )
        if len(report["bad"]) > 3:
            break
    report["game"] = env.match.game
    report["summed"] = summed
    return report


@pytest.mark.parametrize(
    ("layout", "n", "rules"),
    [
        (6, 2, ()),
        (9, 3, ("golf.jokers",)),
        (4, 4, ("golf.ender-penalty-10",)),
        ("4h", 3, ("golf.hard",)),
    ],
)
def test_golf_score_reward_and_stepping_follow_the_docs(
    layout: Any, n: int, rules: tuple[str, ...]
) -> None:
    """``rewards="score"``: after every step each agent's summed reward is its
    ``(mean of the others' totals - own total) / 10`` from its view, so it pays as rounds
    end; and stepping index i applies the action the documented scheme names."""
    names = golf_names(GOLF_SIZES[layout])
    report = drive_aec(
        "golf",
        n,
        5,
        names.__getitem__,
        golf_standing,
        rules=rules,
        options={"layout": layout, "rounds": 3},
        rewards="score",
    )
    assert report["bad"] == []
    assert report["game"].is_over and report["paid"] > 0
    assert sum(report["summed"].values()) == pytest.approx(0.0)


def test_golf_action_names_are_the_documented_indices() -> None:
    for layout, size in GOLF_SIZES.items():
        env = rl.aec_env("golf", 2, options={"layout": layout})
        assert list(env.config.observer.names) == golf_names(size)


@pytest.mark.parametrize("n", [2, 3])
def test_tonk_score_reward_and_stepping_follow_the_docs(n: int) -> None:
    """``rewards="score"`` pays each seat the change in its balance, in stakes: the sum
    of its rewards is its balance over the stake at every step."""
    bad, paid = [], 0
    for seed in range(4):
        report = drive_aec(
            "tonk",
            n,
            seed,
            lambda i: NAMES_TONK[i],
            tonk_standing,
            options={"hands": 3, "stake": 2},
            rewards="score",
        )
        bad += report["bad"]
        paid += report["paid"]
    assert bad == []
    assert paid > 0


NAMES_TONK = list(rl.aec_env("tonk", 2).config.observer.names)


def test_generic_index_i_is_the_ith_legal_action() -> None:
    """Go Fish: "index i is the i-th legal action in the game's documented order"."""
    for seed in range(2):
        report = drive_aec("gofish", 3, seed, None, None)
        assert report["bad"] == []
        assert report["steps"] > 10


def speed_win_game(seed: int) -> tuple[dict[str, float], Any]:
    """A real-time game in the AEC environment, random masked decisions."""
    env = rl.aec_env("speed", 2)
    env.reset(seed=seed)
    summed = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(seed)
    for _ in env.agent_iter(max_iter=5000):
        obs, _, term, trunc, _ = env.last()
        done = term or trunc
        env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
        for a in env.agents:
            summed[a] += env.rewards[a]
    return summed, env.match.game


@pytest.mark.parametrize("game", ["golf", "tonk", "speed"])
def test_win_rewards_pay_the_documented_formula(game: str) -> None:
    """``rewards="win"``: +1 to each winner, the losers share the winners' total; no
    winner or every seat a winner pays 0."""
    n = 2 if game == "speed" else 3
    for seed in range(3):
        if game == "speed":
            summed, final = speed_win_game(seed)
        else:
            names = golf_names(6) if game == "golf" else NAMES_TONK
            options = {"rounds": 1} if game == "golf" else {"hands": 1}
            report = drive_aec(game, n, seed, names.__getitem__, None, options=options)
            assert report["bad"] == []
            summed, final = report["summed"], report["game"]
        assert final.is_over
        winners = list(final.result.winners)
        w = len(winners)
        want = [0.0 if w in (0, n) else 1.0 if s in winners else -w / (n - w) for s in range(n)]
        assert [summed[f"player_{s}"] for s in range(n)] == pytest.approx(want)


# --------------------------------------------------------------------------- hidden cards, other envs


@pytest.mark.parametrize(
    ("name", "n", "options"),
    [
        ("golf", 3, {"layout": 4, "rounds": 1}),
        ("golf", 2, {"layout": "4h", "rounds": 3}),
        ("tonk", 3, {"hands": 4}),
        ("spit", 2, {}),
        ("speed", 2, {"jokers": 2}),
    ],
)
def test_no_observation_tells_a_determinized_twin_apart(
    name: str, n: int, options: dict[str, Any]
) -> None:
    """ "Two states a seat cannot tell apart give it identical observations and masks":
    every few steps, each seat's observation and mask equal those of
    ``game.determinize(seat)`` (every card it cannot see dealt anew)."""
    game = cardcore.new_game(name, n, options=options, seed=11)
    rng = random.Random(11)
    checked = 0
    for step in range(200):
        if step % 3 == 0:
            for seat in range(n):
                twin = game.determinize(seat, seed=step)
                mine, theirs = rl.observe(game, seat), rl.observe(twin, seat)
                assert np.array_equal(mine["observation"], theirs["observation"])
                assert np.array_equal(mine["action_mask"], theirs["action_mask"])
                checked += 1
        movers = [s for s in range(n) if game.legal_actions(s)]
        if game.is_over or not movers:
            break
        game.apply(rng.choice(game.legal_actions(rng.choice(movers))))
    assert checked >= n * 3


def test_batched_env_rows_decode_to_the_learners_views() -> None:
    """``vector_env``: ``observation`` is ``(num_envs, size)`` float32 and ``action_mask``
    ``(num_envs, actions)`` int8; row i decodes (Golf layout) to seat 0's view of
    ``envs.runners[i].match.game``."""
    envs = rl.vector_env("golf", 3, 2, options={"rounds": 1})
    obs, _ = envs.reset(seed=4)
    rng = random.Random(4)
    for _ in range(30):
        assert obs["observation"].shape == (
            3,
            2 * 6 * 16 + 15 + 16 + 4 + 3 + 3 + 12 + 2 + 2 + 1 + 1 + 2,
        )
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        for i, runner in enumerate(envs.runners):
            game = runner.match.game
            got = golf_decode(obs["observation"][i], 2, 6)
            want = golf_expected(game.view(0), 0, ())
            assert {k for k, v in want.items() if not close(v, got[k])} == set()
            legal = sorted(golf_names(6).index(str(a)) for a in game.legal_actions(0))
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == legal
        actions = [int(rng.choice(np.flatnonzero(m).tolist())) for m in obs["action_mask"]]
        obs, *_ = envs.step(actions)
    envs.close()


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_wait_adds_one_last_index_and_leaves_the_observation(game: str) -> None:
    """``wait=True``: the same observation, the mask one index longer, that index set
    whenever another is (rl.rst, Waiting)."""
    plain, waiting = rl.aec_env(game, 2), rl.aec_env(game, 2, wait=True)
    plain.reset(seed=2)
    waiting.reset(seed=2)
    size = plain.action_space("player_0").n
    assert waiting.action_space("player_0").n == size + 1 == waiting.config.observer.wait + 1
    rng = random.Random(2)
    for _ in range(60):
        a, b = plain.last()[0], waiting.last()[0]
        assert plain.agent_selection == waiting.agent_selection
        assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(a["action_mask"], b["action_mask"][:size])
        assert b["action_mask"][size] == int(a["action_mask"].any())
        if plain.terminations[plain.agent_selection] or plain.truncations[plain.agent_selection]:
            break
        choice = int(rng.choice(np.flatnonzero(a["action_mask"]).tolist()))
        plain.step(choice)
        waiting.step(choice)


def documented_sizes(name: str, n: int, layout: Any = 6) -> tuple[int, int, int]:
    """(count block, scalars, actions) as the docstrings lay them out."""
    if name == "golf":
        s = GOLF_SIZES[layout]
        return n * s * 16 + 15 + 16 + 4 + 2 * (n + 1), n * s + 2 + 2 + 1 + 1 + n, 4 + 3 * s
    if name == "tonk":
        return 52 + 53 + 53 + 17 * 52 + 17 * n + 4 + 2 * n, 2 + n + 1 + n + 1, 1157
    if name == "spit":
        return 2 * 5 * 14 + 2 * 14 + 4 + 3 + 2, 2 * 5 * 2 + 2 * 4 + 2 + 1 + 1 + 1, 64
    if name == "speed":
        return 53 + 14 + 2 * (53 + 14) + 2, 2 * 4 + 2, 107
    zones = 1 + 2 * n  # Go Fish: the stock, and each seat's hand and books
    return zones * 2 * 52, zones * 2 + 1 + n + 2, 65


SIZE_CASES = [("golf", n, lay) for lay in GOLF_SIZES for n in (2, 4)]
SIZE_CASES += [("tonk", 2, None), ("tonk", 3, None), ("spit", 2, None), ("speed", 2, None)]
SIZE_CASES += [("gofish", 2, None), ("gofish", 5, None)]


@pytest.mark.parametrize(("name", "n", "layout"), SIZE_CASES)
def test_encoding_sizes_are_the_documented_block_sizes(name: str, n: int, layout: Any) -> None:
    """``Encoding.planes`` ("the length of the count block"), ``scalars`` and ``actions``
    equal the sizes the docstrings add up to, and so do the environment's spaces."""
    options = {"layout": layout} if layout is not None else None
    game = cardcore.new_game(name, n, options=options, seed=0)
    encoding = rl.encoding_for(game)
    planes, scalars, actions = documented_sizes(name, n, layout)
    assert (encoding.planes, encoding.scalars, encoding.actions) == (planes, scalars, actions)
    env = rl.aec_env(name, n, options=options)
    space = env.observation_space("player_0")
    assert space["observation"].shape == (planes + scalars,)
    assert space["action_mask"].shape == (actions,) == (env.action_space("player_0").n,)


def test_a_first_deal_natural_is_paid_with_the_first_reward() -> None:
    """rl.rst: "what the deal itself settles before anyone acts (a Tonk natural on the
    first deal of a session) is paid with each seat's first reward". Seed 150 is one
    whose first deal settles (checked here); the summed rewards then equal the
    balances from the first step on."""
    options = {"hands": 3, "stake": 2}
    assert any(cardcore.new_game("tonk", 2, options=options, seed=150).view(0)["table"]["balances"])
    report = drive_aec(
        "tonk", 2, 150, NAMES_TONK.__getitem__, tonk_standing, options=options, rewards="score"
    )
    assert report["bad"] == []


def test_single_seat_env_observes_its_own_relative_seat() -> None:
    """``gym_env(seat=1)``: the learner's observation decodes to seat 1's view, seat 1
    first (relative), and its mask to seat 1's legal actions."""
    env = rl.gym_env("tonk", 3, seat=1, options={"hands": 2})
    obs, _ = env.reset(seed=9)
    rng = random.Random(9)
    for _ in range(40):
        game = env.runner.match.game
        got = tonk_decode(obs["observation"], 3)
        want = tonk_expected(game.view(1), 1)
        assert {k for k, v in want.items() if not close(v, got[k])} == set()
        legal = sorted(tonk_index(str(a)) for a in game.legal_actions(1))
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        obs, _, term, trunc, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        )
        if term or trunc:
            obs, _ = env.reset()


def test_reset_with_a_seed_plays_that_seeds_game() -> None:
    """rl.rst: "``reset(seed=s)`` plays the game of seed *s*"."""
    for name, n, options in [
        ("golf", 3, {"rounds": 1}),
        ("tonk", 2, {"hands": 2}),
        ("speed", 2, {}),
    ]:
        env = rl.aec_env(name, n, options=options)
        env.reset(seed=7)
        fresh = cardcore.new_game(name, n, options=options, seed=7)
        assert env.match.game.view(None) == fresh.view(None)


@pytest.mark.parametrize(
    ("name", "n", "options"),
    [("golf", 3, {"layout": 4, "rounds": 1}), ("tonk", 3, {"hands": 2}), ("spit", 2, {})],
)
def test_observer_arrays_give_the_legal_actions_by_their_named_index(
    name: str, n: int, options: dict[str, Any]
) -> None:
    """``Observer.arrays``: "fresh observation and mask arrays for *seat*, and the legal
    actions by index": the indices are the mask's, each action is named by its index's
    name (its notation), and every legal action is there."""
    game = cardcore.new_game(name, n, options=options, seed=2)
    observer = rl.Observer(rl.encoding_for(game))
    rng = random.Random(2)
    for _ in range(120):
        for seat in range(n):
            legal = game.legal_actions(seat)
            _, mask, by_index = observer.arrays(game, seat, legal)
            assert sorted(by_index) == [int(i) for i in np.flatnonzero(mask)]
            assert all(observer.names[i] == str(a) for i, a in by_index.items())
            assert sorted(map(str, by_index.values())) == sorted(map(str, legal))
        movers = [s for s in range(n) if game.legal_actions(s)]
        if game.is_over or not movers:
            break
        game.apply(rng.choice(game.legal_actions(rng.choice(movers))))


def test_golf_and_tonk_encodings_say_progress_by_round() -> None:
    """The Encoding docstring: "Golf and Tonk do" declare ``progress_by_round = True``."""
    for name in ("golf", "tonk"):
        encoding = rl.encoding_for(cardcore.new_game(name, 2, seed=0))
        assert getattr(type(encoding), "progress_by_round", False) is True
