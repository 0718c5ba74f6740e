"""House-rule settings any rule set can switch on (issue 12), one narrated scenario each.

OpenSpiel's `crazy_eights` plays all of them (rulings O1-O9); here each is shown on its own,
switched on in a variant of `crazy-eights` or `switch`, on a rigged position or a seeded deal.
"""

from __future__ import annotations

from engine_helpers import CRAZY_EIGHTS, SWITCH, hand, position, texts, variant

import pytest

from arena.engine.cards import NAMES
from arena.engine.game import Game
from arena.engine.rules import build_rules, load_rules, merge_settings
from arena.errors import IllegalActionError, RulesError

OPEN_TURN = variant(CRAZY_EIGHTS, drawing={"when": "any", "per_turn": 3, "after_draw": "continue"})
SPECIALS = {"Q": {"skip": True}, "A": {"reverse": True}, "2": {"pickup": 2, "stack": "two"}}


def test_after_a_draw_the_seat_plays_any_legal_card_and_its_turn_goes_on():
    """after_draw 'continue' (O3): seat 0 holds 9H, playable on 4H, and draws by choice. Its
    turn goes on: it may play 9H, which it held before, not only a card it drew."""
    game = position(OPEN_TURN, ["9H KS", "5C 6C"], "4H", stock="3C 7D 2S 5S")
    assert texts(game.legal_actions()) == ["9H", "draw"]
    game.apply("draw")
    assert game.to_move == 0 and hand(game, 0) == ["3C", "9H", "KS"]
    assert texts(game.legal_actions()) == ["9H", "draw"]
    game.apply("9H")
    assert game.to_move == 1 and hand(game, 0) == ["3C", "KS"]


def test_a_seat_draws_by_choice_up_to_its_limit_then_plays_or_passes():
    """per_turn 3 with after_draw 'continue' (O3): three draws, then no fourth; the seat may
    still play, or end its turn with a pass that is no pass toward a block (the stock has cards)."""
    game = position(OPEN_TURN, ["9H KS", "5C 6C"], "4H", stock="3C 7D 2S 5S")
    for _ in range(3):
        game.apply("draw")
    assert texts(game.legal_actions()) == ["9H", "pass"]
    with pytest.raises(IllegalActionError, match="no draws left"):
        game.check("draw")
    game.apply("pass")
    assert game.to_move == 1 and game.passes_in_row == 0 and len(game.hands[0]) == 5


def test_a_seat_may_pass_at_will_once_nothing_can_be_drawn():
    """pass_on_empty (O4): on an empty stock seat 0 may pass though it holds a playable 9H;
    that pass counts toward a blocked game."""
    rules = variant(CRAZY_EIGHTS, drawing={"pass_on_empty": True})
    game = position(rules, ["9H KS", "5C 6C"], "4H")
    assert texts(game.legal_actions()) == ["9H", "pass"]
    game.apply("pass")
    assert game.to_move == 1 and game.passes_in_row == 1
    with_stock = position(rules, ["9H KS", "5C 6C"], "4H", stock="3C")
    assert texts(with_stock.legal_actions()) == ["9H"]


def test_a_game_is_blocked_after_seats_plus_one_passes():
    """blocked_after 'seats+1' (O5): two seats pass on an empty stock; the third pass blocks."""
    rules = variant(CRAZY_EIGHTS, blocked_after="seats+1", drawing={"pass_on_empty": True})
    game = position(rules, ["9H KS", "5C"], "4H")
    game.apply("pass")
    game.apply("pass")
    assert not game.is_over
    game.apply("pass")
    assert game.outcome.reason == "blocked" and game.outcome.winner == 1


def _acting(base=CRAZY_EIGHTS, **deal):
    return variant(base, powers=SPECIALS, deal={"starter_acts": True, **deal})


def _first_deal_with(rules, rank: str, seats: int = 4) -> Game:
    return next(g for g in (Game.new(rules, seats, seed) for seed in range(500)) if NAMES[g.top][0] == rank)


