"""RULINGS.md section S: the `switch` preset (seed 000), one narrated scenario per ruling."""

from __future__ import annotations

from engine_helpers import SWITCH, hand, position, texts

import pytest

from arena.engine.actions import DRAW, PASS
from arena.errors import IllegalActionError, RulesError
from arena.engine.game import Game, Pending

OTHERS = ["3D 4D", "5D 6D", "6H 4S"]  # seats 1-3 of a four-seat table, holding nothing special


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(SWITCH, [seat0, *OTHERS], top, **kw)


def legal(game: Game, text: str) -> bool:
    """Does ``check`` accept the action?"""
    try:
        game.check(text)
        return True
    except IllegalActionError:
        return False


# -- S1 deal --------------------------------------------------------------------------------

PLAIN_STARTERS = {f"{r}{s}" for r in "34569K" for s in "CDHS"} | {"QH", "QD"}


def test_S1_four_seats_of_seven_from_52_cards_and_a_plain_starter():
    """S1: 4 seats by default, 7 cards each, 52 cards, the starter is 3-6, 9, K, QH or QD."""
    for seed in range(60):
        game = Game.new(SWITCH, None, seed)
        assert game.seats == 4
        assert [len(h) for h in game.hands] == [7, 7, 7, 7]
        assert sorted(game.all_cards()) == list(range(52))
        assert len(game.discard) == 1 and game.to_json()["top"] in PLAIN_STARTERS
        assert len(game.stock) == 52 - 28 - 1
        assert game.pending is None and game.recycles_left == 20


@pytest.mark.parametrize("seats", [2, 3, 5, 6])
def test_S1_two_to_six_seats_are_allowed(seats):
    """S1: 2 to 6 seats, 7 cards each."""
    game = Game.new(SWITCH, seats, 5)
    assert [len(h) for h in game.hands] == [7] * seats


@pytest.mark.parametrize("seats", [1, 7])
def test_S1_other_table_sizes_are_refused(seats):
    """S1: 1 or 7 seats is not a switch table."""
    with pytest.raises(RulesError):
        Game.new(SWITCH, seats, 5)


# -- S2 powers ------------------------------------------------------------------------------


@pytest.mark.parametrize("card, pending, to_move, direction", [
    ("2H", Pending("two", 2), 1, 1),
    ("JS", Pending("jack", 5), 1, 1),
    ("JC", Pending("jack", 5), 1, 1),
    ("JH", None, 1, 1),   # a red jack with no jack penalty is an ordinary card
    ("JD", None, 1, 1),
    ("7H", None, 1, 1),   # a lone 7 opens its suit for nothing
    ("8H", None, 2, 1),   # skip one player
    ("TH", None, 3, -1),  # reverse
    ("QH", None, 1, 1),   # red queens are plain
    ("QD", None, 1, 1),
    ("3H", None, 1, 1),
    ("KH", None, 1, 1),
])
def test_S2_each_card_does_what_its_power_says(card, pending, to_move, direction):
    """S2: 2 picks up two, black jacks five, 8 skips, 10 reverses; the others do nothing alone."""
    suit = card[1]
    game = table(f"{card} 5C", top=f"9{suit}")
    game.apply(card)
    assert game.pending == pending
    assert (game.to_move, game.direction) == (to_move, direction)
    assert hand(game, 1) == ["3D", "4D"]


@pytest.mark.parametrize("queen", ["QS", "QC"])
def test_S2_a_black_queen_swaps_whole_hands_with_the_next_player(queen):
    """S2: seat 0 keeps 5C after its queen; seat 1's 3D 4D come to seat 0, 5C goes to seat 1."""
    game = table(f"{queen} 5C", top=f"9{queen[1]}")
    game.apply(queen)
    assert hand(game, 0) == ["3D", "4D"] and hand(game, 1) == ["5C"]
    assert game.to_move == 1


def test_S2_an_ace_is_wild_and_names_a_suit():
    """S2: AS plays on 9H and names diamonds."""
    game = table("AS 5C")
    game.apply("AS=D")
    assert game.to_json()["active_suit"] == "D" and game.to_json()["top"] == "AS"


# -- S3 first card --------------------------------------------------------------------------


@pytest.mark.parametrize("text, ok", [
    ("3H", True),     # the active suit
    ("9C", True),     # the top card's rank
    ("AC=S", True),   # an ace is wild
    ("3C", False),
    ("KS", False),
])
def test_S3_with_no_penalty_the_first_card_matches_suit_or_rank_or_is_an_ace(text, ok):
    """S3: on 9H with hearts active."""
    assert legal(table("3H 9C AC 3C KS"), text) is ok


