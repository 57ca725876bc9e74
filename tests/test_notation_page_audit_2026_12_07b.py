"""Audit of docs/notation.rst and the notation sections of the Golf, Tonk and Spit pages.

Every expectation below is derived from the docs text (quoted next to each test), not
from running the code.
"""

import random
import re

import pytest

import cardcore
from cardcore import Card, IllegalActionError, NotationError, OptionError

RULE_AT_END = re.compile(r"\(([A-Z0-9]+(?:-[A-Z0-9]+)+)[^()]*\)$")

# (game, players, options, rules) configurations the brief asks for
CONFIGS = [
    ("golf", 2, {"layout": 6}, ()),
    ("golf", 3, {"layout": 8}, ()),
    ("golf", 2, {"layout": 9}, ()),
    ("golf", 2, {"layout": 10}, ()),
    ("golf", 2, {"layout": 4}, ()),
    ("golf", 3, {"layout": "4h"}, ()),
    ("tonk", 2, {}, ()),
    ("tonk", 3, {}, ()),
    ("tonk", 4, {"max_players": 4}, ()),
    ("spit", 2, {}, ()),
    ("spit", 2, {}, ("spit.chooser",)),
    ("speed", 2, {"jokers": 2}, ()),
    ("speed", 2, {}, ()),
]

WHITESPACE = [" ", "  ", "\t", " \t ", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f"]


def mangle(text, rng):
    """Same action, other spelling: any case, any ASCII whitespace between/around words."""
    words = text.split()
    words = ["".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in w) for w in words]
    out = rng.choice(["", " ", "\t"])
    for i, w in enumerate(words):
        if i:
            out += rng.choice(WHITESPACE)
        out += w
    return out + rng.choice(["", " ", "\t ", "\n"])


def snapshot(game):
    return (game.version, game.position(), game.record(), game.to_act)


def check_refusal(exc, text=None):
    """A refusal is NotationError/IllegalActionError, short, and ends with a rule ID."""
    assert isinstance(exc, (NotationError, IllegalActionError)), type(exc)
    msg = str(exc)
    assert RULE_AT_END.search(msg), msg
    assert exc.rule_id, msg
    assert exc.rule_id in msg
    # api.rst: action text is quoted to at most the 200 characters the notation reads
    assert len(msg) < 700, len(msg)


# ---------------------------------------------------------------- random round trips


@pytest.mark.parametrize("name,n,options,rules", CONFIGS, ids=lambda v: str(v))
def test_str_of_every_legal_action_round_trips_through_act_and_record(name, n, options, rules):
    """CORE-NOTATION-1: str(action) is read back by Game.act, in any case and spacing; a
    view's legal list is in the notation; the record holds the canonical text."""
    rng = random.Random(f"{name}{n}{options}{rules}")
    for seed in (1, 2):
        game = cardcore.new_game(name, n, options=options, rules=rules, seed=seed)
        steps = 0
        while not game.is_over and steps < 120:
            seats = [s for s in game.to_act if game.legal_actions(s)]
            if not seats:
                break
            seat = rng.choice(seats)
            legal = game.legal_actions(seat)
            texts = [str(a) for a in legal]
            assert game.view(seat)["legal"] == texts
            # every legal action's text reads back as that action (on a clone)
            for action, text in zip(legal, texts, strict=True):
                assert text == " ".join(text.split())
                probe = game.clone()
                got = probe.act(seat, mangle(text, rng))
                assert got == action and str(got) == text
            # avoid Tonk's drop where another action exists, so hands reach spreads and hits
            pool = [a for a in legal if str(a) != "drop"] or legal
            action = rng.choice(pool)
            text = str(action)
            got = game.act(seat, mangle(text, rng))
            assert str(got) == text
            recorded = game.record()["actions"]
            assert [row for row in recorded if row[0] == seat][-1][1] == text
            steps += 1
        # the record replays to the same state
        assert cardcore.replay(game.record()).position() == game.position()


