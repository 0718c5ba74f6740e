"""RULINGS.md section C: the `crazy-eights` preset (seed 002), narrated on rigged positions."""

from __future__ import annotations

from engine_helpers import CRAZY_EIGHTS, cards, hand, position, texts

import pytest

from arena.engine.actions import DRAW, PASS
from arena.engine.cards import Card
from arena.errors import IllegalActionError, RulesError
from arena.engine.game import Game

OTHERS = ["2C 3C", "4C 5C", "6D 7D"]


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(CRAZY_EIGHTS, [seat0, *OTHERS], top, **kw)


def legal(game: Game, text: str) -> bool:
    """Does ``check`` accept the action?"""
    try:
        game.check(text)
        return True
    except IllegalActionError:
        return False


# -- C1 deal --------------------------------------------------------------------------------


def test_C1_four_seats_of_five_from_52_cards_and_any_starter():
    """C1: 4 seats by default, 5 cards each, 52 cards; no redeal, so every rank can start."""
    starters = set()
    for seed in range(200):
        game = Game.new(CRAZY_EIGHTS, None, seed)
        assert game.seats == 4 and [len(h) for h in game.hands] == [5, 5, 5, 5]
        assert sorted(game.all_cards()) == list(range(52))
        assert len(game.stock) == 52 - 20 - 1
        starters.add(game.to_json()["top"][0])
    assert starters == set("A23456789TJQK")


@pytest.mark.parametrize("seats, ok", [(1, False), (2, True), (7, True), (8, False)])
def test_C1_two_to_seven_seats(seats, ok):
    """C1: 2 to 7 seats."""
    if ok:
        assert len(Game.new(CRAZY_EIGHTS, seats, 1).hands) == seats
    else:
        with pytest.raises(RulesError):
            Game.new(CRAZY_EIGHTS, seats, 1)


def starter_eight_game() -> Game:
    """The first deal (by seed) whose starter is an 8."""
    for seed in range(1000):
        game = Game.new(CRAZY_EIGHTS, 4, seed)
        if game.to_json()["top"][0] == "8":
            return game
    raise AssertionError("no starter 8 in 1000 deals")


def test_C1_a_starter_8_declares_nothing_and_the_first_play_may_be_any_card():
    """C1: every card of seat 0 may open the game on a starter 8; after it, normal matching."""
    game = starter_eight_game()
    assert game.to_json()["active_suit"] is None
    singles = {t for t in texts(game.legal_actions()) if len(t.split()) == 1 or "=" in t}
    assert {t.split("=")[0] for t in singles} >= set(hand(game, 0))
    assert DRAW not in game.legal_actions()
    first = next(c for c in hand(game, 0) if c[0] != "8")
    game.apply(first)
    assert game.to_json()["active_suit"] == first[1]


def test_C1_a_rigged_starter_8_with_no_suit_lets_anything_open():
    """C1: on 8S with no declared suit, 3H (neither spade nor 8) may open."""
    game = Game.setup(CRAZY_EIGHTS, [cards("3H 4D"), *map(cards, OTHERS)], Card.parse("8S"),
                      active_suit=-1)  # -1: no suit declared, as Game.new leaves a starter 8
    assert legal(game, "3H") and legal(game, "4D")


# -- C2 plays -------------------------------------------------------------------------------


@pytest.mark.parametrize("text, ok", [
    ("3H", True),        # the active suit
    ("9S", True),        # the top card's rank
    ("8C=D", True),      # an 8 always plays
    ("3H 3S 3D", True),  # a set of one rank: only the first card must match
    ("3S 3H", False),    # the first card must match
    ("3H 4H", False),    # not a set: a later card matches the previous rank
    ("7H 4H", False),    # no 7-flush in crazy eights
    ("4D", False),
])
def test_C2_one_card_or_a_set_of_one_rank_led_by_a_matching_card(text, ok):
    """C2: on 9H with hearts active."""
    assert legal(table("3H 3S 3D 9S 8C 4H 7H 4D"), text) is ok


@pytest.mark.parametrize("card", ["2H", "JH", "JS", "QS", "TH", "7H", "AH"])
def test_C2_only_8s_are_special(card):
    """C2: 2s, jacks, queens, 10s, 7s and aces are plain: no penalty, skip, reverse, swap, call."""
    suit = card[1]
    game = table(f"{card} 5S", top=f"9{suit}")
    assert not legal(game, f"{card}=D")
    game.apply(card)
    assert game.pending is None
    assert (game.to_move, game.direction) == (1, 1)
    assert hand(game, 0) == ["5S"] and hand(game, 1) == ["2C", "3C"]


def test_C2_on_an_8_the_declared_suit_rules_not_the_printed_one():
    """C2: 8S on top with hearts declared: 3H plays, 3S does not."""
    game = table("3H 3S", top="8S", suit="H")
    assert legal(game, "3H") and not legal(game, "3S")


# -- C3 eights ------------------------------------------------------------------------------


@pytest.mark.parametrize("text, ok", [
    ("8C=H", True),
    ("8C", False),          # a play of 8s must declare a suit
    ("8C 8D=H", True),      # one suit for the whole set
    ("8C 8D", False),
    ("9S=C", False),        # a declaration without 8s is illegal
    ("9S 9D=C", False),
])
def test_C3_a_play_of_8s_declares_one_suit_and_only_such_a_play(text, ok):
    """C3: on 9H."""
    assert legal(table("8C 8D 9S 9D"), text) is ok