def test_S3_the_active_suit_is_the_called_one_not_the_top_cards():
    """S3: AS on top with diamonds called: a diamond plays, a spade does not (aces still do)."""
    game = position(SWITCH, ["3C 3S AH 5C", "2D 4D", "5D 6D", "6H 4S"], "AS", suit="C")
    assert legal(game, "3C") and legal(game, "AH=H") and not legal(game, "3S")


@pytest.mark.parametrize("text, ok", [
    ("2C", True),     # a 2 answers a 2 whatever the suit
    ("AH=H", False),  # an ace never answers a penalty
    ("3H", False),
    ("9C", False),
    ("JS", False),    # a black jack does not answer a 2
])
def test_S3_under_a_two_penalty_only_a_2_may_be_played(text, ok):
    """S3: a 2-penalty of 2 is pending on 2H."""
    game = table("2C AH 3H 9C JS", top="2H", pending=("two", 2))
    assert legal(game, text) is ok


@pytest.mark.parametrize("text, ok", [
    ("JC", True),     # black to stack
    ("JD", True),     # red to cancel
    ("AS=S", False),
    ("2S", False),
    ("3S", False),
])
def test_S3_under_a_jack_penalty_only_a_jack_may_be_played(text, ok):
    """S3: a jack penalty of 5 is pending on JS."""
    game = table("JC JD AS 2S 3S", top="JS", pending=("jack", 5))
    assert legal(game, text) is ok


def test_S3_an_ace_alone_cannot_answer_so_the_seat_must_draw():
    """S3/S12: holding only an ace and plain cards under a 2-penalty, `draw` is the action."""
    game = table("AH 3H", top="2H", pending=("two", 2), stock="5S 6S")
    assert game.legal_actions() == [DRAW]


# -- S4 later cards -------------------------------------------------------------------------


@pytest.mark.parametrize("text, ok", [
    ("3H 3S", True),        # same rank
    ("3H 3C 3S", True),     # a rank chain of three
    ("3H 4H", False),       # same suit, no 7: not a chain
    ("7H 3H 3C", True),     # hearts opened by 7H, then rank
    ("7H 3C", False),       # clubs never opened
    ("7H 7C 3C", True),     # every 7 laid opens its suit
    ("7H 3H 7C 3C", False), # 7C follows 3H by neither rank nor suit
    ("7H 3H 3C 7C 4C", False),  # 7C after 3C: clubs not yet open, rank differs
    ("7H 4H KH 3H", True),
])
def test_S4_later_cards_match_the_previous_rank_or_a_suit_opened_earlier(text, ok):
    """S4: each later card matches the previous card's rank or a suit opened by an earlier 7."""
    assert legal(table("9C 7H 7C 3H 3C 3S 4H 4C KH"), text) is ok


def test_S4_under_a_penalty_the_whole_play_is_2s():
    """S4: `2H 2C 2S` answers a 2-penalty; a 7 cannot ride along after a 2."""
    game = table("2H 2C 2S 7C", top="2D", pending=("two", 2))
    assert legal(game, "2H 2C 2S")
    assert not legal(game, "2C 7C")
    game.apply("2H 2C 2S")
    assert game.pending == Pending("two", 8)


# -- S5 jacks never mix ---------------------------------------------------------------------


@pytest.mark.parametrize("text", ["JS JH", "JH JS", "JH JD JS"])
def test_S5_a_play_holding_red_and_black_jacks_is_illegal_under_a_penalty(text):
    """S5: a red jack answers a black jack, it never rides along with one."""
    game = table("JS JH JD", top="JC", discard="9S", pending=("jack", 5))
    with pytest.raises(IllegalActionError) as error:
        game.check(text)
    assert "jack" in error.value.reason


def test_S5_jacks_never_mix_even_after_a_7():
    """S5: `7S JS JH` is illegal although both jacks would be inert."""
    game = table("7S JS JH", top="9S")
    assert legal(game, "7S JS") and not legal(game, "7S JS JH")
    assert all(not ({"JS", "JH"} <= set(t.split())) for t in texts(game.legal_actions()))


