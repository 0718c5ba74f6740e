"""RULINGS.md section G: the model shared by every preset, narrated on rigged positions."""

from __future__ import annotations

import random

from engine_helpers import CRAZY_EIGHTS, SWITCH, hand, position, texts, variant

import pytest

from arena.engine.actions import DRAW, PASS
from arena.errors import ArenaError, GameOverError, IllegalActionError
from arena.engine.game import Game, Pending
from arena.engine.match import Match
from arena.engine.outcome import winner_of
from arena.engine.rules import load_rules, preset_names
from arena.tournament.replay import EffectKind, replay_moves
from arena.cli.render import effect_text


# -- G1 decisions ---------------------------------------------------------------------------


def test_G1_each_decision_is_exactly_one_action():
    """G1: a play, a draw and a pass are one decision each, by the seat to move."""
    game = position(SWITCH, ["3H 4C", "5C 6C"], "9H", stock="KC")
    game.apply("3H")
    assert (game.decisions, game.to_move) == (1, 1)
    game.apply("draw")
    assert (game.decisions, game.to_move) == (2, 0)
    over = position(SWITCH, ["3C", "4C"], "9H", recycles_left=0)
    over.apply("pass")
    assert (over.decisions, over.to_move) == (1, 1)


@pytest.mark.parametrize("rules, text, rule_word", [
    (SWITCH, "3H=D", "suit"),          # a suit call where none is asked
    (SWITCH, "3H 3C !", "last-card"),  # no last-card rule in switch
    (CRAZY_EIGHTS, "3H !", "last-card"),
])
def test_G1_a_call_or_announcement_the_preset_does_not_ask_for_is_illegal(rules, text, rule_word):
    """G1: the engine rejects the action with a reason naming the rule; it never repairs it."""
    game = position(rules, ["3H 3C 4D", "5C 6C"], "9H")
    before = game.to_json()
    with pytest.raises(IllegalActionError) as error:
        game.apply(text)
    assert rule_word in error.value.reason
    assert error.value.action == text
    assert game.to_json() == before  # nothing happened, nothing repaired


def test_G1_a_card_not_in_the_hand_is_illegal_and_named():
    """G1: the reason names the missing card."""
    game = position(SWITCH, ["3H 4C", "5C 6C"], "9H")
    with pytest.raises(IllegalActionError) as error:
        game.check("5H")
    assert "5H" in error.value.reason


def test_G1_no_action_after_the_game_is_over():
    """G1: a finished game has no seat to move."""
    game = position(SWITCH, ["3H", "5C 6C"], "9H")
    game.apply("3H")
    assert game.is_over and game.legal_actions() == []
    with pytest.raises(GameOverError):
        game.apply("draw")


# -- G2 forced actions ----------------------------------------------------------------------


def test_G2_a_stuck_seat_has_exactly_one_action_draw():
    """G2: nothing playable, a card to draw: `draw` is the only legal action."""
    game = position(SWITCH, ["3C 4C", "5C 6C"], "9H", stock="KD")
    assert game.legal_actions() == [DRAW]


def test_G2_a_seat_that_can_neither_play_nor_draw_has_exactly_one_action_pass():
    """G2: with no stock and no recycle the single action is `pass`."""
    game = position(SWITCH, ["3C 4C", "5C 6C"], "9H", recycles_left=0)
    assert game.legal_actions() == [PASS]


def test_G2_a_seat_with_a_real_choice_is_offered_it():
    """G2: with two playable cards the seat is asked (more than one action)."""
    game = position(SWITCH, ["3H 9C 4C", "5C 6C"], "9H", stock="KD")
    assert {"3H", "9C"} <= set(texts(game.legal_actions()))
    assert DRAW not in game.legal_actions()


# -- G3 a play is atomic --------------------------------------------------------------------


def test_G3_all_cards_leave_the_hand_and_the_last_laid_is_the_new_top():
    """G3: the cards are laid in the given order; the last one is the top card."""
    game = position(SWITCH, ["9C 9D 9S 4C", "5C 6C"], "9H")
    game.apply("9D 9S 9C")
    assert game.to_json()["discard"] == ["9H", "9D", "9S"] and game.to_json()["top"] == "9C"
    assert hand(game, 0) == ["4C"]
    assert game.to_json()["active_suit"] == "C"


def test_G3a_a_forced_draw_comes_before_the_win():
    """G3(a) then (b): a red jack that empties the hand still draws the remainder, so no win."""
    game = position(SWITCH, ["JH", "5C 6C"], "JS", discard="9S", stock="3C 4C 5D 6D 8D",
                    pending=("jack", 10))
    game.apply("JH")
    assert not game.is_over
    assert hand(game, 0) == sorted("3C 4C 5D 6D 8D".split())


