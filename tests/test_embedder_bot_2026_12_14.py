"""An embedder's review: a chat bot (Discord/Slack-like) built on the cardcore library API.

The bot core below runs one game per channel in one asyncio process: players join,
empty seats are filled by cardcore agents, moves come as free text, each player gets
private messages (their view and their redacted events) and the channel gets the
spectators' view and public events. Idle seats time out to the game's default action,
all games are saved (signed) on shutdown and restored on start.

Everything is checked as docs/embedding.rst, session.rst, events.rst, notation.rst,
security.rst and performance.rst promise it. No real network, no wall-clock asserts.
"""

from __future__ import annotations

import asyncio
import doctest
import gc
import json
import logging
import random
import re
import threading
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import (
    ALL,
    SPECTATOR,
    CardcoreError,
    CorruptStateError,
    IllegalActionError,
    NotationError,
    SeatError,
    StaleActionError,
)

ROOT = Path(__file__).resolve().parent.parent
KEY = b"chat-bot-signing-key"
CARD = re.compile(
    r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[SHDC](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])"
)
AGENT = {
    "golf": "golf-greedy",
    "tonk": "tonk-heuristic",
    "gofish": "gofish-basic",
    "spit": "spit-greedy",
}
RULE_TAIL = re.compile(r"\(([A-Z0-9]+(?:-[A-Z0-9]+)+)\)$")

HAS_GOFISH = "gofish" in cardcore.available_games()
TURN_GAMES = [("golf", 2), ("tonk", 3)] + ([("gofish", 3)] if HAS_GOFISH else [])
ALL_GAMES = [*TURN_GAMES, ("spit", 2)]


@pytest.fixture(autouse=True, scope="module")
def _quiet_event_log() -> Any:
    """The raising subscribers here log errors: quiet for this file only (a level set at
    import time would silence cardcore.events for every test of the run)."""
    logger = logging.getLogger("cardcore.events")
    old = logger.level
    logger.setLevel(logging.CRITICAL)
    yield
    logger.setLevel(old)


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


# --------------------------------------------------------------------------------------
# the bot core
# --------------------------------------------------------------------------------------


def render(view: dict[str, Any]) -> str:
    """The text a chat user reads: every pile, hidden cards as '??', the table, the moves."""
    lines = [f"{view['game']} (move {view['version']}), to act: {view['to_act']}"]
    for zone in view["zones"]:
        shown = " ".join(card if card else "??" for card in zone["cards"])
        lines.append(f"{zone['name']} [{zone['count']}]: {shown}")
    lines.append("table: " + json.dumps(view["table"], sort_keys=True))
    if view["legal"]:
        lines.append("you may: " + ", ".join(view["legal"]))
    return "\n".join(lines)


def parse_move(text: str) -> str | None:
    """'!move draw', '/play flip 3' or '!m take' -> the action text; None if not a move."""
    match = re.match(r"^\s*[!/](?:move|play|m)\b\s*(.*?)\s*[.!]?\s*$", text, re.S)
    return match.group(1) if match else None


class Oracle:
    """Independently tracks every card each seat (and spectators) may know, from the state."""

    def __init__(self, game: cardcore.Game) -> None:
        self.game = game
        self.known: dict[Any, set[str]] = {s: set() for s in range(len(game.players))}
        self.known[None] = set()
        self.sample()

    def sample(self) -> None:
        zones = self.game.state.zones
        for z, pile in enumerate(zones.cards):
            for i, card in enumerate(pile):
                for who in self.known:
                    if zones.knows(z, i, who):
                        self.known[who].add(str(card))

    def full_event(self, event: cardcore.Event) -> None:
        mask = event.fields().get("visible_to", ALL)
        for name, value in event.to_json().items():
            found = cards_in(json.dumps(value))
            for who in self.known:
                public = name not in type(event).secret or mask == ALL
                if public or (who is not None and mask & (1 << who)):
                    self.known[who] |= found
        if isinstance(event, cardcore.ActionApplied):
            self.sample()


