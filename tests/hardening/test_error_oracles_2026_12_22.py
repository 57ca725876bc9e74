"""Refusals as oracles on hidden information (review of 2026-12-22).

Earlier reviews checked that no refusal *names* a card its seat has not seen. This module
checks that nothing observable about a refused or accepted action depends on hidden
cards (CORE-HIDDEN-1; docs/security.rst "It sees only what its seat may know"): for a
seat *s* two positions that look the same to *s* (same ``game.view(s)``) but differ in
cards hidden from *s* must answer every action text *s* may send alike: applied or
refused, the error class, ``rule_id``, message, ``action``, ``args``, chained cause and
context; with any ``seen`` (real-time StaleActionError against IllegalActionError); and,
through :class:`cardcore.session.Session`, the ``error`` message (code, message, rule,
version) sent to the seat, including the turn-based ``stale`` guard on legal actions.
``legal_actions``, ``view()['legal']`` and the RL observation and action mask must be
alike too (Go Fish asks depend only on the asker's own hand, GOFISH-ASK-1; what an ask
reveals is GOFISH-KNOW-1 and shows in both worlds' views alike).

Twins are built two ways, both deterministic: :meth:`cardcore.Game.determinize` (hidden
cards re-dealt from a fixed seed) and position text in which two cards hidden from *s*
swap places (``new_game(..., position=...)``), kept only when ``view(s)`` is equal. Every
test passed when written: no oracle was found.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, Game
from cardcore.rl import observe
from cardcore.session import Session

CARDS = [str(c) for c in cardcore.standard_52()]
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
TOKEN = re.compile(r"^((?:10|[2-9AJQK])[SHDC]|JK)(.*)$")

Config = tuple[str, int, dict[str, Any], tuple[str, ...]]

CONFIGS: list[Config] = [
    ("golf", 2, {"layout": 6, "rounds": 2}, ()),
    ("golf", 3, {"layout": 9, "rounds": 1}, ("golf.remove-triples",)),
    ("golf", 2, {"layout": "4", "rounds": 2}, ()),
    ("golf", 3, {"layout": "4", "rounds": 1}, ("golf.peek-nearest",)),
    ("golf", 2, {"layout": "4", "rounds": 1}, ("golf.knock-final-stock-only", "golf.jokers")),
    ("golf", 2, {"layout": "4h", "rounds": 2}, ()),
    ("golf", 2, {"layout": 6, "rounds": 1}, ("golf.final-stock-only", "golf.remove-columns")),
    ("tonk", 3, {"hands": 2}, ()),
    ("tonk", 3, {"hands": 2}, ("tonk.no-upcard", "tonk.hit-blocks-drop", "tonk.must-lay-down")),
    ("tonk", 3, {"hands": 2}, ("tonk.deal-shows-every-hand", "tonk.stock-out-discard-only")),
    ("speed", 2, {}, ()),
    ("speed", 2, {}, ("speed.stuck-on-request",)),
    ("spit", 2, {}, ()),
    ("spit", 2, {}, ("spit.canfield",)),
    ("gofish", 3, {}, ()),
    ("gofish", 4, {}, ()),
]
IDS = [f"{n}{p}-{o.get('layout', '')}-{'+'.join(r)}" for n, p, o, r in CONFIGS]


def probes(name: str, worlds: list[Game]) -> list[str]:
    """Every legal text of any seat in any world, and each verb template with every card."""
    texts = {str(a) for w in worlds for s in range(len(w.players)) for a in w.legal_actions(s)}
    if name == "tonk":
        for card in CARDS:
            texts |= {f"discard {card}", f"hit 0 {card}", f"hit 1 {card}", f"hit 2 {card}"}
            book = [c for c in CARDS if c[:-1] == card[:-1] and c != card][:2]
            texts.add(" ".join(["spread", card, *book]))
        texts |= {"draw", "take", "drop", "discard", "hit", "spread"}
    elif name == "speed":
        texts |= {f"play {c} {p}" for c in [*CARDS, "JK"] for p in "LR"} | {"stuck"}
    elif name == "spit":
        texts |= {"spit", "ready", "slap L", "slap R", "choose L", "choose R"}
        for i in range(7):
            texts |= {f"play {i} L", f"play {i} R"}
            texts |= {f"{v} {i} {j}" for v in ("combine", "fill") for j in range(7)}
    elif name == "golf":
        texts |= {f"{v} {i}" for v in ("flip", "peek", "replace") for i in range(11)}
        texts |= {"take", "draw", "discard", "knock"}
    elif name == "gofish":
        texts |= {f"ask {t} {r}" for t in range(5) for r in RANKS}
    return sorted(texts)


def outcome(game: Game, seat: int, text: str, seen: int | None = None) -> tuple[Any, ...]:
    """What *seat* can observe of ``act``: applied, or every part of the error."""
    try:
        game.act(seat, text, seen=seen)
    except CardcoreError as exc:
        return (
            type(exc).__name__,
            exc.rule_id,
            str(exc),
            repr(getattr(exc, "action", None)),
            repr(exc.args),
            repr(exc.__cause__),
            repr(exc.__context__),
            tuple(sorted(vars(exc))),
        )
    return ("applied",)


def knowledge(game: Game, seat: int) -> tuple[Any, ...]:
    obs = observe(game, seat)
    return (
        game.view(seat),
        [str(a) for a in game.legal_actions(seat)],
        {k: v.tolist() for k, v in obs.items()},
    )


def play_random(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        if game.is_over or not legal:
            return
        game.apply(rng.choice(legal))


def swapped_twin(
    config: Config, game: Game, seat: int, rng: random.Random
) -> tuple[Game, Game] | None:
    """Two games from *game*'s position, the second with two cards hidden from *seat* swapped."""
    name, players, options, rules = config
    text = game.position()
    words = text.split(" ")
    slots = [
        i
        for i, w in enumerate(words)
        if TOKEN.match(w) and not TOKEN.match(w).group(2).startswith("!")
    ]
    section = [" ".join(words[:i]).count("|") for i in range(len(words))]
    for attempt in range(400):
        i, j = rng.sample(slots, 2)
        a, b = TOKEN.match(words[i]), TOKEN.match(words[j])
        assert a is not None and b is not None
        if a.group(1) == b.group(1) or (attempt < 300 and section[i] == section[j]):
            continue  # a card moved from one pile to another first
        other = list(words)
        other[i], other[j] = b.group(1) + a.group(2), a.group(1) + b.group(2)
        try:
            twins = tuple(
                cardcore.new_game(name, players, options=options, rules=rules, position=p, seed=5)
                for p in (text, " ".join(other))
            )
        except CardcoreError:
            continue
        if (
            twins[0].view(seat) == twins[1].view(seat)
            and twins[0].position() != twins[1].position()
        ):
            return twins[0], twins[1]
    return None