def test_G3b_a_play_that_empties_the_hand_wins_and_no_effect_follows():
    """G3(b): the winning play's 2 leaves no penalty for anyone to draw."""
    game = position(SWITCH, ["2H", "5C 6C"], "9H")
    game.apply("2H")
    assert game.outcome.winner == 0 and game.outcome.reason == "emptied"
    assert hand(game, 1) == ["5C", "6C"]
    assert game.pending_kind is None and game.to_json()["pending"] is None


@pytest.mark.parametrize("pending", [None, ("two", 2)])
def test_G3b_F9_the_going_out_play_is_shown_without_a_penalty(pending) -> None:
    """The final position said 'two 2 to pick up' beside 'seat 0 wins', and the move read
    'pickup +2' (or, on a pending two, 'cancels the two penalty'): the last card's power does
    not apply (F9), whatever was pending before it."""
    game = position(SWITCH, ["2H", "5C 6C"], "2D" if pending else "9H", pending=pending)
    (step,) = replay_moves(game, ["2H"])
    assert game.outcome.winner == 0
    assert game.to_json()["pending"] is None
    assert not [e for e in step.effects if e.kind in (EffectKind.PICKUP, EffectKind.CANCEL)]


# A rule set whose red 10s reverse and black 10s swap, so that effects of different kinds can go
# down in one play and the laid order of G3(c) becomes visible.
TENS = variant(SWITCH, powers={**SWITCH.settings["powers"], "black 10": {"swap": True}})


def test_G3c_a_swap_after_a_reverse_goes_the_new_way():
    """G3(c): `TH TS`: the reverse first, so the swap is with seat 3 (the new next seat)."""
    game = position(TENS, ["TH TS 3C", "4C", "5C 5D", "6C 6D 6S"], "9H")
    game.apply("TH TS")
    assert game.direction == -1
    assert hand(game, 0) == ["6C", "6D", "6S"]
    assert hand(game, 3) == ["3C"]
    assert hand(game, 1) == ["4C"]
    assert game.to_move == 3


def test_G3c_a_swap_before_a_reverse_goes_the_old_way():
    """G3(c): `TS TH`: the swap first, with seat 1; then the reverse hands the turn to seat 3."""
    game = position(TENS, ["TS TH 3C", "4C", "5C 5D", "6C 6D 6S"], "9S")
    game.apply("TS TH")
    assert hand(game, 0) == ["4C"]
    assert hand(game, 1) == ["3C"]
    assert game.direction == -1 and game.to_move == 3


# -- G4 stock -------------------------------------------------------------------------------


def test_G4_an_empty_stock_recycles_the_discard_pile_but_its_top():
    """G4: the pile under the top card becomes the stock; the top card stays."""
    game = position(SWITCH, ["3C", "4C"], "9H", discard="5D 6D KS", recycles_left=20)
    game.apply("draw")
    assert game.to_json()["discard"] == [] and game.to_json()["top"] == "9H"
    assert len(game.hands[0]) == 2 and len(game.stock) == 2
    assert set(hand(game, 0)) | set(game.to_json()["stock"]) == {"3C", "5D", "6D", "KS"}
    assert game.recycles_left == 19


def test_G4_the_recycle_shuffle_comes_from_the_games_seed():
    """G4: the same position and seed recycle into the same stock order."""
    def after_draw(seed: int):
        game = position(SWITCH, ["3C", "4C"], "9H", discard="5D 6D KS 2S 3S 4S 5S", seed=seed)
        game.apply("draw")
        return game.to_json()
    assert after_draw(11) == after_draw(11)
    assert len({str(after_draw(seed)["stock"]) for seed in range(8)}) > 1


def test_G4_a_penalty_larger_than_the_cards_left_is_drawn_as_far_as_possible():
    """G4: a 2-penalty of 6 with two cards in stock and nothing to recycle draws two."""
    game = position(SWITCH, ["3C", "4C"], "2H", stock="5D 6D", pending=("two", 6))
    game.apply("draw")
    assert hand(game, 0) == ["3C", "5D", "6D"]
    assert game.pending is None and game.to_move == 1


def test_G4_draw_without_a_penalty_is_illegal_when_no_card_can_be_drawn():
    """G4: empty stock, nothing to recycle: `draw` is illegal, `pass` is the action."""
    game = position(SWITCH, ["3C", "4C"], "9H", recycles_left=20)
    with pytest.raises(IllegalActionError):
        game.check("draw")
    assert game.legal_actions() == [PASS]


