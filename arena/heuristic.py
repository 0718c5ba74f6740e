"""The heuristic player: a competent player of every preset, by scoring each candidate play.

It is the built-in `heuristic` bot (``bots/heuristic.py`` is this class under the bot's name),
and the judgement the `mcts` bot keeps unless its search finds a clearly better move.

How it decides, in one paragraph: it lists candidate plays (the legal actions, plus 7-flushes
it builds itself that keep the valuable cards at home), imagines each one's consequences with
the rule set's own power tables, gives every consequence a value, and plays the best. Nothing
depends on a preset's *name*: the powers come from ``obs.rule_set()`` (the ``power_of`` tables
of the game's settings), so a new preset needs no new code. Nor does it know the chaining
rules: it builds its flushes card by card from ``obs.next_cards`` and offers one only when
``obs.is_legal`` says so, which are the referee's own answers.

What it values (seed 000 calls the central trade-off of Switch "volume or firepower"):

* **Volume**: fewer cards in hand is better, and each card matters more near the end
  (:func:`hand_cost` is concave), so a big flush wins when it nearly empties the hand.
* **Firepower**: a penalty, skip or swap is worth more the closer its target is to winning
  (:meth:`Bot._danger`), and a penalty less when unseen cards could answer it (memory).
* **Keepers**: wild cards, pickups and cancels (aces, 2s, jacks) are worth holding; playing one
  costs its keep value, so it is not wasted when a plain card plays, nor poured blank into a
  flush unless the volume pays for it.
* **Aim**: penalties hit the seat that moves next and swaps take the next seat's hand, both in
  the direction left after the play's reverses; a swap with a short hand is a coup.
* **Suit**: a called (or left) suit is the one it holds most of, with a bonus for a suit the
  next player has shown to be void in (it drew when that suit was asked for).
* **No ace finish**: where an ace finish draws a card (S10) it never plans to end on one.

A decision takes a fraction of a millisecond for ordinary hands, a few at most with a long hand
and a 7 to pour (tests/bots bounds the work: the candidates scored and the questions asked).
"""

from __future__ import annotations

from math import sqrt
from typing import Any, Iterable, Sequence

from arena.engine.actions import ActionType, Play
from arena.engine.cards import CARDS, RANK_OF, SUIT_OF, Card
from arena.engine.observation import HistoryEvent, Observation
from arena.engine.powers import Power
from arena.engine.rules import RuleSet


WIN = 1_000_000.0  # the value of emptying the hand
SUIT_LETTERS = "CDHS"


def hand_cost(cards: int) -> float:
    """How bad it is to hold ``cards`` cards: concave, so the last cards weigh the most."""
    return 0.6 * cards + 1.6 * sqrt(cards)


