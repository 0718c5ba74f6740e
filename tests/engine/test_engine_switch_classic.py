"""RULINGS.md section F: the `switch-classic` preset (seed 001), narrated on rigged positions,
and its matches (F2) through :class:`arena.engine.match.Match`."""

from __future__ import annotations

import random

from engine_helpers import hand, legal, position, texts, variant

import pytest

from arena.engine.game import Game
from arena.engine.match import Match, hand_cap, hand_seed
from arena.engine.rules import load_rules

F = load_rules("switch-classic")
OTHERS = ["3D 5D 6D", "5C 6C TC", "6H TS 3S"]


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(F, [seat0, *OTHERS], top, **kw)


# -- F1 deal ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seats, size", [(2, 7), (3, 7), (4, 7), (5, 5), (6, 5)])
def test_F1_seven_cards_up_to_four_seats_five_with_five_or_six(seats, size):
    """F1: 2-4 seats get 7 cards each, 5 or 6 seats get 5 each."""
    game = Game.new(F, seats, 11)
    assert [len(h) for h in game.hands] == [size] * seats
    assert len(game.all_cards()) == 52


def test_F1_a_starter_ace_goes_back_into_the_stock_and_the_next_card_is_turned():
    """F1: never an ace on top; every other rank (2s, 8s, jacks too) can start, and the ace
    pushed back is still in the stock (the deal itself is not redone)."""
    starters = set()
    pushed = 0
    for seed in range(400):
        game = Game.new(F, 4, seed)
        starters.add(game.to_json()["top"][0])
        redo = random.Random(seed)
        cards = list(range(52))
        redo.shuffle(cards)
        if cards[-1] % 13 == 0:  # the card turned first was an ace
            pushed += 1
            assert cards[-1] in game.stock and game.hands[0] == cards[:7]
    assert "A" not in starters and {"2", "8", "J"} <= starters and pushed > 0


def test_F1_any_other_starter_is_plain():
    """F1: a starter 2 sets no penalty and a starter 8 skips nobody: seat 0 just plays on it."""
    for seed in range(400):
        game = Game.new(F, 4, seed)
        if game.to_json()["top"][0] in "28J":
            assert game.pending is None and game.to_move == 0
            assert game.active_suit == game.top % 13 * 0 + game.top // 13


# -- F2 match ---------------------------------------------------------------------------------


def play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))


def test_F2_a_match_is_first_to_three_hand_wins_with_the_lead_moving_on():
    """F2: hands are dealt from seeds derived from the match seed; hand i is led by seat i % seats;
    the match ends when a seat has won 3 hands, and every hand is recorded."""
    match = Match.new(F, 3, seed=5)
    rng = random.Random(5)
    leads = []
    while not match.is_over:
        leads.append(match.current.to_move)
        assert match.current.decisions == 0
        play_out(match.current, rng)
        match.next_hand()
    outcome = match.outcome
    assert outcome.status == "won" and max(outcome.wins) == 3 and outcome.wins[outcome.winner] == 3
    assert leads == [i % 3 for i in range(len(match.hands))]
    assert [h.seed for h in match.hands] == [hand_seed(5, i) for i in range(len(match.hands))]
    assert sum(h.outcome.winner == outcome.winner for h in match.hands) == 3
    assert outcome.places[0] == (outcome.winner,)


def test_F2_places_go_by_hand_wins_then_by_the_last_hand():
    """F2 ratings: more hand wins place higher; equal wins are ordered by the last hand (G7)."""
    match = Match.new(F, 3, seed=9)
    rng = random.Random(9)
    while not match.is_over:
        play_out(match.current, rng)
        match.next_hand()
    wins = match.outcome.wins
    last = match.hands[-1].outcome.places
    order = [s for place in match.outcome.places for s in place]
    rank_in_last = {s: i for i, p in enumerate(last) for s in p}
    assert order == sorted(range(3), key=lambda s: (-wins[s], rank_in_last[s], s))


def test_F2_a_setting_plays_a_match_of_one_or_five():
    """F2: match.wins 1 ends after the first won hand; 5 needs five; the same seed replays alike."""
    one = Match.new(variant(F, match={"wins": 1}), 2, seed=3)
    play_out(one.current, random.Random(1))
    one.next_hand()
    assert one.is_over == (one.hands[0].outcome.winner is not None)
    five = variant(F, match={"wins": 5})
    runs = []
    for _ in range(2):
        match, rng = Match.new(five, 2, seed=4), random.Random(4)
        while not match.is_over:
            play_out(match.current, rng)
            match.next_hand()
        runs.append([h.to_json() for h in match.hands])
    assert max(Match.new(five, 2, 4).target for _ in range(1)) == 5 and runs[0] == runs[1]