def test_S5_jacks_of_one_colour_do_go_together():
    """S5: `JH JD` (no penalty: ordinary) and `JS JC` (+10) are legal."""
    red = table("JH JD 5C", top="9H")
    red.apply("JH JD")
    assert red.pending is None and red.to_move == 1  # no jack penalty: ordinary cards
    black = table("JS JC 5C", top="9S")
    black.apply("JS JC")
    assert black.pending == Pending("jack", 10)


# -- S6 inert after a 7 ---------------------------------------------------------------------


@pytest.mark.parametrize("text, top", [
    ("7H 2H", "9H"), ("7S JS", "9S"), ("7H 8H", "9H"), ("7H TH", "9H"), ("7S QS", "9S"),
    ("7H 7S QS", "9H"), ("7H 2H 2C", "9H"), ("7C 8C 8D", "9C"),
])
def test_S6_cards_after_the_first_7_have_no_effect(text, top):
    """S6: no penalty, skip, reverse or swap from cards laid after a 7."""
    game = table(text + " 5C", top=top)
    game.apply(text)
    assert game.pending is None
    assert (game.to_move, game.direction) == (1, 1)
    assert hand(game, 0) == ["5C"] and hand(game, 1) == ["3D", "4D"]


# -- S7 effects before the first 7 ----------------------------------------------------------


def test_S7_two_2s_stack_to_four():
    """S7: each 2 adds two to the 2-penalty."""
    game = table("2H 2C 5C")
    game.apply("2H 2C")
    assert game.pending == Pending("two", 4)


def test_S7_black_jacks_stack_on_a_pending_jack_penalty():
    """S7: each black jack adds five: 5 pending + JC = 10."""
    game = table("JC 5C", top="JS", discard="9S", pending=("jack", 5))
    game.apply("JC")
    assert game.pending == Pending("jack", 10) and game.to_move == 1


def test_S7_any_number_of_8s_skip_exactly_one_player():
    """S7: three 8s: seat 1 is skipped, seat 2 moves."""
    game = table("8H 8C 8D 5C")
    game.apply("8H 8C 8D")
    assert game.to_move == 2


def test_S7_each_10_reverses():
    """S7: two 10s reverse twice (back to normal); three reverse."""
    game = table("TH TC 5C")
    game.apply("TH TC")
    assert (game.direction, game.to_move) == (1, 1)
    game = table("TH TC TD 5C")
    game.apply("TH TC TD")
    assert (game.direction, game.to_move) == (-1, 3)


def test_S7_a_black_queen_swaps_with_the_next_player_in_the_direction_of_play():
    """S7: counter-clockwise, QS swaps seat 0's rest with seat 3's hand."""
    game = table("QS 5C", top="9S", direction=-1)
    game.apply("QS")
    assert hand(game, 0) == ["4S", "6H"] and hand(game, 3) == ["5C"]
    assert hand(game, 1) == ["3D", "4D"] and game.to_move == 3


def test_S7_two_black_queens_swap_twice_with_the_same_player():
    """S7: each black queen swaps with the next player: two swaps give the hands back."""
    game = table("QS QC 5C", top="9S")
    game.apply("QS QC")
    assert hand(game, 0) == ["5C"] and hand(game, 1) == ["3D", "4D"]


def test_S7_red_jacks_take_five_each_but_not_below_zero():
    """S7/S8: two red jacks against 5: the penalty is gone, nothing drawn."""
    game = table("JH JD 5C", top="JS", discard="9S", pending=("jack", 5), stock="2S 3S")
    game.apply("JH JD")
    assert game.pending is None and hand(game, 0) == ["5C"]
    assert len(game.stock) == 2


# -- S8 red-jack remainder ------------------------------------------------------------------


def test_S8_red_jack_player_draws_the_remainder():
    """S8: 15 pending, one red jack: its player draws 10 at once, the penalty is cleared."""
    stock = "2S 3S 5S 6S 8S KS 2C 3C 4C 5H 7H"
    game = table("JD 5C", top="JC", discard="9S JS QD", stock=stock, pending=("jack", 15))
    game.apply("JD")
    assert len(game.hands[0]) == 1 + 10
    assert game.to_json()["stock"] == ["7H"]
    assert game.pending is None and game.to_move == 1


def test_S8_the_next_player_plays_normally_on_the_red_jack():
    """S8: after the answer, seat 1 faces JH with no penalty: a heart or a jack plays."""
    game = position(SWITCH, ["JH 5C", "3H JS 4C", "5D 6D", "6H 4S"], "JC", discard="9S",
                    stock="2S 3S 5S 6S 8S", pending=("jack", 5))
    game.apply("JH")
    assert hand(game, 0) == ["5C"]
    assert game.to_move == 1 and game.pending is None
    listed = texts(game.legal_actions())
    assert "3H" in listed and "JS" in listed and "draw" not in listed
    game.apply("JS")
    assert game.pending == Pending("jack", 5)