class Room:
    def __init__(
        self, bot: Bot, channel: str, game: cardcore.Game, owners: list[str | None], fresh: bool
    ) -> None:
        self.bot, self.channel, self.game, self.owners = bot, channel, game, owners
        self.agents = {
            s: cardcore.load_agent(AGENT[game.name], seed=100 + s)
            for s, owner in enumerate(owners)
            if owner is None
        }
        self.deadline: dict[int, float] = {}
        if not fresh:  # a restored game: attach now (new games pass subscribers= to new_game)
            for sub in self.subscribers():
                game.events.subscribe(*sub)

    def subscribers(self) -> list[tuple]:
        subs: list[tuple] = [(cardcore.Event, self.bot.spectator_sink(self.channel), SPECTATOR)]
        for seat, owner in enumerate(self.owners):
            if owner is not None:
                subs.append((cardcore.Event, self.bot.dm_sink(owner), seat))
        return subs

    def seat_of(self, user: str) -> int | None:
        return self.owners.index(user) if user in self.owners else None


class Bot:
    def __init__(self) -> None:
        self.rooms: dict[str, Room] = {}
        self.dms: dict[str, list[str]] = {}
        self.posts: dict[str, list[str]] = {}
        self.blocked: set[str] = set()  # users whose DMs fail (the chat API raises)
        self.oracles: dict[str, Oracle] = {}
        self.refused: dict[str, str] = {}

    def dm_sink(self, user: str) -> Callable[[cardcore.Event], None]:
        def send(event: cardcore.Event) -> None:
            if user in self.blocked:
                raise ConnectionError(f"cannot DM {user}")
            self.dms.setdefault(user, []).append(json.dumps(event.to_json()))

        return send

    def spectator_sink(self, channel: str) -> Callable[[cardcore.Event], None]:
        return lambda event: self.posts.setdefault(channel, []).append(json.dumps(event.to_json()))

    def start(
        self, channel: str, name: str, users: list[str | None], seed: int, oracle: bool = True
    ) -> Room:
        holder: dict[str, Room] = {}
        names = [u if u is not None else f"bot{s}" for s, u in enumerate(users)]
        room_stub = Room.__new__(Room)
        room_stub.bot, room_stub.channel, room_stub.owners = self, channel, users
        subs = room_stub.subscribers()
        game = cardcore.new_game(name, names, seed=seed, subscribers=subs)
        holder["room"] = Room(self, channel, game, users, fresh=True)
        if oracle:
            orc = Oracle(game)
            game.events.subscribe(cardcore.Event, orc.full_event)
            self.oracles[channel] = orc
        self.rooms[channel] = holder["room"]
        self.post_views(channel)
        return holder["room"]

    def post_views(self, channel: str) -> None:
        room = self.rooms[channel]
        for seat, owner in enumerate(room.owners):
            if owner is not None:
                self.dms.setdefault(owner, []).append(render(room.game.view(seat)))
        self.posts.setdefault(channel, []).append(render(room.game.view(None)))

    def handle(self, channel: str, user: str, text: str, now: float = 0.0) -> str:
        """One chat message; the reply the bot posts (to the user)."""
        room = self.rooms.get(channel)
        move = parse_move(text)
        if room is None or move is None:
            return "no game here" if room is None else "not a move"
        seat = room.seat_of(user)
        if seat is None:
            return "you are not playing in this game"
        try:
            action = room.game.act(seat, move, at=None)
        except CardcoreError as error:
            return f"sorry: {error}"
        self.run_bots(channel)
        self.arm(channel, now)
        self.post_views(channel)
        return f"played {action}"

    def run_bots(self, channel: str, limit: int = 10_000) -> None:
        room = self.rooms[channel]
        game = room.game
        for _ in range(limit):
            if game.is_over:
                return
            for seat in game.to_act:
                if seat in room.agents and game.legal_actions(seat):
                    view = game.view(seat)
                    game.apply(
                        room.agents[seat].choose(view, game.legal_actions(seat)),
                        seen=view["version"],
                    )
                    break
            else:
                return

    def arm(self, channel: str, now: float, turn: float = 60.0) -> None:
        room = self.rooms[channel]
        room.deadline = {s: now + turn for s in room.game.to_act if room.owners[s] is not None}

    def tick(self, now: float) -> list[tuple[str, int, str]]:
        """Play the default action for every human seat whose turn timed out."""
        played = []
        for channel, room in self.rooms.items():
            game = room.game
            for seat, due in list(room.deadline.items()):
                if now < due or game.is_over or seat not in game.to_act:
                    continue
                for _ in range(8):  # again while the seat stays to act (as sessions do)
                    if game.is_over or seat not in game.to_act:
                        break
                    action = game.logic.default_action(game.state, seat)
                    if action is None:
                        action = game.legal_actions(seat)[0]
                    game.apply(action, seen=game.version)
                    played.append((channel, seat, str(action)))
                self.run_bots(channel)
                self.arm(channel, now)
        return played

    def save_all(self, folder: Path) -> None:
        for channel, room in self.rooms.items():
            data = {"owners": room.owners, "save": room.game.save(key=KEY)}
            (folder / f"{channel}.json").write_text(json.dumps(data), encoding="utf-8")

    @classmethod
    def restore_all(cls, folder: Path) -> Bot:
        bot = cls()
        for path in sorted(folder.glob("*.json")):
            channel = path.stem
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                game = cardcore.load(data["save"], key=KEY)
            except CorruptStateError as error:
                bot.refused[channel] = str(error)
                continue
            except (ValueError, KeyError, TypeError) as error:  # our own envelope is damaged
                bot.refused[channel] = f"unreadable: {error}"
                continue
            bot.rooms[channel] = Room(bot, channel, game, data["owners"], fresh=False)
        return bot