def test_F2_every_match_ends_even_when_hands_are_drawn():
    """F2/G6: a match whose hands are all drawn ends drawn after the hand cap."""
    capped = variant(F, decision_cap=10)
    match = Match.new(capped, 2, seed=1)
    while not match.is_over:
        while not match.current.is_over:  # both seats only draw or pass: the cap draws the hand
            legal_now = match.current.legal_actions()
            match.current.apply(next((a for a in legal_now if str(a) in ("draw", "pass")), legal_now[0]))
        match.next_hand()
    assert len(match.hands) <= hand_cap(capped, 2)


def test_F2_a_rule_set_without_a_match_is_a_match_of_one_hand():
    """F2: the referee can always play a Match; without `match` it is one hand."""
    match = Match.new(load_rules("switch"), 4, seed=2)
    play_out(match.current, random.Random(2))
    match.next_hand()
    assert match.is_over and len(match.hands) == 1


def test_F2_a_drawn_hand_without_a_match_is_a_drawn_game_not_a_new_deal():
    """F2 with C6: crazy-eights has no match, so a hand blocked with a tie for fewest cards is
    the game, drawn; nobody is dealt a second hand to find a winner. (Found in the stored
    strength games: 28 of 2,000 crazy-eights games at 4 seats went on into a second deal
    that the store kept as moves of the first, so they could not be replayed.)"""
    rules = load_rules("crazy-eights")
    for seed in range(400):
        match, rng = Match.new(rules, 4, seed), random.Random(seed)
        play_out(match.current, rng)
        if match.current.outcome.status == "drawn":
            break
    else:
        pytest.fail("no crazy-eights deal of the 400 ended drawn")
    hand_outcome = match.current.outcome
    assert hand_outcome.reason == "blocked" and len(hand_outcome.places[0]) > 1
    assert match.next_hand() is None
    assert match.is_over and len(match.hands) == 1
    outcome = match.outcome
    assert (outcome.status, outcome.reason, outcome.winner) == ("drawn", "blocked", None)
    assert outcome.places == hand_outcome.places


# -- F3 plays ---------------------------------------------------------------------------------


def test_F3_exactly_one_card_a_play():
    """F3: 9C 9D is not a play; 9C alone is."""
    game = table("9C 9D 4S")
    assert not legal(game, "9C 9D") and legal(game, "9C")


# -- F4 drawing -------------------------------------------------------------------------------


def test_F4_drawing_only_when_no_card_can_be_played():
    """F4: 3H fits 9H, so draw is illegal."""
    game = table("3H 5S", stock="KC")
    assert not legal(game, "draw")


def test_F4_a_playable_drawn_card_may_be_played_or_the_turn_ended_with_pass():
    """F4: stuck, seat 0 draws 9C: it may play 9C (only it) or pass; the pass does not count (G5)."""
    game = table("5S 7D", stock="9C")
    game.apply("draw")
    assert texts(game.legal_actions()) == ["9C", "pass"]
    game.apply("pass")
    assert game.to_move == 1 and game.passes_in_row == 0


def test_F4_an_unplayable_drawn_card_ends_the_turn():
    """F4: KC does not fit 9H: the turn passes on by itself."""
    game = table("5S 7D", stock="KC")
    game.apply("draw")
    assert game.to_move == 1


# -- F5 powers --------------------------------------------------------------------------------


def test_F5_example_1_an_ace_is_wild_and_names_a_suit():
    """F5 (seed example 1): on 9H, 3H, 9C and AD are legal, KS is not; AD names a suit."""
    game = table("3H 9C KS AD")
    assert {"3H", "9C", "AD=C"} <= set(texts(game.legal_actions())) and not legal(game, "KS")
    game.apply("AD=C")
    assert game.to_json()["active_suit"] == "C"


def test_F5_example_2_a_two_is_passed_on_with_a_two():
    """F5 (seed example 2): 2D on a pending 2 makes four for the next seat, who draws them all."""
    game = table("2D 5S 7S", top="2S", pending=("two", 2), stock="3C 4C 8C 9C")
    assert not legal(game, "AS")
    game.apply("2D")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 4}
    game.apply("draw")
    assert len(game.hands[1]) == 7 and game.to_move == 2


def test_F5_an_eight_skips_one():
    """F5 (seed example 4): 8H skips seat 1; seat 2 moves next."""
    game = table("8H 5S")
    game.apply("8H")
    assert game.to_move == 2


def test_F5_a_red_jack_reverses():
    """F5: JH on 9H turns the play round: seat 3 moves next."""
    game = table("JH 5S")
    game.apply("JH")
    assert game.direction == -1 and game.to_move == 3


def test_F5_with_two_seats_a_red_jack_acts_as_a_skip():
    """F5: with two seats, JH lets seat 0 go again."""
    game = position(F, ["JH 5S 5H", "3D 4D"], "9H")
    game.apply("JH")
    assert game.to_move == 0


