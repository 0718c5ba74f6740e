"""What a search needs from the engine (issue 13 point 2): a cheap copy of a game, determinizations
consistent with what a seat has seen, and a fast random playout to a valid end."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from arena.engine.actions import DRAW, Play
from arena.engine.cards import RANK_OF, SUIT_OF, Card
from arena.engine.determinize import Determinizer, determinize
from arena.engine.game import FIELDS, Game
from arena.engine.observation import observe
from arena.engine.playout import built_play, informed_playout, random_playout, results
from arena.engine.rules import load_rules, preset_names
from arena.engine.seat_view import UNSEEN
from arena.errors import GameOverError

from tests.engine.engine_helpers import SWITCH, cards, position

PRESETS = preset_names()


def mid_games(name: str, count: int, seed: int = 0) -> list[Game]:
    """Unfinished games of the preset, at 2 seats and at its default, played at random for
    a random number of decisions."""
    rules = load_rules(name)
    rng = random.Random(seed)
    games = []
    for index in range(count):
        seats = (2, rules.seats_default)[index % 2]
        game = Game.new(rules, seats, seed + index)
        stop = rng.randrange(3, 70)
        while game.outcome is None and game.decisions < stop:
            actions = game.legal_actions()
            game.apply_legal(actions[rng.randrange(len(actions))])
        if game.outcome is None:
            games.append(game)
    return games


def state(game: Game) -> dict[str, object]:
    """Every field of the game, by name (the generator by its state, the legal cache as text)."""
    values: dict[str, object] = {}
    for name in FIELDS:
        value = getattr(game, name)
        if isinstance(value, random.Random):
            value = value.getstate()
        elif name == "_legal":
            value = None if value is None else [str(a) for a in value]
        values[name] = value
    return values


# -- the copy ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_a_copy_played_forward_ends_as_the_original_played_forward_on_the_same_actions(name: str) -> None:
    """The copy is independent (playing it first leaves the original untouched) and whole (every
    slot, a new one too, ends equal): a slot shared or left out would show here."""
    for game in mid_games(name, 12):
        before = state(game)
        twin = game.copy()
        assert state(twin) == before
        rng = random.Random(game.decisions)
        moves = []
        while twin.outcome is None:
            actions = twin.legal_actions()
            action = actions[rng.randrange(len(actions))]
            moves.append(action)
            twin.apply_legal(action)
        assert state(game) == before, "playing the copy changed the original"
        for action in moves:
            game.apply_legal(action)
        assert state(game) == state(twin)


def test_a_copy_with_a_search_generator_shuffles_its_recycles_with_it() -> None:
    game = mid_games("switch", 1)[0]
    rng = random.Random(5)
    twin = game.copy(rng)
    assert twin.rng is rng and game.rng is not rng
    assert twin.hands == game.hands and twin.hands[0] is not game.hands[0]


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_copy_deepcopy_and_pickle_rebuild_every_field(how: str) -> None:
    """copy.copy shares the fields, copy.deepcopy and a pickle's round trip copy every one of
    them: Game.__reduce__ rebuilds a compiled Game (which has no bare __new__) as a pure one."""
    ways = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": lambda g: pickle.loads(pickle.dumps(g))}
    for game in mid_games("switch", 6):
        before = state(game)
        twin = ways[how](game)
        assert type(twin) is Game and twin is not game and state(twin) == before
        if how == "copy":
            assert twin.hands is game.hands and twin.rng is game.rng
        else:
            assert twin.hands == game.hands and twin.hands[0] is not game.hands[0]
            assert twin.rng is not game.rng and twin.rng.random() == game.rng.random()


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_rule_sets_powers_and_plays_pickle_and_copy_as_equal_values(how: str) -> None:
    """The frozen values a game holds come back equal and of their own class (a compiled
    frozen dataclass refuses the default way, which sets fields on a bare instance)."""
    ways = {"copy": copy.copy, "deepcopy": copy.deepcopy, "pickle": lambda v: pickle.loads(pickle.dumps(v))}
    rules = load_rules("london")
    values = [rules, *set(rules.power_of), Play((Card.parse("AS"),), call=2, announce=True),
              Play((Card.parse("X1"), Card.parse("7H")), roles=(Card.parse("7S"), Card.parse("7H")))]
    for value in values:
        twin = ways[how](value)
        assert type(twin) is type(value) and twin == value
    assert ways[how](rules).lone_plays == rules.lone_plays  # the tables too (not compared by ==)


# -- determinizations -------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_determinizations_keep_what_the_seat_has_seen_and_only_deal_the_rest(name: str) -> None:
    """An invariant sweep over random mid-game positions of every preset: each card once, the
    seat's hand, the top and the named pile cards where they are, every size as observed, the
    seat's legal actions the referee's, the inferred voids true of the real hidden hands, and
    the same deal from the same generator."""
    for game in mid_games(name, 30, seed=100):
        seat = game.to_move
        obs = observe(game, seat)
        dealer = Determinizer(obs)
        for other, void in dealer.voids.items():
            assert other != seat
            outside = sum(card not in void.cards for card in game.hands[other])
            assert outside >= void.held, f"{name}: seat {other}'s real hand breaks its void"
        for index, card in enumerate(dealer.below_top):
            assert card == UNSEEN or game.discard[index] == card
        for deal_seed in range(3):
            dealt = dealer.deal(random.Random(deal_seed))
            assert sorted(dealt.all_cards()) == list(range(game.rules.deck_size()))
            assert dealt.hands[seat] == game.hands[seat]
            assert [len(h) for h in dealt.hands] == [len(h) for h in game.hands]
            assert len(dealt.stock) == len(game.stock) and dealt.discard[-1] == game.discard[-1]
            for index, card in enumerate(dealer.below_top):
                assert card == UNSEEN or dealt.discard[index] == card
            seen = set(game.hands[seat]) | {c for c in dealer.below_top if c != UNSEEN}
            for other in range(game.seats):
                if other != seat:
                    assert not seen & set(dealt.hands[other])
            assert not seen & set(dealt.stock)
            for other, void in dealer.voids.items():
                outside = sum(card not in void.cards for card in dealt.hands[other])
                assert outside >= void.held
            assert [str(a) for a in dealt.legal_actions()] == list(obs.legal)
            again = determinize(obs, random.Random(deal_seed))
            assert again.hands == dealt.hands and again.stock == dealt.stock
            assert again.discard == dealt.discard
        assert determinize(obs, random.Random(1)).hands != determinize(obs, random.Random(2)).hands \
            or all(len(h) <= 1 for s, h in enumerate(game.hands) if s != seat)


def stuck_then_drew(rules_name: str) -> Game:
    """Seat 0 lays 9H; seat 1 holds no heart, no 9 and no ace, and draws."""
    game = position(load_rules(rules_name), ["9H 3C 4C", "5D 6D KS"], "9S",
                    stock="QD 3H 4H 5H 6H 9C 9D TD")
    game.apply(Play((Card.parse("9H"),)))
    game.apply(DRAW)
    assert game.to_move == 0
    return game


def test_a_seat_that_drew_when_drawing_is_forced_is_dealt_no_fitting_card_among_its_old_ones() -> None:
    """Seat 1 drew on the 9 of hearts under `drawing.when: stuck`: of its four cards, the three
    it held then fit neither hearts nor nines (nor are aces); only the drawn one may."""
    game = stuck_then_drew("switch")
    dealer = Determinizer(observe(game, 0))
    void = dealer.voids[1]
    nine, ace, heart = RANK_OF[Card.parse("9H")], RANK_OF[Card.parse("AS")], SUIT_OF[Card.parse("9H")]
    fitting = {c for c in range(52) if SUIT_OF[c] == heart or RANK_OF[c] in (nine, ace)}
    assert void.cards == fitting and void.held == 3
    for seed in range(40):
        hand = dealer.deal(random.Random(seed)).hands[1]
        assert len(hand) == 4 and sum(c in fitting for c in hand) <= 1


def test_no_void_is_inferred_where_a_seat_may_draw_by_choice() -> None:
    """two-four-jacks (W2): drawing is a choice, so a draw proves nothing."""
    game = stuck_then_drew("two-four-jacks")
    assert Determinizer(observe(game, 0)).voids == {}


def test_the_counts_that_end_a_game_follow_the_history() -> None:
    game = stuck_then_drew("switch")
    dealt = determinize(observe(game, 0), random.Random(0))
    assert (dealt.decisions, dealt.plays, dealt.passes_in_row) == (2, 1, 0)


# -- playouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", PRESETS)
def test_playouts_end_with_a_valid_outcome_and_every_built_play_is_legal(name: str) -> None:
    # london's long games make a checked playout seconds long: 6 of them, 12 elsewhere.
    for game in mid_games(name, 6 if name == "london" else 12, seed=300):
        rng = random.Random(game.decisions)
        probe = game.copy()
        while probe.outcome is None:  # the policy's plays are the referee's legal plays
            play = built_play(probe, rng)
            if play is not None:
                assert probe.check(play) == play and probe.blunder_reason(play) is None
                probe.apply_legal(play)
            else:
                probe.apply_legal(probe.legal_actions()[0])
        twin = game.copy(rng)
        shares = random_playout(twin, rng)
        assert twin.outcome is not None and len(shares) == game.seats
        assert sum(shares) == pytest.approx(1.0) and all(0 <= s <= 1 for s in shares)
        if twin.outcome.winner is not None:
            assert shares[twin.outcome.winner] == 1.0
        assert sorted(twin.all_cards()) == list(range(game.rules.deck_size()))


@pytest.mark.parametrize("name", ["london", "blackjack"])
def test_chained_rule_sets_get_built_plays_too(name: str) -> None:
    """Runs, covers, pickup stacks and jokers (london, blackjack) once left every playout turn to
    a uniform pick over the whole listing, which costs most of the playout; their plays are built
    card by card now, on every open turn with a fitting card, and the referee accepts each."""
    could, built, longer = 0, 0, 0
    for game in mid_games(name, 6, seed=700):
        rng = random.Random(game.decisions)
        probe = game.copy()
        while probe.outcome is None:
            open_turn = probe.pending_kind is None and not probe.pending_skip and probe.drawn_card < 0
            could += open_turn and any(isinstance(a, Play) for a in probe.legal_actions())
            play = built_play(probe, rng)
            if play is None:
                probe.apply_legal(probe.legal_actions()[0])
                continue
            assert open_turn and probe.check(play) == play and probe.blunder_reason(play) is None
            built += 1
            longer += len(play.cards) > 1
            probe.apply_legal(play)
    # nearly every open turn with a legal play gets a built one (a finish the check refuses
    # sends the rest to the uniform pick), longer plays among them
    assert could > 20 and built >= 0.9 * could and longer > 0


@pytest.mark.parametrize("name", PRESETS)
def test_an_informed_playout_of_one_try_is_the_random_playout_draw_for_draw(name: str) -> None:
    for game in mid_games(name, 6, seed=500):
        plain, informed = game.copy(random.Random(1)), game.copy(random.Random(1))
        assert random_playout(plain, random.Random(7)) == informed_playout(informed, random.Random(7), 1)
        assert [str(e.action) for e in plain.history] == [str(e.action) for e in informed.history]


@pytest.mark.parametrize("name", PRESETS)
def test_informed_playouts_end_with_a_valid_outcome(name: str) -> None:
    for game in mid_games(name, 8, seed=600):
        twin = game.copy(random.Random(2))
        shares = informed_playout(twin, random.Random(game.decisions), 4, 1.5)
        assert twin.outcome is not None and sum(shares) == pytest.approx(1.0)
        assert sorted(twin.all_cards()) == list(range(game.rules.deck_size()))


def first_laid(game: Game, seed: int, tries: int, wild_cost: float) -> str:
    """The first action an informed playout takes from ``game`` (played on a copy)."""
    twin = game.copy(random.Random(seed))
    start = len(twin.history)
    informed_playout(twin, random.Random(seed), tries, wild_cost)
    return str(twin.history[start].action)


def test_an_informed_playout_keeps_its_ace_while_a_plain_card_fits() -> None:
    # On the 9C, seat 0 may lay the 9H or its wild ace (S3). A player keeps the ace; so does the
    # informed playout, which counts the ace a card and a half less than it sheds.
    game = position(SWITCH, ["AS 9H 3D", "4C 5C 6H"], "9C", stock="KH KD KS KC")
    firsts = {first_laid(game, seed, 8, 1.5) for seed in range(40)}
    assert firsts == {"9H"}
    # The uniform policy lays the ace in some of the same playouts.
    assert any(first_laid(game, seed, 1, 1.5).startswith("AS") for seed in range(40))


def test_an_informed_playout_lays_the_set_that_sheds_most() -> None:
    # On the 5C: the KC alone, the KC then the KD (a set, S4), or the 5H. Of 12 built plays the
    # two-card set is laid.
    game = position(SWITCH, ["KC KD 5H 3S", "4C 6C 6H"], "5C", stock="QH JD TS 9C")
    firsts = {first_laid(game, seed, 12, 1.5) for seed in range(30)}
    assert firsts == {"KC KD"}


def test_results_of_a_drawn_game_share_the_win_among_the_best_scores() -> None:
    game = position(SWITCH, ["3C 4C", "5D 6D", "KS QD KD"], "9H", to_move=0)
    with pytest.raises(GameOverError):
        results(game)
    game._blocked()
    assert results(game) == (0.5, 0.5, 0.0)
    assert cards("3C") == [Card.parse("3C")]
