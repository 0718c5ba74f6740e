"""Everything the CLI shows people, with rich: rule sets, positions and replays, benchmarks,
rankings, the head-to-head crosstable, game lists, the live display of a running tournament
and a person's table in ``arena play``.

Every function draws on the :class:`rich.console.Console` it is given or returns a renderable
(tests pass ``Console(file=io.StringIO(), width=80)`` and ``width=160``); nothing here prints on
its own or exits. Tables fit the console's width with one line a row (see "fitting a table"
below). The ``--json`` shapes live beside the data they describe (:mod:`arena.tournament.export`)."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console, Group, JustifyMethod, RenderableType
from rich.markup import escape
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from arena.services.bench import BenchResult, PlayoutBenchResult, RankingsBenchResult, SandboxBenchResult
from arena.services.cluster_bench import ClusterBenchResult, project
from arena.play.faults import inert
from arena.engine.actions import Play
from arena.engine.cards import NAMES, SUITS
from arena.engine.game import Game, Pending
from arena.engine.match import MatchOutcome
from arena.engine.observation import Observation, PendingView
from arena.engine.outcome import Outcome, OutcomeReason
from arena.engine.rules import RuleSet
from arena.errors import ArenaError
from arena.sandbox.options import declared_options
from arena.sandbox.workspace import BUILTIN_BOTS, RegistryEntry, Workspace, builtin_dir
from arena.services.calibrate import Calibration, CalibrationProgress, Share
from arena.services.duel import DuelProgress, DuelResult
from arena.services.duelstats import SprtOutcome
from arena.services.play import BotFaulted, CardsLeft, HandOver, Hint, News, Played
from arena.services.submit import ValidationReport
from arena.tournament.adaptive import CourseState, End
from arena.tournament.ratings import Rankings, Standing
from arena.tournament.records import GameRecord, places_text
from arena.tournament.replay import Effect, EffectKind, Step
from arena.tournament.verify import Verification
from arena.tournament.watch import Frame
from arena.tournament.runner import Progress, RunReport, disqualification_notice
from arena.tournament.seats import SeatBias
from arena.tournament.separation import Separation
from arena.tournament.sprt import Estimate
from arena.tournament.stats import BotStats

SUIT_STYLE = {"C": "bold", "S": "bold", "D": "red", "H": "red"}


def card_markup(name: str) -> str:
    """A card name coloured by suit (hearts and diamonds red)."""
    style = SUIT_STYLE.get(name[-1], "magenta")
    return f"[{style}]{name}[/]"


def cards_markup(names: Iterable[str]) -> str:
    """Several cards, coloured, separated by spaces."""
    return " ".join(card_markup(n) for n in names) or "-"


# -- fitting a table to the terminal ---------------------------------------------------------
#
# Tables are drawn without vertical lines (a rule under the header only), two cells between
# columns, and never wrap a cell: when a table would be wider than the console, the less
# needed columns are left out first, then bot names are cut in the middle (``heuris…ame-v2``)
# and every cut name is printed whole once under the table.

GAP = 2        # cells between two columns: one of padding and the blank divider
NAME_MIN = 16  # a cut bot name keeps this many cells while a column can still be left out
NAME_FLOOR = 6  # and never fewer


@dataclass(frozen=True)
class _Column:
    """One column's header, cells (one per row) and alignment; ``key`` names it for leaving out."""

    key: str
    header: str
    cells: Sequence[str]
    justify: JustifyMethod = "right"

    @cached_property
    def width(self) -> int:
        """The cells the widest of its header and cells takes."""
        return max([cell_len(self.header), *(cell_len(c) for c in self.cells)])


def _span(widths: Iterable[int]) -> int:
    """The width of a table whose columns are ``widths`` wide."""
    widths = list(widths)
    return sum(widths) + GAP * (len(widths) - 1) if widths else 0


def _fit_columns(width: int, columns: Sequence[_Column], drops: Sequence[str],
                 names: int) -> tuple[list[_Column], int]:
    """The columns to keep and the name column's width, in a table ``width`` wide whose names
    need ``names`` cells: the fullest set of columns that leaves the names ``NAME_MIN`` cells
    (or all they need), leaving out columns in the order of ``drops``."""
    kept = list(columns)
    for count in range(len(drops) + 1):
        kept = [c for c in columns if c.key not in drops[:count]]
        room = width - _span([*(c.width for c in kept), 0])
        if room >= min(names, NAME_MIN):
            return kept, min(names, room)
    return kept, max(NAME_FLOOR, min(names, room))


def _table(columns: Sequence[_Column], styles: Sequence[str] = ()) -> Text:
    """``columns`` as text: the header, a rule, one line a row (styled by ``styles``).

    Drawn by hand rather than with rich's ``Table``: every width is known already, and a list of
    thousands of games prints many times faster.
    """
    widths = [c.width for c in columns]

    def line(cells: Sequence[str]) -> str:
        gaps = [" " * (w - cell_len(cell)) for cell, w in zip(cells, widths)]
        return (" " * GAP).join(cell + gap if c.justify == "left" else gap + cell
                                for cell, gap, c in zip(cells, gaps, columns)).rstrip()

    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(line([c.header for c in columns]) + "\n", style="bold")
    text.append("─" * _span(widths))
    for index, row in enumerate(zip(*(c.cells for c in columns))):
        text.append("\n")
        text.append(line(row), style=styles[index] if index < len(styles) else "")
    return text


def _print_table(console: Console, columns: Sequence[_Column], styles: Sequence[str] = ()) -> None:
    """Print :func:`_table`; one that fits needs none of rich's wrapping work (a list of
    thousands of games prints several times faster soft-wrapped)."""
    if _span(c.width for c in columns) <= console.width:
        console.print(_table(columns, styles), soft_wrap=True)
    else:  # only in a console too narrow for any layout: each line cut at the edge
        console.print(_table(columns, styles), no_wrap=True, overflow="ellipsis")


def middle_cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut in the middle with ``…`` so that its start
    and its end (often a version: ``-v2``) both stay readable."""
    return text if len(text) <= width else _cut(text, width, width // 2)


def _cut(text: str, width: int, head: int) -> str:
    """``text`` as its first ``head`` characters, ``…`` and its last ``width - head - 1``."""
    tail = width - head - 1
    return text[:head] + "…" + (text[-tail:] if tail > 0 else "")


def short_names(names: Iterable[str], width: int | Mapping[str, int]) -> dict[str, str]:
    """Each name cut to ``width`` (:func:`middle_cut`; a mapping gives each name its own),
    moving the cut where two would look the same, so that distinct names stay distinct when it
    can be done."""
    full = sorted(set(names))
    room = {name: width if isinstance(width, int) else width[name] for name in full}
    shown = {name: middle_cut(name, room[name]) for name in full}
    seen = Counter(shown.values())
    for name in full:
        if seen[shown[name]] < 2:
            continue
        cells = room[name]
        for head in sorted(range(1, cells), key=lambda h: abs(h - cells // 2)):
            candidate = _cut(name, cells, head)
            if candidate not in seen:
                seen[shown[name]] -= 1
                shown[name] = candidate
                seen[candidate] += 1
                break
    return shown


def render_names(console: Console, shown: Mapping[str, str]) -> None:
    """Every cut name of a table once in full: ``heuris…ame-v2 = heuristic-...-name-v2``."""
    for name, cut in sorted(shown.items(), key=lambda item: item[1]):
        if cut != name:
            console.print(Text(f"{cut} = {name}", style="dim"))


def _title(console: Console, text: str) -> None:
    console.print(Text(text, style="bold"))


# -- rule sets, positions and replays, benchmarks -------------------------------------------

def render_rules_list(console: Console, rule_sets: list[RuleSet]) -> None:
    """One line per preset: name, seats and summary."""
    table = Table(title="Rule sets", show_lines=False)
    table.add_column("name", style="bold cyan")
    table.add_column("seats")
    table.add_column("summary")
    for rules in rule_sets:
        table.add_row(rules.name, f"{rules.seats_min}-{rules.seats_max} (default {rules.seats_default})",
                      rules.summary)
    console.print(table)


def render_rules(console: Console, rules: RuleSet) -> None:
    """One rule set's settings and card powers, as two tables."""
    settings = Table(title=f"Rules: {rules.name}", show_header=False)
    settings.add_column("setting", style="bold")
    settings.add_column("value")
    for key, value in _rule_rows(rules):
        settings.add_row(key, value)
    console.print(settings)
    powers = Table(title="Card powers")
    powers.add_column("cards", style="bold")
    powers.add_column("power")
    for selector, power in rules.powers:
        powers.add_row(selector, power.describe())
    console.print(powers)


def _rule_rows(rules: RuleSet) -> list[tuple[str, str]]:
    by_seats = ", ".join(f"{k} seats: {v}" for k, v in sorted(rules.hand_size_by_seats.items()))
    recycles = "unlimited" if rules.recycles is None else str(rules.recycles)
    return [
        ("summary", rules.summary),
        ("seats", f"{rules.seats_min}-{rules.seats_max}, default {rules.seats_default}"),
        ("hand size", f"{rules.hand_size}" + (f" ({by_seats})" if by_seats else "")),
        ("deck", f"{rules.deck_size()} cards"),
        ("starter", _starter_text(rules) + ("; it acts as the dealer's play" if rules.starter_acts else "")),
        ("first player", "drawn at random" if rules.first_player == "random" else "seat 0"),
        ("cards per play", "any" if rules.max_cards is None else str(rules.max_cards)),
        ("sets (same rank)", _sets_text(rules)),
        ("later cards may also", _chaining_text(rules)),
        ("inert after opener", "yes" if rules.inert_after_opener else "no"),
        ("jokers", f"{rules.jokers}, each standing for the card it names (X1:JS)" if rules.jokers else "none"),
        ("skips", {"once": "one per play", "each": "one per card",
                   "pending": "left pending: answer with a skip card or pass"}[rules.skips]),
        ("reverse with two seats", "go again" if rules.two_seat_reverse == "again" else "turns the play"),
        ("drawing", f"{'by choice' if rules.draw_when == 'any' else 'when stuck'}, "
                    f"{rules.draws_per_turn} per turn, then "
                    + ("play any card, draw again or pass" if rules.after_draw == "continue"
                       else rules.after_draw)),
        ("recycles", recycles + (", as soon as the stock runs out" if rules.recycle_at == "empty" else "")),
        ("pass at will", "when no card can be drawn" if rules.pass_on_empty else "no"),
        ("last card", rules.last_card if rules.last_card != "must"
         else f"must announce (!), else draw {rules.last_card_penalty}"),
        ("illegal play", "rejected" if rules.illegal_play == "reject" else f"blunder: draw {rules.blunder_draw}"),
        ("finishing on a suit call", "draws a card" if rules.ace_draws else "wins"),
        ("never finish on", _no_finish_text(rules)),
        ("blocked game", rules.blocked + (" (after seats + 1 passes)" if rules.blocked_after == "seats+1" else "")),
        ("penalty draw taking the last card", "counts as a pass"
         if rules.emptying_penalty_draw == "passes" else "breaks a run of passes"),
        ("pickups on an empty stock", "plain" if rules.pickup_on_empty_stock == "plain" else "a penalty"),
        ("play cap", "none" if rules.play_cap is None else f"{rules.play_cap} card plays, then scored"),
        ("match", f"first to {rules.match_wins} hand wins" if rules.match_wins else "one hand"),
        ("decision cap", str(rules.decision_cap)),
    ]


