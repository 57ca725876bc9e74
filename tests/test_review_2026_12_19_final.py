"""Final review of 2026-12-19 (commits 3248d5e..5dee2fb): ``cardcore play --name`` against
the web lobby's checks (now in :mod:`cardcore._names`), :mod:`cardcore.tricks`' ``suit_of``
and error wrapping, ``Comparison.plot``, and the changelog's and docs' new claims.

Claims that held are passing tests; each bug is a strict xfail naming what went wrong.
Everything is seeded; the CLI runs in this process with its input piped in.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import cardcore
from cardcore import Card, Rank, Suit, cli, parse_cards, tricks
from cardcore.errors import ArgumentError

PLAY = ["play", "golf", "--seed", "1", "--no-record"]


def _cli(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    stdin: str = "quit\n",
) -> tuple[int, str, str]:
    """``cardcore ARGV`` in this process, its input piped in."""
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


# --- 1. cardcore play --name ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["Zoë", "👩\u200d💻", "Player 2", "Ann-Marie O'Neil"])
def test_play_accepts_a_legitimate_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    status, out, err = _cli(monkeypatch, capsys, [*PLAY, "--name", name])
    assert status == 0, err
    assert f"you are {name};" in out


@pytest.mark.parametrize("name", ["ｒａｎｄｏｍ ２", "r\u0430ndom 2", "RANDOM 2"])
def test_play_refuses_a_bots_name_in_fullwidth_lookalike_or_capitals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    status, _, err = _cli(monkeypatch, capsys, [*PLAY, "--name", name])
    assert status == 2 and "is the name of another seat" in err


def test_play_at_seat_1_refuses_seat_0s_name_and_keeps_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(monkeypatch, capsys, [*PLAY, "--seat", "1", "--name", "Random 1"])
    assert status == 2 and "is the name of another seat" in err
    # "random 2" is seat 1's own default numbering, no other seat's: accepted
    status, out, err = _cli(monkeypatch, capsys, [*PLAY, "--seat", "1", "--name", "random 2"])
    assert status == 0, err
    assert "you are random 2;" in out


def test_play_refuses_a_name_of_spaces_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(monkeypatch, capsys, [*PLAY, "--name", "   "])
    assert status == 2 and "shows as nothing" in err


@pytest.mark.parametrize("name", ["random 2 ", " random 2", "random  2"])
def test_play_refuses_a_bots_name_with_extra_spaces_as_the_web_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    pytest.importorskip("starlette")
    from cardcore.web._requests import _seat_name, same_name

    assert same_name(_seat_name(name), "random 2")  # the web refuses it beside "random 2"
    status, _, err = _cli(monkeypatch, capsys, [*PLAY, "--name", name])
    assert status == 2 and "is the name of another seat" in err


def test_a_refused_name_with_letters_is_not_said_to_show_as_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _cli(monkeypatch, capsys, [*PLAY, "--name", "Abdol\u200cHossein"])
    assert status == 0 or "shows as nothing" not in err


# --- 2. cardcore.tricks --------------------------------------------------------------------

KH_2S = parse_cards("KH 2S")


def _interrupt(card: Card) -> Any:
    raise KeyboardInterrupt


def test_a_failing_order_is_an_argument_error_naming_the_card() -> None:
    with pytest.raises(ArgumentError, match="order failed for card KH") as info:
        tricks.trick_winner(KH_2S, order=lambda c: 1 // 0)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    with pytest.raises(ArgumentError, match="order failed for card KH"):
        tricks.trick_winner(KH_2S, order=int)  # a class, not a function of a card


def test_keyboard_interrupt_in_order_or_suit_of_is_not_swallowed() -> None:
    with pytest.raises(KeyboardInterrupt):
        tricks.trick_winner(KH_2S, order=_interrupt)
    with pytest.raises(KeyboardInterrupt):
        tricks.trick_winner(KH_2S, suit_of=_interrupt)
    with pytest.raises(KeyboardInterrupt):
        tricks.following(KH_2S, Suit.HEARTS, suit_of=_interrupt)


def test_suit_of_answering_no_suit_or_not_callable_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match="suit_of gives card KH no suit: 'H'"):
        tricks.following(KH_2S, Suit.HEARTS, suit_of=lambda c: "H")
    with pytest.raises(ArgumentError, match="suit_of gives card KH no suit"):
        tricks.trick_winner(KH_2S, suit_of=lambda c: "H")
    with pytest.raises(ArgumentError, match="suit_of must be a function of a card, not 3"):
        tricks.trick_winner(KH_2S, suit_of=3)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="suit_of failed for card KH"):
        tricks.trick_winner(KH_2S, suit_of=lambda c: 1 // 0)


def test_following_a_lead_refuses_a_suit_of_that_is_no_function() -> None:
    with pytest.raises(ArgumentError, match="suit_of"):
        tricks.following(KH_2S, None, suit_of=3)  # type: ignore[arg-type]


def test_numpy_whole_numbers_are_strengths_and_bools_floats_are_not() -> None:
    np = pytest.importorskip("numpy")
    assert tricks.trick_winner(parse_cards("2H KH"), order=lambda c: np.int64(c.rank.value)) == 1
    assert (
        tricks.trick_winner(
            parse_cards("2H KH"), order={Rank.TWO: np.int32(5), Rank.KING: np.int32(3)}
        )
        == 0
    )
    for bad in (True, 2.0, np.bool_(True), None):
        with pytest.raises(ArgumentError, match="no whole-number strength"):
            tricks.trick_winner(KH_2S, order=lambda c, v=bad: v)


class _BadIndex:
    def __index__(self) -> int:
        raise ValueError("no index")


def test_a_strength_whose_index_fails_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match="KH"):
        tricks.trick_winner(KH_2S, order=lambda c: _BadIndex())


class _FailingOrder(Mapping[Rank, int]):
    """A computed rank order that fails (a lookup with a bug)."""

    def __getitem__(self, rank: Rank) -> int:
        raise RuntimeError("table broken")

    def __iter__(self) -> Iterator[Rank]:
        return iter(())

    def __len__(self) -> int:
        return 0


def test_a_failing_mapping_order_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match="KH"):
        tricks.trick_winner(KH_2S, order=_FailingOrder())


def _euchre_suit(card: Card) -> Suit | None:  # hearts trump: the jack of diamonds is a heart
    if card.rank is Rank.JACK and card.suit is Suit.DIAMONDS:
        return Suit.HEARTS
    return card.suit


def _euchre_order(card: Card) -> int:
    if card.rank is Rank.JACK and card.suit in (Suit.HEARTS, Suit.DIAMONDS):
        return 100 if card.suit is Suit.HEARTS else 99
    return tricks.ACE_HIGH[card.rank]


def test_euchre_left_bower_follows_and_wins_as_a_trump() -> None:
    def win(text: str) -> int:
        return tricks.trick_winner(
            parse_cards(text), trump=Suit.HEARTS, order=_euchre_order, suit_of=_euchre_suit
        )

    assert win("AH JD KH 10H") == 1  # the left bower beats the ace of trumps
    assert win("AD JD KD") == 1  # a trump on a diamond lead
    assert win("JD AH JH") == 2  # the left bower leads trumps; the right bower wins
    follow = tricks.following
    assert follow(parse_cards("JD 9S QD"), Suit.DIAMONDS, suit_of=_euchre_suit) == parse_cards("QD")
    assert follow(parse_cards("JD 9S QC"), Suit.HEARTS, suit_of=_euchre_suit) == parse_cards("JD")


def test_a_joker_given_the_trump_suit_trumps_and_follows() -> None:
    def suit(card: Card) -> Suit | None:
        return Suit.SPADES if card.rank is Rank.JOKER else card.suit

    def order(card: Card) -> int:
        return 50 if card.rank is Rank.JOKER else tricks.ACE_HIGH[card.rank]

    assert tricks.trick_winner(parse_cards("AH JK KH"), trump=Suit.SPADES, suit_of=suit) == 1
    assert (
        tricks.trick_winner(parse_cards("JK AS 2H"), trump=Suit.SPADES, order=order, suit_of=suit)
        == 0
    )
    assert tricks.following(parse_cards("JK 2H 3D"), Suit.SPADES, suit_of=suit) == parse_cards("JK")
    # without suit_of a joker neither follows nor trumps
    assert tricks.trick_winner(parse_cards("AH JK KH"), trump=Suit.SPADES) == 0


def test_api_rst_trick_taking_examples() -> None:
    hand = parse_cards("KH 2S 9H")
    assert [str(c) for c in tricks.following(hand, Suit.HEARTS)] == ["KH", "9H"]
    plays, leader = parse_cards("10H AH 2S KH"), 3
    assert (leader + tricks.trick_winner(plays, trump=Suit.SPADES)) % 4 == 1
    # a lead restriction is the game's own filter on following(hand, None): all cards
    assert tricks.following(hand, None) == hand


# --- 3. Comparison.plot and --plot ---------------------------------------------------------


@pytest.fixture(scope="module")
def one_game() -> Any:
    return cardcore.compare("golf", games=1, seed=1, options={"rounds": 1}, skill=None)


@pytest.mark.parametrize("name", ["a.jpg", "a", "a.PNG"])
def test_plot_writes_a_png_at_the_very_path(one_game: Any, tmp_path: Path, name: str) -> None:
    pytest.importorskip("matplotlib")
    assert one_game.plot(tmp_path / name) is None
    assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_plot_without_a_path_returns_a_figure(one_game: Any) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    assert isinstance(one_game.plot(), Figure)
    assert one_game.plot(None).__class__ is Figure


def test_cli_plot_path_check(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    argv = ["compare", "golf", "--games", "1", "--seed", "1", "-o", "rounds=1", "--plot"]
    status, _, err = _cli(monkeypatch, capsys, [*argv, str(tmp_path / "x.jpg")], "")
    assert status == 2 and "--plot writes a PNG file" in err
    assert not (tmp_path / "x.jpg").exists()
    status, out, err = _cli(monkeypatch, capsys, [*argv, str(tmp_path / "x.PNG")], "")
    assert status == 0, err
    assert (tmp_path / "x.PNG").read_bytes()[:4] == b"\x89PNG"
    assert "1 game per configuration" in out


# --- 4. changelog and docs claims ----------------------------------------------------------


def test_registering_twice_needs_two_unregisters() -> None:
    from cardcore.agents import RandomAgent

    class _Mine(RandomAgent):
        pass

    cardcore.register("cardcore.agents", "review-final-zz", _Mine)
    cardcore.register("cardcore.agents", "review-final-zz", _Mine)
    try:
        cardcore.unregister("cardcore.agents", "review-final-zz")
        assert isinstance(cardcore.load_agent("review-final-zz", seed=1), _Mine)
    finally:
        cardcore.unregister("cardcore.agents", "review-final-zz")
    with pytest.raises(cardcore.CardcoreError):
        cardcore.load_agent("review-final-zz", seed=1)


def test_ismcts_repr_shows_its_seed_as_in_search_agents_rst() -> None:
    from cardcore.search.ismcts import ISMCTSAgent

    assert repr(ISMCTSAgent(seed=7, iterations=200)) == (
        "ISMCTSAgent(seed=7, iterations=200, c=0.7, rollout='game')"
    )


def test_rl_render_modes_as_rl_rst_says() -> None:
    pytest.importorskip("pettingzoo")
    from cardcore.rl import aec_env

    env = aec_env("golf", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str)
    lines = text.splitlines()
    assert any(line.strip().startswith("stock (") and "##" in line for line in lines)
    assert lines[-1].strip().startswith("legal:")
    human = aec_env("golf", render_mode="human")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        human.reset(seed=1)  # printed at each reset
        assert human.render() is None
    assert buf.getvalue().count("golf v0") == 2


def test_move_time_is_on_the_cli_page_and_accepted(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["compare", "golf", "--games", "1", "--seed", "1", "-o", "rounds=1"]
    status, out, err = _cli(monkeypatch, capsys, [*argv, "--move-time", "1e-9"], "")
    assert status == 0, err
    notes = [line for line in out.splitlines() if "slowest" in line]
    assert notes and all("slowest 0.000 s" not in line for line in notes), out


def test_plays_and_hands_must_be_sequences_as_the_changelog_says() -> None:
    with pytest.raises(ArgumentError, match="plays must be a sequence of cards"):
        tricks.trick_winner(set(KH_2S))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="hand must be a sequence of cards"):
        tricks.following(frozenset(KH_2S), None)  # type: ignore[arg-type]
