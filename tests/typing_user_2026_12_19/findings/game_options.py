"""Game.options is typed ``Any`` (GameState.options is ``Mapping[str, Any]``).

At run time it is a read-only mappingproxy: this assignment raises TypeError, and mypy
should say so (expected error on the marked line).
"""

import cardcore

game = cardcore.new_game("golf", 2, seed=1)
game.options["rounds"] = 3  # expect-error