def _starter_text(rules: RuleSet) -> str:
    if rules.starter == "any":
        return "any card" + ("" if rules.starter_calls else " (its power never applies)")
    how = "new deal" if rules.starter == "redeal" else "pushed back into the stock"
    return f"refuses {_card_groups(rules.starter_refuses, rules.deck_size())} ({how})"


def _card_groups(cards: frozenset[int], deck_size: int) -> str:
    """Cards by rank: a rank whose every card (every suit, every joker of the deck) is in
    ``cards`` is its letter, any other its cards (S1: ``Q`` alone would refuse Q♥ and Q♦ too)."""
    by_rank: dict[str, list[int]] = {}
    for card in range(deck_size):
        by_rank.setdefault(NAMES[card][0], []).append(card)
    parts = []
    for rank in "A23456789TJQKX":
        of_rank = by_rank.get(rank, [])
        chosen = [NAMES[card] for card in of_rank if card in cards]
        parts.append(rank if chosen and len(chosen) == len(of_rank) else " ".join(chosen))
    return " ".join(part for part in parts if part)


def _chaining_text(rules: RuleSet) -> str:
    """How a play's later cards chain besides sets (suit openers, runs, pickup stacks, covers)."""
    ways = []
    if rules.any_opener:
        scope = "the latest" if rules.opener_scope == "latest" else "any earlier"
        ways.append(f"follow a suit opened by {scope} opener in the play")
    if rules.runs:
        ways.append("run in suit (one step up or down, ace low)")
    if rules.pickup_chain:
        ways.append("stack pickup cards in any mix")
    if rules.any_cover:
        ways.append("cover a queen with " + ("any card" if rules.cover == "any" else "a card legal on it"))
    return "; ".join(ways) or "-"


def _no_finish_text(rules: RuleSet) -> str:
    """The cards a hand may not be emptied on (L7), if any, by rank where a rank is whole."""
    text = _card_groups(rules.no_finish, rules.deck_size()) or "-"
    extra = rules.no_finish_two_seats - rules.no_finish
    return text + (f" (with two seats also {_card_groups(extra, rules.deck_size())})" if extra else "")


def _sets_text(rules: RuleSet) -> str:
    if rules.set_ranks == (1 << 13) - 1:
        return "yes"
    if not rules.set_ranks:
        return "no"
    return "only " + " ".join(r for i, r in enumerate("A23456789TJQK") if rules.set_ranks >> i & 1)


def seat_label(seat: int, names: Sequence[str] | None = None) -> str:
    """``seat 1``, or ``seat 1 (greedy)`` when the seats' bot ``names`` are known."""
    return f"seat {seat}" if names is None else f"seat {seat} ({names[seat]})"


def render_position(console: Console, game: Game, names: Sequence[str] | None = None) -> None:
    """The full state of a game: every hand (with its bot's name when ``names`` are given),
    the pile, the stock."""
    suit = SUITS[game.active_suit] if game.active_suit >= 0 else "any"
    penalty = game.pending
    pending = f", pending {pending_text(penalty)}" if penalty else ""
    console.print(f"[bold]{game.rules.name}[/], {game.seats} seats, seed {game.seed}")
    console.print(f"top {_top_markup(game)}, suit {suit}{pending}, "
                  f"direction {'+1' if game.direction == 1 else '-1'}, stock {len(game.stock)}")
    for seat, hand in enumerate(game.hands):
        marker = "▶" if seat == game.to_move else " "
        console.print(f" {marker} {escape(seat_label(seat, names))}: "
                      f"{cards_markup(NAMES[c] for c in hand)}")


def pending_text(pending: Pending | PendingView) -> str:
    """``two 4``; a stack whose make-up the rules read names its kinds (L3): ``two 7 (jack+two)``."""
    holds = f" ({'+'.join(pending.holds)})" if pending.holds else ""
    return f"{pending.kind} {pending.amount}{holds}"


def _top_markup(game: Game) -> str:
    """The top card, and what it stands for when it is a joker (L8): ``X1 (as JS)``."""
    top = card_markup(NAMES[game.top])
    return top + f" (as {card_markup(NAMES[game.top_card])})" if game.top >= 52 else top


def seat_names(names: Sequence[str], width: int = NAME_MIN) -> list[str]:
    """The seats' bot names cut to ``width`` (:func:`short_names`), in seat order: how a
    replay's moves name them (its position lines show them whole)."""
    shown = short_names(names, width)
    return [shown[name] for name in names]


def render_step(console: Console, step: Step, game: Game, names: Sequence[str] | None = None) -> None:
    """One applied move and what it did (skips, reverses, penalties...), with the table as it
    left it; the effects go on a line of their own when the console is too narrow for one."""
    move, effects = _move_markup(step, names), _effects_markup(step, names)
    suit = SUITS[game.active_suit] if game.active_suit >= 0 else "any"
    penalty = game.pending
    pending = f"  pending {pending_text(penalty)}" if penalty else ""
    sizes = " ".join(str(len(h)) for h in game.hands)
    move = f"{step.index:>4}. {move}"
    table = f"  ->  top {_top_markup(game)} suit {suit}{pending}  hands [{sizes}]"
    line = f"{move}: [bold magenta]{effects}[/]{table}" if effects else move + table
    if not effects or Text.from_markup(line).cell_len <= console.width:
        console.print(line)
    else:
        console.print(move + table)
        console.print(f"      ↳ [bold magenta]{effects}[/]")


def _move_markup(step: Step, names: Sequence[str] | None) -> str:
    """Who made the move and what it was: ``seat 1 (greedy) plays 7H 7C``, ``seat 0 draws 2``."""
    return f"{escape(seat_label(step.seat, names))} {_action_words(step.action, step.drew)}"


def _action_words(action: str, drew: int) -> str:
    """A move in words: ``plays 7H 7C``, ``draws 2``, ``passes``, ``plays 5H (drew 1)``."""
    extra = f" (drew {drew})" if drew and action != "draw" else ""
    verb = f"draws {drew}" if action == "draw" else ("passes" if action == "pass" else f"plays {action}")
    return verb + extra


def _effects_markup(step: Step, names: Sequence[str] | None) -> str:
    """What the move did, in words, ``; ``-separated (``""`` for a move without effects)."""
    return escape("; ".join(effect_text(e, names) for e in step.effects))


def effect_text(effect: Effect, names: Sequence[str] | None = None) -> str:
    """An effect of a move in words: ``skips seat 2 (greedy)``, ``pickup +5 (jack, 7 to pick up)``."""
    seat = "" if effect.seat is None else seat_label(effect.seat, names)
    kind = effect.kind
    texts = {
        EffectKind.BLUNDER: "illegal play, the cards stay",
        EffectKind.PENALTY_TAKEN: f"takes the {effect.word} penalty of {effect.amount}",
        EffectKind.CANCEL: (f"cancels the {effect.word} penalty of {effect.amount}"
                            if effect.total >= effect.amount else
                            f"takes {effect.total} off the {effect.word} penalty of {effect.amount}, "
                            f"draws the other {effect.amount - effect.total}"),
        EffectKind.PICKUP: f"pickup +{effect.amount} ({effect.word}, {effect.total} to pick up)",
        EffectKind.LAST_CARD: "calls last card",
        EffectKind.LAST_CARD_MISSED: (f"no {'standing ' if effect.word else ''}last-card call "
                                      f"(penalty {effect.amount})"),
        EffectKind.CALL: f"calls {effect.word}",
        EffectKind.REVERSE: (f"reverses (direction {effect.amount:+d})" if effect.total < 2 else
                             f"reverses {effect.total} times (direction {effect.amount:+d})"),
        EffectKind.SWAP: f"swaps hands with {seat}",
        EffectKind.SKIP: f"skips {seat}",
        EffectKind.AGAIN: "goes again",
        EffectKind.SKIP_PENDING: f"a skip waits for {seat}",
        EffectKind.SKIP_TAKEN: "accepts the skip",
        EffectKind.RECYCLE: "the pile is shuffled into the stock",
    }
    return texts[kind]


def render_outcome(console: Console, game: Game, names: Sequence[str] | None = None,
                   of_hand: bool = False) -> None:
    """The result line: who won and why, with the finishing places (bots best first when
    ``names`` are known, else seat groups); ``of_hand``: the game is one hand of a match."""
    outcome = game.outcome
    if outcome is None:
        console.print(f"[yellow]still playing[/]: {escape(seat_label(game.to_move, names))} to move "
                      f"after {game.decisions} decisions")
        return
    console.print(_outcome_markup(outcome, game.decisions, names, of_hand))


