"""RuleInfo(applies=...) is typed Any; house-rule.rst documents it as option name -> the
values (a tuple). A bare value passes mypy and is a PluginError when the configuration is
built (expected error on the marked line).
"""

from cardcore import RuleInfo

RULE = RuleInfo(
    id="X-1",
    name="golf.x",
    game="golf",
    summary="x",
    applies={"layout": 4},  # expect-error
)
