"""RULINGS.md section L: the `london` preset (seed 004), narrated on rigged positions."""

from __future__ import annotations

import time

import pytest
from engine_helpers import hand, legal, position, texts, variant

from arena.engine.cards import Card
from arena.errors import InvalidActionError
from arena.engine.game import Game
from arena.engine.rules import load_rules
from arena.engine.observation import observe

L = load_rules("london")
OTHERS = ["TD KD", "JD 5D", "6D 4S"]


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(L, [seat0, *OTHERS], top, **kw)


def duel(seat0: str, seat1: str = "TD KD", top: str = "9H", **kw) -> Game:
    """Two seats; seat 0 to move."""
    return position(L, [seat0, seat1], top, **kw)


# -- L1 deal ----------------------------------------------------------------------------------


def test_L1_fifty_four_cards_seven_each_and_power_starters_pushed_back():
    """L1: 54 cards (two jokers), 7 each, 2 to 6 seats; the starter is never a 2, 8, J, Q, K, A
    or joker (such a card goes back into the stock: all 54 cards stay in play)."""
    tops = set()
    for seed in range(300):
        game = Game.new(L, 4, seed)
        assert [len(h) for h in game.hands] == [7] * 4 and len(game.all_cards()) == 54
        tops.add(game.to_json()["top"][0])
    assert tops <= set("345679T") and (L.seats_min, L.seats_max) == (2, 6)


# -- L2 plays ---------------------------------------------------------------------------------


def test_L2_the_first_card_matches_suit_or_rank_or_is_wild():
    """L2: on 9H: 3H (suit), 9C (rank), AS (ace) and X1 in any role are legal; 3C is not."""
    game = table("3H 9C AS X1 3C")
    assert legal(game, "3H") and legal(game, "9C") and legal(game, "AS=D") and legal(game, "X1:4C")
    assert not legal(game, "3C")


def test_L2_later_cards_continue_a_set():
    """L2: 9C 9D 9S is a set on 9H."""
    assert legal(table("9C 9D 9S"), "9C 9D 9S")


def test_L2_a_suited_run_goes_one_direction_ace_low_without_wrapping():
    """L2: 4H 5H 6H and 6H 5H 4H are runs; AH 2H 3H too (ace low); KH AH is no run (no wrap);
    5H 6H X1:5H turns back, so it is no run step (and no set, stack or cover): illegal."""
    game = table("4H 5H 6H")
    assert legal(game, "4H 5H 6H") and legal(game, "6H 5H 4H") and not legal(game, "4H 6H")
    assert legal(table("AH 2H 3H"), "AH 2H 3H=C") is False and legal(table("AH 2H 3H"), "AH 2H 3H")
    assert not legal(table("KH AH"), "KH AH=C")
    assert not legal(table("5H 6H X1"), "5H 6H X1:5H") and legal(table("5H 6H X1"), "5H 6H X1:7H")


def test_L2_a_pickup_stack_mixes_twos_and_black_jacks():
    """L2, L3: on 9C, 2C JS 2H is one play: a stack of nine (+2 +5 +2) for seat 1."""
    game = table("2C JS 2H 3S", top="9C")
    game.apply("2C JS 2H")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 9, "holds": ["jack", "two"]}


def test_L2_a_queens_cover_is_any_card_legal_on_it():
    """L2, L7: QH alone is not a play; QH 5H (its suit), QH QC 5C (a set, then the cover),
    QH AS=C (wild) and QH X1:5C (a joker, wild) are; QH 5C is not."""
    game = table("QH QC 5H 5C AS X1")
    assert not legal(game, "QH") and "QH" not in texts(game.legal_actions())
    assert legal(game, "QH 5H") and legal(game, "QH QC 5C") and legal(game, "QH AS=C")
    assert legal(game, "QH X1:5C") and not legal(game, "QH 5C")


def test_L2_powers_of_every_card_apply_in_laid_order():
    """L2: JS JH: the black jack's five is cancelled by the red jack laid after it (the stack holds
    a black jack); JH JS: the red jack finds nothing to cancel, so five are pending."""
    first = table("JS JH 5C", top="9S")
    first.apply("JS JH")
    assert first.pending is None and hand(first, 0) == ["5C"]
    second = table("JS JH 5C", top="9H")
    second.apply("JH JS")
    assert second.to_json()["pending"] == {"kind": "jack", "amount": 5}


