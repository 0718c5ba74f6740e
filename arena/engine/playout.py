"""A fast random playout: play a game to its end at random and say what each seat got.

A search (``bots/mcts.py``) estimates a move by playing many games forward from it at random,
so a playout must be cheap. Listing every legal action each turn is not: in sets-and-openers
rule sets the list holds every set and the shortest and fullest 7-flush per ending card, and
building it costs most of a random game. The playout's policy therefore *builds* a play instead
of listing them all: a random legal first card, then, while the rules let another card follow,
one more at random with chance :data:`EXTEND` (so sets and flushes are laid, longer ones less
often), a random suit where the play ends on a suit-calling card, and the last-card
announcement where it is due. Chained rule sets (runs, covers, pickup stacks, jokers:
:mod:`arena.engine.chains`) are built the same way with the chains' own tests, a joker taking a
random role it may take, and a card that must be covered (a queen) laid only with a cover in
the hand. The referee's own check accepts the play before it is applied; every other turn (a
pending penalty or skip, a drawn card, an open turn, drawing by choice, a built play the check
refuses) picks uniformly among :meth:`Game.legal_actions <arena.engine.game.Game.legal_actions>`.
Every action applied is legal.

:func:`informed_playout` plays the same way, but for each play it builds ``tries`` of them and
lays the one that sheds the most cards, each wild card (an ace in Switch, a joker) counting
``wild_cost`` cards less. Players keep their wild cards for when nothing else fits and lay as
much as they can, and a random player does neither; a search whose playouts play more like its
opponents judges its moves better (measured in ``docs/writing-bots.md``'s search section). With
``tries=1`` it is :func:`random_playout`, draw for draw.

:func:`results` turns an outcome into one number per seat: 1 for the winner, 0 for the others;
a drawn game shares the 1 among the seats with the best score (a blocked tie), so the numbers
always add up to 1.
"""

from __future__ import annotations

import random
from typing import Callable

from arena.engine import chains, legality
from arena.engine.actions import Play
from arena.engine.cards import RANK_OF, SUIT_OF, Card
from arena.engine.game import Game
from arena.engine.moves import plays_of
from arena.engine.rules import RuleSet
from arena.engine.steps import clashing, first_card_ok
from arena.errors import GameOverError

EXTEND = 0.75  # the chance of laying one more card while one may follow


def results(game: Game) -> tuple[float, ...]:
    """Each seat's share of a finished game: 1 to the winner, or split among the seats that
    share the first place of a drawn game; 0 to the others."""
    outcome = game.outcome
    if outcome is None:
        raise GameOverError("the game is not over: it has no results yet")
    shares = [0.0] * game.seats
    first = (outcome.winner,) if outcome.winner is not None else outcome.places[0]
    for seat in first:
        shares[seat] = 1.0 / len(first)
    return tuple(shares)


def random_playout(game: Game, rng: random.Random) -> tuple[float, ...]:
    """Play ``game`` (in place: pass a :meth:`~arena.engine.game.Game.copy`) to its end with the
    module's random policy, drawing from ``rng``; return :func:`results`."""
    return informed_playout(game, rng, 1)


def informed_playout(game: Game, rng: random.Random, tries: int = 3,
                     wild_cost: float = 1.5) -> tuple[float, ...]:
    """Play ``game`` (in place) to its end, each play the one of ``tries`` built plays that
    sheds the most cards, a wild card counting ``wild_cost`` less (the first of equals); a turn
    without a built play picks uniformly among the legal actions. Return :func:`results`."""
    pick = rng.random
    build = _builder(game.rules, pick)
    wild = game.rules.wild
    legal = game.legal_actions
    apply = game.apply_legal
    while game.outcome is None:
        play = build(game)
        if play is None:
            actions = legal()
            apply(actions[int(pick() * len(actions))])
            continue
        if tries > 1:
            best = _shed(play, wild, wild_cost)
            for _ in range(tries - 1):
                other = build(game)
                if other is None:
                    break
                value = _shed(other, wild, wild_cost)
                if value > best:
                    play, best = other, value
        apply(play)
    return results(game)


def _shed(play: Play, wild: tuple[bool, ...], wild_cost: float) -> float:
    """What laying ``play`` is worth to :func:`informed_playout`: its cards, wild ones less."""
    value = float(len(play.cards))
    for card in play.cards:
        if wild[card]:
            value -= wild_cost
    return value


def built_play(game: Game, rng: random.Random) -> Play | None:
    """A legal play built card by card at random (the module docstring), or None where the
    turn is left to a uniform pick among the legal actions."""
    return _builder(game.rules, rng.random)(game)