def test_F5_example_3_a_red_jack_cancels_a_black_jack_penalty_and_reverses():
    """F5 (seed example 3): JC on seat 1 (4 seats); JH cancels all five and reverses, so the
    turn goes back to seat 0, who played the JC."""
    game = position(F, ["JC 3D 4D", "JH 5C 6C", "7D 8D", "9D TD"], "9C")
    game.apply("JC")
    assert game.to_json()["pending"] == {"kind": "jack", "amount": 5}
    game.apply("JH")
    assert game.pending is None and game.direction == -1 and game.to_move == 0
    assert hand(game, 1) == ["5C", "6C"]


def test_F5_the_other_black_jack_passes_on_ten():
    """F5: JS on a pending JC makes ten."""
    game = table("JS 5S 7S", top="JC", pending=("jack", 5))
    game.apply("JS")
    assert game.to_json()["pending"] == {"kind": "jack", "amount": 10}


def test_F5_twos_and_black_jacks_never_answer_each_other_and_aces_answer_neither():
    """F5: under a jack penalty a 2 and an ace are illegal; under a 2-penalty a black jack is."""
    jack = table("2C AS JH", top="JC", pending=("jack", 5))
    assert not legal(jack, "2C") and not legal(jack, "AS=C") and legal(jack, "JH")
    two = table("JS AS 5S", top="2C", pending=("two", 2))
    assert not legal(two, "JS") and not legal(two, "AS=C") and texts(two.legal_actions()) == ["draw"]


def test_F5_an_unanswered_penalty_is_that_seats_whole_turn():
    """F5: seat 0 draws five and seat 1 moves."""
    game = table("5S 7S", top="JC", pending=("jack", 5), stock="2C 3C 4C 8C 2D")
    game.apply("draw")
    assert len(game.hands[0]) == 7 and game.to_move == 1 and game.pending is None


# -- F6 stock ---------------------------------------------------------------------------------


def test_F6_recycling_is_unlimited_and_a_seat_with_nothing_passes():
    """F6: no recycle cap; with nothing to draw and nothing to play the seat passes."""
    assert F.recycles is None
    game = table("5S 7D")  # empty stock, only the top card on the pile
    assert texts(game.legal_actions()) == ["pass"]


# -- F7 blocked -------------------------------------------------------------------------------


def test_F7_a_blocked_hand_is_won_by_the_lowest_points():
    """F7: seat 0 holds KS (10), seat 1 KD QD (20), seat 2 5C 2C (7), seat 3 9D TD (19): seat 2
    wins with fewer points though not fewer cards; places go by points. An ace counts 20."""
    assert [F.points[c] for c in (0, 1, 9, 10, 11, 12)] == [20, 2, 10, 10, 10, 10]
    game = position(F, ["KS", "KD QD", "5C 2C", "9D TD"], "4H")
    for _ in range(4):
        game.apply("pass")
    outcome = game.outcome
    assert (outcome.status, outcome.reason, outcome.winner) == ("won", "blocked", 2)
    assert outcome.places == ((2,), (0,), (3,), (1,))


def test_F7_a_tie_for_lowest_points_is_a_drawn_hand():
    """F7: 9C (9) and 4D 5D (9) tie: the hand is drawn, both first together."""
    game = position(F, ["9C", "4D 5D"], "KH")
    game.apply("pass")
    game.apply("pass")
    assert game.outcome.status == "drawn" and game.outcome.places[0] == (0, 1)


# -- F8 last card -----------------------------------------------------------------------------


def test_F8_the_last_card_house_rule_is_off_by_default():
    """F8: `!` is illegal in the preset, and leaving one card costs nothing."""
    game = table("3H 5S")
    assert not legal(game, "3H !")
    game.apply("3H")
    assert hand(game, 0) == ["5S"]


def test_F8_when_on_a_missing_announcement_costs_two_at_once():
    """F8: with the house rule switched on (last_card: must, penalty 2), 3H alone draws two."""
    house = variant(F, last_card={"rule": "must", "penalty": 2})
    game = position(house, ["3H 5S", *OTHERS], "9H", stock="7C 8C")
    assert legal(game, "3H !")
    game.apply("3H")
    assert hand(game, 0) == ["5S", "7C", "8C"]


# -- F9 going out -----------------------------------------------------------------------------


def test_F9_the_last_cards_power_does_not_apply():
    """F9: going out on JC wins the hand; no penalty is left for anyone, and an ace finish wins."""
    game = table("JC", top="9C")
    game.apply("JC")
    assert game.outcome.winner == 0 and game.outcome.reason == "emptied"
    ace = table("AS", stock="KC")
    ace.apply("AS=H")
    assert ace.outcome.winner == 0 and hand(ace, 0) == []
