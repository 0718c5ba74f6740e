"""The `mcts` bot: information-set Monte Carlo tree search (Cowling, Powley, Whitehouse 2012).

How it decides: one tree over the seat's *information sets* (single observer), grown by
iterations that each play one guess of the hidden cards. An iteration deals a fresh
determinization (``arena.engine.determinize``: the unseen cards dealt consistently with the
observation, inferred voids included), walks down the tree with UCB1 among the actions legal in
that deal, counting each such action's *availability* (an action seen in few deals is not
penalised for its few visits), adds one node, plays the rest of the game with the engine's
fast informed playout (``arena.engine.playout.informed_playout``: of a few random plays built
each turn it lays the one that sheds most, keeping wild cards, as real players do), and credits
every node on the way with the result of the seat that chose it. The move played is the most
visited; the search stops early once the iterations its budget has left could not change it.

Multi-card plays would split the visits among hundreds of plays that differ in a card or two
(a 7-flush can pour a suit in many orders). As the paper does for Dou Di Zhu, a decision is
taken in two steps: first the *group* (the rank of the first card laid, or draw, or pass), then
the play within the group, each step a level of the tree with its own statistics.

At the root it also asks the built-in heuristic (``arena.heuristic``: the library's copy, since
a sandboxed bot can import only the ``arena`` package) for its judgement. The root's moves are
the legal list plus the flushes the heuristic builds itself (those that keep the aces and 2s at
home, which the legal list leaves out), and the heuristic's scores, turned into a prior by a
softmax, add ``prior × share / (visits + 1)`` to a root move's UCB value (progressive bias): a
short search looks first where the heuristic would play, and the bonus fades as the visits
come in, so a long one decides by its own results.

Options: ``iterations`` (most per move), ``time_ms`` (CPU milliseconds per move; 0: no time
budget, then the search is a function of the game's seed), stopping at whichever comes first,
``exploration`` (UCB1's constant), ``playout_tries`` (plays built per playout turn; 1 is a
uniform random playout) and ``prior`` (the heuristic's weight; 0: none). :meth:`Bot.advise`
gives the move it would play and its estimated win chance (``arena play``'s hint).
"""

import math
import random
import time

from arena.engine.actions import Play
from arena.engine.cards import RANK_OF
from arena.engine.determinize import Determinizer
from arena.engine.playout import informed_playout, results
from arena.heuristic import HeuristicPlayer

# Stop at this many times the CPU budget in wall time too: on a loaded machine a move's CPU
# budget can take far longer than itself, and the sandbox's wall watchdog (three times the move
# limit, 3 s by default) must never be reached. 2.5 times 600 ms (1.5 s) keeps the search's
# strength on a busy machine (the CPU budget is what binds) and stays well inside the watchdog.
WALL_SHARE = 2.5
# How often (in iterations) the search asks whether its choice is settled.
SETTLED_EVERY = 50
# The heuristic's scores become a prior by a softmax at this temperature (a score point is
# about a card in hand).
PRIOR_TEMPERATURE = 1.0


class Node:
    """Statistics of one tree edge: visits, reward of the seat that chose it, availability."""

    __slots__ = ("visits", "reward", "available", "children")

    def __init__(self):
        self.visits = 0
        self.reward = 0.0
        self.available = 0
        self.children = {}


def group_of(action):
    """The first step of a decision: the rank of the first card laid, or the action's text."""
    if type(action) is Play:
        return RANK_OF[action.acting[0]]
    return str(action)


