"""The example third-party plugin (examples/third_party_plugin) passes the kit like a built-in rule.

If the distribution is installed its entry point is used (and the general run covers it too);
otherwise the module is loaded from the examples directory and registered by hand.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cardcore
from cardcore.plugins import unregister
from cardcore.testing import check_game

EXAMPLE = (
    Path(__file__).resolve().parents[2]
    / "examples"
    / "third_party_plugin"
    / "cardcore_golf_snowman"
)
NAME = "golf.snowman"


def _snowman() -> ModuleType:
    try:
        return importlib.import_module("cardcore_golf_snowman")
    except ImportError:
        pass
    if not EXAMPLE.is_dir():
        pytest.skip("examples/third_party_plugin is not there")
    spec = importlib.util.spec_from_file_location("cardcore_golf_snowman", EXAMPLE / "__init__.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["cardcore_golf_snowman"] = module
    spec.loader.exec_module(module)
    return module


def test_third_party_house_rule_conforms() -> None:
    module = _snowman()
    registered = NAME not in cardcore.available_rules("golf")
    if registered:
        cardcore.register("cardcore.rules", NAME, module)
    try:
        _check()
    finally:
        if registered:  # leave the process as we found it: other tests list the installed rules
            unregister("cardcore.rules", NAME)


def _check() -> None:
    info = cardcore.rule_info(NAME)
    assert info.game == "golf"
    report = check_game("golf", players=3, rules=[NAME], games=2, seed=8)
    assert report.games == 2 and report.cards_lost == 0 and report.leaks == 0
    assert report.bad_inputs == report.rejected > 0
    with_jokers = check_game("golf", players=2, rules=[NAME, "golf.jokers"], games=1, seed=9)
    assert with_jokers.ok
