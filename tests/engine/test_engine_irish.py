"""RULINGS.md section I: the `irish` preset (seed 003, "Irish Switch"), narrated on rigged positions."""

from __future__ import annotations

from engine_helpers import hand, legal, position, texts, variant

import pytest

from arena.errors import IllegalActionError, InvalidActionError
from arena.engine.game import Game
from arena.engine.rules import load_rules

I = load_rules("irish")
OTHERS = ["3D 5D 6D", "5C 6C TC", "6H TS 3S"]


def table(seat0: str, top: str = "9H", **kw) -> Game:
    """Four seats; seat 0 to move with ``seat0``."""
    return position(I, [seat0, *OTHERS], top, **kw)


# -- I1 deal ----------------------------------------------------------------------------------


def test_I1_seven_each_from_52_and_a_power_starter_means_a_new_deal():
    """I1: 7 each, 52 cards; never a 2, 7, J, A or the K of hearts on top (other kings may)."""
    starters = set()
    for seed in range(300):
        game = Game.new(I, 4, seed)
        assert [len(h) for h in game.hands] == [7] * 4 and len(game.all_cards()) == 52
        starters.add(game.to_json()["top"])
    assert not any(s[0] in "27JA" for s in starters) and "KH" not in starters
    assert {"KC", "KD", "KS"} & starters


def test_I1_the_joker_setting_adds_two_jokers_that_stand_for_a_named_card():
    """I1, I2 (as L8): with the two-joker setting the deck holds 54 cards and X1 plays as the card
    it names (here the 7 of hearts, which leaves a skip pending); jokers never start the pile."""
    jokers = variant(I, deal={"jokers": 2, "starter_refuses": "powers"})
    game = Game.new(jokers, 4, 3)
    assert len(game.all_cards()) == 54 and game.top < 52
    rigged = position(jokers, ["X1 3C 4C", *OTHERS], "9H")
    with pytest.raises(InvalidActionError):
        rigged.check("X1")  # a joker must name its card
    rigged.apply("X1:7H")
    assert rigged.pending_skip and rigged.to_json()["top_as"] == "7H"



def test_I2_L8_an_irish_joker_fits_as_the_card_it_names_it_is_not_wild():
    """I2 makes the joker stand for a named card "as L8": it matches and acts as that card. Only
    London's L2 makes a joker wild, so on 9H an Irish X1 may be 9C or any heart, not 5C, and as
    an ace it stays tied to its suit (AH, never AC)."""
    jokers = variant(I, deal={"jokers": 2, "starter_refuses": "powers"})
    rigged = position(jokers, ["X1 3C 4C", *OTHERS], "9H")
    for fits in ("X1:9C", "X1:5H", "X1:AH=D", "X1:JH"):
        assert legal(rigged, fits), fits
    for misfit in ("X1:5C", "X1:AC=D", "X1:KS"):
        assert not legal(rigged, misfit), misfit
    with pytest.raises(IllegalActionError, match="5C matches neither"):
        rigged.check("X1:5C")
    listed = {t for t in texts(rigged.legal_actions()) if t.startswith("X1")}
    assert "X1:9C" in listed and "X1:5C" not in listed

# -- I2 powers --------------------------------------------------------------------------------


def test_I2_twos_pick_up_two_stacked_by_twos():
    """I2: 2C on 9C makes two; 2S on it makes four."""
    game = position(I, ["2C 3C 4C", "2S 5D 6D", "8C", "9D"], "9C")
    game.apply("2C")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 2}
    game.apply("2S")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 4}


def test_I2_a_seven_leaves_a_skip_pending_that_the_next_seat_may_pass_on_with_a_seven():
    """I2 (as B3's 8): 7H makes seat 1 face the skip; its 7C passes it to seat 2, who holds no 7
    and accepts it with `pass` (its only action); seat 3 moves next."""
    game = position(I, ["7H 3C 4C", "7C 5D 6D", "8C 9S", "9D 4S"], "9H")
    game.apply("7H")
    assert game.to_move == 1 and game.pending_skip and game.to_json()["pending_skip"] is True
    assert texts(game.legal_actions()) == ["7C", "pass"] and not legal(game, "5D") and not legal(game, "draw")
    game.apply("7C")
    assert game.to_move == 2 and texts(game.legal_actions()) == ["pass"]
    game.apply("pass")
    assert game.to_move == 3 and not game.pending_skip


def test_I2_accepting_a_skip_with_pass_does_not_count_toward_a_blocked_game():
    """I2 with G5: the pass that accepts a skip leaves the blocked-game chain alone."""
    game = position(I, ["7H 3C 4C", "5D 6D", "8C 9S", "9D 4S"], "9H")
    game.apply("7H")
    game.apply("pass")
    assert game.passes_in_row == 0 and game.to_move == 2


def test_I2_a_jack_reverses_and_several_jacks_each_reverse():
    """I2 with I3: JH reverses (seat 3 next); JH JC reverse twice (seat 1 next)."""
    one = table("JH 3C 4C")
    one.apply("JH")
    assert one.direction == -1 and one.to_move == 3
    two = table("JH JC 4C")
    two.apply("JH JC")
    assert two.direction == 1 and two.to_move == 1


def test_I2_with_two_seats_a_jack_means_go_again():
    """I2: two seats, JH: seat 0 moves again."""
    game = position(I, ["JH 3C 4C", "5D 6D"], "9H")
    game.apply("JH")
    assert game.to_move == 0


