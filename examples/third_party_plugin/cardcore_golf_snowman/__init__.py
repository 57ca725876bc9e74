"""SNOWMAN-1: a third-party Golf house rule -- every 8 (a "snowman") scores 0.

An 8 normally scores 8 points in Golf. Under this rule it scores 0, so a
player holding 8s keeps them; a column pair of 8s still cancels to 0.

Install the distribution (``pip install ./examples/third_party_plugin``) and
ask for the rule by name::

    game = cardcore.new_game("golf", 4, rules=["golf.snowman"], seed=7)

It behaves exactly like a built-in rule: ``cardcore list`` shows it, and
records name it with its version.
"""

from __future__ import annotations

from cardcore import Card, Rank, RuleInfo, hookimpl

__all__ = ["RULE", "card_points"]

RULE = RuleInfo(
    id="SNOWMAN-1",
    name="golf.snowman",
    game="golf",
    summary="Snowmen: every 8 scores 0 (third-party example plugin)",
    conflicts=(),
    version="1.0.0",
)
"""What the rule declares about itself; ``cardcore list`` prints it."""


@hookimpl
def card_points(card: Card) -> int | None:
    """Score an 8 as 0 (SNOWMAN-1); leave every other card to the game's table."""
    return 0 if card.rank is Rank.EIGHT else None