@pytest.mark.parametrize("name,n,options,rules", CONFIGS, ids=lambda v: str(v))
def test_positions_round_trip_during_random_games(name, n, options, rules):
    """Positions: new_game(position=game.position()) starts the same table (same options)."""
    rng = random.Random(f"pos{name}{n}{options}{rules}")
    game = cardcore.new_game(name, n, options=options, rules=rules, seed=3)
    for step in range(60):
        if game.is_over:
            break
        if step % 6 == 0:
            text = game.position()
            copy = cardcore.new_game(
                name, n, options=options, rules=rules, position=text, seed=rng.randrange(99)
            )
            assert copy.position() == text
            for seat in range(n):
                assert copy.view(seat)["legal"] == game.view(seat)["legal"]
        seats = [s for s in game.to_act if game.legal_actions(s)]
        if not seats:
            break
        seat = rng.choice(seats)
        game.act(seat, str(rng.choice(game.legal_actions(seat))))


# ---------------------------------------------------------------- the page's examples


def test_doc_example_flip_with_spaces_and_record():
    game = cardcore.new_game("golf", 2, seed=5)
    assert str(game.act(0, "  FLIP   0 ")) == "flip 0"
    assert game.record()["actions"][-1][1] == "flip 0"
    assert str(game.act(cardcore.HOST, "end")) == "end"
    assert game.result.reason == "ended"
    assert game.record()["actions"][-1][:2] == [cardcore.HOST, "end"]


def test_doc_example_legal_lists():
    assert cardcore.new_game("tonk", 2, seed=11).view(0)["legal"] == ["drop", "draw", "take"]
    assert cardcore.new_game("speed", 2, seed=11).view(0)["legal"] == [
        "play KD R",
        "play 2C L",
        "play 2C R",
        "stuck",
    ]


def test_leading_zeros_recorded_without_them():
    """'flip 00 is recorded as flip 0'; Tonk's spread numbers may carry leading zeros."""
    game = cardcore.new_game("golf", 2, seed=5)
    assert str(game.act(0, "flip 00")) == "flip 0"
    assert game.record()["actions"][-1][1] == "flip 0"
    assert str(game.act(0, "f 0001")) == "flip 1"
    assert game.record()["actions"][-1][1] == "flip 1"


@pytest.mark.parametrize(
    "sep", [" ", "   ", "\t", "\n", "\r", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x1f"]
)
def test_every_ascii_whitespace_the_page_lists_separates_words(sep):
    game = cardcore.new_game("golf", 2, seed=5)
    assert str(game.act(0, f"{sep}flip{sep}0{sep}")) == "flip 0"


@pytest.mark.parametrize(
    "text",
    [
        "flip\u00a00",  # no-break space
        "flip \uff10",  # fullwidth 0
        "flip \u0660",  # arabic-indic 0
        "flip \u00b2",  # superscript 2
        "fl\u0456p 0",  # Cyrillic i
        "\uff46lip 0",  # fullwidth f
        "flip\u20030",  # em space
    ],
)
def test_non_ascii_text_is_refused_and_changes_nothing(text):
    """'the text must be ASCII, so a look-alike letter is never read as another'."""
    game = cardcore.new_game("golf", 2, seed=5)
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(0, text)
    check_refusal(info.value)
    assert snapshot(game) == before


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize(
    "text", ["flip +0", "flip -0", "flip 0_0", "flip 1_0", "flip 0.0", "flip 0x1", "flip 1e0"]
)
def test_golf_numbers_are_plain_ascii_digits(text):
    game = cardcore.new_game("golf", 2, seed=5)
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(0, text)
    check_refusal(info.value)
    assert snapshot(game) == before


def test_golf_position_of_15_digits_is_read_then_illegal_16_is_malformed():
    game = cardcore.new_game("golf", 2, seed=5)
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "flip " + "9" * 15)
    assert not isinstance(info.value, NotationError)
    check_refusal(info.value)
    with pytest.raises(NotationError) as info:
        game.act(0, "flip " + "9" * 16)
    check_refusal(info.value)
    with pytest.raises(IllegalActionError) as info:
        game.act(0, "flip 6")  # six-card layout: positions 0..5
    check_refusal(info.value)
    assert snapshot(game) == before