class Bot:
    """Single-observer ISMCTS with a two-step choice of multi-card plays."""

    OPTIONS = {
        "iterations": {"type": "int", "default": 10000, "min": 1, "max": 1000000,
                       "help": "most search iterations per move"},
        "time_ms": {"type": "int", "default": 600, "min": 0, "max": 60000,
                    "help": "CPU milliseconds per move (0: no time budget)"},
        "exploration": {"type": "float", "default": 0.7, "min": 0, "max": 10,
                        "help": "UCB1 exploration constant"},
        "playout_tries": {"type": "int", "default": 3, "min": 1, "max": 16,
                          "help": "plays built per playout turn, the one shedding most laid (1: random)"},
        "prior": {"type": "float", "default": 10.0, "min": 0, "max": 1000,
                  "help": "weight of the heuristic's judgement of the moves, fading with visits (0: none)"},
    }

    def __init__(self, iterations: int = 10000, time_ms: int = 600, exploration: float = 0.7,
                 playout_tries: int = 3, prior: float = 10.0) -> None:
        self.iterations = iterations
        self.time_ms = time_ms
        self.exploration = exploration
        self.playout_tries = playout_tries
        self.prior = prior
        self.rng = random.Random(0)
        self.judge = HeuristicPlayer()

    def on_game_start(self, info: dict) -> None:
        """Seed this game's search from the referee's per-seat seed (reproducible games), and
        start the heuristic's memory afresh."""
        self.rng = random.Random(info["seed"])
        self.judge.on_game_start(info)

    def act(self, obs):
        """The most visited move of the search (a forced move at once)."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.advise(obs)[0]

    def advise(self, obs) -> tuple[str, float]:
        """The move this bot would play (notation text) and its estimated win chance."""
        if len(obs.legal) == 1:
            return obs.legal[0], self._single_estimate(obs)
        root = self._search(obs)
        text, choice = _chosen(root)
        return text, choice.reward / choice.visits if choice.visits else 0.0

    def _single_estimate(self, obs) -> float:
        """A forced move's win chance: a few playouts, for the hint only."""
        dealer = Determinizer(obs)
        wins = 0.0
        for _ in range(20):
            wins += informed_playout(dealer.deal(self.rng), self.rng, self.playout_tries)[obs.seat]
        return wins / 20

    def _search(self, obs) -> Node:
        dealer = Determinizer(obs)
        root = Node()
        self._root = _RootChoice(obs, self.judge.scored(obs), self.prior)
        rng = self.rng
        budget = self.time_ms / 1000.0
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        for done in range(self.iterations):
            if budget and done and (
                    time.process_time() - cpu_start > budget
                    or time.perf_counter() - wall_start > budget * WALL_SHARE):
                break
            if done and done % SETTLED_EVERY == 0 and _settled(
                    root, self._left(done, budget, cpu_start)):
                break
            self._iterate(root, dealer.deal(rng), rng)
        return root

    def _left(self, done: int, budget: float, cpu_start: float) -> float:
        """How many more iterations the budget allows: the count left, and under a time budget
        the time left at the rate so far."""
        left = float(self.iterations - done)
        if budget:
            used = time.process_time() - cpu_start
            if used > 0:
                left = min(left, done * (budget - used) / used)
        return left

    def _iterate(self, root: Node, game, rng) -> None:
        """One iteration: select with UCB1 and availability, expand one node, play out, back up."""
        path = []  # (node, seat that chose it)
        node = root
        expanded = False
        at_root = True
        while game.outcome is None and not expanded:
            seat = game.to_move
            # The root's actions are the same in every deal (they depend on this seat's hand and
            # what is public), and include the heuristic's own flushes.
            choice = self._root if at_root else None
            groups = choice.groups if choice else _grouped(game.legal_actions())
            key, node, expanded = self._step(node, list(groups), rng,
                                             choice.group_prior if choice else None)
            path.append((node, seat))
            by_text = groups[key]
            if not expanded:
                text, node, expanded = self._step(node, list(by_text), rng,
                                                  choice.play_prior if choice else None)
                path.append((node, seat))
                game.apply_legal(by_text[text])
                at_root = False
            else:
                text = list(by_text)[int(rng.random() * len(by_text))]
                child = node.children.get(text)
                if child is None:
                    child = node.children[text] = Node()
                child.available += 1
                path.append((child, seat))
                game.apply_legal(by_text[text])
        result = (informed_playout(game, rng, self.playout_tries) if game.outcome is None
                  else results(game))
        for edge, seat in path:
            edge.visits += 1
            edge.reward += result[seat]

    def _step(self, node: Node, keys: list, rng, prior: dict | None = None) -> tuple:
        """Choose among ``keys`` (those available in this deal) below ``node``: an untried one
        at random (then the tree grows there), else the best by UCB1 with availability plus,
        at the root, the ``prior`` bonus fading as ``1/(visits + 1)`` (progressive bias, Chaslot
        et al. 2008); returns the key, its node and whether it was new."""
        children = node.children
        untried = [key for key in keys if key not in children]
        for key in keys:
            child = children.get(key)
            if child is not None:
                child.available += 1
        if untried:
            key = untried[int(rng.random() * len(untried))]
            child = children[key] = Node()
            child.available = 1
            return key, child, True
        c = self.exploration
        best_key, best_value = None, -1.0
        for key in keys:
            child = children[key]
            value = child.reward / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if prior is not None:
                value += prior[key] / (child.visits + 1)
            if value > best_value:
                best_key, best_value = key, value
        return best_key, children[best_key], False


def _grouped(actions) -> dict:
    """``actions`` by :func:`group_of`, each group's by their notation text."""
    groups: dict = {}
    for action in actions:
        groups.setdefault(group_of(action), {})[str(action)] = action
    return groups


class _RootChoice:
    """The root's actions by group, and the heuristic's prior over them.

    The actions are the legal list and the candidate plays the heuristic builds itself (its
    flushes that keep the valuable cards at home, which the legal list leaves out). The prior
    is a softmax of the heuristic's scores, times ``weight``, for each play within its group and
    summed over the group's plays for the group; moves it does not score (a draw beside a
    play) get none.
    """

    def __init__(self, obs, scored, weight: float) -> None:
        actions = list(obs.legal_actions())
        listed = {str(action) for action in actions}
        best: dict = {}
        for play, score in scored:
            text = str(play)
            if text not in listed:
                listed.add(text)
                actions.append(play)
            best[text] = max(score, best.get(text, score))
        self.groups = _grouped(actions)
        top = max(best.values(), default=0.0)
        share = {text: math.exp(max(-50.0, (score - top) / PRIOR_TEMPERATURE))
                 for text, score in best.items()}
        total = sum(share.values()) or 1.0
        self.group_prior: dict = {}
        self.play_prior: dict = {}
        for key, plays in self.groups.items():
            mass = sum(share.get(text, 0.0) for text in plays) / total
            self.group_prior[key] = weight * mass
            for text in plays:
                inner = share.get(text, 0.0) / total / mass if mass else 0.0
                self.play_prior[text] = weight * inner


def _chosen(root: Node) -> tuple:
    """The move the search plays: the most visited group, then the most visited play in it
    (its notation text and node)."""
    group = max(root.children.values(), key=lambda child: child.visits)
    return max(group.children.items(), key=lambda item: item[1].visits)


def _settled(root: Node, left: float) -> bool:
    """Whether ``left`` more iterations could no longer change :func:`_chosen`'s move: the most
    visited group, and the most visited play in it, each lead the next by more visits than are
    left."""
    node = root
    for _ in range(2):
        visits = sorted((child.visits for child in node.children.values()), reverse=True)
        if len(visits) > 1 and visits[0] - visits[1] <= left:
            return False
        node = max(node.children.values(), key=lambda child: child.visits)
    return True