def bot_move(room: Room, rng: random.Random) -> tuple[int, str]:
    """A human-ish move: a seat to act and one of its legal texts."""
    game = room.game
    seats = [s for s in game.to_act if game.legal_actions(s)]
    seat = rng.choice(seats)
    return seat, rng.choice(game.view(seat)["legal"])


# --------------------------------------------------------------------------------------
# the docs' embedding examples run as written
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["embedding", "events", "notation"])
def test_docs_examples_run_as_written(page: str) -> None:
    text = (ROOT / "docs" / f"{page}.rst").read_text(encoding="utf-8")
    test = doctest.DocTestParser().get_doctest(text, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1)
    result = runner.run(test, out=lambda s: None)
    assert result.attempted > 10
    assert result.failed == 0


def test_session_docs_first_example_runs() -> None:
    text = (ROOT / "docs" / "session.rst").read_text(encoding="utf-8")
    block = text.split(".. doctest:: session", 1)[1].split("\n\n:class:", 1)[0]
    test = doctest.DocTestParser().get_doctest(block, {}, "session", "session", 0)
    result = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS).run(test, out=lambda s: None)
    assert result.attempted >= 8 and result.failed == 0


# --------------------------------------------------------------------------------------
# channels, players, bots, private and public messages
# --------------------------------------------------------------------------------------


def _play_channel(bot: Bot, channel: str, name: str, n: int, seed: int, moves: int) -> Room:
    users: list[str | None] = [f"{channel}-u{s}" if s < 2 else None for s in range(n)]
    room = bot.start(channel, name, users, seed=seed)
    bot.run_bots(channel)
    rng = random.Random(seed)
    for _ in range(moves):
        if room.game.is_over:
            break
        seat, text = bot_move(room, rng)
        owner = room.owners[seat]
        assert owner is not None  # bots play on their own, so only humans are left to act
        reply = bot.handle(channel, owner, f"!move {text.upper()}!")
        assert reply.startswith("played "), reply
    return room


@pytest.mark.parametrize(("name", "n"), TURN_GAMES)
def test_private_and_public_messages_hold_only_what_the_reader_may_know(name: str, n: int) -> None:
    bot = Bot()
    channels = [f"{name}{i}" for i in range(3)]
    for i, channel in enumerate(channels):
        _play_channel(bot, channel, name, n, seed=40 + i, moves=60)
    for channel in channels:
        room, oracle = bot.rooms[channel], bot.oracles[channel]
        assert room.game.version > 0
        for seat, owner in enumerate(room.owners):
            if owner is None:
                continue
            text = "\n".join(bot.dms[owner])
            assert text, "a seated player got no private messages"
            leaked = cards_in(text) - oracle.known[seat]
            assert not leaked, f"{owner} was told {leaked}"
            assert bot.dms[owner][-1] == render(room.game.view(seat))
        public = "\n".join(bot.posts[channel])
        assert not cards_in(public) - oracle.known[None]
        # a player's own hand is in their private text, never in the channel's (before the end)
        if not room.game.is_over:
            own = {
                c for z in room.game.view(0)["zones"] if z["owner"] == 0 for c in z["cards"] if c
            }
            hidden_from_all = own - oracle.known[None]
            if name != "golf":  # a Golf grid is hidden from its owner too
                assert hidden_from_all, "test needs a hidden card in seat 0's hand"
            assert hidden_from_all <= cards_in(bot.dms[room.owners[0]][-1])
            assert not hidden_from_all & cards_in(bot.posts[channel][-1])


