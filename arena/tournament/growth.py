"""Changing a stored tournament: which changes keep its stored games, and what is left to play.

A tournament grows when its file gains bots or rounds, or when a bot's file changes (a new
version, told by its SHA-256). Those changes keep every stored game that the new tournament
would play the same way: a game is kept when the new schedule has its table (the same bots) in
the same round and seating and none of its bots changed. Its cards are the same too, since a
deal's seed belongs to its round and table (:func:`~arena.tournament.schedule.table_deal_seed`),
so a grown tournament ends with exactly the games of the same tournament played from scratch.
The games of a changed bot are dropped and played again; the new ones are played.

Every other change would mix games of two different tournaments and is refused, naming what
changed: the rules or rule settings, seats, seatings, format, seed, limits, a bot taken out, fewer
rounds than hold stored games. So is any change to a store written before tournaments could
grow (its schedule numbers games tables first, so a new table or round would move every later
game). Fewer rounds are kept when no stored game lies in the rounds taken out (a round-robin or
gauntlet without ``until``: its rounds are the same whatever their number).

An adaptive tournament (``until``, ``format: swiss``: :mod:`arena.tournament.adaptive`) decided
at each stored round boundary to go on, from the games before it, so its stored games are kept
only by a change after which it would still have gone on at every one of them: a change that
stops it no sooner (:func:`adaptive_changes`): a higher ``until.games`` or ``until.margin``,
``until`` taken out of a round-robin or gauntlet (it then plays every round), more rounds of a
round-robin or gauntlet. Adding ``until``, lowering it, adding bots or a new version of a bot
would change the rounds or where they stop, and is refused. A swiss tournament's rounds are
drawn from its ratings, so only its ``until`` may change; the run then goes on from its stored
games (:attr:`Verdict.note`).

:func:`judge` compares; a :class:`Growth` says which stored tables stay and where they go
(:meth:`Growth.table_map`) and words what will be played (:meth:`Growth.describe`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena.errors import ConfigError
from arena.settings import show
from arena.tournament.adaptive import course_of
from arena.sandbox.spec import LIMIT_NAMES
from arena.tournament.config import SWISS, TournamentConfig, parse_config
from arena.tournament.discipline import FaultLimit
from arena.tournament.schedule import ROUNDS_FIRST, Schedule

_FIXED_KEYS = ("name", "rules", "seats", "format", "seatings", "seed")  # in canonical(), besides bots


@dataclass(frozen=True)
class StoredSetup:
    """What a results store recorded about its tournament: the parts a change is judged on."""

    name: str
    config_text: str
    config_hash: str
    seed: int | None
    seed_drawn: bool
    rules_snapshot: Mapping[str, Any]
    versions: Mapping[str, str]
    layout: str
    last_game: int | None = None    # the highest stored game id (None: no game stored)


@dataclass(frozen=True)
class Growth:
    """How the stored tournament becomes the configured one (see the module docstring).

    ``old`` and ``new`` are the two schedules; ``changed`` maps each bot whose version changed
    to ``(old, new)`` SHA-256; ``added`` lists the new bots.
    """

    name: str
    old: Schedule
    new: Schedule
    changed: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    added: tuple[str, ...] = ()
    also: tuple[str, ...] = ()      # other changes the stored games survive (``until`` raised)
    budget: int | None = None       # an adaptive tournament's: the most games it may play

    def table_map(self) -> dict[int, int]:
        """Old table index -> new table index, for every table whose stored games are kept."""
        index = {members: i for i, members in enumerate(self.new.tables)}
        return {t: index[members] for t, members in enumerate(self.old.tables)
                if not set(members) & set(self.changed)}

    @property
    def renumbers(self) -> bool:
        """True when kept games get other ids (a table came in before them)."""
        tables = self.table_map()
        return len(self.new.tables) != len(self.old.tables) or any(t != n for t, n in tables.items())

    @property
    def drops(self) -> bool:
        """True when some stored games are played again (a bot changed)."""
        return bool(self.changed)

    def describe(self, stored_per_table: Mapping[int, int], disqualified: bool = False) -> str:
        """What changed and what will be played, given the stored games at each old table
        (``disqualified``: the store has disqualified bots, whose disqualifications a moved
        schedule decides again: the counts are then the most that is kept)."""
        tables = self.table_map()
        kept = sum(n for t, n in stored_per_table.items() if t in tables)
        parts = []
        for bot, (before, after) in sorted(self.changed.items()):
            own = sum(n for t, n in stored_per_table.items() if bot in self.old.tables[t])
            parts.append(f"bot {bot!r} changed (sha256 {before[:8]}.. -> {after[:8]}..): "
                         f"its {_games(own)} will be replayed")
        per_deal = self.new.seatings_per_deal
        with_new = sum(1 for members in self.new.tables if set(members) & set(self.added))
        if self.added:
            names = ", ".join(sorted(self.added))
            count = with_new * self.new.rounds * per_deal
            parts.append(f"{len(self.added)} bot{'s' if len(self.added) != 1 else ''} added "
                         f"({names}): {_games(count, 'new game')}")
        if self.new.rounds > self.old.rounds:
            count = (len(self.new.tables) - with_new) * (self.new.rounds - self.old.rounds) * per_deal
            parts.append(f"rounds {self.old.rounds} -> {self.new.rounds}: {_games(count, 'new game')}")
        parts.extend(self.also)
        left = (f"{len(self.new) - kept:,} to play" if self.budget is None
                else f"up to {max(0, self.budget - kept):,} more to play")
        if disqualified and (self.drops or self.renumbers):
            counts = (f"up to {kept:,} stored games kept and at least {left}: the "
                      "disqualifications are decided again in the new order, and a kept game "
                      "the decision changes is played again")
        else:
            counts = f"{kept:,} stored games kept, {left}"
        if not parts:  # a rewording, a reordering: nothing the games depend on
            return f"tournament {self.name!r} goes on: its file changed, not its games ({counts})"
        return f"tournament {self.name!r} grows: " + "; ".join(parts) + f" ({counts})"


@dataclass(frozen=True)
class Verdict:
    """:func:`judge`'s answer: the same tournament, a :class:`Growth`, or the refused changes."""

    refusals: tuple[str, ...] = ()
    growth: Growth | None = None
    note: str | None = None     # a swiss tournament's ``until`` raised: it goes on, in words

    @property
    def same(self) -> bool:
        """True when nothing changed: the run resumes."""
        return not self.refusals and self.growth is None and self.note is None