# -- S9 suit call ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, ok", [
    ("AS=D", True),
    ("AS", False),          # an ace must name a suit
    ("3H=D", False),        # only a play ending on an ace names one
    ("AS 3S=D", False),     # names a suit but ends on 3S (and 3S does not follow AS anyway)
    ("AS AH=C", True),      # a set of aces names one suit
    ("7H AH=C", True),      # an ace after a 7 still names the suit
    ("7H AH 3H", True),     # the ace mid-play names nothing
    ("7H AH 3H=S", False),
])
def test_S9_a_play_ending_on_an_ace_names_a_suit_and_only_such_a_play(text, ok):
    """S9: the suit call belongs to a play whose last card is an ace."""
    assert legal(table("AS AH 7H 3H 3S 5C"), text) is ok


def test_S9_the_named_suit_becomes_active_even_after_a_7():
    """S9: `7H AH=C`: the top is AH, clubs are active."""
    game = table("7H AH 5C")
    game.apply("7H AH=C")
    assert game.to_json()["active_suit"] == "C" and game.to_json()["top"] == "AH"


def test_S9_legal_actions_offer_every_suit_for_an_ace():
    """S9: the list holds `AS=C`, `AS=D`, `AS=H` and `AS=S`."""
    assert {"AS=C", "AS=D", "AS=H", "AS=S"} <= set(texts(table("AS 5C").legal_actions()))


# -- S10 no finishing on an ace -------------------------------------------------------------


def test_S10_an_ace_that_empties_the_hand_draws_one_and_the_turn_ends():
    """S10: the play stands (spades named), its player draws 3C, seat 1 moves."""
    game = table("AH", stock="3C 4C")
    game.apply("AH=S")
    assert not game.is_over
    assert hand(game, 0) == ["3C"]
    assert game.to_json()["active_suit"] == "S" and game.to_move == 1


def test_S10_the_replacement_may_come_from_a_recycle():
    """S10: empty stock but a pile to recycle: the ace does not win."""
    game = table("AH", discard="4C 5C")
    game.apply("AH=S")
    assert not game.is_over and len(game.hands[0]) == 1
    assert game.to_json()["top"] == "AH"


def test_S10_the_ace_wins_only_if_no_card_can_be_drawn():
    """S10: empty stock and no recycles left: the ace stands as a winning final card."""
    game = table("AH", discard="4C 5C", recycles_left=0)
    game.apply("AH=S")
    assert game.outcome.winner == 0 and game.outcome.reason == "emptied"


def test_S10_a_flush_ending_on_an_ace_that_empties_the_hand_also_draws():
    """S10: `7H 3H AH=C` empties the hand and ends on an ace: one card is drawn."""
    game = table("7H 3H AH", stock="KC")
    game.apply("7H 3H AH=C")
    assert not game.is_over and hand(game, 0) == ["KC"]


# -- S11 winning beats the swap -------------------------------------------------------------


def test_S11_a_black_queen_that_empties_the_hand_wins_and_swaps_nothing():
    """S11: seat 0 wins with QS; seat 1 keeps its own hand."""
    game = table("QS", top="9S")
    game.apply("QS")
    assert game.outcome.winner == 0
    assert hand(game, 0) == [] and hand(game, 1) == ["3D", "4D"]


# -- S12 drawing ----------------------------------------------------------------------------


def test_S12_drawing_is_illegal_while_a_play_is_legal():
    """S12: seat 0 holds 3H on 9H: `draw` is refused."""
    game = table("3H 5C", stock="KC")
    with pytest.raises(IllegalActionError):
        game.check("draw")


def test_S12_a_draw_is_one_card_and_ends_the_turn_even_if_it_fits():
    """S12: seat 0 draws 3H (which would fit) and the turn passes to seat 1."""
    game = table("5C 6C", stock="3H KC")
    game.apply("draw")
    assert hand(game, 0) == ["3H", "5C", "6C"]
    assert game.to_move == 1


def test_S12_under_a_penalty_with_no_answer_the_whole_penalty_is_drawn():
    """S12: a 2-penalty of 6: six cards drawn, the penalty cleared, seat 1 plays on."""
    game = table("5C", top="2H", stock="3C 4C 5S 6S 8S 9S KS", pending=("two", 6))
    game.apply("draw")
    assert len(game.hands[0]) == 7 and game.to_json()["stock"] == ["KS"]
    assert game.pending is None and game.to_move == 1


