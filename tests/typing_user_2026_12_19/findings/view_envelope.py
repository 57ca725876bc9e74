"""Game.view() returns ``dict[str, Any]`` though its envelope is documented key by key.

Under ``--strict`` (warn_return_any) returning a documented field needs a cast. Judged by
design (2026-12-19): a view is JSON data, read with any ``str`` key (a TypedDict would refuse
``view[key]`` for a key held in a variable); the errors are expected, marked below.
"""

from cardcore import Game


def legal_texts(game: Game, seat: int) -> list[str]:
    return game.view(seat)["legal"]  # expect-error


def view_version(game: Game, seat: int) -> int:
    return game.view(seat)["version"]  # expect-error
