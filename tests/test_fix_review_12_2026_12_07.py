"""Review of the 2026-12-07 fixes (79cad57d, eca54f19, e0c63b01, 2ee722d8, e732ccc3).

Its seven findings (the lobby's bot parameters named twice, past a float's range or
written with a point; an option named ``__proto__`` or past 2**53; ``simulate`` reading
iterator rules twice) were strict xfails, fixed the same day. Each other test is a claim
of the fixes (or their docs) that held. The
browser scripts run in node through the harness of
``tests/web/test_client_js_review_2026_12_07.py`` (loaded by path, its tests not collected).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore.dealing import deal_round_robin
from cardcore.errors import CorruptStateError
from cardcore.session.protocol import ProtocolError, read_message
from cardcore.simulate import simulate
from cardcore.web._lobby import lobby_games
from cardcore.web._requests import MAX_DEPTH, WebError, _check_text

_HARNESS = Path(__file__).resolve().parent / "web" / "test_client_js_review_2026_12_07.py"


def _js() -> Any:
    """The node harness (stub DOM, lobby driver) of the browser-client review."""
    spec = importlib.util.spec_from_file_location("_client_js_harness", _HARNESS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _params(tmp_path: Path, text: str) -> tuple[Any, str]:
    """What the lobby does with *text* typed as seat 2's bot parameters (a Golf game):
    the params sent (``None``: nothing sent) and the error it shows."""
    out = _js()._lobby_params(tmp_path, text)
    sent = None if out["body"] is None else out["body"]["seats"][1].get("params")
    return sent, out["error"]


def _nested(levels: int) -> Any:
    """An object *levels* deep whose innermost container is an empty list."""
    data: Any = []
    for _ in range(levels - 1):
        data = {"a": data}
    return data


# --------------------------------------------------------------------------------------------
# 79cad57d: request depth, counted as a record's check counts it
# --------------------------------------------------------------------------------------------


def test_request_depth_counts_levels_as_records_do() -> None:
    from cardcore.records import MAX_DEPTH as RECORD_DEPTH
    from cardcore.records import _check_limits

    assert MAX_DEPTH == RECORD_DEPTH == 32
    _check_text(_nested(32), "")  # 32 levels, an empty list innermost: taken
    _check_text({"a": _nested(31), "b": [1, "x"]}, "")
    _check_limits(_nested(32), "record")
    with pytest.raises(WebError, match="deeper than 32 levels"):
        _check_text(_nested(33), "")
    with pytest.raises(WebError, match="deeper than 32 levels"):
        _check_text({"a": _nested(32)}, "")  # an empty object as deep: refused too
    with pytest.raises(CorruptStateError, match="deeper than 32 levels"):
        _check_limits(_nested(33), "record")


# --------------------------------------------------------------------------------------------
# eca54f19: the lobby's bot parameters "sent as typed or refused"
# --------------------------------------------------------------------------------------------


def test_lobby_params_typed_as_documented_are_sent_as_typed(tmp_path: Path) -> None:
    sent, _ = _params(tmp_path, "seed=1, iterations=200, name=a=b, big=9007199254740991")
    assert sent == {"seed": 1, "iterations": 200, "name": "a=b", "big": 9007199254740991}
    sent, error = _params(tmp_path, "seed=9007199254740993")
    assert sent is None and "9007199254740991" in error and "not made" in error


def test_lobby_params_naming_a_parameter_twice_are_not_silently_cut(tmp_path: Path) -> None:
    sent, error = _params(tmp_path, "seed=1, seed=2")
    assert sent is None and error and error != "stub"


def test_lobby_params_too_large_for_a_number_are_not_sent_as_null(tmp_path: Path) -> None:
    sent, error = _params(tmp_path, "seed=1e400")
    assert sent is None and error and error != "stub"


def test_lobby_params_a_large_whole_number_with_a_point_is_not_rounded(tmp_path: Path) -> None:
    sent, error = _params(tmp_path, "seed=9007199254740993.0")
    assert sent is None and error and error != "stub"


def test_lobby_params_not_json_are_kept_as_text(tmp_path: Path) -> None:
    sent, error = _params(tmp_path, "seed=007")
    assert sent == {"seed": "007"}, error


def _lobby_out(tmp_path: Path, extra: list[dict[str, Any]], typed: dict[str, str]) -> Any:
    js = _js()
    games = [g for g in lobby_games() if g["name"] == "golf"]
    games[0]["options"].extend(extra)
    sets = [[f'[data-option="{k}"]', "value", v] for k, v in typed.items()]
    out = js._node(tmp_path, js._LOBBY, {"game": "golf", "games": games, "set": sets})
    assert "crash" not in out, out
    return out


def _lobby_with_options(tmp_path: Path, extra: list[dict[str, Any]], typed: dict[str, str]) -> Any:
    return _lobby_out(tmp_path, extra, typed)["body"]["options"]


def _int_option(name: str, maximum: int) -> dict[str, Any]:
    option = cardcore.Option(name, 1, minimum=0, maximum=maximum)  # a plugin may declare it
    return {
        "name": option.name, "default": 1, "doc": "", "kind": "int", "choices": None,
        "minimum": 0, "maximum": maximum, "nullable": False,
    }  # fmt: skip


def test_lobby_sends_an_option_named_proto(tmp_path: Path) -> None:
    options = _lobby_with_options(tmp_path, [_int_option("__proto__", 9)], {"__proto__": "5"})
    assert options.get("__proto__") == 5


def test_lobby_does_not_round_a_large_int_option(tmp_path: Path) -> None:
    out = _lobby_out(tmp_path, [_int_option("big", 2**62)], {"big": "9007199254740993"})
    if out["body"] is None:  # refused in the form, saying why
        assert "larger than this page can send exactly" in out["error"]
    else:  # or sent exactly
        assert out["body"]["options"].get("big") == 9007199254740993


# --------------------------------------------------------------------------------------------
# e0c63b01: rules read once (compare fixed; simulate not)
# --------------------------------------------------------------------------------------------


def test_compare_reads_iterator_rules_once() -> None:
    result = cardcore.compare(
        "golf", rules=iter(["golf.jokers"]), options={"rounds": 1}, games=1, skill=None
    )
    assert "golf.jokers" in json.dumps(result.to_json())


def test_simulate_reads_iterator_rules_once() -> None:
    kw: dict[str, Any] = {"games": 3, "seed": 3, "options": {"rounds": 1}}
    listed = simulate("golf", rules=["golf.jokers"], **kw)
    base = simulate("golf", **kw)
    assert listed != base  # the rule changes these games
    assert simulate("golf", rules=iter(["golf.jokers"]), **kw) == listed


# --------------------------------------------------------------------------------------------
# 2ee722d8, e732ccc3: new doc sentences
# --------------------------------------------------------------------------------------------


def test_deal_round_robin_deals_from_the_top_of_the_stock_onto_the_top_of_each_hand() -> None:
    state = cardcore.new_game("golf", 2, seed=1)._state.clone()
    zones = state.zones
    names = [spec.name for spec in zones.layout.specs]
    stock, a, b = names.index("stock"), names.index("grid.0"), names.index("grid.1")
    top4 = list(zones.cards[stock][-4:])
    before_a, before_b = list(zones.cards[a]), list(zones.cards[b])
    deal_round_robin(state, stock, [a, b], 2)
    # the last card (top) first, to a; then b; then a; then b; each on top of its hand
    assert list(zones.cards[a]) == [*before_a, top4[3], top4[1]]
    assert list(zones.cards[b]) == [*before_b, top4[2], top4[0]]
    state = cardcore.new_game("golf", 2, seed=1)._state.clone()
    top2 = list(state.zones.cards[stock][-2:])
    deal_round_robin(state, stock, [a, b], 1, first=-1)  # -1: the last hand first
    assert state.zones.cards[b][-1] == top2[1] and state.zones.cards[a][-1] == top2[0]


def test_a_join_of_seat_64_or_more_is_bad_message_and_63_is_read() -> None:
    assert read_message({"type": "join", "seat": 63}, 8192) == {"type": "join", "seat": 63}
    for seat in (64, 1000):
        with pytest.raises(ProtocolError) as info:
            read_message(json.dumps({"type": "join", "seat": seat}), 8192)
        assert info.value.code == "bad-message"


# --------------------------------------------------------------------------------------------
# e0c63b01: determinize names the plugin that answered
# --------------------------------------------------------------------------------------------


def test_determinize_message_names_the_rule_that_answered_and_the_chain() -> None:
    import types

    from cardcore import PluginError, RuleInfo, hookimpl

    def rule(name: str, rule_id: str, answer: Any) -> types.ModuleType:
        module = types.ModuleType(name.replace(".", "_").replace("-", "_"))
        module.RULE = RuleInfo(id=rule_id, name=name, game="golf", summary="review rule")  # type: ignore[attr-defined]

        @hookimpl
        def determinize(state: Any, seat: int, rng: Any) -> Any:
            return answer

        module.determinize = determinize  # type: ignore[attr-defined]
        return module

    names = ["golf.fix-review-det-a", "golf.fix-review-det-b"]
    cardcore.register("cardcore.rules", names[0], rule(names[0], "FIXREVIEW-DET-A", False))
    try:
        cardcore.register("cardcore.rules", names[1], rule(names[1], "FIXREVIEW-DET-B", None))
        try:
            game = cardcore.new_game("golf", 2, rules=names, seed=1)
            with pytest.raises(
                PluginError, match=r"^determinize of 'golf\.fix-review-det-a' \(the chain: "
            ) as info:
                game.determinize(0, seed=1)
            assert info.value.plugin == names[0]
        finally:
            cardcore.unregister("cardcore.rules", names[1])
    finally:
        cardcore.unregister("cardcore.rules", names[0])