def _outcome_markup(outcome: Outcome, decisions: int, names: Sequence[str] | None,
                    of_hand: bool = False) -> str:
    """``seat 1 (greedy) wins (emptied) after 40 decisions``, and under it ``places: greedy >
    random``; ``wins the hand`` for one hand of a match."""
    if names is None:
        places = " ".join("/".join(map(str, p)) for p in outcome.places)
    else:
        places = places_text(names, outcome.places)
    head = (f"{seat_label(outcome.winner, names)} wins{' the hand' if of_hand else ''}"
            if outcome.winner is not None else f"drawn {'hand' if of_hand else 'game'}")
    return (f"[bold green]{escape(head)}[/] ({outcome.reason.value}) after {decisions} "
            f"decisions\n  places: {escape(places)}")   # a line of its own: names do not wrap


WATCH_KEYS = "n/enter next  b back  s start  e end  NUMBER move  q quit"


def render_watch(console: Console, frame: Frame, last: int, title: str,
                 names: Sequence[str] | None = None, record: GameRecord | None = None) -> None:
    """One frame of ``arena watch``: the game and move number, the move and its effects (the
    replay's), the pile, the active suit and the pending penalty, then every hand with its
    bot's name (``▶`` the seat to move), and the result once the game is over: the hand's,
    and on the last frame of a stored game the ``record``'s (a match's, faults included). Fits
    80x24 for a table of up to ten seats and ordinary hands (a long hand wraps)."""
    table = frame.table
    shown = seat_names(names, NAME_MIN) if names is not None else None
    hand = f", hand {frame.hand + 1} of {frame.hands}" if frame.hands > 1 else ""
    console.print(Text(f"{title}{hand}: move {frame.move} of {last}", style="bold"))
    if frame.step is None:
        console.print(f"  the deal, {escape(seat_label(table.to_move, shown))} to move")
    else:
        effects = _effects_markup(frame.step, shown)
        console.print(f"  {_move_markup(frame.step, shown)}" + (f": [bold magenta]{effects}[/]"
                                                                  if effects else ""))
    suit = SUITS[table.active_suit] if table.active_suit >= 0 else "any"
    pending = f"[bold]{pending_text(table.pending)}[/] to pick up" if table.pending else "no penalty"
    skip = ", a skip pending" if table.pending_skip else ""
    top = card_markup(NAMES[table.top])
    if table.top >= 52:
        top += f" (as {card_markup(NAMES[table.top_card])})"
    console.print(f"  top {top}  suit {suit}  {pending}{skip}  "
                  f"direction {table.direction:+d}  stock {table.stock}")
    width = max(cell_len(seat_label(seat, shown)) for seat in range(len(table.hands)))
    for seat, cards in enumerate(table.hands):
        marker = "▶" if seat == table.to_move and table.outcome is None else " "
        label = seat_label(seat, shown).ljust(width)
        console.print(f"{marker} {escape(label)} {len(cards):>2}: {cards_markup(NAMES[c] for c in cards)}")
    if table.outcome is not None:
        console.print(_outcome_markup(table.outcome, table.decisions, names, frame.hands > 1))
        if record is not None and frame.move == last and frame.hand == frame.hands - 1:
            render_stored_result(console, record, table.outcome if frame.hands == 1 else None)
    if names is not None:
        render_names(console, short_names(names, NAME_MIN))


PLAY_PROMPT = "your move (number or notation, h hint, q quit): "
PLAYABLE_MARK = "*"


def render_play_news(console: Console, news: Sequence[News], names: Sequence[str],
                     room: int | None = None) -> None:
    """What happened since the person's last look, a line each: every move with its effects in
    the replay's words (action cards announced: ``seat 1 (greedy) plays 2H: pickup +2 ...``),
    one seat's plain draws in a row as one (``draws 3``), a bot's fault, the end of a hand.
    Within ``room`` lines of the console, if given: every fault and hand's end, and the latest
    moves that fit, under a line counting the earlier ones left out (the table under the news
    must not push them off a 24-line screen unread)."""
    lines: list[tuple[Text, bool]] = []   # each with whether it is kept whatever the room
    for item in _draws_merged(news):
        if isinstance(item, Played):
            effects = _effects_markup(item.step, names)
            drawn = f" ({cards_markup(NAMES[c] for c in item.drew)})" if item.drew else ""
            lines.append((console.render_str(f"  {_move_markup(item.step, names)}{drawn}"
                                             + (f": [bold magenta]{effects}[/]" if effects else "")), False))
        elif isinstance(item, BotFaulted):
            lines.append((Text(f"  {seat_label(item.seat, names)} faulted ({item.code}: "
                               f"{inert(item.detail)}); a fallback plays its seat on", style="yellow"), True))
        elif item.target > 1:  # a single hand's end is the game's result, told after it
            lines.append((console.render_str(_hand_over_markup(item, names)), True))
    shown, left_out = _news_within(console, lines, room)
    if left_out:
        console.print(Text(f"  ({left_out} earlier moves not shown)", style="dim"))
    for line in shown:
        console.print(line)


def _news_within(console: Console, lines: list[tuple[Text, bool]], room: int | None) -> tuple[list[Text], int]:
    """The news lines to show in ``room`` console lines (their wrapped height), oldest first,
    and how many moves are left out: every kept line, then the latest moves that fit under a
    line saying how many earlier ones are not shown."""
    if room is None:
        return [line for line, _ in lines], 0
    heights = [len(console.render_lines(line, pad=False)) for line, _ in lines]
    if sum(heights) <= room:
        return [line for line, _ in lines], 0
    budget = room - 1 - sum(h for (_, kept), h in zip(lines, heights) if kept)
    chosen = {i for i, (_, kept) in enumerate(lines) if kept}
    for i in reversed(range(len(lines))):
        if i not in chosen:
            if heights[i] > budget:
                break   # the moves shown run on to the latest, with no gap among them
            chosen.add(i)
            budget -= heights[i]
    return [line for i, (line, _) in enumerate(lines) if i in chosen], len(lines) - len(chosen)


def _draws_merged(news: Sequence[News]) -> list[News]:
    """``news`` with each run of one seat's plain draws (no effect: one card at a time, as
    openspiel and crazy-eights draw) made one move that drew them all."""
    merged: list[News] = []
    for item in news:
        previous = merged[-1] if merged else None
        if (isinstance(item, Played) and isinstance(previous, Played) and _plain_draw(item)
                and _plain_draw(previous) and (previous.hand, previous.step.seat) == (item.hand, item.step.seat)):
            merged[-1] = Played(item.hand, replace(previous.step, drew=previous.step.drew + item.step.drew),
                                previous.drew + item.drew)
        else:
            merged.append(item)
    return merged


def _plain_draw(played: Played) -> bool:
    return played.step.action == "draw" and not played.step.effects


def _hand_over_markup(over: HandOver, names: Sequence[str]) -> str:
    """A match's hand ended: ``hand 2 won by seat 1 (greedy) (emptied)``, and under it
    ``hands won (first to 3): seat 0 (you) 0, seat 1 (greedy) 2``."""
    outcome = over.outcome
    head = (f"won by {seat_label(outcome.winner, names)}" if outcome.winner is not None
            else "drawn")
    won = ", ".join(f"{seat_label(s, names)} {w}" for s, w in enumerate(over.wins))
    return (f"[bold]hand {over.hand + 1} {escape(head)}[/] ({outcome.reason.value})\n"
            f"  hands won (first to {over.target}): {escape(won)}")


def render_play(console: Console, obs: Observation, names: Sequence[str], hand: int,
                target: int, wins: Sequence[int]) -> None:
    """The person's table, from the person's observation alone: the rules and the hand of the
    match, every seat's hand size (and hands won, in a match) and last action (``▶`` the seat
    to move), the top card, the active suit, the pending penalty, the person's hand with the
    playable cards marked (:data:`PLAYABLE_MARK`, and bold), and the legal moves numbered.
    Fits 80x24 up to six seats and ordinary hands."""
    match = f", hand {hand + 1}, first to win {target} hands" if target > 1 else ""
    console.print(Text(f"{obs.rules_name}{match}, you are seat {obs.seat}", style="bold"))
    last: dict[int, str] = {}
    for event in obs.history:
        last[event.seat] = _action_words(event.action, event.drew)
    width = max(cell_len(seat_label(seat, names)) for seat in range(obs.seats))
    for seat in range(obs.seats):
        marker = "▶" if seat == obs.to_move else " "
        size = obs.hand_sizes[seat]
        cards = f"{size:>2} {'card ' if size == 1 else 'cards'}"   # the columns after it stay aligned
        label = seat_label(seat, names).ljust(width)
        won = f"  won {wins[seat]}" if target > 1 else ""
        console.print(f"{marker} {escape(label)}  {cards}{won}  {escape(last.get(seat, ''))}".rstrip())
    console.print(_play_table_markup(obs))
    playable = set(obs.next_cards())
    shown = [card_markup(NAMES[c]) + (PLAYABLE_MARK if c in playable else "") for c in sorted(obs.hand)]
    marked = [f"[bold underline]{s}[/]" if c in playable else s
              for c, s in zip(sorted(obs.hand), shown)]
    console.print(f"your hand ({PLAYABLE_MARK} playable): {' '.join(marked)}")
    if obs.to_move == obs.seat:
        for line in _flow(_move_items(obs.legal), console.width, "moves: "):
            console.print(line)


def _move_items(legal: Sequence[str]) -> list[str]:
    """The legal moves numbered from 1, a play's suit calls side by side under one range of
    numbers (``1-4 AS=C/D/H/S`` for ``AS=C`` ... ``AS=S``, the numbers in the calls' order),
    and a joker laid alone as one range (``15-74 X2 as the card you name``: it may stand for
    most of the deck, so it is typed: ``X2:4C``, ``X2:AS=D``)."""
    groups: list[tuple[int, str, list[str]]] = []  # first number, the play without its call, calls
    for number, text in enumerate(legal, 1):
        head, call, suit = text.partition("=")
        joker = head[:2] if len(head) > 3 and head[2] == ":" and " " not in head else ""
        last = groups[-1] if groups else None
        follows = last is not None and last[0] + len(last[2]) == number
        if last is not None and follows and joker and last[1] == joker:
            last[2].append(text)
        elif last is not None and follows and call and last[1] == head:
            last[2].append(suit)
        elif joker:
            groups.append((number, joker, [text]))
        else:
            groups.append((number, head, [suit] if call else []))
    items = []
    for first, head, calls in groups:
        if head in ("X1", "X2"):
            span = f"{first}-{first + len(calls) - 1}" if len(calls) > 1 else str(first)
            example = next((text for text in calls if "=" not in text), calls[0])
            items.append(f"[bold]{span}[/] {head} as the card you name ({escape(example)}...)"
                         if len(calls) > 1 else f"[bold]{span}[/] {escape(calls[0])}")
        elif len(calls) > 1:
            items.append(f"[bold]{first}-{first + len(calls) - 1}[/] {escape(head)}={'/'.join(calls)}")
        else:
            items.append(f"[bold]{first}[/] {escape(head + ('=' + calls[0] if calls else ''))}")
    return items


