"""``GameInfo`` refuses, when declared, parts of the wrong kind that it used to take and
that failed (or were misread) later: ``realtime``/``zero_sum`` that are no bool (``"no"``
is truthy: a turn-based game would have been played as a real-time one), ``fields`` that
are not view fields, ``notes`` that cannot be called (a declarations review, 2026-12-07)."""

from __future__ import annotations

from typing import Any

import pytest

from cardcore import GameInfo, PluginError, ViewField


@pytest.mark.parametrize(
    ("part", "wanted"),
    [
        ({"realtime": "no"}, "True or False"),
        ({"realtime": 1}, "True or False"),
        ({"zero_sum": None}, "True or False"),
        ({"fields": "ab"}, "ViewField"),
        ({"fields": (1, 2)}, "ViewField"),
        ({"fields": {ViewField("a", "int", "a")}}, "ViewField"),
        ({"notes": 5}, "a function"),
        ({"version": "abc"}, "a version as a package writes it"),
    ],
)
def test_a_part_of_the_wrong_kind_is_refused_when_declared(
    part: dict[str, Any], wanted: str
) -> None:
    with pytest.raises(PluginError, match=wanted) as err:
        GameInfo("typed-game", "a game", 1, 2, **part)
    assert err.value.plugin == "typed-game"


def test_parts_of_the_right_kind_are_taken() -> None:
    def notes(events: Any, text: Any) -> list[str]:
        return []

    info = GameInfo(
        "typed-game", "a game", 1, 2, realtime=True, zero_sum=False,
        fields=[ViewField("a", "int", "a")], notes=notes, version="2.1",
    )  # fmt: skip
    assert info.realtime is True and info.fields[0].name == "a" and info.notes is notes
