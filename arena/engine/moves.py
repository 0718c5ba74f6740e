"""Set and suit-opener plays (RULINGS S3-S6, C2): their shape, and their bounded enumeration.

Here a play's first card must fit the pile (or answer the pending penalty); every later card
must match the previous card's rank (where the rule set allows sets) or belong to a suit that a
suit-opening card (Switch's 7) laid earlier in the same play has opened. Chained rule sets
(``RuleSet.chained``) go to :mod:`arena.engine.chains` instead; :mod:`arena.engine.legality`
chooses between the two and adds the checks every play shares (the hand, the drawn card, the
suit call, finishing bans, announcements). The card-level rules come from
:mod:`arena.engine.steps`.

**What** :func:`legal_plays` **lists.** Plays whose cards all keep their power are listed
exhaustively, one per distinct outcome: the same cards ending on the same card count once
(their order changes nothing but the first card's fit), with the inert middle cards laid in
card-code order. Plays that open a suit can pour in a whole suit, and their count grows as
2^n with the suit's length (a 20-card hand with a 7 and ten of its suit has over 5,000), while
every card after the opener is inert (S6): for each possible final card (the new top, and the
suit call) the list holds the **shortest** play ending on it and the **fullest** one the
greedy builder finds. Every other flush is legal too:
:func:`arena.engine.legality.next_cards` answers "which cards may follow this partial play", so
a bot can build any of them card by card, and the checks accept exactly the legal ones. The
list is deterministic and its length is bounded by ``2 * hand * 4`` per opener plus the sets.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Sequence

from arena.engine.actions import Play
from arena.engine.cards import CARDS, NAMES, RANK_OF, RANKS, SUIT_OF
from arena.engine.rules import DRAWN_CARD_OPTIONAL, RuleSet
from arena.engine.steps import (can_follow, clashing, finish_error, first_card_error, first_card_ok,
                                mixes, opened_after)

if TYPE_CHECKING:
    from arena.engine.game import Game

ALL_SUITS = (0, 1, 2, 3)
SHORTEST_SEARCH_LIMIT = 4000
PLAY_CACHE_SIZE = 200_000  # Play objects are immutable: one per card sequence serves every game


# ---------------------------------------------------------------------------------------------
# Checking one play


def shape_error(game: Game, cards: Sequence[int]) -> str | None:
    """Why ``cards`` (held, each once) do not make a set or opener play now: the first card's
    fit, then each later card's link to the one before it; None when they do."""
    rules = game.rules
    reason = first_card_error(game, cards[0])
    if reason:
        return reason
    opened = opened_after(rules, cards[:1])
    for previous, card in zip(cards, cards[1:]):
        if not can_follow(rules, previous, card, opened):
            if not rules.sets and rules.max_cards != 1:
                return f"{NAMES[card]} cannot follow {NAMES[previous]}"
            if RANK_OF[card] == RANK_OF[previous] >= 0 and rules.sets:  # no set of this rank (I3)
                ranks = ", ".join(RANKS[r] for r in range(13) if rules.set_ranks >> r & 1)
                return f"{NAMES[card]} cannot follow {NAMES[previous]}: sets are of {ranks} only"
            return (f"{NAMES[card]} cannot follow {NAMES[previous]}: a later card must match the "
                    "previous card's rank" + (" or a suit opened earlier in the play"
                                             if any(p.opens_suit for p in rules.power_of) else ""))
        if rules.power_of[card].opens_suit:
            opened |= 1 << SUIT_OF[card]
    return None


# ---------------------------------------------------------------------------------------------
# Enumerating plays


