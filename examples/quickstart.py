"""Quickstart: a seeded Golf game played by three random agents."""

import cardcore

game = cardcore.new_game("golf", ["Ann", "Bob", "Cy"], options={"rounds": 3}, seed=7)
print("Ann may start with:", ", ".join(game.view(0)["legal"]))
agents = [cardcore.RandomAgent(seed=seat) for seat in range(3)]
result = cardcore.play(game, agents)
print("after", game.version, "actions the game ended by", result.reason)
for seat, name in enumerate(game.players):
    print(f"{name:>4}: {result.scores[seat]:>4g} points")
print("winner:", " and ".join(game.players[w] for w in result.winners))
assert cardcore.replay(game.record()).result == result  # records replay exactly