# -- L3 pickups -------------------------------------------------------------------------------


def test_L3_a_pending_pickup_is_answered_by_a_two_a_black_jack_or_a_joker_acting_as_one():
    """L3: on a stack of two, 2S, JC and X1:JS add to it; KH, AH and 8H never answer."""
    game = table("2S JC X1 KH AH 8H", top="2H", pending=("two", 2))
    assert legal(game, "2S") and legal(game, "JC") and legal(game, "X1:JS") and legal(game, "X1:2D")
    assert not legal(game, "KH") and not legal(game, "AH=C") and not legal(game, "8H") and not legal(game, "X1:8H")
    game.apply("X1:JS")
    assert game.to_json()["pending"]["amount"] == 7 and game.to_json()["top_as"] == "JS"


def test_L3_a_red_jack_cancels_the_whole_stack_only_if_it_holds_a_black_jack():
    """L3: on 2s alone (four) JH does not answer; on a stack holding a black jack (seven) JH and
    X1:JD cancel all of it: nothing is drawn and seat 1 plays normally."""
    twos = table("JH 5C", top="2H", pending=("two", 4))
    assert not legal(twos, "JH") and texts(twos.legal_actions()) == ["draw"]
    mixed = table("JH X1 5C", top="2H", pending=("two", 7, ("two", "jack")))
    assert legal(mixed, "X1:JD")
    mixed.apply("JH")
    assert mixed.pending is None and hand(mixed, 0) == ["5C", "X1"] and mixed.to_move == 1


def test_L3_an_unanswered_pickup_is_drawn_and_ends_the_turn():
    """L3: with no answer, `draw` takes the whole stack of seven and seat 1 moves."""
    game = table("5C 6C", top="JS", pending=("jack", 7), stock="3C 4C 7C 8C 9C TC JC QC")
    game.apply("draw")
    assert len(game.hands[0]) == 9 and game.pending is None and game.to_move == 1


# -- L4 red jack ------------------------------------------------------------------------------


def test_L4_a_red_jack_starts_nothing_and_is_otherwise_ordinary():
    """L4: JH on 9H: no penalty, no skip; seat 1 moves and matches hearts or jacks."""
    game = table("JH 5C")
    game.apply("JH")
    assert game.pending is None and game.to_move == 1


# -- L5 eights and kings ----------------------------------------------------------------------


def test_L5_each_eight_skips_one_and_each_king_reverses():
    """L5: 8H 8C skips seats 1 and 2 (seat 3 next); KH KC reverse twice (seat 1 next); KH alone
    reverses (seat 3 next)."""
    eights = table("8H 8C 5C")
    eights.apply("8H 8C")
    assert eights.to_move == 3
    kings = table("KH KC 5C")
    kings.apply("KH KC")
    assert kings.direction == 1 and kings.to_move == 1
    king = table("KH 5C")
    king.apply("KH")
    assert king.direction == -1 and king.to_move == 3


def test_G3c_L5_a_skip_falls_on_the_side_play_goes_after_the_whole_play():
    """G3c, L5: a skip, like a penalty, is for the player who moves next. At five seats the run
    8H..KH (the 8 laid before the king) and KH QH 8H (after it) both turn play round and skip
    seat 4, the first player on the new side: seat 3 moves."""
    others = ["TD KD", "JD 5D", "6D 4D", "2D 3D"]
    for play in ("8H 9H TH JH QH KH", "KH QH 8H"):
        game = position(L, [f"{play} 5C", *others], "5H")
        game.apply(play)
        assert (game.direction, game.to_move) == (-1, 3), play


def test_L5_with_two_seats_an_eight_or_a_king_means_go_again():
    """L5: two seats: after 8H, and after KH, seat 0 moves again."""
    for card in ("8H", "KH"):
        game = duel(f"{card} 5C 6C")
        game.apply(card)
        assert game.to_move == 0


# -- L6 aces ----------------------------------------------------------------------------------