def judge(stored: StoredSetup, config: TournamentConfig, rules_snapshot: Mapping[str, Any],
          versions: Mapping[str, str]) -> Verdict:
    """Compare the stored tournament with ``config`` (its seed settled), its rule settings and
    its bots' versions (see the module docstring)."""
    refusals = []
    old_game, new_game = _game_of(stored.rules_snapshot), _game_of(rules_snapshot)
    if _dumps(old_game) != _dumps(new_game):
        refusals.append(_rules_change(old_game, new_game))
    changed = {bot: (old, versions[bot]) for bot, old in stored.versions.items()
               if bot in versions and versions[bot] != old}
    same_config = stored.config_hash == config.config_hash
    if same_config and not changed and not refusals:
        return Verdict()
    old_config = config if same_config else stored_config(stored)
    if old_config is None:
        refusals.append(_unreadable_change(stored, config))
    elif not same_config:
        refusals.extend(setting_changes(old_config, config, stored.seed_drawn))
        refusals.extend(_rounds_lowered(stored, old_config, config))
    if refusals:
        return Verdict(tuple(refusals))
    assert old_config is not None
    if stored.layout != ROUNDS_FIRST:
        return Verdict((f"{_change_words(old_config, config, changed)}, but its games were stored "
                        "before tournaments could grow (their ids follow the tables, not the "
                        "rounds), so none of them could be kept",))
    refused, kept = adaptive_changes(old_config, config, changed)
    if refused:
        return Verdict(tuple(refused))
    if config.rounds < old_config.rounds:
        kept.append(f"rounds {old_config.rounds} -> {config.rounds} (no game of the rounds "
                    "taken out was stored)")
    if config.format == SWISS:  # only its until changed, or nothing its games depend on
        told = "; ".join(kept) or "its file changed, not its games"
        return Verdict(note=f"tournament {config.name!r} goes on: {told} (its stored games are kept)")
    old, new = Schedule.from_config(old_config), Schedule.from_config(config)
    gone = set(old.tables) - set(new.tables)
    if gone:
        return Verdict((f"{len(gone)} table{'s' if len(gone) > 1 else ''} of the stored tournament "
                        "would no longer be played",))
    if old.arrangements != new.arrangements:
        return Verdict(("the seatings of a deal changed (who holds the extra seats of a table "
                        "with fewer bots than seats)",))
    added = tuple(sorted(set(config.bot_names) - set(old_config.bot_names)))
    course = course_of(config)
    return Verdict(growth=Growth(config.name, old, new, changed, added, tuple(kept),
                                 None if course is None else course.budget))


