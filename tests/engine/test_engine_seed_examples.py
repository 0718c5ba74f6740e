"""The worked examples of the seeds, played move by move on rigged positions.

Seed 000 (Switch): the 7-flush trade-off and the red-jack answers. Seed 002 (Crazy Eights): the
stuck turn with three draws. Expected values come from the seeds and RULINGS.md, not from runs.
"""

from __future__ import annotations

from engine_helpers import CRAZY_EIGHTS, SWITCH, hand, position, texts

import pytest

from arena.engine.actions import DRAW, Play
from arena.errors import IllegalActionError
from arena.engine.game import Pending

# Hearts are active; seat 0 holds 7H 2H 2C 5H JH plus two off-suit cards (seed 000).
FLUSH_HAND = "7H 2H 2C 5H JH 3S KD"


def flush_table():
    """Seed 000's position: 9H on the pile, four seats, seat 0 to move."""
    return position(SWITCH, [FLUSH_HAND, "3D 4D", "5D 6D", "6H 7D"], "9H",
                    stock="3C 8C 4S 5S 6S")


def test_seed000_option_one_two_2s_leave_a_live_four_card_penalty():
    """S4, S7: `2H 2C` chains by rank; the stacked 4-card two-penalty waits for seat 1."""
    game = flush_table()
    game.apply("2H 2C")
    assert game.to_move == 1
    assert game.pending == Pending("two", 4)
    assert hand(game, 0) == sorted("7H 5H JH 3S KD".split())  # the hearts stay home
    assert game.to_json()["top"] == "2C"


def test_seed000_option_one_next_seat_without_a_2_draws_four():
    """S3, S12: seat 1 holds no 2, so its only action is to draw the whole penalty."""
    game = flush_table()
    game.apply("2H 2C")
    assert texts(game.legal_actions()) == ["draw"]
    game.apply("draw")
    assert hand(game, 1) == sorted("3D 4D 3C 8C 4S 5S".split())
    assert game.pending is None
    assert game.to_move == 2


def test_seed000_option_two_the_flush_sheds_five_and_nobody_draws():
    """S4, S6: 7H opens hearts, 2C chains by rank onto 2H; every special after the 7 is inert."""
    game = flush_table()
    game.apply("7H 2H 2C 5H JH")
    assert hand(game, 0) == ["3S", "KD"]
    assert game.pending is None
    assert game.to_move == 1  # no skip, no reverse
    assert game.to_json()["top"] == "JH"
    assert game.to_json()["active_suit"] == "H"
    assert [len(h) for h in game.hands] == [2, 2, 2, 2]  # nobody drew a thing


@pytest.mark.parametrize("text", [
    "7H 2H", "7H 2H 2C", "7H 5H 2H 2C", "7H 2H 2C 5H", "7H 2H 2C 5H JH", "7H JH 5H 2H 2C",
])
def test_seed000_the_flush_sequences_the_seed_describes_are_legal(text):
    """S4: each later card matches the previous rank or is a heart (opened by 7H)."""
    game = flush_table()
    assert str(game.check(text)) == text


@pytest.mark.parametrize("text", [
    "7H 2C",          # 2C is neither a heart nor a 7
    "2C 2H",          # 2C does not fit the pile (S3): the chain must start on 2H
    "2H 5H",          # no 7 laid: a later card must match the previous rank
    "7H 2H 2C 3S",    # spades were never opened
    "2H 2C 7H",       # 7H does not match the rank of 2C, and no 7 came earlier
])
def test_seed000_sequences_outside_the_rules_are_illegal(text):
    """S3, S4: the first card fits the pile; later cards chain by rank or an opened suit."""
    with pytest.raises(IllegalActionError) as error:
        flush_table().check(text)
    assert error.value.reason


def test_seed000_both_options_are_offered_by_legal_actions():
    """The bounded list holds option one and a five-card flush ending on JH (moves docstring)."""
    listed = texts(flush_table().legal_actions())
    assert "2H 2C" in listed
    flushes = [t for t in listed if t.startswith("7H") and t.endswith("JH")]
    assert any(len(t.split()) == 5 for t in flushes), flushes


def red_jack_table(seat0: str):
    """Seat 3 laid two black jacks: a jack penalty of 10 waits for seat 0."""
    return position(SWITCH, [seat0, "3D 4D", "5D 6D", "6H 7D"], "JC", discard="9C JS",
                    stock="2S 3S 4S 5S 6S 8S 9S KS", pending=("jack", 10))


def test_S8_seed000_one_red_jack_against_ten_its_player_draws_five():
    """S8: one red jack cancels five; its player draws the remaining five at once."""
    game = red_jack_table("JH 3C")
    game.apply("JH")
    assert hand(game, 0) == sorted("3C 2S 3S 4S 5S 6S".split())
    assert game.pending is None
    assert game.to_move == 1
    assert game.history[-1].drew == 5


def test_S8_seed000_two_red_jacks_against_ten_nothing_is_drawn():
    """S8: two red jacks in one play cancel both black jacks; nothing is drawn."""
    game = red_jack_table("JH JD 3C")
    game.apply("JH JD")
    assert hand(game, 0) == ["3C"]
    assert game.pending is None
    assert game.to_move == 1
    assert len(game.stock) == 8


def c8_stuck_turn(stock: str):
    """Seed 002: the pile shows Q♠ and the hand is 4H 9D 9H JD; no spade, queen or 8."""
    return position(CRAZY_EIGHTS, ["4H 9D 9H JD", "2C 3C", "4C 5C", "6D 7D"], "QS", stock=stock)


def test_C4_seed002_second_draw_9S_leads_a_three_card_set():
    """C4: 6C is no help, the seat draws again; 9S fits and the play must include it."""
    game = c8_stuck_turn("6C 9S KD")
    assert game.legal_actions() == [DRAW]
    game.apply("draw")
    assert game.to_move == 0 and game.legal_actions() == [DRAW]  # first draw: no help
    game.apply("draw")
    assert game.to_move == 0
    listed = game.legal_actions()
    assert listed and all(isinstance(a, Play) and "9S" in str(a).split() for a in listed)
    assert "9S 9D 9H" in texts(listed) or "9S 9H 9D" in texts(listed)
    for illegal in ("draw", "4H", "9D 9H"):
        with pytest.raises(IllegalActionError):
            game.check(illegal)
    game.apply("9S 9D 9H")
    assert hand(game, 0) == ["4H", "6C", "JD"]
    assert game.to_json()["top"] == "9H" and game.to_json()["active_suit"] == "H"
    assert game.to_move == 1


def test_C4_seed002_three_missed_draws_end_the_turn_by_themselves():
    """C4: three draws that cannot be played: the turn ends on its own, and it is no pass."""
    game = c8_stuck_turn("6C 3H 3D KD")
    for _ in range(3):
        assert game.to_move == 0
        game.apply("draw")
    assert game.to_move == 1
    assert hand(game, 0) == sorted("4H 9D 9H JD 6C 3H 3D".split())
    assert [str(e.action) for e in game.history] == ["draw", "draw", "draw"]
    assert game.to_json()["stock"] == ["KD"]