def test_channels_do_not_cross_talk() -> None:
    bot = Bot()
    _play_channel(bot, "a", "golf", 2, seed=1, moves=10)
    _play_channel(bot, "b", "golf", 2, seed=2, moves=10)
    assert bot.handle("a", "b-u0", "!move draw") == "you are not playing in this game"
    assert bot.handle("nowhere", "a-u0", "!move draw") == "no game here"
    assert bot.handle("a", "a-u0", "hello everyone") == "not a move"
    # the channel posts of 'a' are exactly the spectator stream of game a
    assert bot.posts["a"][-1] == render(bot.rooms["a"].game.view(None))


# --------------------------------------------------------------------------------------
# every error free text can cause is a CardcoreError fit to show the user
# --------------------------------------------------------------------------------------

JUNK = [
    "", "   ", "draw\x00", "x" * 201, "\x1b[2Jcls", "flip 99", "flip -1", "flip 1e3",
    "flip 99999999999999999999999", "discard ZZ", "discard 5H", "discard jk", "hit 9 5H",
    "spread 5H 6H 7H", "ask 9 A", "ask 0 A", "ask 1 Z", "ask 1", "play 9 L", "play 1 X",
    "combine 1 1", "fill 0 0", "slap L", "choose L", "spit", "ready", "resign now", "end",
    "knock", "take", "draw", "deal", "drop", "😀", "flip ٣", "\ud800", "draw\nresign",
]  # fmt: skip


def _check_error_message(error: CardcoreError, typed: str, known: set[str]) -> None:
    message = str(error)
    assert "Traceback" not in message and "\n" not in message
    assert 0 < len(message) <= 300
    match = RULE_TAIL.search(message)
    assert match, message
    assert error.rule_id == match.group(1)
    assert not (cards_in(message) - cards_in(typed) - known), message


@pytest.mark.parametrize(("name", "n"), ALL_GAMES)
def test_free_text_errors_are_cardcore_errors_fit_for_users(name: str, n: int) -> None:
    game = cardcore.new_game(name, n, seed=17)
    oracle = Oracle(game)
    game.events.subscribe(cardcore.Event, oracle.full_event)
    rng = random.Random(3)
    refused = 0
    for _ in range(25):
        for seat in range(n):
            for typed in JUNK:
                trial = game.clone()
                before = trial.save()
                try:
                    trial.act(seat, typed)
                except CardcoreError as error:
                    refused += 1
                    _check_error_message(error, typed, oracle.known[seat])
                    assert trial.save() == before  # a refused action changed nothing
        if game.is_over:
            break
        seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
        game.apply(rng.choice(game.legal_actions(seat)))
    assert refused > 100


def test_seat_and_seen_errors_are_cardcore_errors() -> None:
    game = cardcore.new_game("golf", ["Ann", "Bob"], seed=3)
    for seat in [2, -2, "0", None, 1.0]:
        with pytest.raises(SeatError) as info:
            game.act(seat, "flip 0")  # type: ignore[arg-type]
        _check_error_message(info.value, "", set())
    for seen in ["3", -1, 10**30, 1.5]:
        with pytest.raises(IllegalActionError) as info2:
            game.act(0, "flip 0", seen=seen)  # type: ignore[arg-type]
        _check_error_message(info2.value, "", set())
    with pytest.raises(NotationError):
        game.act(0, None)  # type: ignore[arg-type]
    assert game.version == 0


# --------------------------------------------------------------------------------------
# thread / asyncio safety
# --------------------------------------------------------------------------------------


def _bot_step(game: cardcore.Game, agents: dict[int, Any]) -> bool:
    if game.is_over:
        return False
    seat = next(s for s in game.to_act if game.legal_actions(s))
    view = game.view(seat)
    game.apply(agents[seat].choose(view, game.legal_actions(seat)), seen=view["version"])
    return True


def _setups() -> list[tuple[str, int, int]]:
    return [(name, n, seed) for name, n in TURN_GAMES for seed in range(8)]


def _agents(name: str, n: int) -> dict[int, Any]:
    return {s: cardcore.load_agent(AGENT[name], seed=s) for s in range(n)}