def play_alike(first: Game, second: Game, seat: int, rng: random.Random, steps: int) -> None:
    """Play actions legal in both that keep *seat*'s views equal (a seat's own draw may not)."""
    for _ in range(steps):
        if first.is_over:
            return
        legal = sorted(
            {(str(a), a.seat) for s in first.to_act for a in first.legal_actions(s)}
            & {(str(a), a.seat) for s in second.to_act for a in second.legal_actions(s)}
        )
        rng.shuffle(legal)
        for text, who in legal:
            a, b = first.clone(), second.clone()
            a.act(who, text)
            b.act(who, text)
            if a.view(seat) == b.view(seat):
                first.act(who, text)
                second.act(who, text)
                break
        else:
            return


# -- 1. determinized twins: refusals, legal actions, views and RL alike ------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_probe_is_answered_alike_in_determinized_twins(config: Config) -> None:
    name, players, options, rules = config
    game = cardcore.new_game(name, players, seed=21, options=options, rules=rules)
    rng = random.Random(21)
    differ: list[Any] = []
    checked = 0
    for step in range(90):
        if game.is_over:
            break
        if step % 9 == 0:
            for seat in range(players):
                worlds = [game, *(game.determinize(seat, 1000 * step + k) for k in range(2))]
                mine = knowledge(game, seat)
                for world in worlds[1:]:
                    if knowledge(world, seat) != mine:
                        differ.append(("knowledge", game.version, seat))
                for text in probes(name, worlds):
                    said = {outcome(w.clone(), seat, text) for w in worlds}
                    checked += 1
                    if len(said) > 1:
                        differ.append((game.version, seat, text, sorted(map(repr, said))))
        play_random(game, rng, 1)
    assert checked > 100
    assert differ == []


# -- 2. swapped-card twins with every seen: stale or illegal alike -----------------------------


