"""One source of legality: the bounded enumeration, `check`, `apply` and `next_cards` agree.

The enumeration's rule (arena/engine/moves.py docstring): plays without a suit opener are listed
exhaustively, one per (set of cards, final card); plays led by a suit opener are listed as the
shortest and the fullest play for each final card, so their number is at most ``2 * hand * 4``
per opener (4: the suit calls of a play ending on an ace). Every other flush stays legal and is
built card by card with ``next_cards``.
"""

from __future__ import annotations

import copy
import random
from itertools import combinations
from math import comb

from engine_helpers import CRAZY_EIGHTS, SWITCH, cards, position, random_positions, texts

import pytest

from arena.engine.actions import DRAW, PASS, Draw, Pass, Play
from arena.engine.cards import RANK_OF, Card
from arena.errors import IllegalActionError
from arena.engine.game import Game

# 7H and ten more hearts, nine off-suit cards: 20 cards; 9H on top, hearts active.
BIG_HAND = "7H AH 2H 3H 4H 5H 6H 8H TH JH QH 2C 3C 4D 5S 6S 8C KC KD QD"


def big_game() -> Game:
    """Seat 0 holds the 20-card hand of the enumeration tests."""
    return position(SWITCH, [BIG_HAND, "9C 9D", "9S 7C"], "9H", stock="KH KS")


def set_bound(rules, hand: list[int], openers: list[int]) -> int:
    """Most plays without an opener: for each rank that can lead, every subset times its last
    card, times 4 when that rank calls a suit."""
    total = 0
    for rank in {RANK_OF[c] for c in openers}:
        n = sum(1 for c in hand if RANK_OF[c] == rank and not rules.power_of[c].opens_suit)
        calls = 4 if rules.power_of[Card.of(rank, 0)].calls_suit else 1
        total += calls * sum(comb(n, k) * k for k in range(1, n + 1))
    return total


def copy_game(game: Game) -> Game:
    """An independent copy of a game (the rule set is shared: it is immutable)."""
    return copy.deepcopy(game, {id(game.rules): game.rules})


def accepts(game: Game, action) -> bool:
    """Does ``check`` accept the action?"""
    try:
        game.check(action)
        return True
    except IllegalActionError:
        return False


# -- the bounded enumeration ----------------------------------------------------------------


def test_a_20_card_hand_with_a_7_and_ten_of_its_suit_has_a_bounded_list():
    """moves docstring: at most 2 * 20 * 4 per suit opener, plus the sets; all legal."""
    game = big_game()
    hand = game.hands[0]
    assert len(hand) == 20
    listed = game.legal_actions()
    openers = game.next_cards([])
    suit_openers = [c for c in openers if SWITCH.power_of[c].opens_suit]
    assert [str(c) for c in suit_openers] == ["7H"]
    bound = 2 * 20 * 4 * len(suit_openers) + set_bound(SWITCH, hand, openers)
    assert 0 < len(listed) <= bound
    assert len(set(texts(listed))) == len(listed), "the list repeats a play"
    for action in listed:
        game.check(action)


def test_the_20_card_list_is_deterministic():
    """STYLE 4: the enumeration order is deterministic."""
    assert texts(big_game().legal_actions()) == texts(big_game().legal_actions())


def test_the_20_card_list_ends_on_every_reachable_card():
    """moves docstring: for each possible final card the list holds a play ending on it.

    Led by 7H every heart is reachable, and by rank from a heart: 2C, 3C, 4D, 5S, 6S, 8C, QD.
    KC and KD are not (the hand holds no heart king, and no other 7 opens a suit).
    """
    finals = {str(a).split()[-1].split("=")[0] for a in big_game().legal_actions()
              if str(a).startswith("7H")}
    expected = set("7H AH 2H 3H 4H 5H 6H 8H TH JH QH 2C 3C 4D 5S 6S 8C QD".split())
    assert finals == expected


def test_a_long_partial_flush_not_listed_is_still_legal_and_buildable():
    """moves docstring: the list holds the shortest and fullest flush per final card; a
    7-card flush ending on 8H is neither (shortest: 7H 8H; fullest: every heart), yet it is
    legal, and `next_cards` offers each of its cards in turn."""
    game = big_game()
    flush = "7H 2H 3H 4H 5H 6H 8H"
    assert flush not in texts(game.legal_actions())
    assert str(game.check(flush)) == flush
    prefix: list[Card] = []
    for card in cards(flush):
        assert card in game.next_cards(prefix), f"{card} after {prefix}"
        prefix.append(card)
    game.apply(Play(tuple(prefix)))
    assert len(game.hands[0]) == 13 and game.to_json()["top"] == "8H"