def test_many_games_stepped_concurrently_from_asyncio_match_sequential_play() -> None:
    setups = _setups()
    expected = []
    for name, n, seed in setups:
        game, agents = cardcore.new_game(name, n, seed=seed), _agents(name, n)
        for _ in range(120):
            if not _bot_step(game, agents):
                break
        expected.append(game.record()["actions"])

    async def main() -> list[list]:
        loop = asyncio.get_running_loop()
        pool = ThreadPoolExecutor(4)
        streams: list[list[int]] = []

        async def run(name: str, n: int, seed: int) -> list:
            versions: list[int] = []
            streams.append(versions)
            game = cardcore.new_game(name, n, seed=seed)
            game.events.subscribe(
                cardcore.ActionApplied, lambda e: versions.append(e.version), SPECTATOR
            )
            agents = _agents(name, n)
            for _ in range(120):
                if not await loop.run_in_executor(pool, _bot_step, game, agents):
                    break
                await asyncio.sleep(0)
            return game.record()["actions"]

        try:
            return list(await asyncio.gather(*(run(*s) for s in setups)))
        finally:
            pool.shutdown()
            assert all(v == list(range(1, len(v) + 1)) for v in streams)

    assert asyncio.run(main()) == expected


@pytest.mark.parametrize("texts", [("draw", "draw"), ("draw", "take")])
def test_two_tasks_race_one_turn_exactly_one_wins(texts: tuple[str, str]) -> None:
    async def main() -> list[tuple[str, str]]:
        loop = asyncio.get_running_loop()
        outcomes = []
        with ThreadPoolExecutor(2) as pool:
            for seed in range(15):
                game = cardcore.new_game("golf", ["Ann", "Bob"], seed=seed)
                for seat, text in [(0, "flip 0"), (0, "flip 1"), (1, "flip 0"), (1, "flip 1")]:
                    game.act(seat, text)
                seat = game.to_act[0]
                barrier = threading.Barrier(2)

                def send(text: str, game: cardcore.Game = game, seat: int = seat, b=barrier) -> str:
                    b.wait()
                    try:
                        game.act(seat, text, seen=4)
                        return "applied"
                    except CardcoreError as error:
                        _check_error_message(error, text, set())
                        return type(error).__name__

                got = await asyncio.gather(*(loop.run_in_executor(pool, send, t) for t in texts))
                assert game.version == 5
                outcomes.append(tuple(sorted(got)))
        return outcomes

    outcomes = asyncio.run(main())
    assert set(outcomes) == {("IllegalActionError", "applied")}


def test_spit_race_from_asyncio_tasks_one_applied_one_stale() -> None:
    deck = (
        "2H 4S 4H 5S 7H 6S JH 7S 3S 8S 3H 9S 6H 10S 10H JS 2S QS 5H KS 9H AD AS 2D "
        "8H 3D KH 4D QH 5D AH 6D AC 7D 2C 8D 3C 9D 4C 10D 5C JD 6C QD 7C KD 8C JC 9C QC 10C KC"
    )

    async def main() -> tuple[list[str], int, str]:
        game = cardcore.new_game("spit", ["Ann", "Bob"], deck=deck, seed=2)
        game.act(0, "ready"), game.act(1, "ready")
        loop = asyncio.get_running_loop()

        def send(seat: int, text: str) -> str:
            try:
                game.act(seat, text, seen=2, at=loop.time)
                return "applied"
            except StaleActionError as error:
                return "stale:" + str(error)

        with ThreadPoolExecutor(2) as pool:
            got = await asyncio.gather(
                loop.run_in_executor(pool, send, 0, "play 1 L"),
                loop.run_in_executor(pool, send, 1, "play 3 L"),
            )
        return sorted(got), game.version, game.record()["actions"][-1][1]

    got, version, last = asyncio.run(main())
    assert version == 3 and got[0] == "applied" and got[1].startswith("stale:")
    assert got[1].endswith("(CORE-RT-1)") and last in ("play 1 L", "play 3 L")


