"""RULINGS.md section B: the `blackjack` preset (seed 003, "Black Jack" variant), narrated on
rigged positions."""

from __future__ import annotations

import time

import pytest
from engine_helpers import hand, legal, position, texts

from arena.errors import IllegalActionError
from arena.engine.game import Game
from arena.engine.rules import load_rules

B = load_rules("blackjack")
OTHERS = ["TD KD", "JD 5D", "6D 4S"]


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(B, [seat0, *OTHERS], top, **kw)


# -- B1 deal ----------------------------------------------------------------------------------


def test_B1_seven_each_five_each_with_five_or_more_seats():
    """B1: 7 cards each with 2-4 seats, 5 each with 5-7 seats (2-7 seats: the ruling is silent)."""
    assert [len(h) for h in Game.new(B, 4, 1).hands] == [7] * 4
    assert [len(h) for h in Game.new(B, 5, 1).hands] == [5] * 5
    assert [len(h) for h in Game.new(B, 7, 1).hands] == [5] * 7
    assert (B.seats_min, B.seats_max) == (2, 7)


def test_B1_any_starter_and_its_power_does_not_apply():
    """B1: starters include power cards; a starter 2 leaves no penalty, a starter 8 no skip,
    a starter ace names nothing (its own suit stands)."""
    seen = set()
    for seed in range(400):
        game = Game.new(B, 4, seed)
        rank = game.to_json()["top"][0]
        seen.add(rank)
        assert game.pending is None and not game.pending_skip
        assert game.to_json()["active_suit"] == game.to_json()["top"][1]
    assert {"2", "8", "A", "J", "Q", "K", "7"} <= seen


# -- B2 plays ---------------------------------------------------------------------------------


def test_B2_one_card_or_a_seven_followed_by_the_holders_cards_of_its_suit():
    """B2: on 9H, 7H 3H KH is one play; 7H 3C is not (clubs are not the 7's suit); there are no
    sets (9C 9S is not a play)."""
    game = table("7H 3H KH 3C 9C 9S", top="9H")
    assert legal(game, "7H 3H KH") and legal(game, "7H KH 3H")
    assert not legal(game, "7H 3C") and not legal(game, "9C 9S")


def test_B2_a_queen_must_be_covered_by_any_one_card_which_may_lead_on():
    """B2: QH alone is illegal; QH 5C is legal (any card covers); QH 7C 3C: the cover 7C leads on
    with its suit; QH 5C 6C is not (5C leads nothing on)."""
    game = table("QH 5C 7C 3C 6C", top="9H")
    assert not legal(game, "QH") and "QH" not in texts(game.legal_actions())
    assert legal(game, "QH 5C") and legal(game, "QH 7C 3C")
    assert not legal(game, "QH 5C 6C")


def test_B2_a_cover_off_the_sevens_suit_ends_the_flush():
    """B2: 7H QH 5H 6H keeps to hearts (the cover is a heart); after 7H QH 5C the flush is over."""
    game = table("7H QH 5H 6H 5C", top="9H")
    assert legal(game, "7H QH 5H 6H")
    assert not legal(game, "7H QH 5C 6H") and legal(game, "7H QH 5C")


def test_B2_powers_of_every_card_apply_in_laid_order():
    """B2: 7H 8H KH: the king reverses (seat 3 is next) and the 8 leaves its skip pending for it;
    7S 2S JS: +2 then +5, a jack penalty of seven for seat 1."""
    game = table("7H 8H KH 4C", top="9H")
    game.apply("7H 8H KH")
    assert game.direction == -1 and game.to_move == 3 and game.pending_skip
    stack = table("7S 2S JS 4C", top="9S")
    stack.apply("7S 2S JS")
    assert stack.to_json()["pending"] == {"kind": "jack", "amount": 7} and stack.to_move == 1


def test_B2_legal_actions_list_the_shortest_and_longest_flush_per_last_card():
    """B2 with arena.engine.chains: for 7H with 3H 4H 5H the list holds 7H 3H (shortest ending on 3H)
    and the longest ending on each card; other orders are legal and buildable with next_cards."""
    game = table("7H 3H 4H 5H", top="9H")
    listed = texts(game.legal_actions())
    assert {"7H", "7H 3H", "7H 4H", "7H 5H", "7H 4H 5H 3H", "7H 3H 5H 4H", "7H 3H 4H 5H"} <= set(listed)
    assert legal(game, "7H 5H 3H")
    assert [str(c) for c in game.next_cards([game.hands[0][0]])] == ["3H", "4H", "5H"]


# -- B3 powers --------------------------------------------------------------------------------