def _play_table_markup(obs: Observation) -> str:
    """``top 7H  suit H  two 4 to pick up  direction +1  stock 30`` (and a waiting skip, a
    drawn card to play or leave)."""
    top = card_markup(NAMES[obs.top])
    if obs.top_as is not None:
        top += f" (as {card_markup(NAMES[obs.top_as])})"
    pending = f"[bold]{pending_text(obs.pending)}[/] to pick up" if obs.pending else "no penalty"
    line = (f"top {top}  suit {obs.active_suit or 'any'}  {pending}  "
            f"direction {obs.direction:+d}  stock {obs.stock_size}")
    if obs.pending_skip:
        line += "  [bold]a skip waits[/]"
    if obs.drawn_card is not None and obs.to_move == obs.seat:
        line += f"\nyou drew {card_markup(NAMES[obs.drawn_card])}{_after_draw_text(obs)}"
    return line


def _after_draw_text(obs: Observation) -> str:
    """What the rules let the person do with the card just drawn (C4: play it, no passing)."""
    actions = obs.legal_actions()
    choices = [words for words, allowed in (
        ("play it", any(isinstance(a, Play) and obs.drawn_card in a.cards for a in actions)),
        ("draw again", "draw" in obs.legal), ("pass", "pass" in obs.legal)) if allowed]
    return f": {' or '.join(choices)}" if choices else ""


def _flow(items: Sequence[str], width: int, head: str) -> list[str]:
    """Markup ``items`` laid in lines of at most ``width`` cells, two cells apart, the first
    line led by ``head`` and the others indented under it; an item is never split."""
    lines: list[str] = []
    line, used = head, cell_len(head)
    for item in items:
        size = Text.from_markup(item).cell_len
        if used > len(head) and used + 2 + size > width:
            lines.append(line)
            line, used = " " * len(head), len(head)
        sep = "  " if used > len(head) else ""
        line, used = line + sep + item, used + len(sep) + size
    lines.append(line)
    return lines


def render_hint(console: Console, hint: Hint) -> None:
    """The search bot's advice: its move (with its number when the list holds it) and its
    estimated win chance."""
    where = f"move {hint.number}" if hint.number is not None else "type it"
    console.print(f"hint: [bold]{escape(hint.action)}[/] ({where}), estimated win chance "
                  f"{hint.win_chance:.0%}")


def render_note(console: Console, note: str) -> None:
    """A note for the person (a move refused, no hint...): one yellow line."""
    console.print(Text(note, style="yellow"))


def render_play_result(console: Console, outcome: MatchOutcome | None, names: Sequence[str],
                       seat: int, seed: int, left: Sequence[CardsLeft] = ()) -> None:
    """The end of a game: who won (``you win``), the places best first and how a match went,
    every seat's cards ``left`` with their score; or, when the person left (``outcome`` None),
    that the game was abandoned. Then the seed that deals the same cards again. ``seat`` is
    the person's."""
    if outcome is None:
        console.print(Text("you left the game", style="bold"))
    else:
        if outcome.winner is None:
            head = "drawn game"
        elif outcome.winner == seat:
            head = "you win"
        else:
            head = f"{seat_label(outcome.winner, names)} wins"
        labels = [seat_label(s, names) for s in range(len(names))]
        if outcome.hands > 1 and outcome.reason is OutcomeReason.WINS:   # a match won on hands
            how = f" the match after {outcome.hands} hands" if outcome.winner is not None else ""
        else:
            how = f" ({outcome.reason.value}" + (f" after {outcome.hands} hands)" if outcome.hands > 1 else ")")
        console.print(f"[bold green]{escape(head)}{how}[/]")
        console.print(f"  places: {escape(places_text(labels, outcome.places))}")
        width = max(cell_len(label) for label in labels)
        for label, hand in zip(labels, left):
            score = f" = {hand.score} points" if hand.points and hand.cards else ""
            console.print(f"  {escape(label.ljust(width))} {len(hand.cards):>2}: "
                          f"{cards_markup(NAMES[c] for c in hand.cards)}{score}")
    console.print(f"seed {seed} (the same deal again: --seed {seed})")


def render_stored_game(console: Console, tournament: str, record: GameRecord) -> None:
    """The head of a stored game's replay: which game of which tournament, and its deal."""
    console.print(Text(f"game {record.game_id} of {tournament}, deal {record.deal_id}", style="bold"))


def render_stored_result(console: Console, record: GameRecord, outcome: Outcome | None) -> None:
    """What the store holds as the game's result, under the replay's: the winner, the places,
    each fault; and, when the replayed game's own ``outcome`` differs (a faulty bot is placed
    last whatever its cards did), why. A clean game whose result is the replay's says so; a
    match's (``outcome`` None: its last hand's is not the match's) is shown in full."""
    same = outcome is not None and (outcome.places, outcome.winner) == (record.places, record.winner)
    if same and not record.faults:
        console.print(Text("stored result: the same", style="bold"))
        return
    winner = record.winner_bot or "none"
    console.print(Text(f"stored result: winner {winner} ({record.reason.value})\n"
                       f"  places: {finishing_order(record)}", style="bold"))
    for fault in record.faults:
        detail = f": {inert(fault.detail)}" if fault.detail else ""
        console.print(Text(f"fault: {seat_label(fault.seat, record.table)} {fault.code.name}{detail}",
                           style="yellow"))
    if outcome is not None and not same:
        console.print(Text("the replay's result differs from the stored one: a bot that faults is "
                           "placed last in its game (a fallback played its seat from the fault on)",
                           style="yellow"))


def render_verification(console: Console, name: str, checked: Verification, dropped: bool) -> None:
    """``arena verify``: how many stored games replay to their result, and each one that does not."""
    if not checked.diverging:
        console.print(Text(f"{name}: all {checked.games} stored games replay to their stored result",
                           style="bold"))
        return
    count = len(checked.diverging)
    console.print(Text(f"{name}: {count} of {checked.games} stored games do not replay to their "
                       "stored result with this engine", style="bold yellow"))
    for found in checked.diverging:
        console.print(Text(f"game {found.game_id}: {inert(found.detail)}"))
    if dropped:
        console.print(Text(f"{count} games taken out of the store: arena run plays them again "
                           "(the rankings leave them out until then)", style="bold"))
    else:
        console.print(Text("--drop takes them out, for arena run to play them again", style="bold"))


def render_bench(console: Console, results: list[BenchResult], peer: bool = True) -> None:
    """A table of benchmark results, and the ratio of arena's games/s to a ``peer`` engine's
    when one ran too (the second row)."""
    table = Table(title="Benchmark")
    for column in ("engine", "seats", "games", "seconds", "games/s", "decisions/s"):
        table.add_column(column, justify="right" if column != "engine" else "left")
    for r in results:
        table.add_row(r.rules, str(r.seats), str(r.games), f"{r.seconds:.2f}",
                      f"{r.games_per_s:,.0f}", f"{r.decisions_per_s:,.0f}")
    console.print(table)
    console.print(f"arena's engine: {_BUILDS.get(results[0].build, results[0].build)}")
    if peer and len(results) == 2 and results[1].games_per_s:
        ratio = results[0].games_per_s / results[1].games_per_s
        console.print(f"games/s ratio arena / {results[1].rules}: [bold]{ratio:.2f}[/]")


_BUILDS = {"mypyc": "compiled (mypyc)", "python": "pure Python"}  # bench's engine_build()


def render_playout_bench(console: Console, timed: PlayoutBenchResult) -> None:
    """The figures of ``arena bench --playouts``."""
    per = timed.decisions / timed.playouts if timed.playouts else 0.0
    kind = "random" if timed.tries == 1 else f"informed ({timed.tries} plays built a turn)"
    console.print(f"{timed.rules}, {timed.seats} seats: {timed.playouts:,} {kind} playouts from "
                  f"{timed.positions} mid-game positions in {timed.seconds:.2f}s CPU: "
                  f"[bold]{timed.playouts_per_s:,.0f} playouts/s[/] ({per:.1f} decisions each); "
                  f"engine: {_BUILDS.get(timed.build, timed.build)}")


def render_rankings_bench(console: Console, timed: RankingsBenchResult) -> None:
    """The figures of ``arena bench --rankings``."""
    console.print(f"{timed.games:,} synthetic games ({timed.bots} bots, {timed.seats} seats) stored "
                  f"in {timed.store_seconds:.1f}s ({timed.store_us_per_game:.0f} us a game, rated "
                  f"as they are stored); rankings: {timed.rank_seconds:.3f}s")