def adaptive_changes(old: TournamentConfig, new: TournamentConfig,
                     changed: Mapping[str, tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The changes to an adaptive tournament that its stored games do not survive (refusals),
    and the ones they do (``until`` raised or taken out), one phrase each (see the module doc)."""
    refused: list[str] = []
    kept: list[str] = []
    if old.until is None and new.until is None:
        return refused, kept
    if old.until is None:
        refused.append("key 'until' added (the stored rounds were played without it, and it "
                       "could have stopped before some of them)")
    elif new.until is None:
        kept.append("key 'until' taken out: every round is played")
    else:
        for key, before, after in (("margin", old.until.margin, new.until.margin),
                                   ("games", old.until.games, new.until.games)):
            low, high = (math.inf if before is None else before), (math.inf if after is None else after)
            if high < low:
                refused.append(f"key 'until.{key}' lowered ({_limit(before)} -> {_limit(after)}: "
                               "it could have stopped before some of the stored games)")
            elif high > low:
                kept.append(f"key 'until.{key}' raised ({_limit(before)} -> {_limit(after)})")
    if new.until is not None:
        whose = "a swiss tournament's rounds are drawn" if new.format == SWISS else "its stops were decided"
        added = sorted(set(new.bot_names) - set(old.bot_names))
        if added:
            refused.append(f"bots added ({', '.join(added)}): {whose} from the stored games "
                           "without them")
        for bot, (was, now) in sorted(changed.items()):
            refused.append(f"bot {bot!r} changed (sha256 {was[:8]}.. -> {now[:8]}..): {whose} "
                           "from its old games")
    return refused, kept


def stored_config(stored: StoredSetup) -> TournamentConfig | None:
    """The configuration the store recorded (its text, the drawn seed put back), or ``None``
    when the text no longer reads as the same configuration."""
    try:
        config = parse_config(stored.config_text, f"the stored {stored.name!r}", stored.name)
    except ConfigError:
        return None
    if config.seed is None and stored.seed is not None:
        config = replace(config, seed=stored.seed)
    return config if config.config_hash == stored.config_hash else None


def setting_changes(old: TournamentConfig, new: TournamentConfig, seed_drawn: bool) -> list[str]:
    """The changes from ``old`` to ``new`` that no stored game survives, one phrase each."""
    before, after = old.canonical(), new.canonical()
    changes = []
    for key in _FIXED_KEYS:
        if before[key] == after[key]:
            continue
        if key == "seed":  # never shown: a seed gives away every deal
            origin = "a seed drawn at random" if seed_drawn else "the seed the file had"
            changes.append(f"seed changed (the stored games were dealt from {origin})")
        else:
            changes.append(f"key '{key}' changed ({show(before[key])} -> {show(after[key])})")
    for name in LIMIT_NAMES:  # the limits in force: a default written out is no change
        a, b = getattr(old.limits, name), getattr(new.limits, name)
        if a != b:
            changes.append(f"key 'limits.{name}' changed ({show(a)} -> {show(b)})")
    if old.max_faults != new.max_faults:
        changes.append(f"key 'max_faults' changed ({_fault_rule(old.max_faults)} -> "
                       f"{_fault_rule(new.max_faults)}: the stored games' disqualifications were "
                       "decided by the old rule)")
    removed = sorted(set(old.bot_names) - set(new.bot_names))
    if removed:
        changes.append("bot" + ("s " if len(removed) > 1 else " ")
                       + ", ".join(repr(b) for b in removed)
                       + " taken out (their stored games would no longer belong)")
    entries = {e.name: e for e in old.bots + old.candidates}
    for entry in new.bots + new.candidates:
        was = entries.get(entry.name)
        if was is not None and was.class_named != entry.class_named:
            changes.append(f"bot {entry.name!r} plays another class of its file ({was.class_named} "
                           f"-> {entry.class_named}): give it another name")
    moved = sorted(b for b in set(old.bot_names) & set(new.bot_names)
                   if (b in {e.name for e in old.candidates}) != (b in {e.name for e in new.candidates}))
    if moved:
        changes.append("bots moved between 'bots' and 'candidates': " + ", ".join(map(repr, moved)))
    return changes


def _fault_rule(rule: FaultLimit) -> str:
    """``in_a_row 3, total null``."""
    return f"in_a_row {_limit(rule.in_a_row)}, total {_limit(rule.total)}"


def _rounds_lowered(stored: StoredSetup, old: TournamentConfig,
                    new: TournamentConfig) -> list[str]:
    """The refusal of fewer rounds, unless the tournament is a fixed round-robin or gauntlet
    stored rounds first and none of its stored games lies in the rounds taken out."""
    if new.rounds >= old.rounds:
        return []
    fixed = old.until is None and new.until is None and old.format != SWISS
    why = ("the stored games of the rounds taken out would no longer belong" if fixed else
           "only a fixed schedule, without 'until' before and after, keeps its games when cut")
    if fixed and stored.layout == ROUNDS_FIRST:
        if stored.last_game is None:
            return []
        schedule = Schedule.from_config(old)
        last_round = stored.last_game // (len(schedule.tables) * schedule.seatings_per_deal)
        if last_round < new.rounds:
            return []
        why = f"games of round {last_round + 1} are stored, {why}"
    return [f"key 'rounds' lowered ({old.rounds} -> {new.rounds}: {why})"]


def _change_words(old: TournamentConfig, new: TournamentConfig,
                  changed: Mapping[str, tuple[str, str]]) -> str:
    words = [f"bot {b!r} changed" for b in sorted(changed)]
    added = sorted(set(new.bot_names) - set(old.bot_names))
    if added:
        words.append("bots added: " + ", ".join(added))
    if new.rounds != old.rounds:
        words.append(f"rounds {old.rounds} -> {new.rounds}")
    return "; ".join(words) or "the configuration changed"


def _unreadable_change(stored: StoredSetup, config: TournamentConfig) -> str:
    """A change to a configuration the store cannot read back: the seed alone, or anything."""
    if stored.seed is not None and stored.seed != config.seed:
        if replace(config, seed=stored.seed).config_hash == stored.config_hash:
            origin = "a seed drawn at random" if stored.seed_drawn else "the seed the file had"
            return f"seed changed (the stored games were dealt from {origin})"
    return "configuration changed (the stored configuration cannot be compared key by key)"


def _game_of(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A rule set's settings without what cannot change its games: its summary (a description,
    which a user may reword, or a newer arena word for a file without one) and, with no joker
    dealt, how jokers are laid (``play.jokers``, which ``irish`` names since arena learnt it)."""
    game = {key: value for key, value in settings.items() if key != "summary"}
    deal, play = game.get("deal"), game.get("play")
    if isinstance(play, Mapping) and "jokers" in play and not (isinstance(deal, Mapping) and deal.get("jokers")):
        game["play"] = {key: value for key, value in play.items() if key != "jokers"}
    return game


def _rules_change(old: Mapping[str, Any], new: Mapping[str, Any]) -> str:
    """The settings that differ, by their dotted keys (``'drawing.after_draw': may-play ->
    may-play-alone``), at most three."""
    old, new = _flat(old), _flat(new)
    keys = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    shown = ", ".join(f"'{k}': {show(old.get(k))} -> {show(new.get(k))}" for k in keys[:3])
    more = f" and {len(keys) - 3} more" if len(keys) > 3 else ""
    # the file is not always the user's doing: an arena's preset can change with its version
    return f"rule settings changed ({shown}{more}) in the rule set's file or this arena's preset"


def _flat(settings: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested settings as one mapping of dotted keys to their values."""
    flat: dict[str, Any] = {}
    for key, value in settings.items():
        if isinstance(value, Mapping) and value:
            flat.update(_flat(value, f"{prefix}{key}."))
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _limit(value: float | None) -> str:
    """A margin or budget as a file writes it (``null``: none)."""
    return "null" if value is None else show(value)


def _games(count: int, word: str = "stored game") -> str:
    return f"{count:,} {word}{'s' if count != 1 else ''}"


def _dumps(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
