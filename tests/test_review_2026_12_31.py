"""Review (2026-12-31) of four fixes: 2fe9d4c (Go Fish ``max_legal = 65``), de71de4
(``Outbound.message`` decoded lazily from its text), 36c8573 + 174a705 (Spit's action bound
grows as ``stall_limit`` shrinks; a Tonk position whose balances are no multiples of the stake
is refused).

Claims that hold (passing tests): 65 is the most asks a Go Fish seat can have (13 ranks x 5
others) and a real position reaches it; the plugin guide's line count is current; every
message the session sends for the built-in games reads back from its text unchanged (types
included), so ``out.message`` says what the session meant; the asyncio/web host sends texts
without decoding a single message; ``Outbound`` keeps value equality, a hash, a repr without
the text, pattern matching and copies; resync replies are each reader's own copy; an old
Spit record or save truncated at the old bound of 20,000 still replays and loads to the same
truncated result (the record's ``truncated`` flag); the bound is what spit.rst says for every
``stall_limit``; every built-in Tonk house rule's positions read back.

Findings (strict xfails when written, fixed since: the session truncates a game its stored
phase says is over; the stake check applies only without a ``score_round`` rule; ``Outbound``
pickles under every protocol; ``dataclasses.replace`` was judged not to be kept, documented):

* A Spit session stored by the old code, whose game the old bound (20,000) truncated at a
  ``stall_limit`` under 11, resumes after 36c8573 as ``phase == "over"`` with a live game: the
  session rebuilds the game from its actions alone and nothing truncates it again (the record
  path reads ``truncated``; the session stores no such flag). ``record()`` has no result and
  ``truncated`` false, a rejoining seat's view says not over, every move gets ``game-over``.
* Doc gap: tonk.rst's position paragraph does not name the new stake check.

* TONK-STAKE-1 check refuses a real game's own position: the core accepts any zero-sum
  integer answer of a third-party ``score_round`` rule (hooks.rst documents such rules for
  Tonk), so balances off the stake are legitimate; ``game.position()`` then cannot be read
  back with the same rules and options, and the ISMCTS agent cannot play such a game at all
  (it samples positions). Both worked before 36c8573.
* ``Outbound`` is no longer the frozen slots dataclass it was: pickling under protocols 0 and 1
  raises ``TypeError`` (the old class pickled under every protocol), and
  ``dataclasses.replace`` (a host's way to set ``close``) raises ``TypeError``.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
import pickle
import random
import re
import runpy
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import RuleInfo, hookimpl
from cardcore.session import MemoryStore, Outbound, Session

ROOT = Path(__file__).resolve().parents[1]
RANK_WORDS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


# -- 1. Go Fish: max_legal = 65 ---------------------------------------------------------------


def _gofish_thirteen_ranks_position() -> str:
    """Six seats, empty stock: seat 0 holds one spade of each of the 13 ranks; the other 39
    cards are dealt round robin to seats 1-5 (a rank's three other cards land on three
    different seats, so no hand holds a book)."""
    own = [r + "S" for r in RANK_WORDS]
    rest = [r + s for s in "HDC" for r in RANK_WORDS]
    hands = [rest[i::5] for i in range(5)]
    sections = ["gofish to_act=[0] asked=[0,0,0,0,0,0]", "stock:"]
    sections.append("hand.0: " + " ".join(c + "@0" for c in own))
    sections += [f"hand.{i}: " + " ".join(c + f"@{i}" for c in h) for i, h in enumerate(hands, 1)]
    sections += [f"books.{i}:" for i in range(6)]
    return " | ".join(sections)


def test_gofish_max_legal_is_the_most_asks_and_a_real_position_reaches_it() -> None:
    """GOFISH-ASK-1/2: a seat asks a seat with cards for a rank it holds; 13 ranks exist and a
    hand never holds a book, so the most is 13 x (6 - 1) at the game's six seats."""
    from cardcore_gofish.logic import GoFishLogic

    info = cardcore.game_info("gofish")
    assert GoFishLogic.max_legal == 13 * (info.max_players - 1) == 65
    game = cardcore.new_game("gofish", 6, position=_gofish_thirteen_ranks_position(), seed=1)
    legal = game.legal_actions(0)
    assert (
        len({str(a) for a in legal}) == len(legal) == 65
    )  # the bound is reached, not only an upper one