def test_I2_the_king_of_hearts_is_plus_seven_answered_only_by_the_two_of_hearts():
    """I2: KH makes seven; seat 1's 2C does not answer it, 2H does (+2 = 9)."""
    game = position(I, ["KH 3C 4C", "2C 2H 6D", "2S 9S", "9D 4S"], "9H")
    game.apply("KH")
    assert game.to_json()["pending"] == {"kind": "king", "amount": 7}
    assert not legal(game, "2C") and legal(game, "2H")
    game.apply("2H")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 9}


def test_I2_after_the_two_of_hearts_twos_stack_as_usual():
    """I2: on the 2H answer, seat 2's 2S stacks (+2 = 11)."""
    game = position(I, ["3C 4C 5C", "6D 7D", "2S 9S 8S", "9D 4S"], "2H", pending=("two", 9), to_move=2)
    game.apply("2S")
    assert game.to_json()["pending"] == {"kind": "two", "amount": 11}


def test_I2_an_ace_is_playable_on_its_own_suit_only_and_names_any_suit():
    """I2: on 9H, AH is legal and names clubs; AS is not wild (and an ace on an ace needs its suit)."""
    game = table("AH AS 3C")
    assert not legal(game, "AS=H") and legal(game, "AH=C")
    game.apply("AH=C")
    assert game.to_json()["active_suit"] == "C"
    on_ace = table("AS 3C 4C", top="AH", suit="H")
    assert not legal(on_ace, "AS=S")


# -- I3 plays ---------------------------------------------------------------------------------


def test_I3_one_card_or_a_set_of_jacks_only():
    """I3: 9C 9D is not a play (no sets but jacks); JH JC is."""
    game = table("9C 9D JH JC")
    assert not legal(game, "9C 9D") and legal(game, "JH JC")
    assert {"9C", "9D", "JH", "JH JC"} <= set(texts(game.legal_actions()))



def test_I3_the_refusal_of_a_set_names_the_ranks_that_may_go_down_together():
    """I3: 9C 9D do match in rank; they are refused because only jacks make sets, and the
    reason must say so, not that a later card must match the previous card's rank."""
    with pytest.raises(IllegalActionError) as refused:
        table("9C 9D JH JC").check("9C 9D")
    assert refused.value.reason == "9D cannot follow 9C: sets are of J only"

# -- I4 last card -----------------------------------------------------------------------------


def test_I4_leaving_one_card_without_the_announcement_draws_two():
    """I4 (as W5): 3H leaves one card unannounced: two cards at once; 3H ! costs nothing."""
    game = table("3H 5S", stock="3C 4C")
    game.apply("3H")
    assert hand(game, 0) == ["3C", "4C", "5S"]
    called = table("3H 5S", stock="3C 4C")
    called.apply("3H !")
    assert hand(called, 0) == ["5S"]


# -- I5 drawing, recycling, blocked -----------------------------------------------------------


def test_I5_drawing_only_when_no_play_is_legal_then_play_it_or_pass():
    """I5: 3H fits, so no draw; stuck with 5S 4D, the drawn 9C may be played or the turn passed."""
    assert not legal(table("3H 5S 4D"), "draw")
    game = table("5S 4D", stock="9C")
    game.apply("draw")
    assert texts(game.legal_actions()) == ["9C", "pass"]


def test_I5_after_a_draw_the_drawn_jack_goes_down_alone_not_in_a_set():
    """I5 (as W3, F4: "play it (and only it)", where L9 says "a play that starts with it"): stuck
    on 9H holding JC, seat 0 draws JH. It may lay JH or pass, but not JH JC: the set would lay a
    card of its hand, which it could not play before drawing. Seat 0 keeps JC, and so does
    ``next_cards``: after a draw the only first card is the drawn one, and nothing follows it."""
    game = table("JC 5S 4D", stock="JH 8C")
    assert texts(game.legal_actions()) == ["draw"]
    game.apply("draw")
    assert texts(game.legal_actions()) == ["JH", "pass"]
    assert not legal(game, "JH JC")
    assert [str(c) for c in game.next_cards([])] == ["JH"]
    assert game.next_cards([game.drawn_card]) == []
    game.apply("JH")
    assert hand(game, 0) == ["4D", "5S", "JC"]


def test_I5_a_blocked_game_is_won_by_the_fewest_cards():
    """I5: four passes in a row with nothing to draw: the single-card seat wins."""
    game = position(I, ["5S 4D", "3D", "5C 6C", "8C 4C"], "9H", recycles_left=0)
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.winner == 1 and game.outcome.reason == "blocked"


def test_I2_the_skipped_seat_sees_the_pending_skip_in_its_observation() -> None:
    """G8 with I2: a pending skip is public, so the seat asked to answer it is told so."""
    from arena.engine.cards import Card
    from arena.engine.observation import wire_observation, observe

    game = Game.setup(load_rules("irish"), [[Card.parse("7H"), Card.parse("3C")],
                                            [Card.parse("7C"), Card.parse("4D")]], Card.parse("9H"))
    game.apply("7H")
    assert game.to_move == 1
    assert wire_observation(game, 1, 0)["pending_skip"] is True
    obs = observe(game, 1)
    assert obs.pending_skip and "pass" in obs.legal
    assert obs.is_legal("7C") and obs.illegal_reason("4D") == (
        "a skip is pending: only a skip card answers it (4D does not), or pass")
    game.apply("pass")  # accepted: the skip is gone
    assert not observe(game, game.to_move).pending_skip
