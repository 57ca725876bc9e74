"""Property tests of the core invariants over many random games."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

import cardcore
from cardcore import Event, IllegalActionError, NotationError, RandomAgent

GAMES = st.sampled_from([("drawgame", 2), ("drawgame", 3), ("drawgame", 4), ("racegame", 2)])


def _known_cards(game: cardcore.Game, seat: int) -> Counter[str]:
    z = game.state.zones
    return Counter(
        str(z.cards[p][i])
        for p in range(len(z.cards))
        for i in range(len(z.cards[p]))
        if z.knows(p, i, seat)
    )


def _cards_in(value: object) -> list[str]:
    out: list[str] = []
    if isinstance(value, str):
        with contextlib.suppress(NotationError):
            out.append(str(cardcore.Card.parse(value)))
    elif isinstance(value, dict):
        for v in value.values():
            out.extend(_cards_in(v))
    elif isinstance(value, list | tuple):
        for v in value:
            out.extend(_cards_in(v))
    return out


@given(game_spec=GAMES, seed=st.integers(0, 2**32), agent_seed=st.integers(0, 1000))
def test_no_card_lost_and_views_hide(game_spec, seed, agent_seed) -> None:  # type: ignore[no-untyped-def]
    name, players = game_spec
    game = cardcore.new_game(name, players, seed=seed)
    deck = Counter(game.logic.deck(players, game.options))
    streams: dict[int, list[Event]] = {s: [] for s in range(players)}
    for s in range(players):
        game.events.subscribe(Event, streams[s].append, seat=s)
    agent = RandomAgent(agent_seed)
    steps = 0
    while not game.is_over and steps < 300:
        seat = game.to_act[int(agent.rng.random() * len(game.to_act))]
        legal = game.legal_actions(seat)
        if not legal:
            break
        game.apply(agent.choose({}, legal))
        steps += 1
        assert Counter(game.state.zones.all_cards()) == deck
        for s in range(players):
            view = game.view(s)
            shown = Counter(_cards_in([view["table"], view["zones"], game.history(s)]))
            assert not shown - _known_cards(game, s), f"seat {s} sees a card it does not know"
    for s in range(players):
        for event in streams[s]:
            card = getattr(event, "card", None)
            if card is not None and getattr(event, "visible_to", cardcore.ALL) != cardcore.ALL:
                assert (event.visible_to >> s) & 1  # type: ignore[attr-defined]


@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40), text=st.text(max_size=30))
def test_rejected_actions_change_nothing(seed, steps, text) -> None:  # type: ignore[no-untyped-def]
    game = cardcore.new_game("drawgame", 3, seed=seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.apply(agent.choose({}, game.legal_actions(seat)))
    events: list[Event] = []
    game.events.subscribe(Event, events.append)
    before = (game.state.snapshot(), game.version, game.record())
    for seat in range(-1, 4):
        try:
            game.act(seat, text)
        except (NotationError, IllegalActionError):
            assert (game.state.snapshot(), game.version, game.record()) == before
            assert events == []
        else:
            return  # a valid action was typed by chance


@given(seed=st.integers(0, 2**32))
def test_replay_reproduces(seed) -> None:  # type: ignore[no-untyped-def]
    game = cardcore.new_game("drawgame", 2, seed=seed, options={"rounds": 2})
    cardcore.play(game, [RandomAgent(seed), RandomAgent(seed + 1)])
    again = cardcore.replay(game.record())
    assert again.state.snapshot() == game.state.snapshot()
    clone = game.clone()
    assert clone.state.snapshot() == game.state.snapshot()


def test_replay_under_another_hash_seed(make_game) -> None:
    import json

    game = make_game("drawgame", 3, options={"rounds": 3})
    cardcore.play(game, [RandomAgent(s) for s in range(3)])
    code = (
        "import json,sys; sys.path.insert(0, '.'); import tests.conftest; import cardcore; "
        "g = cardcore.replay(json.loads(sys.stdin.read())); print(json.dumps(g.state.snapshot(), sort_keys=True))"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for hash_seed in ("0", "987"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(game.record()),
            capture_output=True,
            text=True,
            check=True,
            env=env,
            cwd=root,
        ).stdout
        assert json.loads(out) == json.loads(json.dumps(game.state.snapshot(), sort_keys=True))