class HeuristicPlayer:
    """Scores every candidate play by volume, firepower, kept cards, aim and suit."""

    rules: RuleSet          # obs.rule_set(): power_of, skips, ... (set by the first act)
    keep: list[float]       # each card's keep value under those rules
    skippers: list[int]     # the cards that skip under those rules

    def __init__(self) -> None:
        self._forget()

    def _forget(self) -> None:
        """Start a game with an empty memory."""
        self.rules_of: RuleSet | None = None  # the rule set keep and skippers were derived for
        self.laid: list[int] = []   # every card laid this game, in order
        self.played: set[int] = set()  # the cards in the pile now: seen and gone (the memory)
        self.void: dict[int, set[str]] = {}  # seat -> suits it could not follow (it drew on them)
        self.events_read = 0    # history events already folded into the memory
        self.suit: str | None = None  # the active suit as tracked through the history
        self.pending = False    # whether a penalty is pending, as tracked through the history

    # -- the hooks -----------------------------------------------------------------------

    def on_game_start(self, info: dict[str, Any]) -> None:
        """Forget the last game."""
        self._forget()

    def act(self, obs: Observation) -> ActionType:
        """The best-scoring candidate; a draw or pass only when nothing can be played."""
        scored = self.scored(obs)
        if not scored:
            return obs.legal_actions()[0]
        # Announce "last card" whenever the rules offer it (a missing call costs cards, W5/L10).
        return max(scored, key=lambda item: (item[1], item[0].announce, str(item[0])))[0]

    def scored(self, obs: Observation) -> list[tuple[Play, float]]:
        """Every candidate play (the legal plays and the flushes built here) with its score,
        higher better (:data:`WIN` for a play that wins); empty when nothing can be played.
        It folds the observation's new history into the memory, as :meth:`act` does."""
        self._load_rules(obs.rule_set())
        self._remember(obs)
        plays = [a for a in obs.legal_actions() if isinstance(a, Play)]
        if not plays:
            return []
        return [(play, self._score(obs, play)) for play in self._candidates(obs, plays)]

    # -- rules and memory ----------------------------------------------------------------

    def _load_rules(self, rules: RuleSet) -> None:
        """Derive the keep values when the rule set changes (once per game in practice)."""
        if rules is self.rules_of:
            return
        self.rules = self.rules_of = rules
        self.keep = [self._keep_value(power) for power in self.rules.power_of]
        for joker in range(52, len(self.keep)):
            self.keep[joker] = 2.0  # a joker (L8) can become any card: the best card to hold
        self.skippers = [c for c, power in enumerate(self.rules.power_of) if power.skip]

    @staticmethod
    def _keep_value(power: Power) -> float:
        """What holding one card is worth as an option for later turns."""
        if power.wild:
            return 1.6
        # A card that names the suit without being wild (irish aces, I2) still changes the game.
        value = 0.6 if power.calls_suit else 0.0
        if power.pickup:
            value += 0.5 + 0.1 * power.pickup
        if power.cancels:
            value += 0.6
        if power.skip:
            value += 0.3
        if power.swap:
            value += 0.2
        if power.opens_suit:
            value += 0.3
        if power.reverse:
            value += 0.1
        return value

    def _remember(self, obs: Observation) -> None:
        """Fold the new history events into the memory: cards gone, suits seats are void in."""
        for event in obs.history[self.events_read:]:
            self._fold(event)
        self.events_read = len(obs.history)
        # The pile holds the last cards laid (a recycle takes all but the top back to the stock,
        # where they may return), so what is gone for good is the last discard_size of them. A
        # count of recycles left cannot tell: where recycling is unlimited it never changes.
        self.played = set(self.laid[-obs.discard_size:]) if obs.discard_size else set()
        self.suit, self.pending = obs.active_suit, obs.pending is not None

    def _fold(self, event: HistoryEvent) -> None:
        """One public event: a play shows cards and the suit; a plain draw shows a void."""
        text = event.action
        if text == "pass":
            return
        if text == "draw":
            if not self.pending and self.suit is not None:
                self.void.setdefault(event.seat, set()).add(self.suit)
            self.pending = False
            return
        tokens = [t for t in text.split() if t != "!"]
        cards, call = [], None
        for token in tokens:
            name, _, called = token.partition("=")
            card = _card(name.partition(":")[0])
            if card is not None:
                cards.append(card)
            call = called or call
        self.laid.extend(cards)
        if not cards:
            return
        live = self._live(cards)
        power_of = self.rules.power_of
        if any(power_of[c].swap for c in live):
            self.void.clear()  # hands changed owners: what we knew no longer holds
        self.void.get(event.seat, set()).discard(SUIT_LETTERS[SUIT_OF[cards[-1]]])
        self.pending = any(power_of[c].pickup for c in live)
        self.suit = call or SUIT_LETTERS[SUIT_OF[cards[-1]]]

    # -- candidates ----------------------------------------------------------------------

    def _candidates(self, obs: Observation, plays: list[Play]) -> list[Play]:
        """The legal plays plus flushes that leave the keepers at home."""
        found: dict[tuple[int, ...], Play] = {tuple(p.cards): p for p in plays if p.call is None}
        candidates = list(plays)
        openers = {p.cards[0] for p in plays if self.rules.power_of[p.cards[0]].opens_suit}
        for opener in sorted(openers):
            for seq in self._keeper_flushes(obs, opener):
                if tuple(seq) in found:
                    continue
                extra = self._with_calls(seq)
                if not obs.is_legal(extra[0]):
                    continue
                found[tuple(seq)] = extra[0]
                candidates.extend(extra)
        return candidates

    def _with_calls(self, seq: Sequence[int]) -> list[Play]:
        """The play of a card sequence, one per suit when it ends on a suit caller."""
        cards = tuple(CARDS[c] for c in seq)
        if self.rules.power_of[seq[-1]].calls_suit:
            return [Play(cards, suit) for suit in range(4)]
        return [Play(cards)]

    def _keeper_flushes(self, obs: Observation, opener: int) -> list[list[int]]:
        """For each final card: the opener, every non-keeper that can follow, then that card."""
        hand = [c for c in obs.hand if c != opener]
        plain = [c for c in hand if self.keep[c] < 0.5]
        flushes: list[list[int] | None] = []
        for last in hand:
            rest = [c for c in plain if c != last]
            seq = self._pour(obs, opener, rest, last)
            if seq is not None:
                flushes.append(seq)
        flushes.append(self._pour(obs, opener, plain, None))
        return [s for s in flushes if s]

    def _pour(self, obs: Observation, opener: int, pool: Iterable[int], last: int | None) -> list[int] | None:
        """Greedily lay ``pool`` after ``opener``; end on ``last`` (None: wherever it stops).

        Which card may follow the cards laid so far is the observation's answer
        (``obs.next_cards``); what the bot chooses among them is its own.
        """
        power_of = self.rules.power_of
        seq, opened = [opener], 1 << SUIT_OF[opener]
        pool = list(pool)
        reserve = None
        if last is not None and not power_of[last].opens_suit:
            # A card of last's rank kept back to carry ``last`` if its suit is never opened.
            reserve = next((c for c in pool if RANK_OF[c] == RANK_OF[last]), None)
            if reserve is not None:
                pool.remove(reserve)
        while pool:
            allowed = set(obs.next_cards(seq))
            follow = [c for c in pool if c in allowed]
            if not follow:
                break
            # Openers first (they open more), then cards whose rank carries a stranded card.
            stranded = {RANK_OF[c] for c in pool if not opened >> SUIT_OF[c] & 1}
            card = min(follow, key=lambda c: (not power_of[c].opens_suit, RANK_OF[c] not in stranded, c))
            seq.append(card)
            pool.remove(card)
            if power_of[card].opens_suit:
                opened |= 1 << SUIT_OF[card]
        for card in ([reserve] if reserve is not None else []) + ([last] if last is not None else []):
            if card not in obs.next_cards(seq):
                return None
            seq.append(card)
        return seq

    # -- scoring -------------------------------------------------------------------------

    def _live(self, cards: Sequence[int]) -> Sequence[int]:
        """The cards whose powers apply: all, or those before the first suit opener (S6)."""
        if not self.rules.inert_after_opener:
            return cards
        for i, card in enumerate(cards):
            if self.rules.power_of[card].opens_suit:
                return cards[:i]
        return cards

    def _danger(self, obs: Observation, seat: int) -> float:
        """How close ``seat`` is to winning: 2.0 with one card, 0.5 with seven."""
        return 4.0 / (obs.hand_sizes[seat] + 1)

    def _score(self, obs: Observation, play: Play) -> float:
        """The value of laying ``play``: volume, firepower, keepers spent, suit left behind."""
        rules, power_of = self.rules, self.rules.power_of
        cards = play.cards
        left = [c for c in obs.hand if c not in cards]
        live = self._live(cards)
        # Penalties in laid order (RULINGS S7/S8): pickups add, cancels take off.
        kind = obs.pending.kind if obs.pending else None
        amount = obs.pending.amount if obs.pending else 0
        cancelled = False
        for card in live:
            power = power_of[card]
            if power.pickup:
                amount = amount if kind == power.stack else 0
                kind, amount = power.stack, amount + power.pickup
            elif power.cancels and kind == power.cancels:
                cancelled = True
                amount = max(0, amount - (power.cancel_amount or amount))
        drawn = 0
        if cancelled:
            drawn, kind, amount = amount, None, 0  # the canceller draws what is left
        can_draw = obs.stock_size > 0 or (obs.recycles_left != 0 and obs.discard_size > 1)
        if not left and rules.ace_draws and power_of[cards[-1]].calls_suit and can_draw:
            drawn += 1  # S10: an ace finish draws instead of winning
        if not left and not drawn:
            return WIN
        size = len(left) + drawn
        value = -hand_cost(size) - sum(self.keep[c] for c in cards)
        value += self._effects(obs, live, kind, amount, size)
        value += self._suit_value(obs, play, left)
        if rules.ace_draws and left and all(power_of[c].calls_suit for c in left):
            value -= 1.5  # only aces left: the finish will cost a draw
        return value

    def _effects(self, obs: Observation, live: Sequence[int], kind: str | None, amount: int, size: int) -> float:
        """Firepower: the penalty, skips, reverses and swaps of the live cards, aimed."""
        power_of, seats, seat = self.rules.power_of, obs.seats, obs.seat
        direction, skips, value = obs.direction, 0, 0.0
        old_next = (seat + direction) % seats
        for card in live:
            power = power_of[card]
            skips += power.skip
            if power.reverse:
                direction = -direction
            if power.swap:
                partner = (seat + direction) % seats
                theirs = obs.hand_sizes[partner]
                value += 1.3 * (hand_cost(size) - hand_cost(theirs))
        if self.rules.skips == "once":
            skips = min(skips, 1)
        if seats == 2 and self.rules.two_seat_reverse == "again" and any(power_of[c].reverse for c in live):
            skips = max(skips, 1)  # a two-seat reverse is a go-again (F5, L5, I2): a skip's worth
        new_next = (seat + direction) % seats
        if new_next != old_next:
            value += 0.5 * (self._danger(obs, old_next) - self._danger(obs, new_next))
        # A skip left pending (B3, I2) can be passed on by a seat holding a skip card of its own.
        blunted = 1 - 0.6 * self._holds_odds(obs, self.skippers, old_next) if self.rules.skips == "pending" else 1
        for k in range(skips):
            skipped = (seat + direction * (1 + k)) % seats
            if skipped != seat:
                value += (0.6 + 0.8 * self._danger(obs, skipped)) * blunted
        victim = (seat + direction * (1 + skips)) % seats
        if kind is not None and amount and victim != seat:
            value += amount * (0.35 + 0.5 * self._danger(obs, victim)) * (1 - 0.6 * self._answer_odds(obs, kind, victim))
        return value

    def _answer_odds(self, obs: Observation, kind: str, victim: int) -> float:
        """Rough odds that ``victim`` holds a card answering a ``kind`` penalty (memory)."""
        return self._holds_odds(obs, self.rules.answers.get(kind, ()), victim)

    def _holds_odds(self, obs: Observation, cards: Iterable[int], victim: int) -> float:
        """Rough odds that ``victim`` holds one of ``cards``, from the cards not seen yet."""
        mine = set(obs.hand)
        unseen_answers = sum(1 for c in cards if c not in mine and c not in self.played)
        unseen = max(1, 52 - len(mine) - len(self.played))
        miss = 1.0 - min(1.0, unseen_answers / unseen)
        return 1.0 - miss ** obs.hand_sizes[victim]

    def _suit_value(self, obs: Observation, play: Play, left: Sequence[int]) -> float:
        """The suit left active: ours to follow next turn, and one the next seat lacks."""
        cards = play.cards
        suit = play.call if play.call is not None else SUIT_OF[cards[-1]]
        value = 0.25 * sum(1 for c in left if SUIT_OF[c] == suit)
        value += 0.1 * sum(1 for c in left if RANK_OF[c] == RANK_OF[cards[-1]])
        nxt = (obs.seat + obs.direction) % obs.seats
        if SUIT_LETTERS[suit] in self.void.get(nxt, ()):
            value += 0.3 * self._danger(obs, nxt)
        return value


def _card(name: str) -> Card | None:
    """A card from its notation, or None (a malformed token)."""
    try:
        return Card.parse(name)
    except ValueError:
        return None