def test_C3_the_declared_suit_becomes_active():
    """C3: `8C 8D=H`: 8D on top, hearts to follow."""
    game = table("8C 8D 5S")
    game.apply("8C 8D=H")
    assert game.to_json()["top"] == "8D" and game.to_json()["active_suit"] == "H"


def test_C3_finishing_on_an_8_still_declares_and_wins_at_once():
    """C3/C6: the declaration is part of the winning play; `8C` alone is illegal."""
    game = table("8C", top="9H")
    assert not legal(game, "8C")
    game.apply("8C=S")
    assert game.outcome.winner == 0 and game.outcome.reason == "emptied"


# -- C4 drawing -----------------------------------------------------------------------------


def test_C4_drawing_is_illegal_while_a_play_is_legal():
    """C4: seat 0 holds 3H on 9H: no hoarding."""
    game = table("3H 4D", stock="KC")
    with pytest.raises(IllegalActionError):
        game.check("draw")
    with pytest.raises(IllegalActionError):
        game.check("pass")


def test_C4_a_playable_draw_must_be_played_at_once_and_included():
    """C4: 3H drawn on 9H: the seat must play now, a play holding 3H; no further draw."""
    game = table("4D 3S", stock="3H KC")
    game.apply("draw")
    assert game.to_move == 0
    assert texts(game.legal_actions()) in (["3H", "3H 3S"], ["3H 3S", "3H"])
    assert not legal(game, "draw") and not legal(game, "pass")
    game.apply("3H 3S")
    assert hand(game, 0) == ["4D"] and game.to_move == 1


def test_C4_a_fresh_turn_has_three_draws_again():
    """C4: seat 0 misses three, seat 1 plays KH, seat 0 misses three more (2S 3S 4S on KH)."""
    game = position(CRAZY_EIGHTS, ["4D", "5H KH"], "9H", stock="5D 6D 7D 2S 3S 4S QD")
    for _ in range(3):
        game.apply("draw")
    assert game.to_move == 1
    game.apply("KH")
    assert game.to_move == 0
    for _ in range(3):
        assert game.to_move == 0
        game.apply("draw")
    assert game.to_move == 1 and len(game.hands[0]) == 7
    assert game.to_json()["stock"] == ["QD"]


def test_C4_an_empty_stock_ends_the_drawing_turn_by_itself():
    """C4: one missed draw empties the stock: the turn ends, with no pass."""
    game = table("4D", stock="5D")
    game.apply("draw")
    assert game.to_move == 1
    assert [str(e.action) for e in game.history] == ["draw"]


def test_C4_pass_is_for_a_seat_that_can_neither_play_nor_draw_at_the_start_of_its_turn():
    """C4: empty stock, nothing playable: `pass` is the only action."""
    game = table("4D", discard="5D 6S")
    assert game.legal_actions() == [PASS]


def test_C4_a_drawing_turn_does_not_count_toward_a_blocked_game():
    """C4/G5: seat 0 draws (its turn ends by itself), seats 1-3 pass: not blocked yet."""
    game = position(CRAZY_EIGHTS, ["4D", "2C", "3C", "5C"], "9H", stock="6D")
    game.apply("draw")
    for _ in range(3):
        game.apply("pass")
    assert not game.is_over
    game.apply("pass")
    assert game.outcome.reason == "blocked"


# -- C5 no recycling ------------------------------------------------------------------------


def test_C5_an_empty_stock_stays_empty_and_a_stuck_seat_passes():
    """C5: a long pile under the top is never recycled."""
    game = table("4D", discard="5D 8S 7S KC QC")
    assert game.legal_actions() == [PASS]
    with pytest.raises(IllegalActionError):
        game.check("draw")
    game.apply("pass")
    assert game.to_json()["stock"] == [] and len(game.to_json()["discard"]) == 5


def test_C5_a_fresh_game_never_recycles():
    """C5: the rule set has no recycles."""
    assert Game.new(CRAZY_EIGHTS, 4, 1).recycles_left == 0


# -- C6 end ---------------------------------------------------------------------------------


def test_C6_an_empty_hand_wins_at_once():
    """C6: the set that empties the hand wins; nobody else gets a turn."""
    game = table("3H 3S")
    game.apply("3H 3S")
    assert game.outcome.status == "won" and game.outcome.winner == 0
    assert game.legal_actions() == []


def test_C6_a_blocked_game_is_won_by_the_fewest_cards():
    """C6: four passes; seat 3 holds one card."""
    game = position(CRAZY_EIGHTS, ["2C 3C", "4C 5C", "6C 7C", "KC"], "9H")
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.reason == "blocked" and game.outcome.winner == 3


def test_C6_a_blocked_game_tied_for_fewest_is_a_draw():
    """C6: seats 0 and 3 tie on one card."""
    game = position(CRAZY_EIGHTS, ["2C", "4C 5C", "6C 7C", "KC"], "9H")
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.status == "drawn" and game.outcome.winner is None
    assert game.outcome.places[0] == (0, 3)