def test_B3_an_ace_is_wild_names_a_suit_and_cancels_a_two_penalty():
    """B3: AS on 9H names clubs; under a 2-penalty of four AS cancels it (nothing drawn)."""
    game = table("AS 4C 5C", top="9H")
    game.apply("AS=C")
    assert game.to_json()["active_suit"] == "C"
    under = table("AS 4C 5C", top="2H", pending=("two", 4))
    under.apply("AS=D")
    assert under.pending is None and hand(under, 0) == ["4C", "5C"] and under.to_move == 1


def test_B3_a_two_penalty_is_answered_by_a_two_a_black_jack_or_a_red_jack():
    """B3: on a 2-penalty of two, 2C makes four; JS makes a jack penalty of seven; JH cancels it."""
    two = table("2C JS JH 5C", top="2H", pending=("two", 2))
    assert texts(two.legal_actions()) == ["2C", "JH", "JS"]
    two.apply("2C")
    assert two.to_json()["pending"] == {"kind": "two", "amount": 4}
    black = table("2C JS JH 5C", top="2H", pending=("two", 2))
    black.apply("JS")
    assert black.to_json()["pending"] == {"kind": "jack", "amount": 7}
    red = table("2C JS JH 5C", top="2H", pending=("two", 2), stock="3C 4C")
    red.apply("JH")
    assert red.pending is None and hand(red, 0) == ["2C", "5C", "JS"]


def test_B3_a_black_jack_is_answered_by_a_black_jack_or_red_jacks_cancelling_five_each():
    """B3: on a jack penalty of ten, 2C and AS do not answer; JC makes fifteen; JH takes five off
    and its player draws the other five at once (as S8); the next seat plays normally."""
    game = table("JC JH 2C AS 5C", top="JS", pending=("jack", 10), stock="3C 4C 6S 7S 8S 9S")
    assert not legal(game, "2C") and not legal(game, "AS=H")
    assert texts(game.legal_actions()) == ["JC", "JH"]
    game.apply("JH")
    assert game.pending is None and len(game.hands[0]) == 4 + 5 and game.to_move == 1


def test_B3_an_eight_leaves_a_skip_pending_passed_on_with_an_eight_or_accepted_with_pass():
    """B3: 8H: seat 1 is to move with the skip pending; its 8D passes it on to seat 2, whose only
    action is `pass`; seat 3 moves next."""
    game = position(B, ["8H 3C 4C", "8D 5D 6D", "9C 9S", "9D 4S"], "9H")
    game.apply("8H")
    assert game.to_move == 1 and game.pending_skip
    assert texts(game.legal_actions()) == ["8D", "pass"]
    game.apply("8D")
    assert game.to_move == 2 and texts(game.legal_actions()) == ["pass"]
    game.apply("pass")
    assert game.to_move == 3 and not game.pending_skip and game.passes_in_row == 0


def test_B3_a_king_reverses():
    """B3: KH on 9H: seat 3 moves next."""
    game = table("KH 3C", top="9H")
    game.apply("KH !")
    assert game.direction == -1 and game.to_move == 3


# -- B4 blunders ------------------------------------------------------------------------------


def test_B4_an_illegal_play_is_a_blunder_the_cards_stay_and_the_seat_draws_two():
    """B4: 7S on 9H (neither suit nor rank) is accepted as a blunder: the 7S stays in the hand,
    seat 0 draws two, the turn ends, and the history marks it."""
    game = table("7S 3C 4C", top="9H", stock="5S 6S 8C")
    assert game.blunder_reason("7S") and "matches neither" in game.blunder_reason("7S")
    game.apply("7S")
    assert hand(game, 0) == ["3C", "4C", "5S", "6S", "7S"] and game.to_move == 1
    assert game.history[-1].blunder and game.history[-1].drew == 2 and game.to_json()["top"] == "9H"


def test_B4_a_blunder_under_a_penalty_also_takes_the_penalty_and_unheld_cards_are_still_rejected():
    """B4: under a 2-penalty of two, 5C is a blunder: two for it plus the two pending; a card the
    seat does not hold is not a blunder but an illegal action."""
    game = table("5C 3C", top="2H", pending=("two", 2), stock="5S 6S 8C 8D 9C")
    game.apply("5C")
    assert len(game.hands[0]) == 2 + 4 and game.pending is None
    with pytest.raises(IllegalActionError, match="not in the hand"):
        table("5C 3C", top="9H").check("KS")