def test_next_cards_from_nothing_are_the_legal_first_cards():
    """next_cards([]) holds exactly the cards that fit the pile (S3): hearts, aces, no 9."""
    firsts = {str(c) for c in big_game().next_cards([])}
    assert firsts == set("7H AH 2H 3H 4H 5H 6H 8H TH JH QH".split())


def test_next_cards_refuses_a_jack_of_the_other_colour():
    """S5: after 7S JS, next_cards does not offer JH."""
    game = position(SWITCH, ["7S JS JH 3S", "4C"], "9S")
    assert [str(c) for c in game.next_cards(cards("7S JS"))] == ["3S"]


# -- the property sweep ---------------------------------------------------------------------


def random_candidates(game: Game, rng: random.Random, count: int) -> list:
    """Plays made of random cards of the hand (mostly illegal), with random calls and `!`."""
    hand = game.hands[game.to_move]
    found = [DRAW, PASS]
    for _ in range(count):
        size = rng.randint(1, min(4, len(hand)))
        seq = tuple(Card(c) for c in rng.sample(hand, size))
        call = rng.choice([None, None, 0, 1, 2, 3])
        found.append(Play(seq, call, (), rng.random() < 0.05))
    return found


def sweep(rules, seeds: range):
    """Positions from random games, with a generator for each."""
    for game in random_positions(rules, seeds, max_decisions=200):
        yield game, random.Random(game.decisions * 31 + game.seed)


@pytest.mark.parametrize("rules", [SWITCH, CRAZY_EIGHTS], ids=lambda r: r.name)
def test_every_listed_action_passes_check(rules):
    """STYLE 4: over many random positions, check accepts everything legal_actions lists."""
    count = 0
    for game, _ in sweep(rules, range(80)):
        listed = game.legal_actions()
        assert listed, "a game in play always has an action"
        for action in listed:
            game.check(action)
            count += 1
        plays = [a for a in listed if isinstance(a, Play)]
        if plays:
            assert DRAW not in listed and PASS not in listed  # S12, C4
            assert not accepts(game, DRAW) and not accepts(game, PASS)
        else:
            assert len(listed) == 1  # G2: a forced draw or pass
    assert count > 1000


@pytest.mark.parametrize("rules", [SWITCH, CRAZY_EIGHTS], ids=lambda r: r.name)
def test_apply_accepts_exactly_what_check_accepts(rules):
    """STYLE 4: for listed and random actions, apply succeeds iff check does; a refused apply
    changes nothing; an accepted draw or pass is a listed one."""
    for game, rng in sweep(rules, range(30)):
        listed = game.legal_actions()
        for action in [*listed[:3], *random_candidates(game, rng, 6)]:
            ok = accepts(game, action)
            trial = copy_game(game) if ok else game  # a refused apply must leave it untouched
            before = trial.to_json()
            try:
                trial.apply(action)
                applied = True
            except IllegalActionError:
                applied = False
                assert trial.to_json() == before
            assert applied == ok, f"{action!r}: check {ok}, apply {applied}"
            if ok and isinstance(action, (Draw, Pass)):
                assert action in listed


@pytest.mark.parametrize("rules", [SWITCH, CRAZY_EIGHTS], ids=lambda r: r.name)
def test_a_play_check_accepts_has_its_outcome_listed(rules):
    """moves docstring: a legal play without a suit opener is listed (same cards, same last
    card, same call); a legal flush ends on a card some listed flush of its opener ends on."""
    for game, rng in sweep(rules, range(40)):
        listed = [a for a in game.legal_actions() if isinstance(a, Play)]
        outcomes = {(frozenset(a.cards), a.cards[-1], a.call) for a in listed}
        finals = {(a.cards[0], a.cards[-1], a.call) for a in listed}
        for action in random_candidates(game, rng, 20):
            if not isinstance(action, Play) or not accepts(game, action):
                continue
            if rules.power_of[action.cards[0]].opens_suit:
                assert (action.cards[0], action.cards[-1], action.call) in finals, str(action)
            else:
                assert (frozenset(action.cards), action.cards[-1], action.call) in outcomes, str(action)


@pytest.mark.parametrize("rules", [SWITCH, CRAZY_EIGHTS], ids=lambda r: r.name)
def test_next_cards_agrees_with_check(rules):
    """One source of legality: a card is offered by next_cards iff the play extended by it
    (with a suit call where one is needed) passes check (C4 aside: it may lack the drawn card)."""
    for game, rng in sweep(rules, range(30)):
        if game.drawn_card >= 0 or not any(isinstance(a, Play) for a in game.legal_actions()):
            continue
        hand = [Card(c) for c in game.hands[game.to_move]]
        prefix: list[Card] = []
        while True:
            offered = game.next_cards(prefix)
            for card in hand:
                if card in prefix:
                    continue
                seq = (*prefix, card)
                call = 0 if rules.power_of[card].calls_suit else None
                assert accepts(game, Play(seq, call)) == (card in offered), f"{seq} {offered}"
            if not offered:
                break
            prefix.append(rng.choice(offered))