def test_text_longer_than_200_is_rejected_unread_and_200_is_read():
    game = cardcore.new_game("golf", 2, seed=5)
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(0, "flip 0" + " " * 195)  # 201 characters, a valid action if read
    check_refusal(info.value)
    assert snapshot(game) == before
    assert str(game.act(0, "flip 0" + " " * 194)) == "flip 0"  # 200 characters


@pytest.mark.parametrize(
    "text,error",
    [
        ("hit 0 AS", NotationError),
        ("hit 00 AS", NotationError),
        ("hit +1 AS", NotationError),
        ("hit -1 AS", NotationError),
        ("hit 1_0 AS", NotationError),
        ("hit \uff11 AS", NotationError),
        ("hit " + "1" * 16 + " AS", NotationError),
        ("discard JK", NotationError),
        ("discard TH", NotationError),
        ("discard 1H", NotationError),
        ("spread", NotationError),
        ("hit 1", NotationError),
        ("dr0p", NotationError),
        ("hit 9 AS", IllegalActionError),
        ("hit 09 AS", IllegalActionError),
        ("hit " + "1" * 15 + " AS", IllegalActionError),
        ("deal", IllegalActionError),
    ],
)
def test_tonk_grammar_refusals(text, error):
    game = cardcore.new_game("tonk", 2, seed=5)
    seat = game.to_act[0]
    before = snapshot(game)
    with pytest.raises(error) as info:
        game.act(seat, text)
    if error is IllegalActionError:
        assert not isinstance(info.value, NotationError)
    check_refusal(info.value)
    assert snapshot(game) == before


def test_tonk_hit_with_leading_zero_is_read_as_that_spread():
    """The page's worked hand, with 'hit 01 4H' for 'hit 1 4H'."""
    deck = "5H 4H 10H 6H 9S 6S 7H 9D 7C KC 9C 3C 2D QD 4D 8S AC 3S"
    game = cardcore.new_game(
        "tonk", ["Ann", "Bob", "Cy"], deck=deck, seed=7, options={"first_dealer": 2}
    )
    for seat, text in [
        (0, "DRAW"),
        (0, "spread\t7h 6h  5h"),
        (0, "discard kc"),
        (1, "draw"),
        (1, "spread 9S 9D 9C"),
    ]:
        game.act(seat, text)
    assert str(game.act(1, " HIT 001 4h ")) == "hit 1 4H"
    assert game.record()["actions"][-1][1] == "hit 1 4H"
    assert game.record()["actions"][1][1] == "spread 5H 6H 7H"


@pytest.mark.parametrize(
    "text",
    [
        "play 6 L",
        "play 0 L",
        "play 01 L",
        "play +1 L",
        "play 1 X",
        "play \uff11 L",
        "play 1",
        "play 1 L R",
        "combine 1 1",
        "fill 2 2",
        "choose L",  # without spit.chooser
        "ready now",
    ],
)
def test_spit_grammar_refusals(text):
    game = cardcore.new_game("spit", 2, seed=5)
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(0, text)
    check_refusal(info.value)
    assert snapshot(game) == before


def test_spit_slap_is_malformed_under_chooser():
    game = cardcore.new_game("spit", 2, seed=5, rules=("spit.chooser",))
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(0, "slap L")
    check_refusal(info.value)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "text", ["play 13D R", "play TH L", "play KD", "play KD X", "stuck 1", "play 1C L"]
)
def test_speed_grammar_refusals(text):
    game = cardcore.new_game("speed", 2, seed=11)
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(0, text)
    check_refusal(info.value)
    assert snapshot(game) == before


@pytest.mark.parametrize("name", ["golf", "tonk", "spit", "speed"])
@pytest.mark.parametrize(
    "text",
    ["x" * 200, "play " + "1" * 190, "discard " + "A" * 190, "spread " + "AS " * 60, "", "   "],
)
def test_junk_is_a_notation_error_with_a_rule_id(name, text):
    game = cardcore.new_game(name, 2, seed=5)
    seat = game.to_act[0]
    before = snapshot(game)
    with pytest.raises(NotationError) as info:
        game.act(seat, text)
    check_refusal(info.value)
    assert snapshot(game) == before


# ---------------------------------------------------------------- cards


