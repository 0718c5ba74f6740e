"""Chained plays: runs, pickup stacks, queens' covers, the latest 7's flush and jokers
(RULINGS B2, L2, L8): their legality and their bounded, deterministic listing.

Rule sets whose plays chain only by sets and Switch's cumulative 7-flush never come here (they
keep :mod:`arena.engine.moves`' fast paths); ``RuleSet.chained`` sends the others here, from
:mod:`arena.engine.legality`, which also makes the checks every play shares. The step rules
(:func:`~arena.engine.steps.follow` and the rest) live in :mod:`arena.engine.steps`.

**Which later cards may follow.** A later card (its *acting* card: a joker acts as the card it
names, L8) continues the play when, after the previous acting card ``p``:

* ``p`` must be covered (B2's and L7's queen): the card is its cover. With ``play.cover: any``
  (B2) any card covers; with ``match`` (L2) a card of ``p``'s suit or rank, or a wild card
  (an ace, or a joker in any role). Nothing else may follow a card that must be covered.
* a set: the same rank as ``p`` (where ``play.sets`` allows that rank);
* a suit opened by a suit-opening card (the 7): with ``opener_scope: play`` every opener laid so
  far opens its suit (Switch); with ``latest`` only the latest opener's suit is open, and a card
  off that suit (a queen's cover) closes it (B2: "a 7 followed by the holder's cards of its suit");
* a suited run (``play.runs``): the suit of ``p`` and a rank one above or below it, ace low, no
  wrap, one direction for the whole run. A step against the run's direction is no run step (it may
  still be legal as another shape; the run then counts anew from it);
* a pickup stack (``play.pickup_chain``): ``p`` and the card both carry a pickup (L2's 2s and
  black jacks in any mix).

A play may not end on a card that must be covered. Powers apply to every card in laid order
(unless ``inert_after_opener``).

**What** :func:`legal_plays` **lists.** Every legal one-card play (a lone joker in every role it
may take: all 52 cards with no penalty pending, an ace role once per suit call; under a pending
penalty the roles that answer it). Longer plays grow from each legal first card (a joker first
card in the roles a real card could take: those matching the pile or answering the penalty,
aces included) by two searches over the hand from each first card (a joker's roles in card
order), each visiting at most ``SEARCH_NODES`` partial plays, cards in code order: a
breadth-first one that keeps, for each last card laid, the **shortest** play ending on it (the
first found), and a depth-first one that keeps, for each last card, the **longest** it meets.
Inside a longer play a joker takes only the roles a real card could take there (it covers a
queen only as a card of the queen's suit or rank, and never repeats a card already in the play).
So the list holds at most two plays per (first card, last card) pair of the hand, plus the lone
jokers (times four suit calls and the announcement): at most ``2 * hand**2 + 128`` card
sequences, deterministic, at a cost of at most ``2 * SEARCH_NODES`` steps per first card. Every other legal play (longer flushes in another
order, a joker covering in an unlisted role, ...) is accepted by the checks, and a bot
can build it card by card with :func:`arena.engine.legality.next_cards` and :func:`joker_roles`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Sequence

from arena.engine.actions import Play
from arena.engine.cards import CARDS, NAMES
from arena.engine.rules import DRAWN_CARD_OPTIONAL
from arena.engine.steps import (STANDARD, finish_error, first_card_error, first_card_ok, follow, mixes,
                                opened_with, role_candidates, role_first_ok)

if TYPE_CHECKING:
    from arena.engine.game import Game
    from arena.engine.rules import RuleSet

SEARCH_NODES = 300  # partial plays each search may visit from one first card
ALL_SUITS = (0, 1, 2, 3)
Kept = dict[int, tuple[list[int], list[int]]]  # last card -> (cards laid, the card each acts as)


# ---------------------------------------------------------------------------------------------
# Checking one play


def shape_error(game: Game, play: Play) -> str | None:
    """Why the cards of ``play`` (held, each once) do not chain now: a joker's missing role, the
    first card's fit, each later card's link to the one before it, an uncovered last card."""
    rules = game.rules
    cards = play.cards
    if any(c >= 52 for c in cards) and not play.roles:
        return "a joker must name the card it stands for (X1:JS)"
    acting = play.roles or cards
    reason = _first_error(game, cards[0], acting[0])
    if reason:
        return reason
    opened, run = opened_with(rules, 0, acting[0]), 0
    for i in range(1, len(cards)):
        prev, role = acting[i - 1], acting[i]
        step = follow(rules, prev, opened, run, role, cards[i] >= 52)
        if step is None:
            return f"{_name(cards[i], role)} cannot follow {_name(cards[i - 1], prev)}: " + _shapes(rules, prev)
        run, opened = step, opened_with(rules, opened, role)
    if rules.power_of[acting[-1]].must_cover:
        return f"a play may not end on {_name(cards[-1], acting[-1])}: it must be covered in the same play"
    return None


def _first_error(game: Game, card: int, role: int) -> str | None:
    if card < 52:
        return first_card_error(game, card)
    if role_first_ok(game, role):
        return None
    reason = first_card_error(game, role)
    return reason and reason.replace(NAMES[role], f"{NAMES[card]}:{NAMES[role]}", 1)


def _shapes(rules: RuleSet, prev: int) -> str:
    if rules.power_of[prev].must_cover:
        return ("it must be covered by a card of its suit or rank, or a wild card" if rules.cover == "match"
                else "it must be covered")  # pragma: no cover - 'any' covers with every card
    shapes = []
    if rules.sets:
        shapes.append("a set (same rank)")
    if rules.any_opener:
        shapes.append("a suit opened by " + ("the latest opener" if rules.opener_scope == "latest"
                                             else "an opener laid earlier"))
    if rules.runs:
        shapes.append("a suited run (one rank up or down, one direction)")
    if rules.pickup_chain:
        shapes.append("a pickup stack")
    return "a later card continues " + (" or ".join(shapes) if shapes else "nothing (one card a play)")


def _name(card: int, role: int) -> str:
    return NAMES[card] if card < 52 else f"{NAMES[card]}:{NAMES[role]}"


# ---------------------------------------------------------------------------------------------
# Building plays card by card


def _walk(rules: RuleSet, acting: Sequence[int], jokers: Sequence[bool]) -> tuple[int, int]:
    """(open suits, run direction) after a legal prefix."""
    opened, run = opened_with(rules, 0, acting[0]), 0
    for i in range(1, len(acting)):
        run = follow(rules, acting[i - 1], opened, run, acting[i], jokers[i]) or 0
        opened = opened_with(rules, opened, acting[i])
    return opened, run


def followers(game: Game, hand: Sequence[int], prefix: Sequence[int],
              roles: Sequence[int] | None = None) -> list[int]:
    """The cards of ``hand`` that may follow the non-empty ``prefix`` (``roles``: what its jokers
    stand for); :func:`arena.engine.legality.next_cards` asks, after the checks every rule set
    shares."""
    rules = game.rules
    acting = list(roles) if roles else list(prefix)
    opened, run = _walk(rules, acting, [c >= 52 for c in prefix])
    out = []
    for card in hand:
        if card >= 52:
            if any(follow(rules, acting[-1], opened, run, r, True) is not None for r in STANDARD):
                out.append(card)
        elif follow(rules, acting[-1], opened, run, card, False) is not None:
            out.append(card)
    return [c for c in out if c >= 52 or not mixes(rules, [*acting, c])]


def joker_roles(game: Game, prefix: Sequence[int], roles: Sequence[int] | None = None) -> list[int]:
    """The cards a joker may stand for when laid after ``prefix`` (first, when it is empty)."""
    rules = game.rules
    if not prefix:
        return [r for r in STANDARD if role_first_ok(game, r)]
    acting = list(roles) if roles else list(prefix)
    opened, run = _walk(rules, acting, [c >= 52 for c in prefix])
    return [r for r in STANDARD if follow(rules, acting[-1], opened, run, r, True) is not None
            and not mixes(rules, [*acting, r])]


# ---------------------------------------------------------------------------------------------
# The bounded listing


class _Search:
    """The two searches from one first card (module docstring); plays kept per last card."""

    def __init__(self, game: Game, hand: list[int]) -> None:
        self.rules = game.rules
        self.hand = hand
        self.limit = game.rules.max_cards or len(hand)
        self.clash = bool(game.rules.never_together)

    def children(self, cards: list[int], acting: list[int], opened: int,
                 run: int) -> Iterator[tuple[int, int, int]]:
        """(card, role, run) for each card that may follow, in code order; jokers in listed roles."""
        rules, prev = self.rules, acting[-1]
        if len(cards) >= self.limit:
            return
        for card in self.hand:
            if card in cards:
                continue
            if card < 52:
                step = follow(rules, prev, opened, run, card, False)
                if step is not None and not (self.clash and mixes(rules, [*acting, card])):
                    yield card, card, step
                continue
            for role in role_candidates(rules, prev, opened):  # as a real card, never one already laid
                if role in acting:
                    continue
                step = follow(rules, prev, opened, run, role, False)
                if step is not None and not (self.clash and mixes(rules, [*acting, role])):
                    yield card, role, step

    def shortest(self, starts: list[tuple[list[int], list[int], int, int]], keep: Kept) -> None:
        """Breadth-first: the first (shortest, then lowest in code order) play per last card."""
        level, visited = starts, 0
        while level and visited < SEARCH_NODES:
            following = []
            for cards, acting, opened, run in level:
                for card, role, step in self.children(cards, acting, opened, run):
                    node = ([*cards, card], [*acting, role], opened_with(self.rules, opened, role), step)
                    keep.setdefault(card, (node[0], node[1]))
                    following.append(node)
                    visited += 1
                    if visited >= SEARCH_NODES:
                        return
            level = following

    def longest(self, starts: list[tuple[list[int], list[int], int, int]], keep: Kept) -> None:
        """Depth-first: the longest play met per last card."""
        stack, visited = list(reversed(starts)), 0
        while stack and visited < SEARCH_NODES:
            cards, acting, opened, run = stack.pop()
            if len(cards) > 1 and len(cards) > len(keep.get(cards[-1], ((),))[0]):
                keep[cards[-1]] = (cards, acting)
            visited += 1
            kids = list(self.children(cards, acting, opened, run))
            for card, role, step in reversed(kids):  # popped in code order
                stack.append(([*cards, card], [*acting, role], opened_with(self.rules, opened, role), step))


def legal_plays(game: Game) -> list[Play]:
    """The bounded canonical list of a chained rule set's legal plays (module docstring)."""
    rules = game.rules
    hand = sorted(game.hands[game.to_move])
    drawn = game.drawn_card
    firsts = [c for c in hand if first_card_ok(game, c)]
    if drawn >= 0 and rules.after_draw in DRAWN_CARD_OPTIONAL:
        firsts = [c for c in firsts if c == drawn]  # F4, W3, B6, I5, L9: the drawn card leads
    alone = drawn >= 0 and rules.after_draw == "may-play-alone"  # B6, I5: nothing follows it
    search = _Search(game, hand)
    sequences: list[tuple[list[int], list[int]]] = []
    for card in firsts:
        if card >= 52:
            sequences += [([card], [r]) for r in STANDARD if role_first_ok(game, r)]  # lone joker
            roles = [r for r in STANDARD if first_card_ok(game, r)]
        else:
            sequences.append(([card], [card]))
            roles = [card]
        if alone:
            continue
        starts = [([card], [role], opened_with(rules, 0, role), 0) for role in roles]
        shortest: Kept = {}
        longest: Kept = {}
        search.shortest(starts, shortest)
        search.longest(starts, longest)
        for last, seq in shortest.items():
            sequences.append(seq)
            other = longest.pop(last, None)
            if other is not None and len(other[0]) > len(seq[0]):
                sequences.append(other)
        sequences += list(longest.values())
    return _plays(game, sequences, drawn)


def _plays(game: Game, sequences: list[tuple[list[int], list[int]]], drawn: int) -> list[Play]:
    """Complete plays only (no uncovered queen, finishing bans), with their suit calls."""
    rules = game.rules
    power_of = rules.power_of
    banned = rules.no_finish_two_seats if game.seats == 2 else rules.no_finish  # one test when none
    plays = []
    for cards, acting in sequences:
        last = acting[-1]
        if power_of[last].must_cover or (drawn >= 0 and drawn not in cards):
            continue
        if banned and finish_error(game, acting):
            continue
        laid = tuple([CARDS[c] for c in cards])
        roles = tuple([CARDS[r] for r in acting]) if any(c >= 52 for c in cards) else ()
        if power_of[last].calls_suit:
            plays += [Play(laid, suit, roles) for suit in ALL_SUITS]
        else:
            plays.append(Play(laid, None, roles))
    return plays