def test_an_acting_starter_counts_as_the_dealers_play():
    """starter_acts (O8): the seat before the lead (seat 3 of four) 'played' the starter. A
    queen skips seat 0, so seat 1 leads; an ace reverses, so seat 2 leads counterclockwise; a
    2 leaves a 2-penalty for seat 0; any other card leaves seat 0 to lead as usual."""
    rules = _acting()
    queen = _first_deal_with(rules, "Q")
    assert (queen.to_move, queen.direction) == (1, 1)
    ace = _first_deal_with(rules, "A")
    assert (ace.to_move, ace.direction) == (2, -1)
    two = _first_deal_with(rules, "2")
    assert (two.to_move, two.pending_kind, two.pending_amount) == (0, "two", 2)
    plain = _first_deal_with(rules, "5")
    assert (plain.to_move, plain.pending) == (0, None)
    quiet = _first_deal_with(variant(CRAZY_EIGHTS, powers=SPECIALS), "Q")
    assert quiet.to_move == 0  # without the setting the starter does nothing (C1)


def test_a_pickup_laid_on_an_empty_stock_is_a_plain_card():
    """pickup_on_empty_stock 'plain' (O8): with nothing to draw, 2H on 5H leaves no penalty;
    with a card in the stock the same play leaves a 2-penalty."""
    rules = variant(CRAZY_EIGHTS, powers=SPECIALS, play={"pickup_on_empty_stock": "plain"})
    empty = position(rules, ["2H KS", "5C 6C"], "5H")
    empty.apply("2H")
    assert empty.pending is None and empty.to_move == 1
    stocked = position(rules, ["2H KS", "5C 6C"], "5H", stock="3C")
    stocked.apply("2H")
    assert (stocked.pending_kind, stocked.pending_amount) == ("two", 2)


def test_a_penalty_draw_taking_the_stocks_last_card_can_count_as_a_pass():
    """emptying_penalty_draw 'passes' (O5): seat 0 owes 2 and the stock holds exactly 2: the
    draw empties it and counts as a pass, so one more pass from each seat blocks the game. A
    draw that falls short of the penalty breaks the run as usual (S12)."""
    rules = variant(CRAZY_EIGHTS, powers=SPECIALS, drawing={"emptying_penalty_draw": "passes"})
    game = position(rules, ["9C KS", "5C"], "2H", stock="3D 4D", pending=("two", 2))
    game.apply("draw")
    assert game.passes_in_row == 1 and game.to_move == 1
    short = position(rules, ["9C KS", "5C"], "2H", stock="3D", pending=("two", 2))
    short.apply("draw")
    assert short.passes_in_row == 0


def test_the_pile_is_reshuffled_as_soon_as_the_stock_runs_out():
    """recycle_at 'empty' (O9): drawing the stock's last card turns the pile (but its top) into
    the new stock at once; by default the pile waits for the next draw (G4)."""
    rules = variant(CRAZY_EIGHTS, drawing={"recycles": None, "recycle_at": "empty"})
    game = position(rules, ["9C KS", "5C 6C"], "4H", stock="3D", discard="4C 5S")
    game.apply("draw")
    assert sorted(game.to_json()["stock"]) == ["4C", "5S"] and game.discard == [game.top]
    lazy = position(variant(CRAZY_EIGHTS, drawing={"recycles": None}), ["9C KS", "5C 6C"], "4H",
                    stock="3D", discard="4C 5S")
    lazy.apply("draw")
    assert lazy.to_json()["stock"] == [] and len(lazy.discard) == 3


