"""The game's lines of what no action names (``GameInfo.notes``): Speed's side cards turning."""

from __future__ import annotations

import random
import re

import cardcore
from cardcore import Event
from cardcore.session import MemoryStore, Session, SessionConfig
from tests.session.kit import Table, messages

LINE = re.compile(r"^Nobody can play: the side cards turn \(L: (\w+), R: (\w+)\)$")


def _deal_turns() -> int:
    """A seed whose deal leaves nobody a play, so the side cards turn at once (SPEED-STUCK-1)."""
    for seed in range(1000):
        heard: list[Event] = []
        cardcore.new_game("speed", 2, seed=seed, subscribers=[(Event, heard.append)])
        if any(e.slug == "card-spat" for e in heard):
            return seed
    raise AssertionError("no deal turned the side cards")


def _turned(events: list[dict[str, object]]) -> tuple[str, str]:
    spat = {e["pile"]: e["card"] for e in events if e["event"] == "card-spat"}
    return str(spat["L"]), str(spat["R"])


def test_speed_says_when_the_side_cards_turn_at_the_deal_and_in_play() -> None:
    session = Session.create(
        "speed", 2, now=0.0, seed=_deal_turns(), config=SessionConfig(), store=MemoryStore()
    )
    t = Table(session)
    t.send("w", {"type": "watch"})
    t.join("a", 0)
    t.join("b", 1)
    for conn in "abw":  # the deal: every stream's start view says it, with the cards turned
        (start,) = messages(t.outbound, conn, "view")
        piles = start["view"]["table"]["piles"]
        (line,) = start["notes"]
        match = LINE.match(line)
        assert match and match.groups() == (piles["L"][0], piles["R"][0]), line
    rng = random.Random(3)
    told = 0
    game = session.game
    assert game is not None
    while told < 2 and not game.is_over and game.version < 2000:
        plays = [(c, a) for c in "ab" for a in t.legal(c) if a.startswith("play")]
        conn, action = rng.choice(plays or [("a", "stuck"), ("b", "stuck")])
        t.act(conn, action, 0.3)
        for c in "ab":
            update = messages(t.outbound, c, "update")[-1]
            if any(e["event"] == "card-spat" for e in update["events"]):
                (line,) = update["notes"]
                match = LINE.match(line)
                if match is None:  # both declared stuck, though one of them could play
                    assert line.startswith("Both players are stuck: the side cards turn ("), line
                else:
                    assert match.groups() == _turned(update["events"]), line
                told += c == "a"
            else:
                assert "notes" not in update  # nothing to say: no key
    assert told >= 2
    spectated = [u for u in messages(t.outbound, "w", "update") if "notes" in u]
    assert spectated, "the spectators are told too"


def test_speed_notes_name_the_cause_and_every_turn() -> None:
    say = cardcore.game_info("speed").notes
    assert say is not None
    spat = [
        {"event": "card-spat", "seat": 0, "card": "7H", "pile": "L"},
        {"event": "card-spat", "seat": 1, "card": "QS", "pile": "R"},
    ]
    recycled = {"event": "centre-recycled", "counts": [12, 9]}
    assert say(spat, "stuck") == ["Both players are stuck: the side cards turn (L: 7H, R: QS)"]
    assert say([*spat, recycled, spat[1]], "play 5C L") == [
        "Nobody can play: the side cards turn (L: 7H, R: QS)",
        "No side cards are left: the play piles are shuffled into new side piles (12 and 9 cards)",
        "Nobody can play: a side card turns (R: QS)",
    ]
    assert say([{"event": "card-moved", "seat": 0, "src": "hand.0", "dst": "pile.L"}], None) == []
