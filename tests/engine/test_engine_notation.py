"""NOTATION.md "Cards" and "Actions": round trips, invalid texts and illegal actions (G1)."""

from __future__ import annotations

from engine_helpers import CRAZY_EIGHTS, SWITCH, position

import pytest

from arena.engine.actions import DRAW, PASS, Action, Draw, Pass, Play
from arena.engine.cards import NAMES, Card
from arena.errors import IllegalActionError, InvalidActionError, InvalidCardError


@pytest.mark.parametrize("name", NAMES)
def test_every_card_round_trips_and_its_repr_is_the_parser_call(name):
    """Every card (52 and both jokers): str(parse(name)) == name, eval(repr) gives it back."""
    card = Card.parse(name)
    assert str(card) == name
    assert repr(card) == f"Card.parse({name!r})"
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.parse(name.lower()) == card


@pytest.mark.parametrize("text, canonical", [
    ("10♥", "TH"), ("10h", "TH"), ("t♥", "TH"), ("A♠", "AS"), ("q♦", "QD"), ("2♣", "2C"),
    ("x2", "X2"),
])
def test_card_spellings_read_as_the_canonical_card(text, canonical):
    """Input is case-insensitive and accepts 10 and the suit symbols; output is canonical."""
    assert str(Card.parse(text)) == canonical


ROUND_TRIPS = [
    # (input, canonical)
    ("QS", "QS"),
    ("10♥", "TH"),
    ("7H 2H 2C 5H JH", "7H 2H 2C 5H JH"),
    ("7h  2♥ 2c", "7H 2H 2C"),
    ("AS=D", "AS=D"),
    ("as=d", "AS=D"),
    ("A♠=♦", "AS=D"),
    ("AS AH=D", "AS AH=D"),
    ("8C 8D=H", "8C 8D=H"),
    ("X1:JS", "X1:JS"),
    ("x1:js", "X1:JS"),
    ("X2:10♥", "X2:TH"),
    ("X1:AS=H", "X1:AS=H"),
    ("7H X1:7C 3C", "7H X1:7C 3C"),
    ("9H 9C !", "9H 9C !"),
    ("9h 9c !", "9H 9C !"),
    ("draw", "draw"),
    ("DRAW", "draw"),
    ("  draw ", "draw"),
    ("pass", "pass"),
    ("Pass", "pass"),
]


@pytest.mark.parametrize("text, canonical", ROUND_TRIPS)
def test_action_notation_round_trip(text, canonical):
    """str(Action.parse(s)) is the canonical form, and parsing it again changes nothing."""
    action = Action.parse(text)
    assert str(action) == canonical
    assert Action.parse(canonical) == action
    assert str(Action.parse(canonical)) == canonical


@pytest.mark.parametrize("text, canonical", ROUND_TRIPS)
def test_action_repr_is_the_parser_call(text, canonical):
    """repr shows the parser call, and evaluating it rebuilds an equal action."""
    action = Action.parse(text)
    assert repr(action) == f"Action.parse({canonical!r})"
    assert eval(repr(action), {"Action": Action}) == action


def test_parsed_actions_carry_their_parts():
    """The parts of the notation land in the action: cards, call, joker role, announcement."""
    assert Action.parse("draw") == DRAW and isinstance(DRAW, Draw)
    assert Action.parse("pass") == PASS and isinstance(PASS, Pass)
    play = Action.parse("AS AH=D")
    assert isinstance(play, Play)
    assert [str(c) for c in play.cards] == ["AS", "AH"] and play.call == 1 and not play.announce
    joker = Action.parse("X1:JS")
    assert [str(c) for c in joker.acting] == ["JS"] and [str(c) for c in joker.cards] == ["X1"]
    assert Action.parse("9H 9C !").announce


@pytest.mark.parametrize("text", [
    "", "   ", "ZZ", "1H", "11H", "9X", "draw 2H", "pass pass", "draw!", "AS=Q", "AS=",
    "7H=H 2H", "!", "! 9H", "9H ! 9C", "X1", "X1:X2", "3H:JS", "AS=D=H", "9H,9C",
])
def test_invalid_texts_raise_invalid_action_error_naming_the_input(text):
    """A text that cannot be read is *invalid* (not illegal), and the error names it."""
    with pytest.raises(InvalidActionError) as error:
        Action.parse(text)
    assert not isinstance(error.value, IllegalActionError)
    assert repr(text.strip()) in str(error.value) or text.strip() == "" or "''" in str(error.value)