def test_the_play_cap_ends_the_game_scored_as_a_blocked_one():
    """play_cap (O7): draws are no card plays; the second card play ends the game, and the
    fewest cards win (the rule set's blocked-game score)."""
    rules = variant(CRAZY_EIGHTS, play_cap=2)
    game = position(rules, ["3H 4H 9C", "KS 5C"], "6H", stock="2C 2D 7D")
    game.apply("3H")
    for _ in range(3):
        game.apply("draw")  # seat 1 is stuck: three draws, none playable
    assert not game.is_over and game.to_move == 0
    game.apply("4H")
    assert game.outcome.reason == "play-cap" and game.outcome.winner == 0
    assert game.outcome.places == ((0,), (1,))


def test_a_random_first_player_is_drawn_from_the_seed():
    """deal.first 'random' (O1): the lead differs between deals, every seat leads some deal,
    and the same seed deals the same lead."""
    rules = variant(CRAZY_EIGHTS, deal={"first": "random"})
    leads = {Game.new(rules, 4, seed).to_move for seed in range(40)}
    assert leads == {0, 1, 2, 3}
    assert Game.new(rules, 4, 7).to_move == Game.new(rules, 4, 7).to_move
    assert {Game.new(CRAZY_EIGHTS, 4, seed).to_move for seed in range(40)} == {0}


@pytest.mark.parametrize("base, settings, key", [
    ("switch-classic", {"deal": {"first": "random"}}, "deal.first"),  # a match moves the lead
    ("switch", {"deal": {"starter_acts": True, "starter": "any"}}, "deal.starter_acts"),  # a swap
    ("crazy-eights", {"play": {"pickup_on_empty_stock": "plain"}}, "play.pickup_on_empty_stock"),
    ("crazy-eights", {"drawing": {"emptying_penalty_draw": "passes"}}, "drawing.emptying_penalty_draw"),
    ("crazy-eights", {"drawing": {"recycle_at": "empty"}}, "drawing.recycle_at"),  # recycles 0
    ("blackjack", {"drawing": {"after_draw": "continue"}}, "illegal_play.kind"),
    ("crazy-eights", {"play_cap": 0}, "play_cap"),
    ("crazy-eights", {"blocked_after": "twice"}, "blocked_after"),
    ("crazy-eights", {"drawing": {"after_draw": "may-play", "per_turn": 3}}, "drawing.per_turn"),
    ("crazy-eights", {"drawing": {"after_draw": "may-play-alone", "per_turn": 2}}, "drawing.per_turn"),
])
def test_settings_the_engine_cannot_play_exactly_are_refused_by_key(base, settings, key):
    with pytest.raises(RulesError, match=f"key '{key}'"):
        build_rules(merge_settings(load_rules(base).settings, settings), "house.yaml")


def test_every_new_setting_defaults_to_the_old_behaviour():
    """A rule set that says nothing of the new settings plays as before them."""
    for name in ("switch", "crazy-eights", "london"):
        rules = load_rules(name)
        assert (rules.first_player, rules.starter_acts, rules.pickup_on_empty_stock, rules.pass_on_empty,
                rules.recycle_at, rules.emptying_penalty_draw, rules.play_cap, rules.blocked_after) == (
            "seat-0", False, "penalty", False, "draw", "breaks", None, "seats")
    assert not SWITCH.open_turn


def test_no_seat_goes_out_on_a_card_the_rule_set_bans_at_any_number_of_seats():
    """finish never_on (like L7's two-seat ban on kings, at every table): with three seats,
    seat 0's last card KH fits on 9H but may not empty its hand, so it draws; with a second
    card left the king goes down as usual."""
    rules = variant(SWITCH, finish={"never_on": ["K"]})
    game = position(rules, ["KH", "3D 4D", "5D 6D"], "9H", stock="3C 8C")
    assert texts(game.legal_actions()) == ["draw"]
    with pytest.raises(IllegalActionError, match="no one may go out on KH"):
        game.check("KH")
    assert "KH" in texts(position(rules, ["KH 3S", "3D 4D", "5D 6D"], "9H").legal_actions())
    assert "KH" in texts(position(SWITCH, ["KH", "3D 4D", "5D 6D"], "9H").legal_actions())