def test_G4_draw_under_a_penalty_is_legal_even_when_nothing_can_be_drawn():
    """G4/S12: under a pending penalty `draw` takes it as far as it can, here zero cards."""
    game = position(SWITCH, ["3C", "4C"], "2H", pending=("two", 2))
    assert game.legal_actions() == [DRAW]
    game.apply("draw")
    assert hand(game, 0) == ["3C"] and game.pending is None and game.to_move == 1


# -- G5 passing and blocked games -----------------------------------------------------------


def test_G5_pass_is_illegal_while_a_card_can_be_drawn():
    """G5: a seat that can draw may not pass."""
    game = position(SWITCH, ["3C", "4C"], "9H", stock="KD")
    with pytest.raises(IllegalActionError):
        game.check("pass")


def test_G5_pass_is_illegal_while_a_card_can_be_played():
    """G5: a seat that can play may not pass, even with an empty stock."""
    game = position(SWITCH, ["3H", "4C"], "9H", recycles_left=0)
    with pytest.raises(IllegalActionError):
        game.check("pass")


def test_G5_a_play_breaks_the_chain_and_as_many_passes_as_seats_block_the_game():
    """G5: pass, pass, play, pass, pass is no block; the third pass in a row is."""
    game = position(SWITCH, ["3C 4C", "5C 6C", "KH 3D"], "9H", recycles_left=0)
    for text in ("pass", "pass", "KH", "pass", "pass"):
        game.apply(text)
        assert not game.is_over
    game.apply("pass")
    assert game.outcome.reason == "blocked" and game.outcome.winner == 2


def _penalty_cases() -> list[tuple[str, str]]:
    """Every preset with a penalty, with each kind of penalty it has."""
    return [(name, kind) for name in preset_names() for kind in sorted(load_rules(name).penalty_kinds())]


@pytest.mark.parametrize("name, kind", _penalty_cases())
def test_G5_in_every_preset_an_empty_penalty_draw_breaks_the_run_of_passes(name, kind):
    """G5/S12 (amended), checked preset by preset: with the stock and pile empty, seat 1 has
    passed, then seat 0 draws a penalty it cannot answer and gets no card. The penalty is gone
    and the run of passes is broken, so the game is not blocked: seat 1 moves next."""
    rules = load_rules(name)
    starter = next(c for c in range(52) if rules.power_of[c].stack == kind)
    answers = rules.answers.get(kind, frozenset())
    # seat 0 holds a card that cannot answer; seat 1 holds one card of another code
    stuck = next(c for c in range(52) if c not in answers and not rules.wild[c] and c != starter)
    other = next(c for c in range(52) if c not in (starter, stuck))
    game = Game.setup(rules, [[stuck], [other]], starter, pending=Pending(kind, 2),
                      recycles_left=0)
    game.passes_in_row = 1  # as if seat 1 had just passed
    assert DRAW in game.legal_actions()
    game.apply("draw")
    assert game.history[-1].drew == 0 and game.pending is None
    assert game.passes_in_row == 0 and not game.is_over and game.to_move == 1


# -- G6 termination -------------------------------------------------------------------------


def test_G6_a_game_that_reaches_the_decision_cap_is_drawn_with_reason_cap():
    """G6: a cap of 10 decisions ends an endless drawing match as a draw, reason `cap`."""
    capped = variant(SWITCH, decision_cap=10)
    game = position(capped, ["3C", "4C"], "9H",
                    stock="2D 3D 4D 5D 6D 7D 8D TD JD QD KD")
    for _ in range(10):
        assert not game.is_over
        game.apply("draw")
    assert game.outcome.status == "drawn" and game.outcome.reason == "cap"
    assert game.outcome.winner is None
    assert game.to_json()["status"] == "drawn"


def test_G6_every_random_game_ends():
    """G6: games between random movers end (won, blocked or capped) within the cap."""
    import random
    for seed in range(30):
        for rules in (SWITCH, CRAZY_EIGHTS):
            game = Game.new(rules, 4, seed)
            rng = random.Random(seed)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
            assert game.decisions <= rules.decision_cap


# -- G7 places ------------------------------------------------------------------------------


def test_G7_the_winner_first_then_fewest_cards_with_shared_places():
    """G7: seat 0 wins; seat 2 (one card) next; seats 1 and 3 (three each) share a place."""
    game = position(SWITCH, ["3H", "4C 5C 6C", "4D", "5D 6D 3S"], "9H")
    game.apply("3H")
    assert game.outcome.places == ((0,), (2,), (1, 3))
    assert game.to_json()["places"] == [[0], [2], [1, 3]]