def render_cluster_bench(console: Console, compared: ClusterBenchResult) -> None:
    """The figures of ``arena bench --cluster``: both backends, a batch's cost, the projection."""
    for run in (compared.local, compared.dask):
        console.print(f"{run.backend:>12}: {run.games:,} games in {run.seconds:.1f}s, "
                      f"[bold]{run.games_per_s:.1f} games/s[/] with {run.workers} workers; CPU "
                      f"{run.cpu_ms_per_game:.2f} ms/game (parent {run.parent_ms_per_game:.2f})")
    console.print(f"cluster / local: [bold]{compared.ratio:.0%}[/] of the games/s (goal >= 90%), "
                  f"{compared.cpu_ratio:.0%} of the CPU efficiency; the cluster started in "
                  f"{compared.cluster_start_s:.1f}s (not in its run)")
    console.print(f"a batch: {compared.dask.games / max(1, compared.batches):.0f} games on average "
                  f"({compared.batches} batches); one Dask task costs the parent "
                  f"{compared.task_parent_ms:.2f} ms CPU, {compared.task_wall_ms:.2f} ms of wall "
                  f"when queued; a game {compared.game_ms:.1f} ms on a worker")
    projected = project(compared, 100, compared.dask.workers)
    console.print(f"on paper, 100 machines of {projected.cores} workers: the workers would play "
                  f"{projected.demand:,.0f} games/s, the one writer takes {projected.writer:,.0f} "
                  f"({compared.writer_ms_per_game:.2f} ms a game + a task per "
                  f"{projected.batch_games} games): [bold]{projected.sustained:,.0f} games/s[/], the "
                  f"writer saturating from {projected.saturating_machines:.1f} machines")


def render_sandbox_bench(console: Console, measured: SandboxBenchResult) -> None:
    """Sandboxed games next to in-process ones, and the round trip next to the raw IPC cost."""
    render_bench(console, [measured.sandboxed, measured.inprocess], peer=False)
    ratio = measured.round_trip_us / measured.raw_round_trip_us if measured.raw_round_trip_us else 0.0
    rotating = measured.round_trip_us / measured.raw_rotating_us if measured.raw_rotating_us else 0.0
    console.print(f"decision round trip to a sandboxed bot: [bold]{measured.round_trip_us:.1f} us[/] "
                  f"over {measured.asked:,} asked decisions")
    console.print(f"raw JSON-line round trip on the same channel: one process {measured.raw_round_trip_us:.1f} us "
                  f"(ratio {ratio:.2f}); going round {measured.sandboxed.seats} processes as a game does "
                  f"{measured.raw_rotating_us:.1f} us (ratio {rotating:.2f}); goal <= 2")
    console.print(f"start of a bot's fresh process for each game: [bold]{measured.game_start_ms:.2f} ms[/] "
                  "(median; goal <= 3)")


# -- bots: the list, submit's report, duels ------------------------------------------------

FILE_MIN = 24  # a bot's file path keeps this many cells while a name can give way
FILE_FLOOR = 12  # and never fewer