def test_gofish_random_games_never_pass_max_legal() -> None:
    from cardcore_gofish.logic import GoFishLogic

    most = 0
    for players in range(2, 7):
        for seed in range(3):
            game = cardcore.new_game("gofish", players, seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                for seat in range(players):
                    n = len(game.legal_actions(seat))
                    assert n <= 13 * (players - 1) <= GoFishLogic.max_legal
                    most = max(most, n)
                seat = game.to_act[0]
                game.apply(rng.choice(game.legal_actions(seat)))
    assert most > 13  # the playouts did reach more than one target's asks


def test_the_plugin_guide_states_the_line_count_count_lines_gives() -> None:
    counter = runpy.run_path(str(ROOT / "examples" / "go_fish" / "count_lines.py"))
    counts = counter["count"]()
    game = sum(n for name, n in counts.items() if name not in counter["NOT_GAME"])
    page = (ROOT / "docs" / "plugin-guide" / "game.rst").read_text(encoding="utf-8")
    said = re.search(r"needs (\d+) lines of code for the game and (\d+) for its agent", page)
    assert said is not None and (int(said[1]), int(said[2])) == (game, counts["agents.py"])


# -- 2. Outbound: message decoded from text ---------------------------------------------------


def _typed_diff(meant: Any, read: Any, path: str = "") -> list[str]:
    """Where *read* differs from *meant*, kinds included (a tuple is no list, 1 no 1.0,
    an int key no text key, -0.0 no 0.0)."""
    if type(meant) is not type(read):
        return [f"{path}: {type(meant).__name__} vs {type(read).__name__}"]
    if isinstance(meant, dict):
        if list(meant) != list(read):
            return [f"{path}: keys {list(meant)[:6]} vs {list(read)[:6]}"]
        return [d for k in meant for d in _typed_diff(meant[k], read[k], f"{path}.{k}")]
    if isinstance(meant, list):
        if len(meant) != len(read):
            return [f"{path}: length {len(meant)} vs {len(read)}"]
        return [
            d
            for i, (a, b) in enumerate(zip(meant, read, strict=True))
            for d in _typed_diff(a, b, f"{path}[{i}]")
        ]
    if isinstance(meant, float) and repr(meant) != repr(read):
        return [f"{path}: {meant!r} vs {read!r}"]
    return [] if meant == read else [f"{path}: {meant!r:.40} vs {read!r:.40}"]


def _drive(game: str, players: int, steps: int) -> Session:
    """A session of *game*: every seat joins, a spectator watches, seeded random moves with
    history, takeback, record, resync and ping requests on the way."""
    session = Session.create(game, players, now=0.0, seed=3)
    now = 1.0
    for seat in range(players):
        session.handle(f"c{seat}", json.dumps({"type": "join", "seat": seat}), now=now)
        now += 1.0
    session.handle("spec", '{"type": "watch"}', now=now)
    rng = random.Random(1)
    for step in range(steps):
        g = session.game
        assert g is not None
        if g.is_over:
            break
        seats = [s for s in g.to_act if g.legal_actions(s)]
        if not seats:
            now += 100.0
            session.tick(now)
            continue
        seat = rng.choice(seats)
        action = rng.choice(g.legal_actions(seat))
        now += 0.5
        msg = {"type": "act", "action": str(action), "seen": g.version, "seat": seat}
        session.handle(f"c{seat}", json.dumps(msg), now=now)
        if step % 40 == 0:
            session.handle("c0", '{"type": "history"}', now=now)
            session.handle("spec", '{"type": "history"}', now=now)
            session.handle("c0", '{"type": "takeback", "op": "request"}', now=now)
    session.handle("c0", '{"type": "record"}', now=now + 1)
    session.handle("c0", '{"type": "resync", "last": 0}', now=now + 1)
    session.handle("c0", '{"type": "ping", "t": -0.0, "id": 9007199254740991}', now=now + 1)
    return session


@pytest.mark.parametrize(
    ("game", "players", "steps"),
    [("golf", 2, 200), ("tonk", 3, 200), ("spit", 2, 150), ("speed", 2, 150), ("gofish", 3, 150)],
)
def test_every_session_message_reads_back_from_its_text_unchanged(
    monkeypatch: pytest.MonkeyPatch, game: str, players: int, steps: int
) -> None:
    """``out.message`` is now json.loads(text): for the built-in games it is exactly the
    message the session built (no tuple turned list, no int key turned text, no float changed)."""
    built: list[tuple[Any, str]] = []
    init = Outbound.__init__

    def spy(self: Outbound, conn: str, message: Any, text: str, close: bool = False) -> None:
        built.append((message, text))
        init(self, conn, message, text, close)

    monkeypatch.setattr(Outbound, "__init__", spy)
    _drive(game, players, steps)
    kinds = {m["type"] for m, _ in built}
    assert {"welcome", "view", "update", "history", "pong"} <= kinds, kinds
    diffs = [d for m, t in built for d in _typed_diff(m, json.loads(t), m["type"])]
    assert diffs == []


def test_the_web_servers_host_sends_texts_without_decoding_any_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("cardcore.web")
    from cardcore.web import WebServer

    reads: list[str] = []

    def decoded(self: Outbound) -> Any:
        reads.append(self.conn)  # (counted, not raised: a host could swallow an exception)
        return json.loads(self.text)

    server = WebServer(None, clock=lambda: 5.0)
    server.hub.create("golf", 2, now=0.0, seed=7, session_id="R1")
    monkeypatch.setattr(Outbound, "message", property(decoded))

    async def run() -> list[str]:
        ann, bob, spec = (server.host.connect(c) for c in ("ann", "bob", "spec"))
        await ann.send('{"type": "join", "seat": 0, "session": "R1"}')
        await bob.send('{"type": "join", "seat": 1, "session": "R1"}')
        await spec.send('{"type": "watch", "session": "R1"}')
        await ann.send('{"type": "act", "action": "flip 0", "seen": 0}')
        got = []
        for conn in (ann, bob, spec):
            while conn.queued:
                got.append(await asyncio.wait_for(conn.__anext__(), 5))
        return got

    texts = asyncio.run(run())
    types_sent = [json.loads(t)["type"] for t in texts]
    assert types_sent.count("welcome") == 3 and "update" in types_sent
    assert reads == []


def _golf_view_outbound() -> Outbound:
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    out = session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    return next(o for o in out if o.conn == "ann" and json.loads(o.text)["type"] == "view")


def test_outbound_keeps_value_equality_hash_repr_matching_and_copies() -> None:
    out = _golf_view_outbound()
    twin = Outbound(out.conn, json.loads(out.text), out.text, out.close)
    assert out == twin and hash(out) == hash(twin) and len({out, twin}) == 1
    assert out != Outbound("bob", out.message, out.text) and out != Outbound(
        out.conn, out.message, out.text, True
    )
    assert repr(out).startswith("Outbound(conn='ann', message={") and out.text not in repr(out)
    match out:
        case Outbound(conn, message, text, close=False):
            assert (conn, message["type"], text) == ("ann", "view", out.text)
        case _:
            pytest.fail("Outbound no longer matches its positional pattern")
    for other in (copy.copy(out), copy.deepcopy(out), pickle.loads(pickle.dumps(out))):
        assert other == out and other.message == out.message
    deep = copy.deepcopy(out)
    deep.message["view"]["table"]["changed"] = True
    assert "changed" not in out.message["view"]["table"]
    with pytest.raises(AttributeError):
        out.close = True  # type: ignore[misc]


def test_a_resync_reply_is_each_readers_own_copy() -> None:
    """The missed messages of a resync come back from the kept texts: changing one reply's
    messages changes neither the next reply nor the seat's later stream."""
    session = Session.create("golf", ["Ann", "Bob"], now=0.0, seed=7)
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    session.handle("ann", '{"type": "act", "action": "flip 0", "seen": 0}', now=3.0)
    first = session.handle("bob", '{"type": "resync", "last": 3}', now=4.0)
    assert [o.message["type"] for o in first] == ["update"]
    texts = [o.text for o in first]
    for o in first:
        o.message["patch"].clear()
        o.message["version"] = -1
    again = session.handle("bob", '{"type": "resync", "last": 3}', now=5.0)
    assert [o.text for o in again] == texts
    assert [json.loads(t) for t in texts] == [o.message for o in again]


def test_outbound_pickles_under_every_protocol_as_the_old_dataclass_did() -> None:
    out = _golf_view_outbound()
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(out, protocol=proto))
        assert back == out and back.message == out.message