@pytest.mark.parametrize(
    "text,expected",
    [("10H", "10H"), ("10h", "10H"), (" qs ", "QS"), ("jk", "JK"), ("Jk", "JK"), ("as", "AS")],
)
def test_card_parse_reads_any_case(text, expected):
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    "text", ["TH", "th", "1H", "0H", "010H", "11H", "J K", "JOKER", "\uff11\uff10H", "10\u041d"]
)
def test_card_parse_refuses(text):
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert info.value.rule_id == "CORE-NOTATION-2"


def test_parse_cards_spaces_or_commas():
    assert [str(c) for c in cardcore.parse_cards("10h, jk AS")] == ["10H", "JK", "AS"]


# ---------------------------------------------------------------- positions


def golf_text():
    game = cardcore.new_game("golf", 2, seed=5)
    game.act(0, "flip 0")
    return game.position()


def test_position_frame_any_order_spacing_and_case():
    text = golf_text()
    head, *sections = text.split(" | ")
    fields = head.split()
    variants = [
        head + " | " + " | ".join(reversed(sections)),
        head + "|" + "  |\t".join(sections),
        " ".join([fields[0], *reversed(fields[1:])]) + " | " + " | ".join(sections),
        text.replace(" 2S 3S", " 2s\t3s"),
    ]
    for variant in variants:
        assert variant != text
        copy = cardcore.new_game("golf", 2, position=variant, seed=1)
        assert copy.position() == text


@pytest.mark.parametrize(
    "edit,needle",
    [
        (lambda t: t.replace("2S ", "", 1), "2S"),
        (lambda t: t.replace("3S", "2S", 1), "3S"),
        (lambda t: t.replace("5D!", "5D@5"), "5"),
        (lambda t: t.replace("5D!", "5D?"), "5D?"),
        (lambda t: t.replace("turn=0", "turn=7"), "turn"),
        (lambda t: t.replace("turn=0", "bogus=1 turn=0"), "bogus"),
        (lambda t: t.replace("round=1", "round=01"), "round"),
        (lambda t: t.replace("held:", "heldx:"), "heldx"),
        (lambda t: t.replace("| held: ", ""), "held"),
        (lambda t: t + " | held:", "held"),
        (lambda t: t.replace("totals=[0,0]", "totals=[0, 0]"), "totals"),
        (lambda t: t.replace("stock: 2S", "stock: 2S!"), "stock"),
        (lambda t: t.replace("5D!", "5\uff24!"), "5\uff24"),
        (lambda t: t.replace(" KC ", " \u039aC "), "\u039aC"),  # Greek capital kappa
        (lambda t: t.replace("golf ", "tonk ", 1), "golf"),
        (lambda t: t + " " * 20000, "20000"),
    ],
)
def test_bad_positions_raise_option_error_naming_what(edit, needle):
    text = golf_text()
    bad = edit(text)
    assert bad != text
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, position=bad, seed=1)
    assert info.value.rule_id == "CORE-POSITION-1"
    assert needle in str(info.value)


def test_position_layout_must_match_options():
    text = golf_text()
    with pytest.raises(OptionError) as info:
        cardcore.new_game("golf", 2, position=text, options={"layout": 8}, seed=1)
    assert "layout" in str(info.value)


@pytest.mark.parametrize("name,n,options", [("golf", 2, {"rounds": 1}), ("tonk", 2, {})])
def test_finished_golf_and_tonk_positions_read_back(name, n, options):
    rng = random.Random(4)
    game = cardcore.new_game(name, n, options=options, seed=4)
    for _ in range(2000):
        if game.is_over:
            break
        seat = game.to_act[0]
        game.act(seat, str(rng.choice(game.legal_actions(seat))))
    if not game.is_over:
        game.act(cardcore.HOST, "end")
    text = game.position()
    copy = cardcore.new_game(name, n, options=options, position=text, seed=1)
    assert copy.is_over and copy.position() == text


def test_finished_speed_position_is_refused():
    """SPEED-NOTE-2: a finished game writes over=true and cannot be read back."""
    game = cardcore.new_game("speed", 2, seed=11)
    game.act(0, "resign")
    text = game.position()
    assert "over=true" in text
    with pytest.raises(OptionError):
        cardcore.new_game("speed", 2, position=text, seed=1)