async def _spit_with_timers(seed: int, scale: float = 0.002, cap: int = 300) -> dict[str, Any]:
    """Real-time Spit: each seat's bot plans, an asyncio timer fires the plan."""
    loop = asyncio.get_running_loop()
    game = cardcore.new_game("spit", ["Ann", "Bob"], seed=seed)
    seen_by: dict[int, list[int]] = {0: [], 1: []}
    for s in (0, 1):
        game.events.subscribe(
            cardcore.ActionApplied, lambda e, s=s: seen_by[s].append(e.version), s
        )
    agents = [cardcore.load_agent("spit-greedy", seed=seed + s) for s in (0, 1)]
    timers: dict[int, asyncio.TimerHandle] = {}
    stats = {"stale": 0, "illegal": 0, "applied": 0}
    done = asyncio.Event()
    saved: list[dict] = []

    def fire(seat: int, action: cardcore.Action, version: int) -> None:
        timers.pop(seat, None)
        if game.is_over:
            return
        try:
            game.apply(action, seen=version, at=loop.time)
            stats["applied"] += 1
            if stats["applied"] == 40:
                saved.append(game.save(key=KEY))
        except StaleActionError:
            stats["stale"] += 1
        except IllegalActionError:
            stats["illegal"] += 1
        replan()

    def replan() -> None:
        if game.is_over or game.version >= cap:
            if not game.is_over:
                game.act(cardcore.HOST, "end")
            done.set()
            return
        for seat in (0, 1):
            if seat in timers:
                timers.pop(seat).cancel()
            view, legal = game.view(seat), game.legal_actions(seat)
            plan = agents[seat].plan(view, legal, loop.time())
            if plan is not None:
                timers[seat] = loop.call_later(
                    plan.delay * scale, fire, seat, plan.action, view["version"]
                )
        if not timers:  # nobody plans: the host plays the defaults (a timeout)
            for seat in game.to_act:
                default = game.logic.default_action(game.state, seat)
                if default is not None:
                    loop.call_soon(fire, seat, default, game.version)
                    return
            game.act(cardcore.HOST, "end")
            done.set()

    replan()
    await asyncio.wait_for(done.wait(), timeout=15)
    for handle in timers.values():
        handle.cancel()
    return {"game": game, "stats": stats, "seen_by": seen_by, "saved": saved}


def test_realtime_spit_driven_by_asyncio_timers_stays_consistent() -> None:
    out = asyncio.run(_spit_with_timers(seed=11))
    game, stats = out["game"], out["stats"]
    assert game.is_over
    assert stats["illegal"] == 0 and stats["applied"] >= 40
    times = [at for _, _, at in game.record()["actions"] if at is not None]
    assert times == sorted(times)  # the clock is read under the lock
    again = cardcore.replay(json.dumps(game.record()))
    assert again.view(None) == game.view(None) and again.version == game.version
    for versions in out["seen_by"].values():
        assert versions == list(range(1, game.version + 1))
    mid = cardcore.load(out["saved"][0], key=KEY)
    assert mid.version == 40
    assert mid.record()["actions"] == game.record()["actions"][: mid.version]


def test_views_read_while_another_thread_plays_are_exact_snapshots() -> None:
    """Reads are pure and atomic: a view taken mid-race equals the replayed view at its version."""
    game = cardcore.new_game("spit", 2, seed=1)
    done = threading.Event()

    def mover() -> None:
        rng = random.Random(1)
        while not game.is_over and game.version < 200:
            seats = [s for s in game.to_act if game.legal_actions(s)]
            if not seats:
                break
            seat = rng.choice(seats)
            game.apply(rng.choice(game.legal_actions(seat)))
        done.set()

    views, saves = [], []
    thread = threading.Thread(target=mover)
    thread.start()
    while not done.is_set() or not views:
        views.append(game.view(0))
        views.append(game.view(None))
        if len(saves) < 5:
            saves.append(game.save())
    thread.join()
    replayed = cardcore.new_game("spit", 2, seed=game.seed)
    expected = {0: (replayed.view(0), replayed.view(None))}
    for seat, text, at in game.record()["actions"]:
        replayed.act(seat, text, at=at)
        expected[replayed.version] = (replayed.view(0), replayed.view(None))
    assert all(v == expected[v["version"]][0 if v["seat"] == 0 else 1] for v in views)
    assert all(cardcore.load(s).version == s["version"] for s in saves)


# --------------------------------------------------------------------------------------
# timeouts
# --------------------------------------------------------------------------------------


def test_timeouts_play_the_documented_defaults() -> None:
    bot = Bot()
    bot.start("g", "golf", ["ann", "bob"], seed=5)
    bot.start("t", "tonk", ["ann", None, None], seed=8)
    bot.run_bots("t")
    bot.arm("g", 0.0), bot.arm("t", 0.0)
    assert bot.tick(30.0) == []
    played = bot.tick(61.0)
    golf = [(seat, text) for channel, seat, text in played if channel == "g"]
    assert golf[:2] == [(0, "flip 0"), (0, "flip 1")]  # Golf setup: the first flips
    # Tonk: 'draw' (never 'drop'), then the discard worth the most points
    tonk = [(seat, text) for channel, seat, text in played if channel == "t"]
    assert tonk[0] == (0, "draw")
    assert len(tonk) >= 2 and tonk[1][1].startswith("discard ")
    assert all(seat == 0 for seat, _ in tonk)


# --------------------------------------------------------------------------------------
# subscribers that raise
# --------------------------------------------------------------------------------------