def test_outbound_is_no_longer_a_dataclass_and_says_so() -> None:
    """Decided on review: Outbound keeps its constructor, fields, equality, hash, repr, pattern
    matching, copies and pickles (tested above), but not ``dataclasses.replace``/``fields``:
    its message is read back from its text, which a dataclass field cannot be. Its docstring
    and the changelog say so."""
    out = _golf_view_outbound()
    assert not dataclasses.is_dataclass(out)
    with pytest.raises(TypeError):
        dataclasses.replace(out, close=True)  # type: ignore[type-var]
    closing = Outbound(out.conn, out.message, out.text, close=True)
    assert closing.close and closing.text == out.text and closing != out
    assert "no longer a dataclass" in " ".join((Outbound.__doc__ or "").split())


# -- 3a. Spit: the bound grows as stall_limit shrinks ------------------------------------------


def _spit_bound(monkeypatch: pytest.MonkeyPatch, bound: Any) -> None:
    """Make SpitLogic.action_bound *bound* and forget the bounds the configuration cached
    (``Ruleset.checked``: checked options and their bound), as a fresh process would."""
    from cardcore_spit.logic import SpitLogic

    monkeypatch.setattr(SpitLogic, "action_bound", bound)
    for rules in ((), ("spit.chooser",)):
        monkeypatch.setattr(
            cardcore.new_game("spit", 2, rules=rules, seed=1).logic.ruleset, "checked", {}
        )