def test_finished_spit_position_is_refused():
    """notation.rst: Spit's and Speed's read only positions of a game still on."""
    game = cardcore.new_game("spit", 2, seed=5)
    game.act(1, "resign")
    with pytest.raises(OptionError) as info:
        cardcore.new_game("spit", 2, position=game.position(), seed=1)
    assert info.value.rule_id


@pytest.mark.parametrize("name,options", [("spit", {}), ("speed", {"jokers": 2}), ("tonk", {})])
def test_other_games_position_frame_checks(name, options):
    game = cardcore.new_game(name, 2, options=options, seed=2)
    text = game.position()
    head, *sections = text.split(" | ")
    fields = head.split()
    reordered = " ".join([fields[0], *reversed(fields[1:])]) + " | " + " | ".join(sections[::-1])
    spaced = text.replace(" | ", " |\t\n ")
    for variant in (reordered, spaced):
        copy = cardcore.new_game(name, 2, options=options, position=variant, seed=1)
        assert copy.position() == text
    for bad, needle in [
        (head + " zz=1 | " + " | ".join(sections), "zz"),
        (head + " " + fields[1] + " | " + " | ".join(sections), fields[1]),
        (" ".join(fields[:2]) + " | " + " | ".join(sections), fields[2].split("=")[0]),
    ]:
        with pytest.raises(OptionError) as info:
            cardcore.new_game(name, 2, options=options, position=bad, seed=1)
        assert info.value.rule_id == "CORE-POSITION-1"
        assert needle in str(info.value)


@pytest.mark.parametrize("mark", ["", "@0"])
def test_tonk_position_reads_every_discard_as_known_to_all(mark):
    """Tonk's discards were each laid face up: a position marking one known to nobody
    (or one seat) is read as known to all, and written back so (its module's docs)."""
    game = cardcore.new_game("tonk", 2, seed=5)
    text = game.position()
    top = re.search(r"discard: (\S+)!", text).group(1)
    unmarked = text.replace(f"discard: {top}!", f"discard: {top}{mark}")
    assert unmarked != text
    again = cardcore.new_game("tonk", 2, position=unmarked, seed=1)
    assert again.position() == text
    assert again.state.zones.seen[1] == [cardcore.ALL]


def test_tonk_position_leaves_a_hand_unmarked_its_owner_sees_every_card():
    """notation.rst: a pile its owner sees (a hand) shows the owner every card whatever the
    marks say; a mark there says who else knows a card. Tonk writes its hands unmarked."""
    game = cardcore.new_game("tonk", 2, seed=5)
    text = game.position()
    again = cardcore.new_game("tonk", 2, position=text, seed=1)
    for seat in (0, 1):
        section = next(s for s in text.split(" | ") if s.startswith(f"hand.{seat}:"))
        cards = section.split(":", 1)[1].split()
        assert cards and not any("@" in c or c.endswith("!") for c in cards), section
        zone = next(z for z in again.view(seat)["zones"] if z["name"] == f"hand.{seat}")
        assert sorted(zone["cards"]) == sorted(cards)
        other = next(z for z in again.view(1 - seat)["zones"] if z["name"] == f"hand.{seat}")
        assert other["cards"] == [None] * len(cards)


def test_speed_position_marks_a_hand_known_to_its_owner():
    game = cardcore.new_game("speed", 2, seed=11)
    text = game.position()
    for seat in (0, 1):
        section = next(s for s in text.split(" | ") if s.startswith(f"hand.{seat}:"))
        cards = section.split(":", 1)[1].split()
        assert cards and all(c.endswith(f"@{seat}") for c in cards), section


def test_golf_refuses_a_discard_not_known_to_all():
    game = cardcore.new_game("golf", 2, seed=5)
    text = game.position()
    top = re.search(r"discard: (\S+)!", text).group(1)
    with pytest.raises(OptionError) as info:
        cardcore.new_game(
            "golf", 2, position=text.replace(f"discard: {top}!", f"discard: {top}"), seed=1
        )
    assert "discard" in str(info.value)
