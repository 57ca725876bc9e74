"""Adversarial review of the four games' public API (2026-12-08).

Odd-but-valid-looking values, hand-edited positions, tampered records, agents
answering garbage, re-entrant subscribers and the CLI. Bugs are strict xfails.
"""

from __future__ import annotations

import collections
import contextlib
from typing import Any

import pytest

import cardcore
from cardcore import CardcoreError, Plan, RandomAgent, new_game, run_realtime


def _cards(game: cardcore.Game) -> collections.Counter[str]:
    return collections.Counter(str(c) for pile in game.state.zones.cards for c in pile)


class _Planner:
    """A real-time agent that plans its first legal action after *delay*."""

    def __init__(self, delay: Any) -> None:
        self.delay = delay

    def plan(self, view: Any, legal: Any, now: float) -> Plan | None:
        return Plan(legal[0], self.delay) if legal else None


@pytest.mark.parametrize("game_name", ["spit", "speed"])
def test_realtime_plan_with_huge_int_delay_is_a_cardcore_error(game_name: str) -> None:
    game = new_game(game_name, 2, seed=4)
    with pytest.raises(CardcoreError, match="planned"):
        run_realtime(game, [_Planner(10**400), RandomAgent(1)], max_actions=5)


class _Unprintable:
    def __repr__(self) -> str:
        raise RuntimeError("repr")

    __str__ = __repr__


def test_realtime_plan_whose_repr_raises_is_a_cardcore_error() -> None:
    class Agent:
        def plan(self, view: Any, legal: Any, now: float) -> Plan:
            return Plan(_Unprintable(), 0.1)  # type: ignore[arg-type]

    game = new_game("speed", 2, seed=4)
    with pytest.raises(CardcoreError, match="seat 0"):
        run_realtime(game, [Agent(), RandomAgent(1)], max_actions=5)


@pytest.mark.parametrize("game_name", ["spit", "speed"])
def test_random_agent_with_a_large_spread_never_raises_overflow(game_name: str) -> None:
    # Either the constructor refuses the spread (OptionError, as documented for bad
    # values) or run_realtime copes with it: a raw OverflowError is neither.
    try:
        agent = RandomAgent(1, spread=1000.0)
    except CardcoreError:
        return
    game = new_game(game_name, 2, seed=1)
    with contextlib.suppress(CardcoreError):
        run_realtime(game, [agent, RandomAgent()], max_actions=20)


def test_random_agent_refuses_a_reaction_too_large_for_a_float() -> None:
    with pytest.raises(CardcoreError, match="reaction"):
        RandomAgent(0, reaction=10**400)


@pytest.mark.parametrize("reaction", [10**400, [10**400, 0.5]], ids=["one", "per-seat"])
def test_rl_env_refuses_a_reaction_too_large_for_a_float(reaction: Any) -> None:
    from cardcore.rl import gym_env

    with pytest.raises(CardcoreError, match="reaction"):
        gym_env("speed", 2, reaction=reaction)


class _BadIndex:
    def __index__(self) -> int:
        raise RuntimeError("no index")


def test_rl_step_with_an_object_whose_index_raises_is_refused_cleanly() -> None:
    from cardcore.rl import gym_env

    env = gym_env("golf", 2)
    env.reset(seed=3)
    version = env.runner.match.game.version
    with pytest.raises(CardcoreError, match="action index"):
        env.step(_BadIndex())
    assert env.runner.match.game.version == version


