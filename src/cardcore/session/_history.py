"""Past rounds for ``history`` requests, worked out once per game version and seat.

A game's history grows with the game (Tonk at version 4,000: 127 KB of JSON), and
anyone watching may ask for it again and again, so a session keeps, per seat and for
the spectators, the rounds and each round's JSON text at the current version of the
current game; a request slices them and joins the texts. Nothing here is public.
"""

from __future__ import annotations

from typing import Any

from cardcore.game import Game
from cardcore.session.protocol import Outbound, dumps

__all__ = ["HistoryCache"]


class HistoryCache:
    """Each seat's (``None``: the spectators') past rounds at one version of one game."""

    def __init__(self) -> None:
        self._kept: dict[int | None, tuple[Game, int, list[dict[str, Any]], list[str]]] = {}

    def reply(
        self, conn: str, game: Game, seat: int | None, since: int, upto: int | None, ref: Any
    ) -> Outbound:
        """The ``history`` message for *conn*: rounds *since* to *upto* (``None``: all) as *seat* sees them.

        :param upto: For spectators: the rounds of the version they see (they see the game late).
        """
        kept = self._kept.get(seat)
        if kept is None or kept[0] is not game or kept[1] != game.version:
            rounds = game.history(seat)
            kept = (game, game.version, rounds, [dumps(r) for r in rounds])
            self._kept[seat] = kept
        rounds, texts = kept[2], kept[3]
        end = len(rounds) if upto is None else max(since, upto)
        message = {"type": "history", "id": ref, "since": since, "rounds": rounds[since:end]}
        text = (
            f'{{"type":"history","id":{dumps(ref)},"since":{since},'
            f'"rounds":[{",".join(texts[since:end])}]}}'
        )
        return Outbound(conn, message, text)