def _builder(rules: RuleSet, pick: Callable[[], float]) -> Callable[[Game], Play | None]:
    """:func:`built_play` for one rule set and generator, the rule set's tables and flags read
    once (a playout builds a play at every decision)."""
    if rules.chained:
        return _chained_builder(rules, pick)
    simple = rules.simple
    playable_on = rules.playable_on
    max_cards = rules.max_cards
    extends = bool(rules.sets or rules.any_opener)
    opens = rules.opens
    set_ranks = rules.set_ranks
    groups = rules.never_together
    power_of = rules.power_of
    announces = rules.last_card != "off"
    post_plays = rules.post_plays

    def build(game: Game) -> Play | None:
        if game.pending_kind is not None or game.pending_skip or game.drawn_card >= 0:
            return None
        hand = game.hands[game.to_move]
        if not simple:
            firsts = [card for card in hand if first_card_ok(game, card)]
        elif game.active_suit < 0:
            firsts = hand
        else:  # the table lookup moves.legal_plays makes too: wild, same suit or same rank
            fits = playable_on[game.active_suit * 13 + RANK_OF[game.top_card]]
            firsts = [card for card in hand if card in fits]
        if not firsts:
            return None  # a draw or a pass: the list is short and cheap to build
        cards = [firsts[int(pick() * len(firsts))]]
        limit = max_cards or len(hand)
        if limit > 1 and extends:
            # legality.next_cards's tests for a set or opener play, kept up to date card by
            # card: the opened suits, and the cards that may not join what is laid (S5: they
            # change only when a card of a group is laid); steps.can_follow written inline
            opened = 0
            barred: frozenset[int] = frozenset()
            regroup = bool(groups)
            while len(cards) < limit and pick() < EXTEND:
                last = cards[-1]
                if opens[last]:
                    opened |= 1 << SUIT_OF[last]
                if regroup:
                    barred = clashing(rules, cards)
                rank = RANK_OF[last]
                sets = set_ranks >> rank & 1
                follow = [c for c in hand if (opened >> SUIT_OF[c] & 1 or sets and RANK_OF[c] == rank)
                          and c not in cards and c not in barred]
                if not follow:
                    break
                card = follow[int(pick() * len(follow))]
                cards.append(card)
                regroup = False
                for group in groups:
                    if card in group:
                        regroup = True
                        break
        last = cards[-1]
        call = None
        if power_of[last].calls_suit:
            call = _random_call(hand, cards, pick)
        found = plays_of(rules, cards)  # the interned plays: building one is a dataclass's __init__
        play = found[0] if call is None else found[call]
        if announces and len(hand) - len(cards) == 1:
            play = Play(play.cards, call, (), True)  # the last-card announcement, where it is due
        # The cards were chosen by the rules' own first-card and follow tests, the call and the
        # announcement set as due: only a rule set's finishing bans and last-card variants
        # (post_plays) remain to check, and a play they refuse goes to the uniform pick.
        if post_plays and legality.play_error(game, play) is not None:
            return None
        return play

    return build


def _random_call(hand: list[int], cards: list[int], pick: Callable[[], float]) -> int:
    """The suit a playout calls: the suit of a card picked at random among those the hand keeps
    (jokers have none), so the call tends to the suits it holds most; any suit if none is kept."""
    rest = [SUIT_OF[c] for c in hand if c not in cards and c < 52]
    return rest[int(pick() * len(rest))] if rest else int(pick() * 4)


def _chained_builder(rules: RuleSet, pick: Callable[[], float]) -> Callable[[Game], Play | None]:
    """:func:`built_play` for a chained rule set (runs, covers, pickup stacks, jokers: the module
    :mod:`arena.engine.chains`), built with the chains' own first-card, follow and joker-role
    tests: a card that must be covered is laid only with a cover in the hand, and always
    followed, and the whole play goes through the referee's check (a play it refuses goes to the
    uniform pick)."""
    max_cards = rules.max_cards
    power_of = rules.power_of
    announces = rules.last_card != "off"

    def choose(options: list[int]) -> int:
        return options[int(pick() * len(options))]

    def build(game: Game) -> Play | None:
        if game.pending_kind is not None or game.pending_skip or game.drawn_card >= 0:
            return None
        hand = game.hands[game.to_move]
        limit = max_cards or len(hand)
        cards: list[int] = []
        roles: list[int] = []
        options = legality.next_cards(game, ())
        while options:
            card = choose(options)
            role = card
            if card >= 52:
                named = chains.joker_roles(game, cards, roles)
                if not named:
                    options.remove(card)
                    continue
                role = choose(named)
            cards.append(card)
            roles.append(role)
            if power_of[role].must_cover:
                more = legality.next_cards(game, cards, roles) if len(cards) < limit else []
                if not more:  # nothing in the hand covers it: another card instead
                    cards.pop()
                    roles.pop()
                    options.remove(card)
                    continue
            elif len(cards) >= limit or pick() >= EXTEND:
                break
            else:
                more = legality.next_cards(game, cards, roles)
            options = more
        if not cards:
            return None
        call = None
        if power_of[roles[-1]].calls_suit:
            call = _random_call(hand, cards, pick)
        jokers = any(card >= 52 for card in cards)
        play = Play(tuple(Card(c) for c in cards), call,
                    tuple(Card(r) for r in roles) if jokers else (),
                    announces and len(hand) - len(cards) == 1)
        return play if legality.play_error(game, play) is None else None

    return build