def test_G7_a_drawn_game_puts_the_tied_leaders_first_together():
    """G7/S14: a blocked game with seats 1 and 2 tied on one card: a draw, both first."""
    game = position(SWITCH, ["3C 4C", "5C", "6C", "7C 8C 3D"], "9H", recycles_left=0)
    for _ in range(4):
        game.apply("pass")
    assert game.outcome.status == "drawn" and game.outcome.winner is None
    assert game.outcome.places == ((1, 2), (0,), (3,))


# -- G9 seats -------------------------------------------------------------------------------


def test_G9_a_fresh_deal_starts_with_seat_0_clockwise():
    """G9: every preset's deal gives the first decision to seat 0, direction clockwise."""
    for rules in (SWITCH, CRAZY_EIGHTS):
        for seed in range(10):
            game = Game.new(rules, None, seed)
            assert (game.to_move, game.direction) == (0, 1)


def test_G9_plain_plays_go_round_the_table_in_seat_order():
    """G9: four plain plays: seats 0, 1, 2, 3, then 0 again."""
    game = position(SWITCH, ["3H 4C", "4H 5C", "5H 6C", "6H 3D"], "9H")
    order = []
    for text in ("3H", "4H", "5H", "6H"):
        order.append(game.to_move)
        game.apply(text)
    assert order == [0, 1, 2, 3] and game.to_move == 0


def test_G4_a_penalty_draw_recycles_the_pile_when_the_stock_runs_out():
    """G4/S13: a 2-penalty of 4 with one card in stock: that card, then a recycle for three more."""
    game = position(SWITCH, ["3C", "4C"], "2H", discard="5D 6D KS 8S", stock="QD",
                    pending=("two", 4))
    game.apply("draw")
    assert {"3C", "QD"} <= set(hand(game, 0)) and len(game.hands[0]) == 5
    assert set(hand(game, 0)) | set(game.to_json()["stock"]) == {"3C", "QD", "5D", "6D", "KS", "8S"}
    assert game.recycles_left == 19
    assert len(game.stock) == 1 and game.to_json()["top"] == "2H"


@pytest.mark.parametrize("name", preset_names())
def test_G7_every_outcome_names_the_winner_its_places_give(name):
    """winner_of is the rule a tournament applies once faulty seats are placed last, so it must
    agree with the engine wherever no seat faulted: the seat alone in first place wins, a tie
    there or a cap's draw has no winner. Random matches of every preset, to their end."""
    rules = load_rules(name)
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        match = Match.new(rules, rng.randint(rules.seats_min, min(rules.seats_max, 5)), seed)
        game: Game | None = match.current
        while game is not None:
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
            assert game.outcome is not None
            assert game.outcome.winner == winner_of(game.outcome.places, game.outcome.reason)
            game = match.next_hand()
        outcome = match.outcome
        assert outcome is not None
        assert outcome.winner == winner_of(outcome.places, outcome.reason)
        seen.add((outcome.reason, outcome.winner is None))
    assert any(not drawn for _, drawn in seen)   # the sweep met won games at least


@pytest.mark.parametrize("start", [Game.new, Match.new])
def test_a_table_of_no_seats_is_refused_not_dealt_at_the_presets_default(start) -> None:
    """`seats=None` means the preset's default; 0 is a table too small, as 1 is."""
    for seats in (0, 1):
        with pytest.raises(ArenaError, match="seats"):
            start(load_rules("switch"), seats)


@pytest.mark.parametrize("preset, hand, move, drew, told", [
    ("two-four-jacks", "9S 3D", "9S", 2, "no last-card call (penalty 2)"),             # W5
    ("blackjack", "9S 3D", "9S", 2, "no last-card call (penalty 2)"),                  # B5
    ("london", "9S", "9S", 1, "no standing last-card call (penalty 1)"),               # L10
    ("two-four-jacks", "9S 3D", "9S !", 0, None),
])
def test_a_missed_last_card_call_is_named_as_the_cause_of_its_draw(preset, hand, move, drew, told):
    """The move read 'plays 9S (drew 2)' and nothing said why."""
    game = position(load_rules(preset), [hand, "5H 6H"], "9H", stock="KC 8H TD JD 2D")
    (step,) = replay_moves(game, [move])
    assert step.drew == drew
    missed = [effect_text(e) for e in step.effects if e.kind is EffectKind.LAST_CARD_MISSED]
    assert missed == ([told] if told else [])


def test_G3c_two_reverses_in_one_play_are_shown_though_the_direction_ends_as_it_was():
    """London's kings reverse: `KH KD` turns the table twice, which read as no effect at all."""
    game = position(load_rules("london"), ["KH KD 3C 4C", "5H 6H", "7S 8S"], "9H", stock="KC 8H TD")
    (step,) = replay_moves(game, ["KH KD"])
    assert game.direction == 1
    assert [effect_text(e) for e in step.effects] == ["reverses 2 times (direction +1)"]