def test_B4_G5_a_blunder_that_draws_and_takes_nothing_counts_as_a_pass():
    """G5 with B4: a blunder with nothing left to draw and no penalty changes nothing, as a
    pass does. Seat 0 (3C 4C) can neither play on 9H nor draw, seat 1 (5D) neither: were seat
    0's blunder 3C to break the run of passes, seat 0, which loses the blocked game on cards,
    could blunder every turn until the decision cap called it a draw. The game is blocked,
    and seat 1 wins on fewest cards."""
    game = position(B, ["3C 4C", "5D"], "9H")
    game.apply("3C")
    assert game.history[-1].blunder and game.history[-1].drew == 0 and not game.is_over
    game.apply("pass")
    assert game.is_over and game.outcome.reason == "blocked" and game.outcome.winner == 1


# -- B5 last card -----------------------------------------------------------------------------


def test_B5_leaving_one_card_without_the_announcement_draws_two():
    """B5 (as W5): 3H leaves one card unannounced: two at once; 3H ! costs nothing."""
    game = table("3H 5S", stock="3C 4C")
    game.apply("3H")
    assert hand(game, 0) == ["3C", "4C", "5S"]
    called = table("3H 5S", stock="3C 4C")
    called.apply("3H !")
    assert hand(called, 0) == ["5S"]


# -- B6 drawing, recycling, blocked -----------------------------------------------------------


def test_B6_drawing_only_when_no_play_is_legal_then_the_drawn_card_may_be_played_or_pass():
    """B6: with 3H playable there is no draw; stuck on 9C, the drawn 7C may be played or the
    turn ended with a pass that does not count toward a block."""
    assert not legal(table("3H 5S 4D"), "draw")
    game = table("5S 4D 4H", top="9C", stock="7C")
    game.apply("draw")
    assert texts(game.legal_actions()) == ["7C", "pass"]
    game.apply("pass")
    assert game.to_move == 1 and game.passes_in_row == 0


def test_B6_after_a_draw_a_drawn_7_goes_down_alone_without_its_suit():
    """B6 (as W3, F4: the drawn card "and only it"; a play that starts with it is L9's rule, not
    this one): stuck on 7H holding 5C, seat 0 draws 7C. It may lay 7C or pass, but not 7C 5C,
    which would lay a card it could not play before drawing."""
    game = table("5S 4D 5C", top="7H", stock="7C")
    assert texts(game.legal_actions()) == ["draw"]
    game.apply("draw")
    assert texts(game.legal_actions()) == ["7C", "pass"]
    assert not legal(game, "7C 5C")


def test_B6_a_drawn_joker_goes_down_alone_as_any_card_but_a_queen():
    """B6 with B2 in a blackjack rule set with jokers: a drawn joker may be played alone, as a
    card that fits but not as a queen (which must be covered): the roles a bot building its
    play is offered are those of the legal plays."""
    from engine_helpers import variant

    jokers = variant(B, deal={"jokers": 2, "starter": "push-back"})
    game = position(jokers, ["5S 4D 3C", *OTHERS], "9H", stock="X1")
    game.apply("draw")
    roles = {str(c) for c in game.joker_roles()}
    legal_roles = {t.split(":")[1].split("=")[0] for t in texts(game.legal_actions()) if t.startswith("X1:")}
    assert roles == legal_roles and "QH" not in roles and "9C" in roles


def test_B6_a_drawn_queen_cannot_go_down_alone_so_the_turn_ends_by_itself():
    """B6 with B2: a queen must be covered in the same play, and after a draw only the drawn
    card may be laid; a drawn queen that fits can therefore not be played, and the turn ends by
    itself (W3), as after any draw that cannot be played."""
    game = table("5S 4D 3C", top="9H", stock="QH")
    game.apply("draw")
    assert game.to_move == 1 and hand(game, 0) == ["3C", "4D", "5S", "QH"]


def test_B6_recycling_is_unlimited_and_a_blocked_game_goes_to_the_fewest_cards():
    """B6: recycles are unlimited; four passes in a row with nothing to draw: the one-card seat wins."""
    assert B.recycles is None
    game = position(B, ["5S 4D", "3D", "5C 6C", "8C 4C"], "9H")
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.winner == 1 and game.outcome.reason == "blocked"


def test_B2_the_listing_stays_bounded_for_a_long_suit_and_many_queens():
    """B2 with arena.engine.chains: a 26-card hand (all hearts and clubs, a 7 and a queen in each) lists
    at most 2 * hand**2 plays per suit call and is built in well under a second."""
    game = table("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", top="3D")
    start = time.perf_counter()
    listed = game.legal_actions()
    assert time.perf_counter() - start < 2.0
    assert 0 < len(listed) <= 2 * 26 ** 2 * 4
    assert texts(listed) == texts(table(" ".join(str(c) for c in game.hands[0]), top="3D").legal_actions())