@pytest.mark.parametrize(
    "config",
    [c for c in CONFIGS if c[0] in ("speed", "spit")] + [CONFIGS[2], CONFIGS[7], CONFIGS[14]],
    ids=lambda c: f"{c[0]}-{'+'.join(c[3])}",
)
def test_a_seen_is_judged_alike_when_only_hidden_cards_differ(config: Config) -> None:
    """Real time: a StaleActionError (legal at seen) or an IllegalActionError must not tell
    where a hidden card lies; turn-based games take seen alike too."""
    name, players, options, rules = config
    rng = random.Random(4)
    game = cardcore.new_game(name, players, seed=4, options=options, rules=rules)
    play_random(game, rng, 12)
    differ: list[Any] = []
    pairs = 0
    for seat in range(players):
        twins = swapped_twin(config, game, seat, rng)
        if twins is None:
            continue
        first, second = twins
        play_alike(first, second, seat, rng, 10)
        assert knowledge(first, seat) == knowledge(second, seat)
        pairs += 1
        for text in probes(name, [first, second]):
            for back in (None, 1, 2, 3, 6):
                seen = None if back is None else first.version - back
                one = outcome(first.clone(), seat, text, seen)
                two = outcome(second.clone(), seat, text, seen)
                if one != two:
                    differ.append((seat, first.version, back, text, one[:3], two[:3]))
    assert pairs >= 1
    assert differ == []


# -- 3. the session layer: error messages and the stale guard --------------------------------


def _session(config: Config, position: str, entries: list[tuple[int, str]]) -> Session:
    name, players, options, rules = config
    session = Session.create(
        name,
        [f"P{i}" for i in range(players)],
        now=0.0,
        options=options,
        rules=rules,
        position=position,
        seed=5,
        session_id="oracle",
    )
    for seat in range(players):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=1.0 + seat)
    now = 10.0
    for who, text in entries:
        now += 1.0
        assert session.game is not None
        message = {"type": "act", "action": text, "seen": session.game.version}
        session.handle(f"c{who}", json.dumps(message), now=now)
    return session


def _send(session: Session, seat: int, text: str, seen: int | None) -> tuple[Any, ...]:
    message: dict[str, Any] = {"type": "act", "action": text, "id": 7}
    if seen is not None:
        message["seen"] = seen
    out = session.handle(f"c{seat}", json.dumps(message), now=100.0)
    errors = [o.message for o in out if o.conn == f"c{seat}" and o.message.get("type") == "error"]
    if errors:
        return ("error", *(json.dumps(e, sort_keys=True) for e in errors))
    return ("sent", len(out))


SESSION_CONFIGS = [CONFIGS[0], CONFIGS[2], CONFIGS[7], CONFIGS[10], CONFIGS[12], CONFIGS[14]]


@pytest.mark.parametrize(
    "config", SESSION_CONFIGS, ids=lambda c: f"{c[0]}-{c[2].get('layout', '')}"
)
def test_a_session_sends_the_same_refusal_whatever_the_hidden_cards(config: Config) -> None:
    """Every refused probe, with no seen, the current one, older ones, one outside the window
    and one ahead: the error message (code, message, rule, version, id) is the same."""
    name, players = config[0], config[1]
    rng = random.Random(8)
    game = cardcore.new_game(name, players, seed=8, options=config[2], rules=config[3])
    play_random(game, rng, 10)
    differ: list[Any] = []
    sent = 0
    for seat in range(players):
        twins = swapped_twin(config, game, seat, rng)
        if twins is None:
            continue
        first, second = twins
        positions = (first.position(), second.position())
        play_alike(first, second, seat, rng, 6)
        entries = [(a.seat, str(a)) for _, a, _ in first.record_entries()]
        sessions = [_session(config, p, entries) for p in positions]
        games = [s.game for s in sessions]
        assert games[0] is not None and games[1] is not None
        assert knowledge(games[0], seat) == knowledge(games[1], seat)
        version = games[0].version
        for text in probes(name, [games[0], games[1]]):
            for back in (None, 0, 1, 3, 70, -1):
                seen = None if back is None else version - back
                if any(outcome(g.clone(), seat, text, seen) == ("applied",) for g in games):
                    continue  # accepted: the session would move on (checked in the next test)
                said = [_send(s, seat, text, seen) for s in sessions]
                sent += 1
                if said[0] != said[1]:
                    differ.append((seat, version, back, text, said))
    assert sent > 50
    assert differ == []


