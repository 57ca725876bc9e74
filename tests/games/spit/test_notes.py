"""Spit's ``GameInfo.notes``: the game's own steps in words (SPIT-START-1, SPIT-STUCK-3/5).

A note names only cards the change's events show (a seat's received events), so no word of
it reads as another card: the sessions' leak checks scan every byte a seat is sent.
"""

from __future__ import annotations

import random
import re
from typing import Any

import cardcore
from cardcore_spit.views import notes

CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9AJQK])[SHDC](?![A-Za-z0-9])", re.IGNORECASE)


def _changes(seed: int, steps: int = 400) -> list[tuple[str | None, list[dict[str, Any]]]]:
    game = cardcore.new_game("spit", 2, seed=seed, options={"stall_limit": 3})
    batch: list[dict[str, Any]] = []
    game.events.subscribe(cardcore.Event, lambda e: batch.append(e.for_seat(0).to_json()))
    rng = random.Random(seed)
    out: list[tuple[str | None, list[dict[str, Any]]]] = []
    for _ in range(steps):
        if game.is_over:
            break
        seat = rng.choice([s for s in game.to_act if game.legal_actions(s)] or [game.to_act[0]])
        legal = game.legal_actions(seat)
        if not legal:
            break
        action = rng.choice(legal)
        batch.clear()
        game.apply(action)
        out.append((str(action), [e for e in batch if e["event"] != "action-applied"]))
    return out


def test_spit_notes_name_only_the_cards_their_events_show() -> None:
    said = 0
    for seed in range(12):
        for action, events in _changes(seed):
            shown = {str(e.get("card")).upper() for e in events if e.get("card")}
            for line in notes(events, action):
                said += 1
                words = {m.group(0).upper() for m in CARD.finditer(line)}
                assert words <= shown, (line, events)
    assert said > 0  # the games spat and recycled


def test_spit_notes_word_the_start_spit_and_a_requested_spit() -> None:
    spat = [
        {"event": "play-started", "deal": 1},
        {"event": "card-spat", "seat": 0, "card": "10D", "pile": "L"},
        {"event": "card-spat", "seat": 1, "card": "AD", "pile": "R"},
    ]
    assert notes(spat, "ready") == ["Both players are ready: deal 1 starts: a spit (L: 10D, R: AD)"]
    assert notes(spat[1:], "spit") == ["Both players asked for a spit: a spit (L: 10D, R: AD)"]
    recycled = [{"event": "centre-recycled", "counts": [11, 14]}]
    assert notes(recycled, "play 1 L")[0].startswith("No spit cards are left")
    assert (
        notes([{"event": "deal-started", "deal": 1, "counts": [26, 26], "single": False}], None)
        == []
    )