def test_a_failing_dm_costs_nobody_else_and_changes_nothing_else() -> None:
    bot = Bot()
    room = bot.start("c", "golf", ["ann", "bob"], seed=7)
    twin = cardcore.new_game("golf", ["ann", "bob"], seed=7)
    failures: list[cardcore.DeliveryFailure] = []
    room.game.events.on_error = failures.append
    bot.blocked.add("bob")
    ann_before, posts_before = len(bot.dms["ann"]), len(bot.posts["c"])
    for seat, text in [(0, "flip 0"), (0, "flip 4"), (1, "flip 1"), (1, "flip 5"), (0, "draw")]:
        room.game.act(seat, text)
        twin.act(seat, text)
    assert room.game.save() == twin.save()  # the failing subscriber left nothing half-changed
    ann_events = [json.loads(m) for m in bot.dms["ann"][ann_before:]]
    public = [json.loads(m) for m in bot.posts["c"][posts_before:]]
    assert [e["version"] for e in ann_events if e["event"] == "action-applied"] == [1, 2, 3, 4, 5]
    assert [e["version"] for e in public if e["event"] == "action-applied"] == [1, 2, 3, 4, 5]
    assert failures and all(isinstance(f.error, ConnectionError) for f in failures)
    assert ann_events[-1]["event"] == "card-drawn" and ann_events[-1]["card"] is not None


def test_dropped_subscriber_and_cancelled_error_in_a_handler() -> None:
    game = cardcore.new_game("golf", ["ann", "bob"], seed=7)
    calls, others = [], []

    def flaky(event: cardcore.Event) -> None:
        calls.append(event.slug)
        raise RuntimeError("chat API down")

    game.events.subscribe(cardcore.Event, flaky, 0, drop_on_error=True)
    game.events.subscribe(cardcore.Event, others.append, 1)
    game.act(0, "flip 0")
    game.act(0, "flip 4")
    assert len(calls) == 1 and game.version == 2
    assert [e.version for e in others if isinstance(e, cardcore.ActionApplied)] == [1, 2]

    def cancelled(event: cardcore.Event) -> None:
        raise asyncio.CancelledError

    game.events.subscribe(cardcore.ActionApplied, cancelled)
    with pytest.raises(asyncio.CancelledError):
        game.act(1, "flip 1")
    # the action stays applied and the other subscriber got the whole batch
    assert game.version == 3
    assert [e.version for e in others if isinstance(e, cardcore.ActionApplied)] == [1, 2, 3]
    assert others[-1].slug != "action-applied"


def test_raising_subscriber_passed_to_new_game_does_not_block_the_deal() -> None:
    got: list[cardcore.Event] = []

    def boom(event: cardcore.Event) -> None:
        raise ValueError("x")

    game = cardcore.new_game(
        "tonk", 3, seed=2, subscribers=[(cardcore.Event, boom, 0), (cardcore.Event, got.append, 1)]
    )
    slugs = [e.slug for e in got]
    assert game.version == 0 and slugs[0] == "game-started" and "hand-dealt" in slugs
    assert len(slugs) >= 5


# --------------------------------------------------------------------------------------
# save on shutdown, restore on start, tampered files refused
# --------------------------------------------------------------------------------------


def _bots_continue(game: cardcore.Game, steps: int) -> list:
    agents = _agents(game.name, len(game.players))
    for _ in range(steps):
        if game.is_over:
            break
        seat = next((s for s in game.to_act if game.legal_actions(s)), None)
        if seat is None:
            break
        view = game.view(seat)
        game.apply(agents[seat].choose(view, game.legal_actions(seat)), seen=view["version"])
    return game.record()["actions"]


def test_shutdown_and_restart_round_trip_every_game(tmp_path: Path) -> None:
    bot = Bot()
    for name, n in TURN_GAMES:
        _play_channel(bot, f"c-{name}", name, n, seed=21, moves=15)
    spit = asyncio.run(_spit_with_timers(seed=5, cap=80))["game"]
    spit_room = Room(bot, "c-spit", cardcore.load(spit.save()), ["s0", "s1"], fresh=False)
    bot.rooms["c-spit"] = spit_room
    assert all(room.game.version > 0 for room in bot.rooms.values())
    bot.save_all(tmp_path)

    again = Bot.restore_all(tmp_path)
    assert again.refused == {}
    assert set(again.rooms) == set(bot.rooms)
    for channel, room in bot.rooms.items():
        game, back = room.game, again.rooms[channel].game
        assert back.version == game.version and back.players == game.players
        for seat in [None, *range(len(game.players))]:
            assert back.view(seat) == game.view(seat)
        if game.name != "spit":
            assert _bots_continue(back, 40) == _bots_continue(game.clone(), 40)
    # restored rooms post again: a DM for a human in the restored golf channel
    golf = again.rooms["c-golf"]
    if not golf.game.is_over:
        seat, text = bot_move(golf, random.Random(1))
        assert again.handle("c-golf", golf.owners[seat], f"!move {text}").startswith("played")
        assert again.dms[golf.owners[seat]]


