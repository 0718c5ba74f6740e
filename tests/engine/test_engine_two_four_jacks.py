"""RULINGS.md section W: the `two-four-jacks` preset (seed 003, main rules), narrated on rigged
positions, one or more scenarios per ruling."""

from __future__ import annotations

from engine_helpers import hand, legal, position, texts

import pytest

from arena.engine.actions import DRAW
from arena.errors import RulesError
from arena.engine.game import Game
from arena.engine.rules import load_rules

W = load_rules("two-four-jacks")
OTHERS = ["3D 5D 6D", "5C 6C TC", "6H TS 3S"]


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(W, [seat0, *OTHERS], top, **kw)


# -- W1 deal ----------------------------------------------------------------------------------


def test_W1_seven_each_and_a_trick_starter_means_a_new_deal():
    """W1: 7 cards each; the starter is never an A, 2, 4 or J (a trick starter is redealt)."""
    starters = set()
    for seed in range(300):
        game = Game.new(W, 4, seed)
        assert [len(h) for h in game.hands] == [7] * 4
        starters.add(str(game.to_json()["top"])[0])
    assert starters.isdisjoint("A24J") and starters == set("35678T9QK") | {"9"}


@pytest.mark.parametrize("seats, ok", [(1, False), (2, True), (6, True), (7, False)])
def test_W1_two_to_six_seats(seats, ok):
    """W1: 2 to 6 seats."""
    if ok:
        assert Game.new(W, seats, 3).seats == seats
    else:
        with pytest.raises(RulesError):
            Game.new(W, seats, 3)


# -- W2 plays ---------------------------------------------------------------------------------


def test_W2_one_card_a_play_so_a_pair_is_illegal():
    """W2: exactly one card; 9C 9D on 9H is two cards and illegal, each alone is legal."""
    game = table("9C 9D 3H")
    assert not legal(game, "9C 9D")
    assert legal(game, "9C") and legal(game, "9D")
    assert all(len(t.split()) == 1 for t in texts(game.legal_actions()) if t != "draw")


def test_W2_a_seat_may_draw_instead_of_playing():
    """W2: seat 0 could play 3H on 9H but draws by choice; the draw is offered among the plays."""
    game = table("3H 5S", stock="KC")
    assert "3H" in texts(game.legal_actions()) and DRAW in game.legal_actions()
    game.apply("draw")
    assert hand(game, 0) == ["3H", "5S", "KC"] and game.to_move == 1  # KC does not fit: turn over


def test_W2_a_draw_by_choice_needs_a_card_to_draw():
    """W2 with G4: with an empty stock and nothing to recycle, the choice to draw is gone."""
    game = table("3H 5S", recycles_left=0)
    assert DRAW not in game.legal_actions()


# -- W3 drawing -------------------------------------------------------------------------------


def test_W3_a_playable_drawn_card_may_be_played_alone():
    """W3: stuck on 9H, seat 0 draws 9C: it may play 9C and nothing else (5S stays)."""
    game = table("5S 7D", stock="9C 3C")
    game.apply("draw")
    assert game.to_move == 0 and texts(game.legal_actions()) == ["9C", "pass"]
    assert not legal(game, "5S")
    game.apply("9C")
    assert game.to_json()["top"] == "9C" and game.to_move == 1


def test_W3_after_a_draw_by_choice_the_first_card_a_bot_may_build_on_is_the_drawn_one():
    """W2 then W3: holding 3H, which fits 9H, seat 0 draws 8H by choice. Only 8H may be laid now,
    and ``next_cards`` (a bot's card-by-card builder) says so: 3H is no longer a first card."""
    game = table("3H 5S", stock="8H 8C")
    game.apply("draw")
    assert texts(game.legal_actions()) == ["8H", "pass"]
    assert [str(c) for c in game.next_cards([])] == ["8H"]
    assert not legal(game, "3H")


def test_W3_or_the_seat_ends_its_turn_with_pass_which_does_not_count_toward_a_block():
    """W3 with G5: the pass after a draw ends the turn and leaves the blocked-game chain at 0."""
    game = table("5S 7D", stock="9C")
    game.apply("draw")
    game.apply("pass")
    assert game.to_move == 1 and game.passes_in_row == 0 and hand(game, 0) == ["5S", "7D", "9C"]


def test_W3_an_unplayable_drawn_card_ends_the_turn_by_itself():
    """W3: 3C does not fit 9H, so the turn passes on at once."""
    game = table("5S 7D", stock="3C")
    game.apply("draw")
    assert game.to_move == 1 and hand(game, 0) == ["3C", "5S", "7D"]


def test_W3_recycling_is_unlimited():
    """W3: the pile goes back into the stock as often as needed (no recycle cap)."""
    assert W.recycles is None
    game = table("5S 7D", discard="KC QC", stock="")
    game.apply("draw")
    assert game.recycles_left is None and len(game.hands[0]) == 3


