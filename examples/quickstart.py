"""Quickstart: a seeded Golf game played by three random agents."""

import cardcore

game = cardcore.new_game("golf", ["Ann", "Bob", "Cy"], options={"rounds": 3}, seed=7)
agents = [cardcore.RandomAgent(seed=seat) for seat in range(3)]
result = cardcore.play(game, agents)  # or drive it: game.act(seat, "draw"), game.view(seat)
print("winners:", [game.players[s] for s in result.winners], "after", game.version, "actions")
for seat, name in enumerate(game.players):
    print(f"{name:>4}: {result.scores[seat]:>4g} points")
saved = game.save()  # JSON-ready; cardcore.load(saved) restores it
assert cardcore.load(saved).version == game.version
assert cardcore.replay(game.record()).result == result  # records replay exactly
