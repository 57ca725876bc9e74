"""A long run of hostile inputs through the public API, counted.

``python -m tests.hardening.long_fuzz SECONDS [SEED]`` plays seeded random games of every
built-in game and, between actions, sends hostile calls: action text with non-ASCII
digits and noise, seats of every type, non-finite and non-numeric times, hostile ``seen``
values (through ``apply`` and ``act``), subscriptions for bad seats, subscribers that
raise, and records/saves mutated with deep, huge, non-finite and mistyped JSON, with action
text rewritten in non-ASCII digits, or with options, rules or players edited in one place.
Every call must either succeed as documented or raise a :class:`cardcore.CardcoreError`
subclass and change nothing; an action whose subscriber raises must still be applied and
reach the other subscribers; a save edited in one place must be refused. Prints inputs
tried, rejected cleanly, accepted (legitimately), raw escapes, changed-on-rejection,
tampered-loaded and lost-event counts, and the games played; exits 1 on any finding.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import sys
import time
from collections import Counter
from typing import Any

import cardcore
from cardcore import CardcoreError, Event
from cardcore.testing._util import fingerprint

GAMES = ("golf", "tonk", "spit", "speed")
DIGITS = "0123456789\u00b2\u00b3\u00b9\u0660\u0663\u06f5\u0966\u096a\u2460\u2464\u2789\uff10\uff15\U0001d7d0"
VERBS = ["flip", "replace", "take", "discard", "draw", "play", "fill", "combine", "spit",
         "ready", "stuck", "knock", "drop", "spread", "hit", "resign", "end", "slap", ""]


def _text(rng: random.Random, legal: list[str]) -> str:
    roll = rng.random()
    if legal and roll < 0.4:
        base = rng.choice(legal)
        return "".join(rng.choice(DIGITS) if c.isdigit() else c for c in base)
    if roll < 0.7:
        return f"{rng.choice(VERBS)} {''.join(rng.choice(DIGITS) for _ in range(rng.randrange(1, 4)))}"
    alphabet = "abcdefghijklmnopqrstuvwxyz HSDCJKQAL R-½٣\u200b\x00"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))


def _seat(rng: random.Random) -> Any:
    return rng.choice(
        [-1, 2, 3, 64, 10**100, 10**5000, -(10**30), "0", "1", 0.0, 1.0, True, False, None,
         [0], (1,), b"0", float("nan")]
    )


def _time(rng: random.Random) -> Any:
    return rng.choice(
        [float("nan"), float("inf"), -float("inf"), "12:00", True, 10**400, 1e16, -1e300, [1.0],
         b"1", 10**5000, complex(1, 1)]
    )


def _seen(rng: random.Random, version: int) -> Any:
    return rng.choice(
        [version + 1, version + rng.randrange(2, 10**6), -1, -(10**40), 10**5000, version - 65,
         version - rng.randrange(0, 64), "1", 1.5, True, float("nan"), None]
    )


def _json(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice(
            [None, True, 0, -1, 2**129, 10**5000 if rng.random() < 0.1 else 7, float("nan"),
             float("inf"), 1e308, "", "x" * rng.randrange(0, 50), "AS", "flip 0"]
        )
    if roll < 0.55:
        deep: Any = []
        for _ in range(rng.choice([10, 40, 2000, 100_000])):
            deep = [deep]
        return deep
    if roll < 0.8:
        return [_json(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(["a", "seed", "0", ""]): _json(rng, depth + 1) for _ in range(rng.randrange(0, 3))}


def _mutated(rng: random.Random, data: dict[str, Any]) -> Any:
    out = json.loads(json.dumps(data))
    if rng.random() < 0.1:  # cut text
        return json.dumps(out)[: rng.randrange(1, 400)]
    target = out["record"] if "record" in out and rng.random() < 0.7 else out
    key = rng.choice([*target.keys(), "extra"])
    target[key] = _json(rng)
    return out


FINDINGS = ("raw", "changed on rejection", "tampered loaded", "lost on raise")
"""The counters that are findings (the run exits 1 if any is not zero)."""


def _digits(rng: random.Random, text: str) -> str:
    """*text* with its ASCII digits replaced by other Unicode digits (some ASCII ones stay)."""
    return "".join(rng.choice(DIGITS[10:]) if c.isdigit() else c for c in text)


def run(seconds: float, seed: int = 0) -> Counter[str]:
    counts: Counter[str] = Counter()
    rng = random.Random(seed)
    logging.getLogger("cardcore.events").addHandler(logging.NullHandler())  # failures are expected
    logging.getLogger("cardcore.events").propagate = False
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        name = rng.choice(GAMES)
        game = cardcore.new_game(name, 2, seed=rng.getrandbits(40))
        counts["games"] += 1
        steps = 0
        while not game.is_over and steps < 400 and time.monotonic() < stop:
            steps += 1
            for _ in range(rng.randrange(1, 4)):
                _probe(rng, game, counts)
            seat = rng.choice(game.to_act)
            legal = game.legal_actions(seat)
            if legal:
                game.apply(rng.choice(legal))
                counts["actions"] += 1
        if time.monotonic() < stop:
            for _ in range(3):
                _probe_data(rng, game, counts)
            _probe_tamper(rng, game, counts)
    return counts


def _call(counts: Counter[str], game: cardcore.Game, kind: str, call: Any, read: bool = False) -> None:
    before = fingerprint(game)
    counts["tried"] += 1
    counts[f"tried {kind}"] += 1
    try:
        call()
    except CardcoreError:
        counts["rejected"] += 1
        if fingerprint(game) != before:
            counts["changed on rejection"] += 1
            print(f"changed on rejection: {kind}", file=sys.stderr)
        return
    except Exception as exc:
        counts["raw"] += 1
        print(f"RAW {kind}: {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
        return
    counts["accepted"] += 1
    if read and fingerprint(game) != before:
        counts["changed on rejection"] += 1


def _probe(rng: random.Random, game: cardcore.Game, counts: Counter[str]) -> None:
    seat = rng.choice(game.to_act) if game.to_act else 0
    legal = [str(a) for a in game.legal_actions(seat)]
    roll = rng.random()
    probe = game.clone()
    if roll < 0.35:
        text = _text(rng, legal)
        _call(counts, probe, "text", lambda: probe.act(seat, text))
    elif roll < 0.55:
        bad = _seat(rng)
        what = rng.choice(["view", "legal_actions", "history", "act", "subscribe", "determinize"])
        calls = {
            "view": lambda: probe.view(bad),
            "legal_actions": lambda: probe.legal_actions(bad),
            "history": lambda: probe.history(bad),
            "act": lambda: probe.act(bad, rng.choice(legal) if legal else "resign"),
            "subscribe": lambda: probe.events.subscribe(Event, lambda e: None, seat=bad),
            "determinize": lambda: probe.determinize(bad, 1),
        }
        _call(counts, probe, "seat", calls[what], read=what != "act")
    elif roll < 0.7 and legal:
        at = _time(rng)
        _call(counts, probe, "time", lambda: probe.act(seat, rng.choice(legal), at=at))
    elif roll < 0.8 and legal:
        _probe_subscriber(rng, probe, seat, counts)
    elif game.version:
        entries = probe.record_entries()
        action = rng.choice(entries)[1]
        seen = _seen(rng, probe.version)
        if rng.random() < 0.5:
            _call(counts, probe, "seen", lambda: probe.apply(action, seen=seen))
        else:
            _call(counts, probe, "seen", lambda: probe.act(action.seat, str(action), seen=seen))


def _raise(event: Event) -> None:
    """A forwarder whose connection dropped."""
    raise ConnectionResetError(f"peer went away at {type(event).__name__}")


def _probe_subscriber(
    rng: random.Random, game: cardcore.Game, seat: int, counts: Counter[str]
) -> None:
    """A subscriber that raises: the action is applied all the same and the others get it."""
    failures: list[object] = []
    with contextlib.suppress(AttributeError):  # the code before the fix had no on_error
        game.events.on_error = failures.append
    got: list[Event] = []
    first = rng.random() < 0.5
    if first:
        game.events.subscribe(Event, _raise, seat=rng.choice([None, seat]))
    game.events.subscribe(Event, got.append)
    if not first:
        game.events.subscribe(Event, _raise, seat=rng.choice([None, seat]))
    action = rng.choice(game.legal_actions(seat))
    version = game.version
    counts["tried"] += 1
    counts["tried subscriber"] += 1
    try:
        game.apply(action)
    except Exception as exc:
        counts["raw" if not isinstance(exc, CardcoreError) else "lost on raise"] += 1
        print(f"subscriber: apply raised {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
        return
    counts["accepted"] += 1
    if game.version != version + 1 or not any(isinstance(e, cardcore.ActionApplied) for e in got):
        counts["lost on raise"] += 1
        print(f"subscriber: {action} not applied or not delivered to the others", file=sys.stderr)


def _probe_data(rng: random.Random, game: cardcore.Game, counts: Counter[str]) -> None:
    if rng.random() < 0.2 and game.version:  # action text in non-ASCII digits, inside a save
        data = json.loads(json.dumps(game.save() if rng.random() < 0.5 else {"record": game.record()}))
        actions = data["record"]["actions"]
        k = rng.randrange(len(actions))
        text = actions[k][1]
        if not any(c.isdigit() for c in text):
            return
        actions[k][1] = _digits(rng, text)
        if "state" in data:
            _call(counts, game, "save digits", lambda: cardcore.load(data))
        else:
            _call(counts, game, "record digits", lambda: cardcore.replay(data["record"]))
        return
    if rng.random() < 0.5:
        data = _mutated(rng, game.save())
        _call(counts, game, "save", lambda: cardcore.load(data))
    else:
        wrapped = _mutated(rng, {"record": game.record()})
        data = wrapped["record"] if isinstance(wrapped, dict) else wrapped
        _call(counts, game, "record", lambda: cardcore.replay(data))


def _probe_tamper(rng: random.Random, game: cardcore.Game, counts: Counter[str]) -> None:
    """A save with its options, rules or players edited in the record only must be refused."""
    save = json.loads(json.dumps(game.save()))
    record = save["record"]
    what = rng.choice(["option", "players", "rules"])
    if what == "option":
        ints = [o for o in game.ruleset.game.options if o.kind is int and o.maximum is not None]
        if not ints:
            return
        option = rng.choice(ints)
        now = record["options"].get(option.name, option.default)
        near = () if not isinstance(now, int) else (now + 1, now - 1)
        values = [v for v in (option.minimum, option.maximum, *near) if v != now]
        values = [v for v in values if option.minimum <= v <= option.maximum]  # type: ignore[operator]
        if not values:
            return
        record["options"][option.name] = rng.choice(values)
    elif what == "players":
        if record["players"][0] == record["players"][1]:
            return
        record["players"].reverse()
    else:
        names = [n for n in cardcore.available_rules(game.name) if n not in {r["name"] for r in record["rules"]}]
        if not names:
            return
        info = cardcore.rule_info(rng.choice(names))
        record["rules"].append({"name": info.name, "id": info.id, "version": info.version})
    counts["tried"] += 1
    counts["tried tamper"] += 1
    try:
        cardcore.load(save)
    except CardcoreError:
        counts["rejected"] += 1
        return
    except Exception as exc:
        counts["raw"] += 1
        print(f"RAW tamper {what}: {type(exc).__name__}: {str(exc)[:200]}", file=sys.stderr)
        return
    counts["tampered loaded"] += 1
    print(f"tampered save loaded: {what} edited in {game.name}", file=sys.stderr)


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
    started = time.monotonic()
    result = run(seconds, int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    for key in sorted(result):
        print(f"{key:24} {result[key]:>10}")
    print(f"{time.monotonic() - started:.0f} s")
    for key in FINDINGS:
        if key not in result:
            print(f"{key:24} {0:>10}")
    sys.exit(1 if any(result[key] for key in FINDINGS) else 0)