def test_S12_a_penalty_draw_that_yields_no_card_is_not_a_pass():
    """S12/G5 (amended): seat 0 holds QC 3H, seat 1 holds 4D, a 2-penalty of 4 is pending on
    2C and the stock and pile are empty. Seat 0's draw brings nothing but clears the penalty;
    seat 1 cannot play 4D on 2C and passes. That is one pass, not two: the game goes on, and
    seat 0, free of the penalty now, plays its QC on the club."""
    game = position(SWITCH, ["QC 3H", "4D"], "2C", pending=("two", 4), recycles_left=0)
    game.apply("draw")
    assert hand(game, 0) == ["3H", "QC"] and game.pending is None
    assert game.passes_in_row == 0
    assert game.legal_actions() == [PASS]
    game.apply("pass")
    assert not game.is_over and game.to_move == 0
    assert "QC" in texts(game.legal_actions())
    game.apply("QC")
    assert hand(game, 0) == ["4D"] and hand(game, 1) == ["3H"]  # the black queen swaps


def test_S12_passes_after_an_empty_penalty_draw_still_block_the_game():
    """G5: after the empty penalty draw, a full round of passes blocks the game as usual."""
    game = position(SWITCH, ["4C 5C", "3C"], "2H", pending=("two", 2), recycles_left=0)
    game.apply("draw")
    game.apply("pass")
    assert not game.is_over
    game.apply("pass")
    assert game.outcome.reason == "blocked" and game.outcome.winner == 1


# -- S13 recycling --------------------------------------------------------------------------


def test_S13_at_most_20_recycles_per_game():
    """S13: a fresh game allows 20; with none left the pile stays and the seat passes."""
    assert Game.new(SWITCH, 4, 1).recycles_left == 20
    game = table("5C", discard="4C 3C", recycles_left=1)
    game.apply("draw")
    assert game.recycles_left == 0
    spent = table("5C", discard="4C 3C", recycles_left=0)
    assert spent.legal_actions() == [PASS]
    with pytest.raises(IllegalActionError):
        spent.check("draw")


# -- S14 blocked ----------------------------------------------------------------------------


def test_S14_a_blocked_game_is_won_by_the_fewest_cards():
    """S14: four passes in a row; seat 2 holds one card and wins."""
    game = position(SWITCH, ["3C 4C", "5C 6C", "KC", "7C 8C"], "9H", recycles_left=0)
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.status == "won" and game.outcome.reason == "blocked"
    assert game.outcome.winner == 2


def test_S14_a_tie_for_fewest_is_a_draw():
    """S14: seats 0 and 3 tie on one card: the blocked game is drawn."""
    game = position(SWITCH, ["3C", "5C 6C", "KC QC", "7C"], "9H", recycles_left=0)
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.status == "drawn" and game.outcome.winner is None


# -- S15 two seats --------------------------------------------------------------------------


def test_S15_after_a_skip_the_same_seat_moves_again():
    """S15: with two seats an 8 skips the only opponent."""
    game = position(SWITCH, ["8H 3H", "3D 4D"], "9H")
    game.apply("8H")
    assert game.to_move == 0


def test_S15_a_swap_acts_on_the_only_opponent_in_either_direction():
    """S15: QS swaps with seat 1, whatever the direction."""
    for direction in (1, -1):
        game = position(SWITCH, ["QS 3H", "3D 4D"], "9S", direction=direction)
        game.apply("QS")
        assert hand(game, 0) == ["3D", "4D"] and hand(game, 1) == ["3H"]
        assert game.to_move == 1


def test_S15_a_reverse_with_two_seats_still_hands_the_turn_over():
    """S15: a 10 reverses, but the next seat is the opponent either way."""
    game = position(SWITCH, ["TH 3H", "3D 4D"], "9H")
    game.apply("TH")
    assert game.to_move == 1 and game.direction == -1



def test_S12_a_seat_that_can_answer_a_penalty_may_not_draw_it_instead():
    """S12: holding 2C under a 2-penalty, `draw` is illegal; the only plays are the answers."""
    game = table("2C 3H", top="2H", pending=("two", 2), stock="KS")
    with pytest.raises(IllegalActionError):
        game.check("draw")
    assert texts(game.legal_actions()) == ["2C"]