def _path_cut(path: str, width: int) -> str:
    """A path in ``width`` cells, cut nearer its start than its end: the file name stays."""
    return path if len(path) <= width else _cut(path, width, min(8, width // 3))


def render_bots(console: Console, workspace: Workspace) -> None:
    """The built-in, registered and local bots of a workspace: name, kind, file (a registered
    bot's under the workspace), hash, date; paths are cut before the file name to fit the
    console. A registered bot whose file changed after it was submitted is marked so."""
    rows = [(name, "built-in", str(builtin_dir() / f"{name}.py"), "", "") for name in BUILTIN_BOTS]
    rows += [(e.name, _registered_kind(workspace, e), str(Path(workspace.bots_dir.name) / e.file),
              e.sha256[:12], e.date[:16].replace("T", " ")) for e in workspace.registry.entries().values()]
    rows += [(path.stem, "local", str(Path(workspace.bots_dir.name) / path.name), "", "")
             for path in workspace.local_bots()]
    headers = ("name", "kind", "file", "sha256", "registered")
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    # Too wide: the file paths give way first (keeping the file's name), then the names.
    for column, floor in ((2, FILE_MIN), (0, NAME_MIN), (2, FILE_FLOOR), (0, NAME_FLOOR)):
        over = _span(widths) - console.width
        if over > 0:
            widths[column] = max(min(floor, widths[column]), widths[column] - over)
    names = short_names([r[0] for r in rows], widths[0])
    cells = [[names[r[0]], r[1], _path_cut(r[2], widths[2]), r[3], r[4]] for r in rows]
    _title(console, f"bots in {workspace.root}")
    _print_table(console, [_Column(h, h, [row[i] for row in cells], "left")
                           for i, h in enumerate(headers)])
    render_names(console, names)
    # whole, unlike the cut paths above: where to find the files the bot guide points to
    console.print(Text(f"built-in bots' files: {builtin_dir()}; examples to copy (a bot with "
                       f"options, a command bot): {builtin_dir() / 'examples'}", style="dim"),
                  overflow="fold")
    _render_bot_options(console, workspace, [r[0] for r in rows])


def _registered_kind(workspace: Workspace, entry: RegistryEntry) -> str:
    """``registered``, or ``changed`` when its files are no longer the bytes submitted (the
    name is refused until it is submitted again), or ``missing``."""
    now = workspace.current_version(entry)
    return "missing" if now is None else "registered" if now == entry.sha256 else "changed"


def _render_bot_options(console: Console, workspace: Workspace, names: list[str]) -> None:
    """Each bot's declared options, a line each (``name  key: type range, default; help``);
    a bot whose declaration cannot be read says why, the others are still listed."""
    lines: list[tuple[str, str]] = []
    for name in names:
        try:
            declared = [option.describe() for option in declared_options(workspace.resolve_bot(name))]
        except ArenaError as error:
            declared = [f"cannot read its options: {error}"]
        lines += [(name, text) for text in declared]
    if not lines:
        console.print(Text("options: no bot declares any", style="dim"))
        return
    _title(console, "options")
    grid = Table.grid(padding=(0, 2))   # a wrapped line goes on under its text, not at column 0
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for name, text in lines:
        grid.add_row(Text(f"  {name}"), Text(inert(text)))   # a bot's own words
    console.print(grid)


def render_validation(out: Console, report: ValidationReport) -> None:
    """One line per check; the failed check's detail under it."""
    for check in report.checks:
        mark = "[green]ok[/]  " if check.passed else "[bold red]FAIL[/]"
        out.print(f"{mark} {check.name}", markup=True)
        if not check.passed:
            out.print(inert(check.detail), markup=False, highlight=False, soft_wrap=True)
    if not report.passed:
        failed = report.failed
        out.print(f"rejected: check '{failed.name}' failed" if failed else "rejected", style="bold red")


def render_duel(console: Console, result: DuelResult) -> None:
    """The duel's table (games, wins, win rate against par, faults), then the scores: two bots
    head to head (score, Elo, LOS, the pentanomial pairs and the SPRT), more bots each against
    the field; then each faulty bot's first fault with the last lines of its output. A name too
    long for the width is cut in the middle in both tables and shown whole once below them; in
    a narrow console the less needed columns are left out first (:data:`DUEL_DROPS`)."""
    title = f"{result.rules}: {result.games} games, {result.seats} seats, {result.draws} drawn"
    tallies = [[str(t.seats), str(t.games), str(t.wins), f"{t.win_rate:.1%}", f"{result.par(t):.1%}",
                ", ".join(f"{code} {n}" for code, n in sorted(t.faults.items())) or "-",
                _ms_text(t.ms_per_move)] for t in result.tallies]
    headers = ["seats", "games", "wins", "win rate", "par", "faults", "ms/move"]
    scores = _field_scores(result) if result.deals and len(result.tallies) > 2 else None
    # the faults cell may wrap (several codes): it keeps room for the longest, "TIMEOUT 120,"
    budget = [[*row[:5], row[5][:FAULTS_ROOM], row[6]] for row in tallies]
    longest = max(cell_len(t.name) for t in result.tallies)
    kept, room = _duel_columns(console, headers, budget, DUEL_DROPS, longest)
    if scores:
        kept_scores, score_room = _duel_columns(console, FIELD_HEADERS, scores, FIELD_DROPS, longest)
        room = min(room, score_room)
    names = short_names([t.name for t in result.tallies], max(room, NAME_FLOOR))
    console.print(_duel_table(title, [headers[i] for i in kept], [names[t.name] for t in result.tallies],
                              [[row[i] for i in kept] for row in tallies], wraps="faults"))
    if not result.deals:
        console.print("no deal was played in every seating: no score (play more games)")
    elif scores is None:
        _render_head_to_head_score(console, result)
    else:
        console.print(_duel_table(f"score against the field, over {_count(result.deals, 'deal')}",
                                  [FIELD_HEADERS[i] for i in kept_scores],
                                  [names[t.name] for t in result.tallies],
                                  [[row[i] for i in kept_scores] for row in scores], left_title=True))
    render_names(console, names)
    if result.sprt is not None:
        for line in sprt_lines(result.sprt, result.budget):
            console.print(line)
    _render_duel_faults(console, result)


FIELD_HEADERS = ["score [95%]", "Elo [95%]", "LOS"]
FAULTS_ROOM = 12  # a duel's faults cell wraps at its commas within this many cells
# the columns a narrow console leaves out, first to last (the Elo says again what the score says)
DUEL_DROPS = ("ms/move", "par", "seats")
FIELD_DROPS = ("LOS", "Elo [95%]")


def _duel_columns(console: Console, headers: Sequence[str], rows: Sequence[Sequence[str]],
                  drops: Sequence[str], longest: int) -> tuple[list[int], int]:
    """The columns of a duel table to keep (indices into ``headers``) and the cells they leave
    the bot names: the fullest set that leaves the names ``NAME_FLOOR`` cells (or the
    ``longest`` name's, if fewer), leaving out columns in the order of ``drops``; a table any
    fuller would be squeezed by rich, which cuts a fault code or two names alike."""
    for count in range(len(drops) + 1):
        kept = [i for i, header in enumerate(headers) if header not in drops[:count]]
        room = _name_room(console, [headers[i] for i in kept], [[row[i] for i in kept] for row in rows])
        if room >= min(longest, NAME_FLOOR):
            break
    return kept, room


def _name_room(console: Console, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The cells a bot column can have beside ``headers``' columns of ``rows`` in a boxed
    table of the console's width (each column pads a cell each side, each border one cell)."""
    others = sum(max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers))
    return console.width - others - 3 * (len(headers) + 1) - 1


def _duel_table(title: str, headers: Sequence[str], names: Sequence[str],
                rows: Sequence[Sequence[str]], left_title: bool = False, wraps: str = "") -> Table:
    """A boxed table of bots (``names``, already cut to fit) and their ``rows``; no cell wraps
    but the column ``wraps`` names."""
    table = Table(title=title, title_justify="left" if left_title else "center")
    table.add_column("bot", justify="left", no_wrap=True)
    for header in headers:
        table.add_column(header, justify="right", no_wrap=header != wraps)
    for name, row in zip(names, rows):
        table.add_row(Text(name), *row)
    return table


def _field_scores(result: DuelResult) -> list[list[str]]:
    """Each bot's score against the field (0.5: no better than the others), Elo and LOS."""
    rows = []
    for tally in result.tallies:
        estimate = tally.score
        assert estimate is not None
        rows.append([_score_text(estimate), _elo_text(estimate), _los_text(estimate)])
    return rows


def _render_head_to_head_score(console: Console, result: DuelResult) -> None:
    """The first bot's score against the second, with its Elo difference and LOS."""
    first, second = result.tallies
    estimate = first.score
    assert estimate is not None
    noun = "deal pair" if result.pairs is not None else "deal"
    units = _count(result.deals, noun)
    console.print(f"[bold]{escape(first.name)}[/] vs [bold]{escape(second.name)}[/] over {units}: "
                  f"score {_score_text(estimate)}")
    nelo = "" if estimate.nelo is None else f"   nElo {_nelo_text(estimate)}"
    console.print(f"  Elo {_elo_text(estimate)}{nelo}   LOS {_los_text(estimate)}")
    if estimate.variance == 0:
        console.print(f"  no interval yet: every {noun} scored the same")
    if result.pairs is not None:
        counts = "  ".join(f"{label}: {n}" for label, n in zip(PAIR_LABELS, result.pairs.counts))
        console.print(f"  pairs by points  {counts}")


PAIR_LABELS = ("0", "½", "1", "1½", "2")


def _count(number: int, noun: str) -> str:
    """``1 deal``, ``2 deals``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _score_text(estimate: Estimate) -> str:
    """``0.679 [0.575, 0.782]``; the score alone while every unit scored the same (a zero-width
    interval would claim a certainty that a deal or two cannot give)."""
    if estimate.variance == 0:
        return f"{estimate.score:.3f}"
    low, high = estimate.interval
    return f"{estimate.score:.3f} [{low:.3f}, {high:.3f}]"


def _elo_text(estimate: Estimate) -> str:
    """The logistic Elo with its interval (alone, as the score, while it has none)."""
    if estimate.variance == 0:
        return f"{estimate.elo:+.1f}"
    low, high = estimate.elo_interval
    return f"{estimate.elo:+.1f} [{low:+.1f}, {high:+.1f}]"


def _los_text(estimate: Estimate) -> str:
    """The likelihood of superiority, ``-`` while the score has no interval."""
    return "-" if estimate.variance == 0 else f"{estimate.los:.1%}"


def _nelo_text(estimate: Estimate) -> str:
    assert estimate.nelo is not None and estimate.nelo_interval is not None
    low, high = estimate.nelo_interval
    return f"{estimate.nelo:+.1f} [{low:+.1f}, {high:+.1f}]"


def sprt_lines(outcome: SprtOutcome, budget: int) -> list[str]:
    """The test and its verdict (or that the budget ran out), then its LLR and bounds."""
    test = outcome.sprt
    unit = "nElo" if test.model == "normalized" else "Elo"
    head = f"SPRT {unit} {test.elo0:g} vs {test.elo1:g}, alpha {test.alpha:g}, beta {test.beta:g}: "
    if outcome.verdict == "H1":
        verdict = f"[bold green]H1 accepted[/] ({test.elo1:g}) after {outcome.games:,} games"
    elif outcome.verdict == "H0":
        verdict = f"[bold red]H0 accepted[/] ({test.elo0:g}) after {outcome.games:,} games"
    else:
        verdict = f"[yellow]no decision[/] within {budget:,} games"
    return [head + verdict,
            f"  LLR {outcome.llr:.2f}, bounds [{test.lower:.2f}, {test.upper:.2f}]"]


def _render_duel_faults(console: Console, result: DuelResult) -> None:
    """Per faulty bot: how many faults, the first one's detail and the end of the bot's output
    (a command bot's stderr, a Python bot's prints and traceback)."""
    shown: set[str] = set()
    for fault in result.faults:
        if fault.bot in shown:
            continue
        shown.add(fault.bot)
        count = sum(1 for f in result.faults if f.bot == fault.bot)
        console.print(f"[bold yellow]{escape(fault.bot)}[/] faulted {_count(count, 'time')}; "
                      f"the first, seat {fault.seat}: {fault.code.name}", highlight=False)
        console.print(Text(f"  {inert(fault.detail)}"), soft_wrap=True)
        tail = fault.log_tail.strip().splitlines()[-DUEL_TAIL_LINES:]
        if tail and "\n".join(tail) not in fault.detail:
            console.print(Text(f"  last lines of {fault.bot}'s output:"))
            for line in tail:
                console.print(Text(f"  | {inert(line)}"), soft_wrap=True)


DUEL_TAIL_LINES = 5


def duel_progress_view(progress: DuelProgress | None, bar_width: int = 10) -> RenderableType:
    """One line for a running duel: a bar, games of the budget, games/s, ETA, the SPRT's LLR and
    the bound it heads for, then the first bot's score and Elo so far. It never wraps: in a
    narrow terminal its end is cut."""
    if progress is None:
        return Text("starting the workers...")
    bar = ProgressBar(total=max(progress.budget, 1), completed=progress.games, width=bar_width)
    line = Table.grid()
    line.add_column(width=bar_width, no_wrap=True)
    line.add_column(no_wrap=True, overflow="ellipsis")
    line.add_row(bar, Text(" " + duel_progress_text(progress)))
    return line


def duel_progress_text(progress: DuelProgress) -> str:
    """``1,234/4,000 12/s ETA 1:02  LLR 1.20/2.94  mcts 0.612 Elo +80``: the live line's text,
    and the line printed now and then where the output is not a terminal."""
    text = (f"{progress.games:,}/{progress.budget:,} {progress.games_per_s:.0f}/s "
            f"ETA {format_duration(progress.eta_s)}")
    if progress.sprt is not None:
        test, llr = progress.sprt.sprt, progress.sprt.llr
        text += f"  LLR {llr:.2f}/{test.upper if llr >= 0 else test.lower:.2f}"
    if progress.score is not None:
        text += f"  {progress.first} {progress.score.score:.3f} Elo {progress.score.elo:+.0f}"
    return text


# -- calibration ----------------------------------------------------------------------------

def render_calibration(console: Console, result: Calibration) -> None:
    """What was played; the false separation of both views (runs separated at some check, pairs
    apart at the end); the deals that played alike in every seating; the seat bias."""
    copies = result.copies
    named = f"{copies[0]} ... {copies[-1]}" if len(copies) > 2 else " and ".join(copies)
    _title(console, f"{result.bot}: {len(copies)} copies, {_count(len(result.runs), 'run')} of "
                    f"{result.games:,} games, {result.rules} at {result.seats} seats")
    console.print(Text(f"copies {named}, seed {result.seed}", style="dim"))
    console.print(Text(f"false separation at margin {result.margin:g}: every neighbouring gap "
                       f">= {result.margin:g} sigmas"))
    views = [("as played", [run.as_played for run in result.runs], result.as_played),
             ("each deal once", [run.each_deal_once for run in result.runs],
              result.each_deal_once)]
    _print_table(console, [
        _Column("view", "view", [name for name, _, _ in views], "left"),
        _Column("games", "games a run",
                [f"{sum(v.games for v in runs) / len(runs):,.0f}" for _, runs, _ in views]),
        _Column("runs", "runs separated [95%]", [_share_cell(found.runs) for _, _, found in views]),
        _Column("pairs", "pairs apart at the end [95%]",
                [_share_cell(found.pairs) for _, _, found in views]),
    ])
    console.print(Text(CALIBRATION_LEGEND, style="dim"))
    if result.deals:
        every = result.identical_deals == result.deals
        console.print(Text(f"{result.identical_deals:,} of {result.deals:,} deals played the same "
                           "game in every seating" + (":" if every else "")))
        if every:
            console.print(Text(IDENTICAL_NOTE))
    if result.faulty_games:
        console.print(Text(f"{_count(result.faulty_games, 'game')} with a fault", style="yellow"))
    bias = result.seat_bias
    console.print(Text(f"seat advantage over {bias.games:,} games ({bias.deals:,} deals):"))
    for line in seat_bias_lines(bias, console.width):
        console.print(Text(line), soft_wrap=True)


CALIBRATION_LEGEND = "as played: every game rated; each deal once: one seating of each deal rated"
IDENTICAL_NOTE = "  the copies' luck cancels exactly, so as played equals stay together"


def _share_cell(share: Share) -> str:
    """``3/20  15.0 [5.2-36.0]``: the count, then the rate in percent with its interval."""
    return f"{share.count}/{share.total}  {_percent_cell(share.rate, share.interval)}"


def calibration_progress_view(progress: CalibrationProgress | None,
                              bar_width: int = 10) -> RenderableType:
    """One line for a running calibration: a bar over every run's games, the run, its games
    and the ETA. It never wraps: in a narrow terminal its end is cut."""
    if progress is None:
        return Text("starting the workers...")
    total = progress.runs * progress.budget
    done = (progress.run - 1) * progress.budget + min(progress.games, progress.budget)
    eta = progress.elapsed / done * (total - done) if done else None
    bar = ProgressBar(total=max(total, 1), completed=done, width=bar_width)
    line = Table.grid()
    line.add_column(width=bar_width, no_wrap=True)
    line.add_column(no_wrap=True, overflow="ellipsis")
    line.add_row(bar, Text(f" run {progress.run}/{progress.runs}  {progress.games:,}/"
                           f"{progress.budget:,} games  ETA {format_duration(eta)}"))
    return line


# -- tournaments: rankings, crosstable, games ------------------------------------------------

DQ_MARK = " (DQ)"
FAULT_MARK = " !"
RANKINGS_LEGEND = "! faulted  (DQ) disqualified  faults: games with a fault (share of its games)"
# Left out in this order when the console is narrow: each is shown by --json and can be derived
# from what stays (wins from the win rate, sigma from mu and mu-3σ).
RANKINGS_DROPS = ("ms_per_move", "wins", "sigma", "games", "mu")


def render_rankings(console: Console, rankings: Rankings, reveal_seed: bool = False) -> None:
    """The rankings table (as many columns as the console's width holds), the legend of its
    marks, and any cut bot name in full; a drawn seed only when ``reveal_seed``."""
    public_seed = rankings.seed_shown(reveal_seed)
    seed = (", seed drawn at random (--show-seed)" if rankings.seed_hidden(reveal_seed)
            else "" if public_seed is None else f", seed {public_seed}")
    versions = len(set(rankings.code_versions))
    code = f", played by {versions} versions of the arena code" if versions > 1 else ""
    _title(console, f"{rankings.tournament}: {rankings.games} games{seed}{code}")
    standings = rankings.standings
    columns = [
        _Column("rank", "#", [str(s.rank) for s in standings]),
        _Column("mu", "mu", [f"{s.mu:.2f}" for s in standings]),
        _Column("sigma", "sigma", [f"{s.sigma:.2f}" for s in standings]),
        _Column("score", "mu-3σ", [f"{s.score:.2f}" for s in standings]),
        _Column("games", "games", [str(s.stats.games) for s in standings]),
        _Column("wins", "wins", [str(s.stats.wins) for s in standings]),
        _Column("win_rate", "win % [95%]", [_rate_cell(s.stats) for s in standings]),
        _Column("mean_place", "mean place [95%]", [_place_cell(s.stats) for s in standings]),
        _Column("faults", "faults", [_fault_cell(s.stats) for s in standings]),
        _Column("ms_per_move", "ms/move", [_think_cell(s.stats) for s in standings]),
    ]
    marks = [_mark(s) for s in standings]
    longest = max([3, *(len(s.bot) + len(m) for s, m in zip(standings, marks))])
    kept, name_width = _fit_columns(console.width, columns, RANKINGS_DROPS, longest)
    shown = short_names([s.bot for s in standings],
                        {s.bot: name_width - len(m) for s, m in zip(standings, marks)})
    bots = _Column("bot", "bot", [shown[s.bot] + m for s, m in zip(standings, marks)], "left")
    _print_table(console, [kept[0], bots, *kept[1:]], [_row_style(s) for s in standings])
    if rankings.seat_bias is not None:
        for line in seat_bias_lines(rankings.seat_bias, console.width):
            console.print(Text(line), soft_wrap=True)
    console.print(Text(RANKINGS_LEGEND, style="dim"))
    left_out = [c.header for c in columns if c not in kept]
    if left_out:
        console.print(Text(f"left out at this width: {', '.join(left_out)} (--json has them)",
                           style="dim"))
    render_names(console, shown)


SEAT_BIAS_HEAD = "win % by seat [95%]: "


def seat_bias_lines(bias: SeatBias, width: int) -> list[str]:
    """Each seat's win rate with its interval, then the fair share and the draws, laid in lines
    of ``width`` cells: ``win % by seat [95%]: 0: 31.2 [27.0-35.7]  1: 24.8 [...]  ...  fair
    share 25.0  3 draws``."""
    items = [f"{rate.seat}: {_percent_cell(rate.win_rate, rate.win_rate_ci)}" for rate in bias.seats]
    items.append(f"fair share {bias.fair_share * 100:.1f}")
    if bias.draws:
        items.append(f"{bias.draws:,} draw{'' if bias.draws == 1 else 's'}")
    return _flow(items, width, SEAT_BIAS_HEAD)   # no markup: a bracket before a digit is no tag


def _percent_cell(rate: float | None, interval: tuple[float, float] | None) -> str:
    """A share in percent with its interval: ``44.4 [20.0-70.0]``, ``-`` when unknown."""
    if rate is None or interval is None:
        return "-"
    return f"{rate * 100:.1f} [{interval[0] * 100:.1f}-{interval[1] * 100:.1f}]"


def render_head_to_head(console: Console, rankings: Rankings) -> None:
    """Crosstable: row bot finished ahead of column bot in ``ahead/shared`` games; columns are
    numbered by rank, and split into blocks when they do not fit the console's width."""
    bots = rankings.bots
    _title(console, "head to head")
    grid = [[_h2h_cell(rankings, a, b) for b in bots] for a in bots]
    numbers = [str(i + 1) for i in range(len(bots))]
    cell = max([1, *(len(n) for n in numbers), *(len(c) for row in grid for c in row)])
    rank = _Column("rank", "#", numbers)
    longest = max([3, *(len(b) for b in bots)])
    label = rank.width + GAP  # and the names; then each bot's column costs GAP + cell

    def fitting(name_width: int) -> int:
        return max(1, (console.width - label - name_width) // (GAP + cell))

    name_width = longest
    if fitting(longest) < len(bots):  # cut the names (to NAME_MIN at most) before splitting
        name_width = max(min(longest, NAME_MIN), console.width - label - len(bots) * (GAP + cell))
    per_block = fitting(name_width)
    shown = short_names(bots, name_width)
    names = _Column("bot", "bot", [shown[b] for b in bots], "left")
    for start in range(0, len(bots), per_block):
        block = [_Column(f"vs{i}", numbers[i], [row[i] for row in grid])
                 for i in range(start, min(start + per_block, len(bots)))]
        _print_table(console, [rank, names, *block])
    console.print(Text("row bot ahead of column bot / games shared; columns by rank", style="dim"))
    render_names(console, shown)


# Left out in this order when the console is narrow: the seats are all in the finishing
# order, the deal and the winner (the first seat of the order when it stands alone) in --json.
GAMES_DROPS = ("seats", "deal", "winner")


def render_games(console: Console, records: Sequence[GameRecord], matched: int | None = None,
                 first: int = 0) -> None:
    """A list of games: id, deal, seats, winner, finishing order, reason, moves, faults.

    ``matched`` is how many games the selection holds when ``records`` is a page of it that
    starts at the ``first`` of them (a line under the table says which games are shown).
    """
    names = {name for record in records for name in record.table}
    longest = max([3, *(len(n) for n in names)])
    widths = _GamesWidths(records)
    drops: tuple[str, ...] = ()
    for count in range(len(GAMES_DROPS) + 1):
        drops = GAMES_DROPS[:count]
        if _span(widths.at(min(longest, NAME_MIN), drops)) <= console.width:
            break
    width = longest
    while width > NAME_FLOOR and _span(widths.at(width, drops)) > console.width:
        width -= 1
    shown = short_names(names, width)
    _title(console, "games")
    if not records:
        console.print(Text(f"no game on this page: {matched} selected" if matched
                           else "no game selected", style="dim"))
        return
    _print_table(console, [c for c in _games_columns(records, shown) if c.key not in drops],
                 ["yellow" if r.faults else "" for r in records])
    if matched is not None and (first or len(records) < matched):
        last = first + len(records)
        # rows, not ids: ids count from 0, and a filtered selection skips some
        console.print(Text(f"rows {first + 1}-{last} of the {matched} games selected", style="dim"))
    if drops:
        headers = {c.key: c.header for c in _games_columns([], {})}
        console.print(Text(f"left out at this width: {', '.join(headers[d] for d in drops)} "
                           "(--json has them)", style="dim"))
    render_names(console, shown)


def _games_columns(records: Sequence[GameRecord], shown: Mapping[str, str]) -> list[_Column]:
    return [
        _Column("id", "id", [str(r.game_id) for r in records]),
        _Column("deal", "deal", [str(r.deal_id) for r in records]),
        _Column("seats", "seats", [" ".join(shown[n] for n in r.table) for r in records], "left"),
        _Column("winner", "winner", [shown[r.winner_bot] if r.winner_bot else "-" for r in records],
                "left"),
        _Column("order", "finishing order", [finishing_order(r, shown) for r in records], "left"),
        _Column("reason", "reason", [r.reason.value for r in records], "left"),
        _Column("moves", "moves", [str(r.decisions) for r in records]),
        _Column("faults", "faults", [_faults_text(r, shown) for r in records], "left"),
    ]


class _GamesWidths:
    """The column widths of :func:`render_games` for any width of the names, without building
    a cell: the columns holding names depend only on the distinct tables, winners and faults,
    the others not at all."""

    def __init__(self, records: Sequence[GameRecord]) -> None:
        self.fixed = {  # the widest cell of each column without names ("-" when it has none)
            "id": max([1, *(len(str(r.game_id)) for r in records)]),
            "deal": max([1, *(len(str(r.deal_id)) for r in records)]),
            "reason": max([1, *(len(r.reason.value) for r in records)]),
            "moves": max([1, *(len(str(r.decisions)) for r in records)]),
        }
        self.tables = {r.table for r in records}
        self.winners = {r.winner_bot for r in records if r.winner_bot}
        self.faults = {tuple((f.bot, f.code.name) for f in r.faults) for r in records if r.faults}
        self.headers = {c.key: len(c.header) for c in _games_columns([], {})}

    def at(self, width: int, drops: Sequence[str]) -> list[int]:
        """The widths of the columns not in ``drops`` with names cut to ``width``."""
        def names(table: Iterable[str]) -> int:
            return sum(min(len(n), width) for n in table)

        cells = dict(self.fixed)
        cells["seats"] = max([1, *(names(t) + len(t) - 1 for t in self.tables)])
        cells["winner"] = max([1, *(min(len(w), width) for w in self.winners)])
        cells["order"] = max([1, *(names(t) + 3 * (len(t) - 1) for t in self.tables)])
        cells["faults"] = max([1, *(sum(min(len(b), width) + 2 + len(c) for b, c in f) + 2 * (len(f) - 1)
                                    for f in self.faults)])
        return [max(h, cells[key]) for key, h in self.headers.items() if key not in drops]


def finishing_order(record: GameRecord, shown: Mapping[str, str] | None = None) -> str:
    """Bots best first: ``>`` between places, ``=`` inside a shared place (``b > a = d > c``);
    names as ``shown`` gives them (cut to fit) when given."""
    names = [shown[b] for b in record.table] if shown else record.table
    return places_text(names, record.places)


def _mark(standing: Standing) -> str:
    if standing.disqualified:
        return DQ_MARK
    return FAULT_MARK if standing.stats.faults else ""


def _row_style(standing: Standing) -> str:
    if standing.disqualified:
        return "dim strike"
    return "" if standing.clean else "yellow"


def _rate_cell(stats: BotStats) -> str:
    """The win rate in percent with its 95% interval: ``44.4 [20.0-70.0]``."""
    return _percent_cell(stats.win_rate, stats.win_rate_ci)


def _place_cell(stats: BotStats) -> str:
    """The mean place with its 95% interval: ``2.00 [1.50-2.50]``."""
    if stats.mean_place is None or stats.mean_place_ci is None:
        return "-"
    low, high = stats.mean_place_ci
    return f"{stats.mean_place:.2f} [{low:.2f}-{high:.2f}]"


def _fault_cell(stats: BotStats) -> str:
    """The games with a fault and their share of the bot's games: ``2 (6.2%)``, ``0``."""
    if not stats.faults:
        return "0"
    rate = stats.faults / stats.games if stats.games else 1.0
    return f"{stats.faults} ({rate:.1%})" if rate >= 0.001 else f"{stats.faults} (<0.1%)"


def _think_cell(stats: BotStats) -> str:
    """The bot's mean reply time per move, ``-`` when no move of it was timed."""
    return _ms_text(stats.ms_per_move)


def _ms_text(ms: float | None) -> str:
    """Milliseconds a move: ``540``, ``2.5``; ``-`` for none."""
    return "-" if ms is None else f"{ms:.0f}" if ms >= 10 else f"{ms:.1f}"


def _h2h_cell(rankings: Rankings, a: str, b: str) -> str:
    if a == b:
        return "·"
    cell = rankings.head_to_head.get((a, b))
    return f"{cell.ahead}/{cell.games}" if cell else "-"


def _faults_text(record: GameRecord, shown: Mapping[str, str]) -> str:
    return ", ".join(f"{shown[f.bot]}: {f.code.name}" for f in record.faults) or "-"


# -- the live display of a running tournament ---------------------------------------------

BAR_MIN = 10  # the progress bar's narrowest, before the line moves under it
BAR_MAX = 40


def progress_view(progress: Progress | None, width: int = 80) -> RenderableType:
    """Games done of total with a bar, games/s, ETA, faults, and the live top 5, fitted to a
    console ``width`` cells wide. An adaptive tournament's total is its budget, and a line says
    its round and how far its live ranking is from separated."""
    if progress is None:
        return Text("starting the workers...")
    line = Text(progress_numbers(progress))
    room = width - line.cell_len - 1
    bar = ProgressBar(total=max(progress.total, 1), completed=progress.done,
                      width=max(BAR_MIN, min(BAR_MAX, room)))
    header = Table.grid(padding=(0, 1, 0, 0))
    if room >= BAR_MIN:
        header.add_row(bar, line)
    else:  # too narrow for both on one line: the bar above its numbers
        header.add_row(bar)
        header.add_row(line)
    if progress.course is None:
        return Group(header, leaders_table(progress, width))
    state = progress.course
    # the bar's total is the budget: the line says where the ranking stands
    where = Text(middle_cut(f"{state.format} round {state.rounds}: "
                            + separation_text(state.separation), width))
    return Group(header, where, leaders_table(progress, width))


def progress_numbers(progress: Progress) -> str:
    """``812/2000 games  0.9/s  ETA 22:00  faulty 0``: the live view's line under its bar."""
    return (f"{progress.done}/{progress.total} games  {progress.games_per_s:.1f}/s  "
            f"ETA {format_duration(progress.eta_s)}  faulty {progress.faulty_games}"
            + (f"  skipped {progress.skipped}" if progress.skipped else ""))


def progress_line(progress: Progress) -> str:
    """The run's progress on one line, for output that is not a terminal (a file, a pipe, a
    CI log): the tournament, the live view's numbers, its leader and, for an adaptive
    tournament, how far its ranking is from separated."""
    line = f"{progress.tournament}: {progress_numbers(progress)}"
    if progress.leaders and progress.leaders[0].games:
        top = progress.leaders[0]
        rate = "-" if top.win_rate is None else f"{top.win_rate:.1%}"
        line += f"  leader {top.bot} (mu-3σ {top.score:.1f}, win rate {rate})"
    if progress.course is not None:
        state = progress.course
        line += f"  {state.format} round {state.rounds}: {separation_text(state.separation)}"
    return line


def separation_text(measured: Separation) -> str:
    """How far a ranking is from separated: ``2/3 pairs apart, closest a-b 0.90σ of 1.5σ``."""
    text = f"{measured.pairs_apart}/{len(measured.gaps)} pairs apart"
    closest = measured.closest
    if closest is not None:
        text += (f", closest {closest.upper}-{closest.lower} {_sigmas(closest.z)}σ "
                 f"of {measured.margin:g}σ")
    return text


def _sigmas(z: float) -> str:
    return "∞" if z == float("inf") else f"{z:.2f}"


def course_lines(state: CourseState) -> list[str]:
    """How an adaptive tournament stopped, or where it stands: why it ended (or that it goes on)
    with its rounds and games, then how far from separated its ranking is (each under 80
    columns but for long bot names)."""
    rounds = f"{state.rounds} round{'s' if state.rounds != 1 else ''}"
    if state.end is End.SEPARATED:
        head = (f"stopped, separated: every neighbouring pair {state.margin:g}σ apart after "
                f"{rounds} ({state.games:,} games)")
    elif state.end is End.BUDGET:
        head = (f"stopped, budget spent: {state.games:,} games in {rounds}, another round "
                f"would pass {state.asked or state.budget:,}")
    elif state.end is End.ROUNDS:
        head = f"stopped, all {rounds} played ({state.games:,} games)"
    else:
        head = f"not ended yet: round {state.rounds} of a budget of {state.asked or state.budget:,} games"
        if state.asked and state.asked != state.budget:
            head += f" ({state.budget:,} in whole rounds)"
    return [head, "ranking: " + separation_text(state.separation)]


LEADERS_DROPS = ("place", "games")


def leaders_table(progress: Progress, width: int = 80) -> RenderableType:
    """The live top of the table, by TrueSkill's ``mu - 3 sigma`` (as the rankings), fitted to
    ``width`` cells (names cut in the middle)."""
    leaders = progress.leaders
    columns = [
        _Column("rank", "#", [str(rank) for rank in range(1, len(leaders) + 1)]),
        _Column("score", "mu-3σ", [f"{x.score:.1f}" for x in leaders]),
        _Column("place", "place", ["-" if x.mean_place is None else f"{x.mean_place:.2f}"
                                        for x in leaders]),
        _Column("rate", "win rate", ["-" if x.win_rate is None else f"{x.win_rate:.1%}"
                                     for x in leaders]),
        _Column("games", "games", [str(x.games) for x in leaders]),
        _Column("faults", "faults", [str(x.faults) for x in leaders]),
    ]
    marks = [DQ_MARK if x.disqualified else "" for x in leaders]
    longest = max([3, *(len(x.bot) + len(m) for x, m in zip(leaders, marks))])
    kept, name_width = _fit_columns(width, columns, LEADERS_DROPS, longest)
    shown = short_names([x.bot for x in leaders],
                        {x.bot: name_width - len(m) for x, m in zip(leaders, marks)})
    bots = _Column("bot", "bot", [shown[x.bot] + m for x, m in zip(leaders, marks)], "left")
    styles = ["dim strike" if x.disqualified else ("yellow" if x.faults else "") for x in leaders]
    title = Text(middle_cut(f"{progress.tournament}: top {len(leaders)} so far (TrueSkill)",
                            width), style="bold")
    return Group(title, _table([kept[0], bots, *kept[1:]], styles))


def notice_markup(notice: str) -> str:
    """A run's notice (a disqualification, whose reason a bot wrote) as rich markup: bold red,
    its text shown literally and inert."""
    return f"[bold red]{escape(inert(notice))}[/]"


def render_report(console: Console, report: RunReport, home: Path | None = None,
                  shown: Sequence[str] = ()) -> None:
    """One summary line of a finished (or stopped) run, each disqualification not ``shown``
    live already, and where a seed drawn at random (the file has none) is kept: not the seed
    itself, since a run's output gets shared while games remain, and the seed deals every one
    of them. ``home``, the run's workspace, is named in the command that shows the seed when it
    is not the current folder."""
    if report.seed_drawn:
        elsewhere = home is not None and home.resolve() != Path.cwd().resolve()
        where = f" --home {shlex.quote(str(home))}" if elsewhere else ""
        console.print(f"seed: drawn at random and kept secret in {report.store_path} (arena "
                      f"rankings {report.tournament}{where} --show-seed shows it)")
    for bot, reason in sorted(report.disqualified.items()):
        notice = disqualification_notice(bot, reason)
        if notice not in shown:
            console.print(notice_markup(notice))
    # short lines: the summary must not wrap in an 80-column terminal
    console.print(f"{report.tournament}: {report.stored} of {report.total} games stored; "
                  f"this run played {report.played} in {report.elapsed:.1f}s")
    console.print(f"{report.games_per_s:.1f} games/s with {report.workers} worker"
                  + ("s" if report.workers != 1 else "")
                  + ("" if report.cluster is None else f" on {report.cluster}")
                  + ("" if report.parent_ms_per_game is None
                     else f"; parent CPU {report.parent_ms_per_game:.2f} ms/game"))
    if report.course is not None:
        for line in course_lines(report.course):
            console.print(line)
    console.print(f"log: {report.log_path}")  # a line of its own: a path can be long


def resume_command(argv: Sequence[str]) -> str:
    """The shell command that resumes a run (the arguments it was started with)."""
    return " ".join(shlex.quote(arg) for arg in ("arena", "run", *argv))


def format_duration(seconds: float | None) -> str:
    """``1:02:03``, ``2:03`` or ``-`` when unknown."""
    if seconds is None:
        return "-"
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