@pytest.mark.parametrize("count", ["1_0", "\u0663", "\uff12"])
def test_cli_counts_are_ascii_whole_numbers_like_option_values(
    count: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    from cardcore import cli

    # -o rounds=1_0 is refused ("ASCII digits, as the core's number reader"); so
    # should --games be.
    assert cli.main(["simulate", "golf", "-o", "rounds=1_0", "-q", "--json", os.devnull]) == 2
    code = cli.main(["simulate", "golf", "--games", count, "-q", "--json", os.devnull])
    assert code == 2, capsys.readouterr()


def test_agent_spec_whole_number_never_becomes_infinity() -> None:
    from cardcore import parse_agent_spec

    try:
        _, params = parse_agent_spec("random:seed=" + "1" * 5000)
    except CardcoreError:
        return
    assert not isinstance(params["seed"], float), params["seed"]


def _finished(game_name: str) -> cardcore.Game:
    import random

    options = {"rounds": 1} if game_name == "golf" else None
    game = new_game(game_name, 2, seed=5, options=options)
    rng = random.Random(1)
    step = 0
    while not game.is_over:
        legal = [a for seat in game.to_act for a in game.legal_actions(seat)]
        game.apply(rng.choice(legal), at=float(step))
        step += 1
    return game


@pytest.mark.parametrize("game_name", ["golf", "tonk", "spit", "speed"])
def test_save_of_a_finished_game_with_its_result_nulled_is_refused(game_name: str) -> None:
    game = _finished(game_name)
    data = game.save()
    assert data["record"]["result"] is not None
    data["record"]["result"] = None
    with pytest.raises(cardcore.CorruptStateError, match="result"):
        cardcore.load(data)


class _HostileStr(str):
    """Text whose methods fail: new_game and act read such a subclass as the plain str."""

    def strip(self, *args: Any) -> str:
        raise RuntimeError("strip")

    def upper(self) -> str:
        raise RuntimeError("upper")

    def lower(self) -> str:
        raise RuntimeError("lower")

    def encode(self, *args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("encode")

    def partition(self, *args: Any) -> tuple[str, str, str]:
        raise RuntimeError("partition")

    def startswith(self, *args: Any) -> bool:
        raise RuntimeError("startswith")

    def split(self, *args: Any, **kwargs: Any) -> list[str]:
        raise RuntimeError("split")


@pytest.mark.parametrize("call", ["new_game", "Card.parse", "parse_cards"])
def test_card_text_given_as_a_str_subclass_is_read_as_plain_text(call: str) -> None:
    # act() and rules/names read such a subclass as its plain value (commit 958a4b1's
    # hardening); a deck card in any spelling Card.parse accepts should be read the same.
    text = _HostileStr(" 5h")
    try:
        if call == "new_game":
            game = new_game("golf", 2, seed=1, deck=[text])
            zones = game.state.zones
            card = zones.cards[zones.id("grid.0")][0]
        elif call == "Card.parse":
            card = cardcore.Card.parse(text)
        else:
            (card,) = cardcore.parse_cards([text])
    except cardcore.NotationError:
        return
    assert card == cardcore.Card.parse("5H")


def _hostile_text_call(where: str) -> object:
    import json

    game = new_game("golf", 2, seed=1)
    if where == "replay":  # records.py: json text read with the subclass's methods
        return cardcore.replay(_HostileStr(json.dumps(game.record())))
    if where == "load":
        return cardcore.load(_HostileStr(json.dumps(game.save())))
    if where == "record-key":  # _recording.py: key.encode(...)
        return game.record(key=_HostileStr("secret"))
    if where == "agent-spec":  # _agentspec.py: spec.partition(":")
        return cardcore.parse_agent_spec(_HostileStr("random:seed=1"))
    if where == "session-names":  # session/protocol.py: value.encode("utf-8")
        from cardcore.session import Session

        return Session.create("golf", [_HostileStr("Ann"), "Bob"], now=0.0, seed=1)
    # the caller's text is blamed on the golf plugin (PluginError)
    return new_game("golf", 2, seed=2, position=_HostileStr(game.position()))


@pytest.mark.parametrize(
    "where", ["replay", "load", "record-key", "agent-spec", "session-names", "position"]
)
def test_text_arguments_given_as_str_subclasses_are_read_as_plain_text(where: str) -> None:
    # new_game's names, rules, players and act()'s text already read such a subclass as
    # its plain value (commit 958a4b1); these entry points should do the same, or refuse
    # it with a documented error that is not a plugin's fault.
    try:
        _hostile_text_call(where)
    except cardcore.PluginError as exc:
        pytest.fail(f"the caller's text blamed on a plugin: {exc}")
    except CardcoreError:
        pass


class _HostileInt(int):
    """An int whose comparisons, conversions and repr fail (act refuses it cleanly)."""

    def _boom(self, *args: Any) -> Any:
        raise RuntimeError("hostile int")

    __lt__ = __le__ = __gt__ = __ge__ = _boom
    __int__ = __index__ = _boom
    __repr__ = _boom
    __hash__ = int.__hash__


def _hostile_int_call(where: str) -> object:
    if where == "history-since":  # game.py: `since < 0` on the caller's int subclass
        return new_game("golf", 2, seed=1).history(since=_HostileInt(0))
    if where == "random-agent-seed":  # agents.py: the refusal formats it with {seed!r}
        return RandomAgent(_HostileInt(1))
    if where == "rl-players":  # rl/match.py: int(value)
        from cardcore.rl import aec_env

        return aec_env("golf", _HostileInt(2))
    from cardcore.rl import gym_env  # rl/seat.py: int(seat)

    return gym_env("golf", 2, seat=_HostileInt(0))


@pytest.mark.parametrize("where", ["history-since", "random-agent-seed", "rl-players", "rl-seat"])
def test_int_arguments_given_as_int_subclasses_never_raise_raw(where: str) -> None:
    game = new_game("golf", 2, seed=1)
    with pytest.raises(cardcore.SeatError):  # act refuses it cleanly, changing nothing
        game.act(_HostileInt(0), "flip 0")
    assert game.version == 0
    with contextlib.suppress(CardcoreError):
        _hostile_int_call(where)


class _EqRaisingStr(str):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    __hash__ = str.__hash__


def test_subscribe_with_a_str_subclass_seat_never_raises_raw() -> None:
    game = new_game("golf", 2, seed=1)
    with contextlib.suppress(CardcoreError):
        game.events.subscribe(cardcore.Event, lambda event: None, seat=_EqRaisingStr("spectator"))


def test_cli_replay_never_writes_a_records_escape_sequences(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from cardcore import cli

    name = "Ann\x1b[2J\x1b]0;owned\x07"
    with pytest.raises(cardcore.OptionError, match="no control character"):
        new_game("golf", [name, "Bob"], seed=1, options={"rounds": 1})
    game = new_game("golf", ["Ann", "Bob"], seed=1, options={"rounds": 1})
    game.act(0, "flip 0")
    record = game.record()
    record["players"][0] = name  # a record edited by hand
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code = cli.main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert code == 2, err  # refused: the record cannot start its game
    assert "\x1b" not in out + err


@pytest.mark.parametrize("version", ["banana", "", "1000000000.0.0"])
def test_earlier_rules_does_not_read_a_non_version_as_the_oldest(version: str) -> None:
    assert cardcore.earlier_rules("tonk", "0.4.9") == ("tonk.deal-shows-every-hand",)
    try:
        rules = cardcore.earlier_rules("tonk", version)
    except CardcoreError:
        return
    assert "tonk.deal-shows-every-hand" not in rules


# ---- behaviour checked that holds (kept few) ----------------------------------------------

_CONFIGS = [
    ("golf", {"rounds": 1}),
    ("golf", {"layout": 4, "rounds": 1}),
    ("golf", {"layout": "4h", "rounds": 1}),
    ("tonk", {"hands": 2}),
    ("spit", {}),
    ("speed", {}),
]


def _probe_texts(game_name: str) -> list[str]:
    cards = [str(c) for c in cardcore.standard_52()]
    if game_name == "tonk":
        return [f"discard {c}" for c in cards] + [f"hit 1 {c}" for c in cards]
    if game_name == "speed":
        return [f"play {c} L" for c in cards] + ["stuck"]
    if game_name == "spit":
        return [f"play {i} L" for i in range(1, 6)] + [f"combine {i} 1" for i in range(2, 6)]
    return [f"{verb} {i}" for verb in ("flip", "peek", "replace") for i in range(6)] + ["take"]


@pytest.mark.parametrize(("game_name", "options"), _CONFIGS)
def test_refusals_and_rl_observations_do_not_depend_on_hidden_cards(
    game_name: str, options: dict[str, Any]
) -> None:
    """A seat's error messages and RL observation are the same in a determinized copy."""
    import random

    import numpy as np

    from cardcore.rl import observe

    game = new_game(game_name, 2, seed=11, options=options)
    rng = random.Random(11)
    texts = _probe_texts(game_name)
    for step in range(40):
        if step % 10 == 0:
            for seat in range(2):
                other = game.determinize(seat, rng.randrange(2**64))
                assert other.view(seat) == game.view(seat)
                mine, theirs = observe(game, seat), observe(other, seat)
                for key in mine:
                    assert np.array_equal(mine[key], theirs[key]), (step, seat, key)
                for text in texts:
                    said = []
                    for copy in (game.clone(), other.clone()):
                        try:
                            copy.act(seat, text)
                            said.append("applied")
                        except CardcoreError as exc:
                            said.append(f"{type(exc).__name__}: {exc}")
                    assert said[0] == said[1], (step, seat, text)
        if game.is_over:
            break
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        if not legal:
            break
        game.apply(rng.choice(legal))


@pytest.mark.parametrize("game_name", ["golf", "tonk", "spit", "speed"])
def test_acting_and_saving_from_inside_a_subscriber_keeps_the_record_sound(game_name: str) -> None:
    import random

    rng = random.Random(3)
    saves: list[dict[str, Any]] = []
    holder: list[cardcore.Game] = []

    def handler(event: cardcore.Event) -> None:
        game = holder[0]
        saves.append(game.save())
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        if legal and rng.random() < 0.5:
            game.apply(rng.choice(legal))  # queued behind the current events

    game = new_game(game_name, 2, seed=3, subscribers=[(cardcore.ActionApplied, handler)])
    holder.append(game)
    cards = _cards(game)
    for _ in range(30):
        if game.is_over:
            break
        legal = [a for s in game.to_act for a in game.legal_actions(s)]
        if not legal:
            break
        game.apply(rng.choice(legal))
    assert _cards(game) == cards
    assert cardcore.replay(game.record()).position() == game.position()
    for data in saves[-3:]:
        cardcore.load(data)


def _fair_bundle() -> dict[str, Any]:
    import json
    import random

    from cardcore.session import Session, SessionConfig

    session = Session.create(
        "golf", ["Ann", "Bob"], now=0.0, options={"rounds": 1}, config=SessionConfig(fair=True)
    )
    session.handle("ann", '{"type": "join", "seat": 0}', now=1.0)
    session.handle("bob", '{"type": "join", "seat": 1}', now=2.0)
    rng = random.Random(0)
    now = 3.0
    bundle: dict[str, Any] | None = None
    while bundle is None:
        game = session.game
        assert game is not None and not game.is_over
        seat = game.to_act[0]
        text = str(rng.choice(game.legal_actions(seat)))
        now += 1.0
        message = {"type": "act", "action": text, "seen": game.version}
        for out in session.handle(("ann", "bob")[seat], json.dumps(message), now=now):
            if out.message.get("type") == "reveal":
                bundle = out.message["bundle"]
    return bundle


@pytest.mark.parametrize(("field", "value"), [("seed", 12345), ("format_version", True)])
def test_verify_bundle_refuses_a_bundle_whose_fields_were_edited(field: str, value: Any) -> None:
    from cardcore.session import verify_bundle

    bundle = _fair_bundle()
    report = verify_bundle(bundle)
    assert report.seed == bundle["seed"]
    bundle[field] = value
    with pytest.raises(CardcoreError):
        verify_bundle(bundle)