def test_crazy_eights_sets_are_listed_in_full():
    """C2: on 9C every set of 9S 9D 9H is listed once per final card (3 singles, 3 pairs x 2,
    the triple x 3), plus 4C: 13 plays."""
    game = position(CRAZY_EIGHTS, ["9S 9D 9H 4C", "2C"], "9C")
    plays = [a for a in game.legal_actions() if isinstance(a, Play)]
    outcomes = {(frozenset(a.cards), a.cards[-1]) for a in plays}
    expected = set()
    nines = cards("9S 9D 9H")
    for size in (1, 2, 3):
        for group in combinations(nines, size):
            for last in group:
                expected.add((frozenset(group), last))
    expected.add((frozenset(cards("4C")), Card.parse("4C")))
    assert outcomes == expected and len(plays) == len(expected)


def all_plays(game: Game) -> set[tuple[Card, ...]]:
    """Every legal card sequence, found exhaustively with next_cards (small hands only)."""
    found: set[tuple[Card, ...]] = set()
    stack: list[tuple[Card, ...]] = [()]
    while stack:
        prefix = stack.pop()
        for card in game.next_cards(list(prefix)):
            seq = (*prefix, card)
            found.add(seq)
            stack.append(seq)
    return found


def final_cards(plays) -> set[tuple[Card, Card]]:
    """(first card, last card) of each play."""
    return {(p[0], p[-1]) for p in plays}


@pytest.mark.parametrize("hand", ["7H JH 7S JS 3C", "7H JH 7S JS 3C 8S 8H", "7S JS JH 7H JD JC"])
def test_S5_every_final_card_of_a_flush_is_listed_when_jacks_of_both_colours_are_held(hand):
    """moves docstring + S5: `7H 7S JS` is legal, so some listed flush led by 7H ends on JS,
    although the shortest path by rank (7H JH JS) would mix jacks."""
    game = position(SWITCH, [hand, "4C"], "9H")
    listed = [tuple(a.cards) for a in game.legal_actions() if isinstance(a, Play)]
    for play in listed:
        game.check(Play(play, 0 if SWITCH.power_of[play[-1]].calls_suit else None))
    assert final_cards(all_plays(game)) == final_cards(listed)


@pytest.mark.parametrize("rules", [SWITCH, CRAZY_EIGHTS], ids=lambda r: r.name)
def test_every_reachable_final_card_is_listed(rules):
    """moves docstring: in random positions with small hands, the list ends on every (first,
    last) pair that some legal play has, and holds every legal play without a suit opener."""
    checked = 0
    for game, _ in sweep(rules, range(60)):
        if len(game.hands[game.to_move]) > 7 or game.drawn_card >= 0:
            continue
        exhaustive = all_plays(game)
        listed = {tuple(a.cards) for a in game.legal_actions() if isinstance(a, Play)}
        assert final_cards(exhaustive) == final_cards(listed)
        plain = {(frozenset(p), p[-1]) for p in exhaustive if not rules.power_of[p[0]].opens_suit}
        assert plain == {(frozenset(p), p[-1]) for p in listed if not rules.power_of[p[0]].opens_suit}
        checked += 1
    assert checked > 200


def test_C2_set_plays_follow_which_cards_may_lead_even_when_cached() -> None:
    """C2: only the first card of a set must match. The same three 9s held in the same order
    give different plays on a spade and on a diamond (the set enumeration is cached per rule
    set, keyed by the cards and which of them may lead)."""
    from arena.engine.cards import Card
    from arena.engine.game import Game
    from arena.engine.rules import load_rules

    rules = load_rules("crazy-eights")
    nines = [Card.parse(n) for n in ("9S", "9D", "9H")]
    for top, leader in (("QS", "9S"), ("QD", "9D"), ("QS", "9S")):
        game = Game.setup(rules, [list(nines), [Card.parse("2C")]], Card.parse(top))
        plays = [str(p) for p in game.legal_actions()]
        assert plays and all(p.startswith(leader) for p in plays), (top, plays)
        assert len(plays) == 1 + 2 + 2  # alone; with one other 9 (2 ways); all three, ending on either
        for text in plays:
            game.check(text)