@pytest.mark.parametrize(
    "config", [CONFIGS[2], CONFIGS[14], CONFIGS[10]], ids=["golf4", "gofish", "speed"]
)
def test_the_session_stale_guard_answers_a_legal_action_alike(config: Config) -> None:
    """A legal action sent with an older seen is played or refused as stale alike: the guard
    ("the last change that could alter its choice") reads only what the seat sees."""
    name, players = config[0], config[1]
    rng = random.Random(3)
    game = cardcore.new_game(name, players, seed=3, options=config[2], rules=config[3])
    play_random(game, rng, 10)
    differ: list[Any] = []
    tried = 0
    for seat in range(players):
        twins = swapped_twin(config, game, seat, rng)
        if twins is None:
            continue
        first, second = twins
        positions = (first.position(), second.position())
        play_alike(first, second, seat, rng, 4)
        for _ in range(12):  # on to a turn of this seat, so it has legal actions
            if seat in first.to_act or first.is_over:
                break
            play_alike(first, second, seat, rng, 1)
        entries = [(a.seat, str(a)) for _, a, _ in first.record_entries()]
        legal = sorted({str(a) for a in first.legal_actions(seat)})[:6]
        for back in (1, 2, 4):
            if first.version - back < 0:
                continue
            for text in legal:
                said = [
                    _send(_session(config, p, entries), seat, text, first.version - back)[:2]
                    for p in positions
                ]
                tried += 1
                if said[0] != said[1]:
                    differ.append((seat, first.version, back, text, said))
    assert tried > 5
    assert differ == []


# -- 4. hand-built pairs -----------------------------------------------------------------------


def test_tonk_a_card_in_another_hand_or_in_the_stock_is_refused_alike() -> None:
    """Explicit positions: 9H lies in seat 1's hand in one, in the stock in the other."""
    base = (
        'tonk played=0 dealer=0 turn=1 phase="play" balances=[0,0,0] chance=2 cut=[["9","4","8"]]'
        " | stock: 4S AH JD 5C 7C 8S 10D {A} 5S 9S AS 10H 3S JH 5H 3H AC JC 4D 2H 4C KH 6S KD 3C"
        " 5D 8C 10C 6H 8D 2C 9C QH 7D 7H 3D | discard: KC! | hand.0: 8H 2S 7S KS 9D"
        " | hand.1: QC 6D QD QS {B} | hand.2: 2D AD JS 6C 10S | spreads:"
    )
    texts = [f"{t} {c}" for c in ("9H", "4H", "2S") for t in ("discard", "hit 1", "spread 9C 9S")]
    texts += ["draw", "take", "drop", "discard 9H", "spread 9H 9C 9S"]
    answers = []
    for a, b in (("9H", "4H"), ("4H", "9H")):
        try:
            game = cardcore.new_game("tonk", 3, position=base.format(A=a, B=b), seed=1)
        except CardcoreError:
            game = cardcore.new_game(
                "tonk",
                3,
                position=base.replace('phase="play"', 'phase="start"').format(A=a, B=b),
                seed=1,
            )
        answers.append((knowledge(game, 0), [outcome(game.clone(), 0, t) for t in texts]))
    assert answers[0] == answers[1]


def test_golf4_peek_setup_answers_alike_whatever_the_face_down_cards() -> None:
    """GOLF4 (face down all round, peek at 2): the same probes in the setup and after it."""
    base = (
        'golf layout="4" round=1 dealer=1 turn=0 phase="setup" turns=0 ender=null final=null'
        " totals=[0,0] | stock: 4S AH JD 5C 7C 8S 10D 9H 5S 9S AS 10H 3S JH 5H 3H AC JC 4D 2H 4C"
        " KH 6S KD 3C 5D 8C 10C 6H 8D 2C 9C QH 7D 7H 3D KC 9D 10S 4H KS 6C QS | discard: 7S! |"
        " held: | grid.0: {A} 8H AD QD | grid.1: 2D 6D 2S {B}"
    )
    texts = probes("golf", [])
    answers = []
    for a, b in (("QC", "JS"), ("JS", "QC")):
        game = cardcore.new_game(
            "golf", 2, options={"layout": "4"}, position=base.format(A=a, B=b), seed=1
        )
        seen = []
        for step in range(4):  # setup peeks that do not look at position 0, then a few turns
            seen.append((knowledge(game, 0), [outcome(game.clone(), 0, t) for t in texts]))
            legal = [
                x for s in game.to_act for x in game.legal_actions(s) if str(x) not in ("peek 0",)
            ]
            game.apply(legal[-1] if step % 2 else legal[0])
        answers.append(seen)
    assert answers[0] == answers[1]