def test_L6_an_ace_names_a_suit():
    """L6 (as S9): AS=D on 9H makes diamonds the active suit; an ace without a call is illegal."""
    game = table("AS 5C")
    assert not legal(game, "AS")
    game.apply("AS=D")
    assert game.to_json()["active_suit"] == "D"


# -- L7 queens and kings at the end -----------------------------------------------------------


def test_L7_no_play_ends_on_a_queen_so_no_one_finishes_on_one():
    """L7: holding only QH, seat 0 cannot play it: it draws."""
    game = table("QH", stock="3C")
    assert texts(game.legal_actions()) == ["draw"]


def test_L7_with_two_seats_no_one_empties_the_hand_on_a_king():
    """L7: two seats, KH as the last card is illegal (also as a joker's king); with four seats it
    may go out (with a standing announcement, L10)."""
    game = duel("KH", stock="3C")
    assert not legal(game, "KH") and texts(game.legal_actions()) == ["draw"]
    assert not legal(duel("X1"), "X1:KH") and legal(duel("X1"), "X1:5C")
    assert legal(table("KH"), "KH")


# -- L8 jokers --------------------------------------------------------------------------------


def test_L8_a_joker_names_a_card_matches_and_acts_as_it_and_keeps_that_identity_on_top():
    """L8: X1:7C on 9H: the pile shows X1 acting as 7C (top_as), the active suit is clubs, and seat 1
    matches it as a 7 of clubs (7D by rank, 3C by suit); X1:8C skips like an 8."""
    game = position(L, ["X1 5D 6D", "7D 3C QS", "TD KD", "JD 4S"], "9H")
    game.apply("X1:7C")
    data = game.to_json()
    assert data["top"] == "X1" and data["top_as"] == "7C" and data["active_suit"] == "C"
    assert legal(game, "7D") and legal(game, "3C")
    assert observe(game, 1).top_acting == Card.parse("7C")
    skip = table("X1 5C 6C")
    skip.apply("X1:8C")
    assert skip.to_move == 2


def test_L8_a_joker_never_stands_for_a_joker_and_must_name_its_card():
    """L8: `X1` alone and `X1:X2` cannot be read."""
    game = table("X1 5C")
    for text in ("X1", "X1:X2"):
        with pytest.raises(InvalidActionError):
            game.check(text)


def test_L8_a_joker_on_top_of_a_position_needs_the_card_it_stands_for():
    """L8: a rigged position with X1 on top plays on the card it stands for."""
    game = Game.setup(L, [[Card.parse("5S")], [Card.parse("4C")]], Card.parse("X1"), top_as=Card.parse("5H"))
    assert legal(game, "5S") and game.to_json()["top_as"] == "5H"


# -- L9 drawing -------------------------------------------------------------------------------


def test_L9_drawing_only_when_stuck_then_a_play_that_starts_with_the_drawn_card_or_pass():
    """L9: with 3H playable there is no draw; stuck on 9C with 6H 4H, the drawn 5C may be played
    or the turn passed; stuck on 5S with 6C 4H, the drawn 5C may lead 5C 6C (a run), but 6C 5C
    does not start with it. Recycling is unlimited."""
    assert not legal(table("3H 6S"), "draw")
    stuck = table("6H 4H", top="9C", stock="5C")
    stuck.apply("draw")
    assert texts(stuck.legal_actions()) == ["5C", "pass"]
    runs = table("6C 4H", top="5S", stock="5C")
    runs.apply("draw")
    assert "5C 6C" in texts(runs.legal_actions()) and not legal(runs, "6C 5C")
    assert L.recycles is None


def test_L9_a_drawn_queen_with_nothing_to_cover_it_cannot_be_played_so_the_turn_ends_by_itself():
    """L9 with L7: stuck on 9H with 5S 4D, seat 0 draws QH. It fits, but a queen must be covered
    in the same play and nothing in the hand covers it: it cannot be played, so the turn ends
    by itself, with no pass asked of the seat."""
    game = table("5S 4D", stock="QH")
    game.apply("draw")
    assert game.to_move == 1 and hand(game, 0) == ["4D", "5S", "QH"]
    assert texts([e.action for e in game.history][-1:]) == ["draw"]


