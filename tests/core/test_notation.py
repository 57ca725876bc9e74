"""Building blocks: the default notation parser (:mod:`cardcore.notation`)."""

from __future__ import annotations

import types
from typing import ClassVar

import attrs
import pytest
from attrs import frozen
from tests.plugins import drawgame
from tests.plugins.drawgame import Discard, Draw, Take

import cardcore
from cardcore import Action, Card, IllegalActionError, NotationError, PluginError, hookimpl
from cardcore.notation import ActionParser, parse_int


@frozen
class Ask(Action):
    """Ask seat *target* for *rank*."""

    target: int
    rank: str
    verb: ClassVar[str] = "ask"

    def notation(self) -> str:
        return f"ask {self.target} {self.rank}"


@frozen
class Flip(Action):
    """Flip the card at *pos*."""

    pos: int
    verb: ClassVar[str] = "flip"

    def notation(self) -> str:
        return f"flip {self.pos}"


PARSER = ActionParser([Draw, Take, Discard, Ask, Flip])


def test_parser_reads_verbs_and_typed_fields() -> None:
    assert PARSER.verbs == ("draw", "take", "discard", "ask", "flip")
    assert PARSER.parse(1, "draw") == Draw(1)
    assert PARSER.parse(0, "  DISCARD   10h ") == Discard(0, Card.parse("10H"))
    assert PARSER.parse(2, "ask 1 Q") == Ask(2, 1, "Q")
    assert PARSER.parse(0, "flip 5") == Flip(0, 5)
    for action in (Draw(0), Discard(0, Card.parse("JK")), Ask(0, 3, "7"), Flip(0, 12)):
        assert PARSER.parse(0, str(action)) == action  # notation reads back


@pytest.mark.parametrize(
    "text, match",
    [
        ("", "empty action text"),
        ("   ", "empty action text"),
        ("fly", "unknown action 'fly' \\(expected one of: ask, discard, draw, flip, take\\)"),
        ("draw now", "expected 'draw'"),
        ("discard", "expected 'discard CARD'"),
        ("ask 1", "expected 'ask TARGET RANK'"),
        ("discard 1Z", "not a card"),
        ("flip ²", "expected a whole number written 0-9, not '²'"),
        ("flip ٣", "expected a whole number written 0-9, not '٣'"),
        ("flip -1", "expected a whole number written 0-9, not '-1'"),
        ("flip 1234567890123456", "expected a whole number written 0-9 of at most 15 digits"),
        ("ask x Q", "expected a whole number written 0-9, not 'x'"),
    ],
)
def test_parser_malformed_text_is_a_notation_error(text: str, match: str) -> None:
    with pytest.raises(NotationError, match=match) as info:
        PARSER.parse(0, text)
    assert not isinstance(info.value, IllegalActionError)


def test_parse_int_reads_ascii_digits_only() -> None:
    assert parse_int("0") == 0 and parse_int("42") == 42 and parse_int("999999") == 999999
    assert parse_int("1000000") == 10**6 and parse_int("9" * 15) == 10**15 - 1  # bets, stakes
    for bad in ("²", "٣", "-1", "+3", "", " 3", "1.0", "1" * 16, "½", "𝟙"):
        with pytest.raises(NotationError, match="CORE-NOTATION-1"):
            parse_int(bad, "a position")


def test_parser_refuses_fields_it_cannot_read() -> None:
    @frozen
    class Odd(Action):
        where: tuple[int, int]
        verb: ClassVar[str] = "odd"

    with pytest.raises(TypeError, match=r"Odd\.where"):
        ActionParser([Odd])


def test_parser_refuses_two_classes_with_one_verb_and_keeps_str_fields_as_written() -> None:
    @frozen
    class Play(Action):
        card: Card
        verb: ClassVar[str] = "play"

    @frozen
    class PlayEight(Action):
        card: Card
        suit: str
        verb: ClassVar[str] = "Play"

    with pytest.raises(TypeError, match="Play and PlayEight share the verb 'Play'"):
        ActionParser([Play, PlayEight])
    eight = ActionParser([PlayEight]).parse(1, "PLAY 8s h")
    assert eight == PlayEight(1, Card.parse("8S"), "h")  # verb and card in any case, str as written


def test_well_formed_but_illegal_text_is_an_illegal_action(make_game) -> None:  # type: ignore[no-untyped-def]
    game = make_game("drawgame", 2, deck="2S 3S 4S 5S 6S 7S 8S")  # seat 0: 2S 4S 6S
    with pytest.raises(
        IllegalActionError, match="must draw or take before 'discard 2S' \\(DRAW-1\\)"
    ):
        game.act(0, "discard 2S")  # well-formed, the seat's card, but not now
    game.act(0, "draw")
    with pytest.raises(IllegalActionError, match="DRAW-1"):
        game.act(0, "discard KD")  # well-formed, not in the hand
    with pytest.raises(NotationError):
        game.act(0, "discard KX")  # malformed
    with pytest.raises(NotationError, match="unknown action 'knock'"):
        game.act(0, "knock")
    assert game.version == 1


@frozen
class Wait(Action):
    """An action class that forgot its verb."""


class NotAttrs(Action):
    verb: ClassVar[str] = "plain"


@pytest.mark.parametrize(
    ("types_", "match"),
    [
        ([Draw, Wait], "Wait has no verb of its own"),
        ([int], "<class 'int'> is not an attrs subclass of cardcore.Action"),
        ([NotAttrs], "NotAttrs'> is not an attrs subclass"),
    ],
    ids=["no-verb", "not-an-action", "not-attrs"],
)
def test_parser_refuses_classes_without_a_verb_or_not_attrs_actions(
    types_: list[type[Action]], match: str
) -> None:
    with pytest.raises(TypeError, match=match):
        ActionParser(types_)


def test_parser_refuses_a_verb_that_is_not_one_word() -> None:
    @frozen
    class TwoWords(Action):
        verb: ClassVar[str] = "pick up"

    with pytest.raises(TypeError, match=r"TwoWords\.verb must be one word, not 'pick up'"):
        ActionParser([TwoWords])


def test_a_game_with_two_classes_of_one_verb_is_refused_when_its_configuration_is_built() -> None:
    """Refused by new_game, before any play: not at the first text matching no legal action."""

    @frozen
    class Pick(Action):
        verb: ClassVar[str] = "draw"

    class TwoDraws(drawgame.DrawLogic):
        action_types = (Draw, Take, Discard, Pick)

    module = types.ModuleType("twodraws")
    vars(module).update(
        GAME=attrs.evolve(drawgame.GAME, name="twodraws"),
        card_points=drawgame.card_points,
        create_logic=hookimpl(lambda ruleset: TwoDraws(ruleset)),
    )
    cardcore.register("cardcore.games", "twodraws", module)
    try:
        with pytest.raises(
            PluginError, match=r"game 'twodraws' lists action_types .* share the verb 'draw'"
        ) as info:
            cardcore.new_game("twodraws", 2, seed=1)
        assert info.value.plugin == "twodraws"
    finally:
        cardcore.unregister("cardcore.games", "twodraws")