def followers(game: Game, hand: Sequence[int], prefix: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may follow the non-empty partial play ``prefix`` (S4);
    :func:`arena.engine.legality.next_cards` asks, after the checks every rule set shares."""
    rules = game.rules
    opened = opened_after(rules, prefix)
    follow = [c for c in hand if can_follow(rules, prefix[-1], c, opened)]
    return [c for c in follow if not mixes(rules, [*prefix, c])]


def legal_plays(game: Game) -> list[Play]:
    """Every legal set or opener play, in the bounded canonical form of the module docstring
    (without the announcement variants, which :mod:`arena.engine.legality` adds)."""
    rules = game.rules
    hand = game.hands[game.to_move]
    # The openers: the same test as first_card_ok, inlined because this is the hottest loop.
    if game.pending_skip or not rules.simple:
        openers = [c for c in hand if first_card_ok(game, c)]
    elif game.pending_kind is not None:
        answers = rules.answers.get(game.pending_kind, ())
        openers = [c for c in hand if c in answers]
    elif game.active_suit < 0:
        openers = list(hand)
    else:
        fits = rules.playable_on[game.active_suit * 13 + RANK_OF[game.top_card]]
        openers = [c for c in hand if c in fits]
    if not openers:
        return []
    if game.drawn_card >= 0 and rules.after_draw in DRAWN_CARD_OPTIONAL:
        openers = [c for c in openers if c == game.drawn_card]  # F4, W3, B6, I5, L9: it leads
        if rules.after_draw == "may-play-alone":
            # B6, I5: it goes down alone (never the hand's last card: the seat drew it)
            return _lone_card_plays(rules, openers)
    if rules.single_card_fast and game.drawn_card < 0:
        return _lone_card_plays(rules, openers)  # one card a play: each opener is its play
    if rules.max_cards == 1 or not rules.sets:
        sequences = [[c] for c in openers]
    elif rules.lone_card_fast and game.drawn_card < 0 and _all_ranks_differ(hand):
        return _lone_card_plays(rules, openers)  # no pair in hand: every play is one card
    else:
        sequences = _set_plays(rules, hand, openers)
    if rules.any_opener:
        sequences += _opened_plays(game, hand, openers)
    if game.drawn_card >= 0:
        sequences = [s for s in sequences if game.drawn_card in s]
    if rules.post_plays and (rules.no_finish or rules.no_finish_two_seats):
        sequences = [s for s in sequences if not finish_error(game, s)]
    return _with_calls(rules, sequences)


def _all_ranks_differ(hand: list[int]) -> bool:
    """True when no two cards of the hand share a rank (then no set can be laid)."""
    seen = 0
    for card in hand:
        bit = 1 << RANK_OF[card]
        if seen & bit:
            return False
        seen |= bit
    return True


def _lone_card_plays(rules: RuleSet, openers: list[int]) -> list[Play]:
    """The plays of single cards, straight from the cache (the crazy-eights hot path)."""
    cache = rules.play_cache
    plays: list[Play] = []
    for card in openers:
        found = cache.get(card)
        if found is None:
            found = cache[card] = _plays_of(rules, (card,))
        plays.extend(found)
    return plays


def plays_of(rules: RuleSet, seq: Sequence[int]) -> list[Play]:
    """The plays of one card sequence, from the rule set's cache: one play, or one per suit in
    suit order (``found[suit]``) when it ends on a suit caller; without the announcement."""
    key = seq[0] if len(seq) == 1 else tuple(seq)
    cache = rules.play_cache
    found: list[Play] | None = cache.get(key)
    if found is None:
        found = _plays_of(rules, tuple(seq))
        if len(cache) < PLAY_CACHE_SIZE:
            cache[key] = found
    return found


def _with_calls(rules: RuleSet, sequences: list[list[int]]) -> list[Play]:
    """The plays of each card sequence: one, or one per suit when it ends on a suit caller."""
    plays: list[Play] = []
    cache = rules.play_cache
    for seq in sequences:
        key = seq[0] if len(seq) == 1 else tuple(seq)  # a lone card is keyed by its code
        found = cache.get(key)
        if found is None:
            found = _plays_of(rules, tuple(seq))
            if len(cache) < PLAY_CACHE_SIZE:
                cache[key] = found
        plays.extend(found)
    return plays


def _plays_of(rules: RuleSet, seq: tuple[int, ...]) -> list[Play]:
    cards = tuple([CARDS[c] for c in seq])
    if rules.power_of[seq[-1]].calls_suit:
        return [Play(cards, suit) for suit in ALL_SUITS]
    return [Play(cards)]


def _set_plays(rules: RuleSet, hand: list[int], openers: list[int]) -> list[list[int]]:
    """Same-rank plays without a suit opener: one per (set, final card) (S4, C2)."""
    opens = rules.opens if rules.any_opener else None
    sequences = []
    seen = paired = 0  # bit sets of the ranks the hand holds, and holds more than once
    for card in hand:
        bit = 1 << RANK_OF[card]
        paired |= seen & bit
        seen |= bit
    done_ranks = 0  # a bit set: hands are short, so a scan per rank beats building a dict
    opener_set = None
    for opener in openers:
        rank = RANK_OF[opener]
        if not rules.set_ranks >> rank & 1:
            sequences.append([opener])  # I3: this rank never makes a set
            continue
        if not paired >> rank & 1:  # alone of its rank: its own play (a 7's come from _opened_plays)
            if not (opens and opens[opener]):
                sequences.append([opener])
            continue
        if done_ranks >> rank & 1:
            continue
        done_ranks |= 1 << rank
        cards = [c for c in hand if RANK_OF[c] == rank]
        if opens:
            cards = [c for c in cards if not opens[c]]
        if len(cards) == 1 and cards[0] == opener:
            sequences.append(cards)  # the common case: a lone card of its rank
            continue
        opener_set = opener_set or set(openers)
        sequences.extend(_rank_group_plays(rules, tuple(cards), opener_set))
    return sequences


def _rank_group_plays(rules: RuleSet, cards: tuple[int, ...], openers: set[int]) -> list[list[int]]:
    """Every set play from ``cards`` (one rank, in hand order), one per (set, final card).

    The answer depends only on the cards and which of them may lead, so it is computed once
    per rule set and kept: pairs are common, and their combinations were the hot spot.
    """
    leads = sum(1 << i for i, card in enumerate(cards) if card in openers)
    key = (cards, leads)
    found = rules.set_cache.get(key)
    if found is None:
        found = []
        limit = len(cards) if rules.max_cards is None else min(len(cards), rules.max_cards)
        for size in range(1, limit + 1):
            for group in combinations(cards, size):
                if size == 1 or not mixes(rules, group):
                    found.extend(_orders_of_set(group, openers))
        if len(rules.set_cache) < PLAY_CACHE_SIZE:
            rules.set_cache[key] = found
    return found


def _orders_of_set(group: tuple[int, ...], openers: set[int]) -> list[list[int]]:
    if len(group) == 1:
        return [[group[0]]] if group[0] in openers else []
    sequences = []
    for last in group:
        rest = [c for c in group if c != last]
        first = next((c for c in rest if c in openers), None)
        if first is not None:
            sequences.append([first, *[c for c in rest if c != first], last])
    return sequences


def _opened_plays(game: Game, hand: list[int], openers: list[int]) -> list[list[int]]:
    """Plays led by a suit opener: shortest and fullest for each final card (module docstring)."""
    rules = game.rules
    sequences: list[list[int]] = []
    for opener in openers:
        if not rules.power_of[opener].opens_suit:
            continue
        seen: set[tuple[int, ...]] = set()
        reachable = _reachable(rules, hand, opener)
        shortest = _shortest(rules, hand, opener, reachable)
        for last in reachable:
            for seq in (shortest.get(last), _fullest(rules, hand, opener, last)):
                if seq is not None and tuple(seq) not in seen and not mixes(rules, seq):
                    seen.add(tuple(seq))
                    sequences.append(seq)
    return sequences


def _reachable(rules: RuleSet, hand: list[int], opener: int) -> list[int]:
    """The opener itself and every card that some play led by it can end on."""
    opened = 1 << SUIT_OF[opener]
    reached = {opener}
    changed = True
    while changed:
        changed = False
        ranks = {RANK_OF[c] for c in reached}
        for card in hand:
            if card in reached:
                continue
            if (opened >> SUIT_OF[card] & 1) or (rules.sets and RANK_OF[card] in ranks):
                reached.add(card)
                if rules.power_of[card].opens_suit:
                    opened |= 1 << SUIT_OF[card]
                changed = True
    if rules.max_cards is not None and rules.max_cards < 2:
        return [opener]
    return sorted(reached)


def _shortest(rules: RuleSet, hand: list[int], opener: int, targets: list[int]) -> dict[int, list[int]]:
    """Breadth-first: the shortest legal sequence from ``opener`` ending on each of ``targets``
    that the search reaches, in one search for them all. A search for one target would walk the
    same sequences in the same order (the target only says where it stops), so each target's
    sequence is the first one that reaches it, and the search ends once all are found."""
    found = {opener: [opener]}
    wanted = set(targets)
    wanted.discard(opener)
    frontier = [([opener], 1 << SUIT_OF[opener] if rules.opens[opener] else 0)]
    explored = 0
    opens = rules.opens
    clash = bool(rules.never_together)
    while frontier and explored < SHORTEST_SEARCH_LIMIT and wanted:
        next_frontier = []
        for seq, opened in frontier:
            banned = clashing(rules, seq) if clash else ()
            previous = seq[-1]
            for card in hand:
                if card in seq or card in banned or not can_follow(rules, previous, card, opened):
                    continue
                explored += 1
                longer = [*seq, card]
                if card in wanted:
                    found[card] = longer
                    wanted.discard(card)
                    if not wanted:
                        return found
                next_frontier.append((longer, opened | 1 << SUIT_OF[card] if opens[card] else opened))
        frontier = next_frontier
    return found


def _fullest(rules: RuleSet, hand: list[int], opener: int, last: int) -> list[int] | None:
    """Greedy: lay as many cards as can follow before ``last``; None if ``last`` then cannot follow."""
    if last == opener:
        return None
    seq = [opener]
    opened = 1 << SUIT_OF[opener]
    remaining = [c for c in hand if c not in (opener, last)]
    reserve = _reserve_for(rules, remaining, opener, last)
    if reserve is not None:
        remaining.remove(reserve)
    tail = [reserve, last] if reserve is not None else [last]
    clash = bool(rules.never_together)
    while True:
        if clash:
            banned = clashing(rules, [*seq, *tail])  # S5: skip jacks of the other colour
            card = _pick_next(rules, seq[-1], [c for c in remaining if c not in banned], opened)
        else:
            card = _pick_next(rules, seq[-1], remaining, opened)
        if card is None:
            break
        seq.append(card)
        remaining.remove(card)
        if rules.power_of[card].opens_suit:
            opened |= 1 << SUIT_OF[card]
    for card in tail:
        if not can_follow(rules, seq[-1], card, opened):
            return None
        seq.append(card)
    return seq


def _reserve_for(rules: RuleSet, remaining: list[int], opener: int, last: int) -> int | None:
    """A same-rank card kept back to lay just before ``last`` when its suit will not be open."""
    suits = {SUIT_OF[opener]} | {SUIT_OF[c] for c in remaining if rules.power_of[c].opens_suit}
    if SUIT_OF[last] in suits or rules.power_of[last].opens_suit:
        return None
    banned = clashing(rules, [opener, last])
    partners = [c for c in remaining if RANK_OF[c] == RANK_OF[last] and c not in banned]
    return partners[0] if partners else None


def _pick_next(rules: RuleSet, previous: int, remaining: list[int], opened: int) -> int | None:
    """The next card for the fullest play: openers first, then cards whose rank carries others
    (a rank that a card of a suit not yet open holds), then the first card that may follow;
    each the first of its kind in ``remaining``'s order. One pass: the hottest loop of listing."""
    rank = RANK_OF[previous]
    sets = rules.set_ranks >> rank & 1  # can_follow's same-rank test, for the previous card's rank
    opens = rules.opens
    followers = []
    stranded = 0  # bit set of the ranks held in suits not yet open
    for card in remaining:
        if opened >> SUIT_OF[card] & 1:
            followers.append(card)
        else:
            stranded |= 1 << RANK_OF[card]
            if sets and RANK_OF[card] == rank:
                if opens[card]:
                    return card  # an opener of a suit not yet open comes first
                followers.append(card)
    for card in followers:
        if stranded >> RANK_OF[card] & 1:
            return card
    return followers[0] if followers else None
