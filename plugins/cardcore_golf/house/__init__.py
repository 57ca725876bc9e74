"""Golf house rules: one plugin module per rule, each with ``RULE = RuleInfo(...)``.

Enable them by entry-point name: ``new_game("golf", 4, rules=["golf.jokers"])``.
"""

from __future__ import annotations