@pytest.mark.parametrize("text, written", [
    ("AS = D", "AS=D"), ("AS= D", "AS=D"), ("AS =D", "AS=D"), ("7H 8H = C !", "7H 8H=C !"),
])
def test_a_spaced_suit_call_is_answered_with_how_to_write_it(text, written):
    """NOTATION: a suit call is glued to its card (AS=D); spaces around '=' are a common slip,
    and the error says so rather than "a suit call ends the play" or "unknown card ''"."""
    with pytest.raises(InvalidActionError, match="without spaces around '='") as error:
        Action.parse(text)
    assert repr(written) in str(error.value)
    assert str(Action.parse(written)) == written   # the suggestion reads back as written


@pytest.mark.parametrize("text", ["X = D", "AS ==D", "AS =", "=D", "=", "= D", "=AS", "AS =D =C"])
def test_a_spaced_call_that_would_still_be_wrong_gets_no_suggestion(text):
    """The hint offers a glued form only when that form reads: 'X=D' or 'AS==D' would not, and a
    move that starts with '=' (a bot's reply, a typo at the table) is refused, not parsed again
    and again until Python's recursion limit."""
    with pytest.raises(InvalidActionError, match="without spaces around '='$"):
        Action.parse(text)


def test_a_non_text_action_is_invalid():
    """Only text parses."""
    with pytest.raises(InvalidActionError):
        Action.parse(None)  # type: ignore[arg-type]


def test_invalid_card_texts_raise_invalid_card_error():
    """Card.parse refuses unknown cards."""
    for text in ("", "1H", "KK", "X3", "10"):
        with pytest.raises(InvalidCardError):
            Card.parse(text)


def test_check_distinguishes_invalid_from_illegal():
    """An unreadable text raises InvalidActionError from check, a readable forbidden one Illegal."""
    game = position(SWITCH, ["3H 4C", "5C 6C"], "9H")
    with pytest.raises(InvalidActionError):
        game.check("3Z")
    with pytest.raises(IllegalActionError):
        game.check("4C")


@pytest.mark.parametrize("rules, hand, text, why", [
    (SWITCH, "3H 4C", "3H=D", "suit"),           # G1: no suit asked on a plain card
    (SWITCH, "3H 3C 4C", "3H 3C !", "last-card"),   # G1: switch has no last-card rule
    (SWITCH, "3H 4C", "3H !", "last-card"),      # even one that leaves exactly one card
    (SWITCH, "AS 4C", "AS", "suit"),             # S9: an ace must name a suit
    (SWITCH, "3H 4C", "4C", "matches"),          # S3
    (SWITCH, "3H 4C", "5H", "5H"),               # not in the hand
    (SWITCH, "3H 4C", "3H 3H", "twice"),
    (CRAZY_EIGHTS, "3H 4C", "3H=S", "suit"),     # C3
    (CRAZY_EIGHTS, "3H 3C 4C", "3H 3C !", "last-card"),
    (CRAZY_EIGHTS, "8H 4C", "8H", "suit"),       # C3
])
def test_illegal_actions_raise_illegal_action_error_with_a_reason(rules, hand, text, why):
    """A readable action the rules forbid is *illegal*; the reason names the rule or card."""
    game = position(rules, [hand, "5C 6C"], "9H")
    with pytest.raises(IllegalActionError) as error:
        game.check(text)
    assert why in error.value.reason
    assert error.value.action == str(Action.parse(text))
    assert text.split()[0] in str(error.value)


def test_a_joker_play_is_illegal_in_presets_without_jokers():
    """Jokers parse, but no 52-card preset holds one."""
    game = position(SWITCH, ["3H 4C", "5C 6C"], "9H")
    with pytest.raises(IllegalActionError):
        game.check("X1:3H")
