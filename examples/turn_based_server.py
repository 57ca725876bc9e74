"""A turn-based game server loop: one game per table, players send notation text.

The "server" keeps a dict of table id -> Game. Each incoming message is
(table, seat, text), the seat being the one the player's connection was given when it
joined (the host decides which seat a connection speaks for, never the message: see
docs/security.rst); the server applies it with ``Game.act`` and answers with
either the player's new view or the error text (bad notation, wrong seat,
out of turn, against a rule). Halfway through, every table is saved to a JSON
file with ``Game.save()`` and loaded back with ``cardcore.load``, as a server
would after a restart; the example then checks that each loaded game goes on
exactly like the one that never stopped.

Run: ``python examples/turn_based_server.py [DIRECTORY]`` (saves go to a
temporary directory by default).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

import cardcore


class TableServer:
    """Holds the games of a card room, one per table id."""

    def __init__(self) -> None:
        self.tables: dict[str, cardcore.Game] = {}

    def open(self, table: str, game: str, players: list[str], **kwargs: Any) -> None:
        """Start a new game at *table*."""
        self.tables[table] = cardcore.new_game(game, players, **kwargs)

    def handle(self, table: str, seat: int, text: str, seen: int | None = None) -> dict[str, Any]:
        """Apply one player's message; return the reply sent back to that player.

        *seen* is the ``version`` of the view the player acted on (clients send it
        back with their action), so an action overtaken by another is told apart
        from one that was never legal.
        """
        game = self.tables.get(table)
        if game is None:
            return {"ok": False, "error": f"no table {table!r}"}
        if type(seat) is not int or seat < 0:  # a player's seat, never the host's (HOST)
            return {"ok": False, "error": f"{seat!r} is not a player's seat"}
        try:
            action = game.act(seat, text, seen=seen)
        except cardcore.NotationError as exc:
            return {"ok": False, "error": f"not understood: {exc}"}
        except cardcore.IllegalActionError as exc:
            return {"ok": False, "error": f"not allowed: {exc}", "rule": exc.rule_id}
        return {"ok": True, "applied": str(action), "view": game.view(seat)}

    def save_all(self, directory: Path) -> list[Path]:
        """Write every table to ``<directory>/<table>.json``."""
        paths = []
        for table, game in self.tables.items():
            path = directory / f"{table}.json"
            path.write_text(json.dumps(game.save()), encoding="utf-8")
            paths.append(path)
        return paths

    @classmethod
    def load_all(cls, directory: Path) -> TableServer:
        """Rebuild a server from the files written by :meth:`save_all` (validated on load)."""
        server = cls()
        for path in sorted(directory.glob("*.json")):
            server.tables[path.stem] = cardcore.load(path.read_text(encoding="utf-8"))
        return server


def client_move(reply_view: dict[str, Any], rng: random.Random) -> str:
    """What a client might send: one of the notations its view lists as legal."""
    legal: list[str] = reply_view["legal"]
    return rng.choice(legal)


def drive(server: TableServer, rng: random.Random, steps: int) -> list[tuple[str, int, str]]:
    """Let simulated clients play *steps* moves at every table; return the messages sent."""
    sent = []
    for table, game in sorted(server.tables.items()):
        for _ in range(steps):
            if game.is_over:
                break
            seat = game.to_act[0]
            view = game.view(seat)
            text = client_move(view, rng)
            reply = server.handle(table, seat, text, seen=view["version"])
            assert reply["ok"], reply
            sent.append((table, seat, text))
    return sent


def main(directory: Path) -> None:
    server = TableServer()
    server.open("golf-1", "golf", ["Ann", "Bob", "Cy"], options={"rounds": 2}, seed=11)
    server.open("tonk-1", "tonk", ["Dee", "Eve"], options={"hands": 3}, seed=12)
    server.open(
        "golf-2", "golf", ["Fay", "Gus"], rules=["golf.jokers"], options={"layout": "4"}, seed=13
    )

    # Bad messages are answered with an error and change nothing.
    before = server.tables["golf-1"].version
    for seat, text in [(0, "fly to the moon"), (1, "draw"), (7, "draw"), (0, "flip 99")]:
        reply = server.handle("golf-1", seat, text)
        assert not reply["ok"]
        print(f"golf-1 seat {seat} {text!r:18} -> {reply['error']}")
    print("unknown table ->", server.handle("bridge-9", 0, "draw")["error"])
    assert server.tables["golf-1"].version == before

    rng = random.Random(5)
    drive(server, rng, steps=5)
    assert not any(game.is_over for game in server.tables.values())
    paths = server.save_all(directory)
    print(f"saved {len(paths)} tables to {directory}: {', '.join(p.name for p in paths)}")

    restored = TableServer.load_all(directory)
    for table, game in server.tables.items():
        twin = restored.tables[table]
        for seat in range(len(game.players)):
            assert twin.view(seat) == game.view(seat), table
        print(f"{table}: loaded at version {twin.version}, views identical")

    # Both servers receive the same messages from here on and must stay identical.
    rng_a, rng_b = random.Random(9), random.Random(9)
    for _ in range(400):
        sent_a = drive(server, rng_a, steps=1)
        sent_b = drive(restored, rng_b, steps=1)
        assert sent_a == sent_b
        if not sent_a:
            break
    for table, game in server.tables.items():
        twin = restored.tables[table]
        assert game.is_over and twin.is_over, table
        assert twin.result == game.result
        assert twin.record()["actions"] == game.record()["actions"]
        result = game.result
        assert result is not None
        winners = ", ".join(game.players[w] for w in result.winners)
        print(
            f"{table}: over after {game.version} actions ({result.reason}); winner {winners}; "
            f"scores {list(result.scores)}; the loaded copy finished identically"
        )

    # A damaged save is refused and loads nothing.
    damaged = json.loads(paths[0].read_text(encoding="utf-8"))
    damaged["record"]["actions"] = damaged["record"]["actions"][:-1]
    try:
        cardcore.load(damaged)
    except cardcore.CorruptStateError as exc:
        print("damaged save refused:", str(exc)[:90])
    else:
        raise AssertionError("a damaged save was accepted")
    print("ok")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        target = Path(sys.argv[1])
        target.mkdir(parents=True, exist_ok=True)
        main(target)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(Path(tmp))