# -- W4 powers --------------------------------------------------------------------------------


def test_W4_an_ace_is_wild_and_names_a_suit():
    """W4: AS on 9H names clubs; the next seat must follow clubs."""
    game = table("AS 3C 7C")
    assert not legal(game, "AS")
    game.apply("AS=C")
    assert game.to_json()["active_suit"] == "C"


def test_W4_an_ace_never_answers_a_penalty():
    """W4: under a 2-penalty, AS is illegal; only a 2 answers."""
    game = table("AS 2C 7C", top="2H", pending=("two", 2))
    assert not legal(game, "AS=C")
    assert texts(game.legal_actions()) == ["2C", "draw"]


def test_W4_twos_stack_by_twos():
    """W4: 2C on a pending 2 makes four for seat 1, who has no 2 and draws four."""
    game = table("2C 5S 7C", top="2H", pending=("two", 2), stock="3C 4C 8C 9C KC")
    game.apply("2C")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 4}
    assert texts(game.legal_actions()) == ["draw"]
    game.apply("draw")
    assert len(game.hands[1]) == 7 and game.pending is None and game.to_move == 2


def test_W4_fours_pick_up_four_answered_only_by_a_four():
    """W4: a 4-penalty is not answered by a 2, only by a 4 (+4)."""
    game = table("2H 4C 7C", top="4H", pending=("four", 4))
    assert not legal(game, "2H")
    game.apply("4C")
    assert game.to_json()["pending"] == {"kind": "four", "amount": 8}


def test_W4_a_black_jack_is_plus_seven_and_black_jacks_do_not_stack():
    """W4: JS on 9S makes seven; the next seat's JC cannot pass it on."""
    game = position(W, ["JS 5D", "JC 3C 4D", "5C", "6H"], "9S")
    game.apply("JS")
    assert game.to_json()["pending"] == {"kind": "jack", "amount": 7}
    assert not legal(game, "JC") and texts(game.legal_actions()) == ["draw"]


def test_W4_a_red_jack_cancels_the_black_jack():
    """W4: JH answers JS: nothing is drawn, the next seat plays normally on JH."""
    game = table("JH 5S 7C", top="JS", pending=("jack", 7))
    game.apply("JH")
    assert game.pending is None and hand(game, 0) == ["5S", "7C"] and game.to_move == 1


def test_W4_red_jacks_are_otherwise_ordinary():
    """W4: with no black jack pending, JD is an ordinary diamond: no penalty, no skip."""
    game = position(W, ["JD 3C 4C", "5D 3H", "6C", "7C"], "9D")
    game.apply("JD")
    assert game.pending is None and game.to_move == 1


def test_W4_an_unanswered_penalty_is_drawn_and_ends_the_turn():
    """W4: seat 0 holds no 2 under a 2-penalty: draw (the two cards) is its only action."""
    game = table("5S 7D", top="2H", pending=("two", 2), stock="3C 4C")
    assert texts(game.legal_actions()) == ["draw"]
    game.apply("draw")
    assert hand(game, 0) == ["3C", "4C", "5S", "7D"] and game.to_move == 1


# -- W5 last card -----------------------------------------------------------------------------


def test_W5_a_play_leaving_one_card_may_carry_the_announcement():
    """W5: from 3H 5S, 3H ! leaves one card announced: no penalty."""
    game = table("3H 5S", stock="3C 4C")
    assert {"3H", "3H !"} <= set(texts(game.legal_actions()))
    game.apply("3H !")
    assert hand(game, 0) == ["5S"]


def test_W5_without_it_the_player_draws_two_at_once():
    """W5 with G3a: 3H without the call leaves one card, so seat 0 draws two at once."""
    game = table("3H 5S", stock="3C 4C")
    game.apply("3H")
    assert hand(game, 0) == ["3C", "4C", "5S"] and game.history[-1].drew == 2


def test_W5_an_announcement_that_does_not_leave_one_card_is_illegal():
    """G1/W5: 3H ! from three cards leaves two: illegal, naming the rule."""
    game = table("3H 5S 6S")
    assert not legal(game, "3H !")


# -- W6 blocked -------------------------------------------------------------------------------


def test_W6_a_blocked_game_is_won_by_the_fewest_cards():
    """W6: nobody can play or draw; four passes in a row: seat 1 (one card) wins."""
    game = position(W, ["5S 7D", "3D", "5C 6C", "8C 7C"], "9H", recycles_left=0)
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.status == "won" and game.outcome.winner == 1 and game.outcome.reason == "blocked"


def test_W6_a_tie_for_fewest_is_a_draw():
    """W6: two seats with one card each: the blocked game is drawn."""
    game = position(W, ["5S", "3D", "5C 6C", "8C 7C"], "9H", recycles_left=0)
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.status == "drawn" and game.outcome.places[0] == (0, 1)