def test_L9_a_drawn_queen_that_can_be_covered_leads_a_play_unless_the_cap_ends_the_game():
    """L9 with L7 and G6: stuck on 9H with 5S QS, seat 0 draws QH and may cover it (QH QS 5S:
    each queen covered); had that draw been the game's last decision under the cap, the game
    is drawn and nothing is legal any more."""
    game = table("5S QS", stock="QH")
    game.apply("draw")
    assert game.to_move == 0 and "QH QS 5S" in texts(game.legal_actions())
    capped = position(variant(L, decision_cap=10), ["5S QS", *OTHERS], "9H", stock="QH")
    capped.decisions = 9  # the draw is the tenth decision
    capped.apply("draw")
    assert capped.outcome.reason == "cap" and capped.legal_actions() == []


# -- L10 last card ----------------------------------------------------------------------------


def test_L10_the_announcement_may_go_on_a_play_leaving_one_card_only():
    """L10: 3H ! (one card left) and 3H (no announcement) are both legal; 3H ! with two left is not."""
    game = table("3H 5S")
    assert legal(game, "3H !") and legal(game, "3H")
    assert not legal(table("3H 5S 6S"), "3H !")


def test_L10_going_out_without_a_standing_announcement_draws_one_instead_of_winning():
    """L10: seat 0 went down to 5S without `!`; playing it draws one and the game goes on. With the
    announcement standing, the same play wins."""
    game = table("3H 5S", top="9H", stock="7C 8C")
    game.apply("3H")
    game.to_move = 0
    game.active_suit = 3
    game.apply("5S")
    assert not game.is_over and hand(game, 0) == ["7C"]
    called = table("3H 5S", top="9H")
    called.apply("3H !")
    called.to_move = 0
    called.active_suit = 3
    called.apply("5S")
    assert called.outcome.winner == 0


def test_L10_an_announcement_lapses_when_the_seat_holds_two_cards_again():
    """L10: after 3H ! seat 0 draws back to two cards; going out later without a new call draws one."""
    game = table("3H 5S", top="9H", stock="6S 7C 8C")
    game.apply("3H !")
    game.to_move, game.active_suit = 0, 0  # clubs: 5S does not fit, so seat 0 draws 6S
    game.apply("draw")
    assert hand(game, 0) == ["5S", "6S"] and game.to_move == 1  # 6S fits neither: the turn ended
    game.to_move, game.active_suit = 0, 3
    game.apply("5S")  # leaves 6S, no call
    game.to_move, game.active_suit = 0, 3
    game.apply("6S")
    assert not game.is_over and len(game.hands[0]) == 1


# -- L11 blocked ------------------------------------------------------------------------------


def test_L11_a_blocked_game_goes_to_the_fewest_cards():
    """L11: four passes in a row with nothing to draw: the one-card seat wins."""
    game = position(L, ["5S 4D", "3D", "5C 6C", "8C 4C"], "9H")
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.winner == 1 and game.outcome.reason == "blocked"


# -- the listing ------------------------------------------------------------------------------


def test_L2_the_listing_holds_sets_runs_stacks_covers_and_jokers_and_stays_bounded():
    """L2, L8 with arena.engine.chains: the list holds the shortest and longest play per (first, last)
    card, every lone-joker role; a 30-card hand with both jokers stays within 2 * hand**2 + 128
    card sequences (times suit calls) and is listed fast and the same every time."""
    game = table("4H 5H 6H QH 2C JS X1", top="9H")
    listed = texts(game.legal_actions())
    assert {"4H 5H 6H", "6H 5H 4H", "QH 4H", "X1:AS=C", "X1:JS"} <= set(listed)
    big = ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2C 3C 4C 5C 6C 7C QC KC 2S JS QS 2D JC QD KS X1 X2")
    start = time.perf_counter()
    worst = table(big, top="9D").legal_actions()
    assert time.perf_counter() - start < 3.0
    assert 0 < len({(p.cards, p.roles) for p in worst}) <= 2 * 30 ** 2 + 128
    assert texts(worst) == texts(table(big, top="9D").legal_actions())
    assert all(legal(table(big, top="9D"), text) for text in texts(worst)[::97])