def test_tampered_and_damaged_files_are_refused_and_others_restore(tmp_path: Path) -> None:
    bot = Bot()
    for i in range(5):
        _play_channel(bot, f"g{i}", "golf", 2, seed=60 + i, moves=12)
    bot.save_all(tmp_path)

    def edit(channel: str, change: Callable[[dict], None]) -> None:
        path = tmp_path / f"{channel}.json"
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))

    edit("g0", lambda d: d["save"]["record"]["actions"].pop())
    edit("g1", lambda d: d["save"]["record"].__setitem__("seed", d["save"]["record"]["seed"] + 1))
    other = json.loads((tmp_path / "g3.json").read_text())["save"]["signature"]
    edit("g2", lambda d: d["save"].__setitem__("signature", other))
    (tmp_path / "g3.json").write_text((tmp_path / "g3.json").read_text()[:-40])
    again = Bot.restore_all(tmp_path)
    assert set(again.refused) == {"g0", "g1", "g2", "g3"}
    assert "signature" in again.refused["g0"] and "signature" in again.refused["g2"]
    assert not any(cards_in(msg) for msg in again.refused.values())
    assert set(again.rooms) == {"g4"}
    assert again.rooms["g4"].game.view(0) == bot.rooms["g4"].game.view(0)


def test_signed_spit_save_refuses_an_edited_time_that_unsigned_accepts() -> None:
    game = asyncio.run(_spit_with_timers(seed=3, cap=30))["game"]
    signed = json.loads(json.dumps(game.save(key=KEY)))
    actions = signed["record"]["actions"]
    last = max(i for i, a in enumerate(actions) if a[2] is not None)
    actions[last][2] = actions[last][2] + 0.5  # later, still in order: within the rules
    plain = {k: v for k, v in signed.items() if k != "signature"}
    assert (
        cardcore.load(plain).version == game.version
    )  # documented: unsigned accepts an edited time
    with pytest.raises(CorruptStateError, match="signature"):
        cardcore.load(signed, key=KEY)
    with pytest.raises(CorruptStateError):
        cardcore.load(game.save(key=b"another key"), key=KEY)
    assert cardcore.load(game.save(key=KEY), key=KEY).view(None) == game.view(None)


# --------------------------------------------------------------------------------------
# memory
# --------------------------------------------------------------------------------------


def _measure(build: Callable[[int], Any], count: int) -> float:
    build(0)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = [build(i) for i in range(count)]
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(kept) == count
    return (after - before) / count / 1024


def test_500_small_bot_games_stay_bounded() -> None:
    def build(i: int) -> cardcore.Game:
        name, n = TURN_GAMES[i % len(TURN_GAMES)]
        counts = [0]
        subs = [
            (cardcore.Event, lambda e: counts.__setitem__(0, counts[0] + 1), s) for s in range(n)
        ]
        subs.append((cardcore.Event, lambda e: None, SPECTATOR))
        game = cardcore.new_game(name, n, seed=i, subscribers=subs)
        rng = random.Random(i)
        for _ in range(12):
            if game.is_over:
                break
            seat = rng.choice([s for s in game.to_act if game.legal_actions(s)])
            game.apply(rng.choice(game.legal_actions(seat)))
        return game

    per_game = _measure(build, 500)
    assert per_game < 40, f"{per_game:.1f} KB per small game with 4-5 subscribers"


def test_performance_memory_claim_golf6_4p_halfway() -> None:
    """performance.rst: a live GOLF6 4-player game at action 363 takes about 11 KB (target <= 20 KB)."""

    def build(i: int) -> cardcore.Game:
        game = cardcore.new_game("golf", 4, seed=1000 + i).single_thread()
        rng = random.Random(i)
        while game.version < 363 and not game.is_over:
            game.apply(rng.choice(game.legal_actions(game.to_act[0])))
        return game

    per_game = _measure(build, 60)
    assert per_game <= 20, f"{per_game:.1f} KB"
