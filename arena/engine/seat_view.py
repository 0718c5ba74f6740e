"""A seat's own view of its game, as a :class:`~arena.engine.game.Game` the legality code can read.

An :class:`~arena.engine.observation.Observation` answers "is this action legal, and if not
why" and "which cards may follow this partial play" with the referee's own code
(:meth:`Game.check <arena.engine.game.Game.check>`, :meth:`Game.next_cards
<arena.engine.game.Game.next_cards>`), run on the game :func:`seat_game` builds from what the
observation holds: the seat's hand, the top card (and what a joker there stands for), the active
suit, the pending penalty (with the kinds a mixed stack holds, L3: a red jack cancels only a
stack holding a black jack) or skip, the direction, the drawn card and the draws this turn, the
recycles left. Every card the seat cannot see (the other hands, the stock, the pile under the
top card) is the placeholder :data:`UNSEEN`, so the view holds their number and nothing else,
and it deals from no seed. Whether the seat's own move is legal depends on nothing more
(RULINGS G8), so the answers are the referee's.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import TYPE_CHECKING, Any

from arena.engine.cards import SUITS
from arena.engine.game import Game, Pending
from arena.engine.rules import RuleSet, build_rules
from arena.errors import RulesError

if TYPE_CHECKING:
    from arena.engine.observation import Observation

UNSEEN = 54  # no card has this code (tables indexed by it raise): a card the seat cannot see
RULE_SETS_KEPT = 8  # distinct rule settings kept built; a bot process sees one in practice

_RULE_SETS: dict[str, RuleSet] = {}
# The settings dictionary last asked about and its rule set: the bot host hands every
# observation of a game the same dictionary, which this holds (so its identity cannot pass to
# another object) and recognises without writing it out as JSON again.
_LAST: list[tuple[dict[str, Any], RuleSet]] = []


def rule_set_for(name: str, settings: dict[str, Any]) -> RuleSet:
    """The rule set of ``settings`` (an observation's ``rules``), built once per distinct
    settings in this process and then shared: build it again for every observation and a bot
    would pay a millisecond a decision. Keyed by the settings' JSON text, so equal settings
    share one rule set whatever dictionary holds them."""
    if _LAST and _LAST[0][0] is settings:
        return _LAST[0][1]
    if not settings:
        raise RulesError("this observation carries no rule settings (build it with the game's "
                         "rules: Observation.from_wire(message, history, info['rules']))")
    key = json.dumps(settings, default=str)
    rules = _RULE_SETS.get(key)
    if rules is None:
        rules = build_rules(copy.deepcopy(settings), name or "observation")
        if len(_RULE_SETS) >= RULE_SETS_KEPT:
            del _RULE_SETS[next(iter(_RULE_SETS))]
        _RULE_SETS[key] = rules
    _LAST[:] = [(settings, rules)]
    return rules


def seat_game(obs: Observation) -> Game:
    """The game as ``obs.seat`` sees it, that seat to move (see the module docstring)."""
    # Caches of its own: nothing another seat's view computed in this process is reachable.
    rules = dataclasses.replace(rule_set_for(obs.rules_name, obs.rules),
                                play_cache={}, set_cache={}, role_cache={})
    game = Game(rules, obs.seats, 0)
    game.hands = [[UNSEEN] * size for size in obs.hand_sizes]
    game.hands[obs.seat] = list(obs.hand)
    game.stock = [UNSEEN] * obs.stock_size
    game.discard = [*([UNSEEN] * (obs.discard_size - 1)), obs.top]
    game.top_card = obs.top_acting
    game.active_suit = SUITS.index(obs.active_suit) if obs.active_suit else -1
    game.direction = obs.direction
    game.to_move = obs.seat
    game.recycles_left = obs.recycles_left
    game.draws_this_turn = obs.draws_this_turn
    game.drawn_card = obs.drawn_card if obs.drawn_card is not None else -1
    game.pending_skip = obs.pending_skip
    if obs.pending is not None:
        game.set_pending(Pending(obs.pending.kind, obs.pending.amount, obs.pending.holds))
    return game