def test_the_spit_bound_is_what_spit_rst_says_for_every_stall_limit() -> None:
    """spit.rst SPIT-CAP-1: 20,000, times 20 // stall_limit for a stall_limit under 11; never
    below the old 20,000, so no game the old bound let finish is truncated now."""
    page = (ROOT / "docs" / "games" / "spit.rst").read_text(encoding="utf-8")
    assert (
        "20,000 actions per game, times ``20 // stall_limit`` for a ``stall_limit`` under 11"
        in page
    )
    game = cardcore.new_game("spit", 2, seed=1)
    for limit in range(1, 1001):
        said = 20_000 * (20 // limit) if limit < 11 else 20_000
        assert game.logic.action_bound(2, {**game.options, "stall_limit": limit}) == said >= 20_000


def test_an_old_spit_record_truncated_at_20000_replays_and_loads_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Made under the old code (SpitLogic.action_bound returned 20,000 whatever the limit):
    a random game at stall_limit 1 (seed 5) reached it and was truncated by the core. Under
    the new bound of 400,000 its record and save still replay to the same truncated result."""
    from cardcore_spit.logic import SpitLogic

    new_bound = SpitLogic.action_bound
    _spit_bound(monkeypatch, lambda self, players, options: 20_000)
    game = cardcore.new_game("spit", 2, options={"stall_limit": 1}, seed=5)
    result = cardcore.run_realtime(
        game, [cardcore.RandomAgent(5), cardcore.RandomAgent(105)], seed=5
    )
    assert result.reason == "truncated" and game.version == 20_000
    record = json.loads(json.dumps(game.record()))
    save = json.loads(json.dumps(game.save()))
    assert record["truncated"] is True
    _spit_bound(monkeypatch, new_bound)
    assert (
        cardcore.new_game("spit", 2, options={"stall_limit": 1}, seed=5).logic.action_bound(
            2, {"stall_limit": 1}
        )
        == 400_000
    )
    replayed = cardcore.replay(record)
    assert replayed.version == 20_000 and replayed.is_over and replayed.result == result
    loaded = cardcore.load(save)
    assert loaded.version == 20_000 and loaded.result == result
    assert loaded.record()["truncated"] is True


def test_a_spit_session_truncated_by_the_old_bound_resumes_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stored session whose game the old, smaller bound truncated (60 stands in for 20,000:
    the same mechanism, a bound at resume larger than the one the game was played under)
    resumes as over, with the same record, once the bound grew."""
    from cardcore_spit.logic import SpitLogic

    new_bound = SpitLogic.action_bound
    _spit_bound(monkeypatch, lambda self, players, options: 60)
    store = MemoryStore()
    session = Session.create("spit", 2, now=0.0, seed=4, options={"stall_limit": 1}, store=store)
    session.handle("a", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("b", '{"type": "join", "seat": 1}', now=2.0)
    now, rng = 3.0, random.Random(0)
    while session.game is not None and not session.game.is_over:
        g = session.game
        seat = rng.choice([s for s in g.to_act if g.legal_actions(s)])
        now += 0.1
        msg = {
            "type": "act",
            "action": str(rng.choice(g.legal_actions(seat))),
            "seen": g.version,
            "seat": seat,
        }
        session.handle("ab"[seat], json.dumps(msg), now=now)
    record = session.record()
    assert record is not None and record["truncated"] and session.game.version == 60
    _spit_bound(monkeypatch, new_bound)
    resumed = Session.resume(store, session.id, now=now + 10)
    assert resumed.phase == "over" and resumed.game is not None and resumed.game.is_over
    assert resumed.record() == record


# -- 3b. Tonk: balances must be multiples of the stake -----------------------------------------


@pytest.mark.parametrize("rule", cardcore.available_rules("tonk"))
def test_every_builtin_tonk_house_rule_reads_its_positions_back(rule: str) -> None:
    options = {"stake": 7, "hands": 3}
    for players, seed in ((2, 0), (3, 1)):
        game = cardcore.new_game("tonk", players, rules=[rule], options=options, seed=seed)
        rng = random.Random(seed)
        while True:
            text = game.position()
            back = cardcore.new_game(
                "tonk", players, rules=[rule], options=options, position=text, seed=1
            )
            assert back.position() == text
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        assert all(b % 7 == 0 for b in game.view(None)["table"]["balances"])


def test_a_hand_written_tonk_position_off_the_stake_is_refused() -> None:
    """What 36c8573 is for: with no rule changing payouts, balances are multiples of S."""
    text = cardcore.new_game("tonk", 2, options={"stake": 5}, seed=4).position()
    assert "balances=[0,0]" in text
    with pytest.raises(cardcore.CardcoreError, match="TONK-STAKE-1"):
        cardcore.new_game(
            "tonk",
            2,
            options={"stake": 5},
            position=text.replace("balances=[0,0]", "balances=[1,-1]"),
            seed=1,
        )


def test_tonk_rst_names_the_stake_check_of_a_position() -> None:
    page = (ROOT / "docs" / "games" / "tonk.rst").read_text(encoding="utf-8")
    start = page.index("A position (``Game.position()``")
    paragraph = page[start : page.index("\n", start)]
    assert "Reading one checks" in paragraph and "balances summing to zero" in paragraph
    assert re.search(r"multiples? of (the stake|S)", paragraph)


@hookimpl
def _one_chip(scores: list[int]) -> list[int]:
    """A third-party house rule: every hand moves one chip, whatever the stake (zero-sum)."""
    return [(s > 0) - (s < 0) for s in scores]


@pytest.fixture
def one_chip() -> Iterator[str]:
    name = "tonk.review-one-chip"
    module = types.ModuleType("tonk_review_one_chip")
    module.RULE = RuleInfo(id="REVIEW-CHIP-1", name=name, game="tonk", summary="One chip a hand")  # type: ignore[attr-defined]
    module.score_round = _one_chip  # type: ignore[attr-defined]
    cardcore.register("cardcore.rules", name, module)
    try:
        yield name
    finally:
        cardcore.unregister("cardcore.rules", name)


def _off_stake_game(rule: str) -> cardcore.Game:
    """Seed 4, stake 5, three hands: the first hand ends by a drop and the rule pays 1 chip;
    played on (seeded) to a turn with a choice."""
    game = cardcore.new_game("tonk", 2, rules=[rule], options={"stake": 5, "hands": 3}, seed=4)
    rng = random.Random(0)
    while (
        game.view(None)["table"]["balances"] == [0, 0]
        or len(game.legal_actions(game.to_act[0])) < 2
    ):
        game.apply(rng.choice(game.legal_actions(game.to_act[0])))
    assert not game.is_over and game.view(None)["table"]["balances"] in ([1, -1], [-1, 1])
    return game


def test_a_tonk_game_with_a_third_party_score_round_reads_its_own_position_back(
    one_chip: str,
) -> None:
    game = _off_stake_game(one_chip)
    text = game.position()
    back = cardcore.new_game(
        "tonk", 2, rules=[one_chip], options={"stake": 5, "hands": 3}, position=text, seed=1
    )
    assert back.position() == text


def test_ismcts_plays_tonk_with_a_third_party_score_round_rule(one_chip: str) -> None:
    game = _off_stake_game(one_chip)
    seat = game.to_act[0]
    agent = cardcore.load_agent("ismcts", seed=1, iterations=5)
    assert agent.choose(game.view(seat), game.legal_actions(seat)) in game.legal_actions(seat)
