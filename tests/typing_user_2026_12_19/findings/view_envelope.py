"""Game.view() returns ``dict[str, Any]`` though its envelope is documented key by key.

Under ``--strict`` (warn_return_any) returning a documented field needs a cast.
"""

from cardcore import Game


def legal_texts(game: Game, seat: int) -> list[str]:
    return game.view(seat)["legal"]


def view_version(game: Game, seat: int) -> int:
    return game.view(seat)["version"]
