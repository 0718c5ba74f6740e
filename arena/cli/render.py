"""Everything the CLI shows people, with rich: rule sets, positions and replays, benchmarks,
rankings, the head-to-head crosstable, game lists and the live display of a running tournament.

Every function draws on the :class:`rich.console.Console` it is given or returns a renderable
(tests pass ``Console(file=io.StringIO(), width=120)``); nothing here prints on its own or exits.
The ``--json`` shapes live beside the data they describe (:mod:`arena.tournament.export`)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence

from rich.console import Console, Group, JustifyMethod, RenderableType
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from arena.services.bench import BenchResult, RankingsBenchResult, SandboxBenchResult
from arena.play.faults import storable
from arena.engine.cards import NAMES, SUITS
from arena.engine.game import Game
from arena.engine.rules import RuleSet
from arena.sandbox.workspace import BUILTIN_BOTS, Workspace, builtin_dir
from arena.services.duel import DuelResult
from arena.services.submit import ValidationReport
from arena.tournament.ratings import Rankings, Standing
from arena.tournament.records import GameRecord
from arena.tournament.runner import Progress, RunReport
from arena.tournament.stats import Interval

SUIT_STYLE = {"C": "bold", "S": "bold", "D": "red", "H": "red"}


def card_markup(name: str) -> str:
    """A card name coloured by suit (hearts and diamonds red)."""
    style = SUIT_STYLE.get(name[-1], "magenta")
    return f"[{style}]{name}[/]"


def cards_markup(names: Iterable[str]) -> str:
    """Several cards, coloured, separated by spaces."""
    return " ".join(card_markup(n) for n in names) or "-"


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
        ("starter", _starter_text(rules)),
        ("cards per play", "any" if rules.max_cards is None else str(rules.max_cards)),
        ("sets (same rank)", _sets_text(rules)),
        ("later cards may also", _chaining_text(rules)),
        ("inert after opener", "yes" if rules.inert_after_opener else "no"),
        ("jokers", f"{rules.jokers}, each standing for the card it names (X1:JS)" if rules.jokers else "none"),
        ("skips", {"once": "one per play", "each": "one per card",
                   "pending": "left pending: answer with a skip card or pass"}[rules.skips]),
        ("reverse with two seats", "go again" if rules.two_seat_reverse == "again" else "turns the play"),
        ("drawing", f"{'by choice' if rules.draw_when == 'any' else 'when stuck'}, "
                    f"{rules.draws_per_turn} per turn, then {rules.after_draw}"),
        ("recycles", recycles),
        ("last card", rules.last_card if rules.last_card != "must"
         else f"must announce (!), else draw {rules.last_card_penalty}"),
        ("illegal play", "rejected" if rules.illegal_play == "reject" else f"blunder: draw {rules.blunder_draw}"),
        ("finishing on a suit call", "draws a card" if rules.ace_draws else "wins"),
        ("never finish on", _no_finish_text(rules)),
        ("blocked game", rules.blocked),
        ("match", f"first to {rules.match_wins} hand wins" if rules.match_wins else "one hand"),
        ("decision cap", str(rules.decision_cap)),
    ]


def _starter_text(rules: RuleSet) -> str:
    if rules.starter == "any":
        return "any card" + ("" if rules.starter_calls else " (its power never applies)")
    refused = " ".join(sorted({NAMES[c][0] for c in rules.starter_refuses}, key="A23456789TJQKX".index))
    how = "new deal" if rules.starter == "redeal" else "pushed back into the stock"
    return f"refuses {refused} ({how})"


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
    """The cards a hand may not be emptied on (L7), if any."""
    def ranks(cards: frozenset[int]) -> str:
        return " ".join(sorted({NAMES[c][0] for c in cards}, key="A23456789TJQKX".index))

    text = ranks(rules.no_finish) or "-"
    extra = rules.no_finish_two_seats - rules.no_finish
    return text + (f" (with two seats also {ranks(extra)})" if extra else "")


def _sets_text(rules: RuleSet) -> str:
    if rules.set_ranks == (1 << 13) - 1:
        return "yes"
    if not rules.set_ranks:
        return "no"
    return "only " + " ".join(r for i, r in enumerate("A23456789TJQK") if rules.set_ranks >> i & 1)


def render_position(console: Console, game: Game) -> None:
    """The full state of a game: every hand, the pile, the stock."""
    suit = SUITS[game.active_suit] if game.active_suit >= 0 else "any"
    pending = f", pending {game.pending_kind} {game.pending_amount}" if game.pending_kind else ""
    console.print(f"[bold]{game.rules.name}[/], {game.seats} seats, seed {game.seed}: "
                  f"top {_top_markup(game)}, suit {suit}{pending}, "
                  f"direction {'+1' if game.direction == 1 else '-1'}, stock {len(game.stock)}")
    for seat, hand in enumerate(game.hands):
        marker = "▶" if seat == game.to_move else " "
        console.print(f" {marker} seat {seat}: {cards_markup(NAMES[c] for c in hand)}")


def _top_markup(game: Game) -> str:
    """The top card, and what it stands for when it is a joker (L8): ``X1 (as JS)``."""
    top = card_markup(NAMES[game.top])
    return top + f" (as {card_markup(NAMES[game.top_card])})" if game.top >= 52 else top


def render_step(console: Console, index: int, seat: int, action: str, drew: int, game: Game) -> None:
    """One applied move, with the table as it left it."""
    extra = f" (drew {drew})" if drew and action != "draw" else ""
    verb = f"draws {drew}" if action == "draw" else ("passes" if action == "pass" else f"plays {action}")
    suit = SUITS[game.active_suit] if game.active_suit >= 0 else "any"
    pending = f"  pending {game.pending_kind} {game.pending_amount}" if game.pending_kind else ""
    sizes = " ".join(str(len(h)) for h in game.hands)
    console.print(f"{index:>4}. seat {seat} {verb}{extra}  ->  top {_top_markup(game)} "
                  f"suit {suit}{pending}  hands [{sizes}]")


def render_outcome(console: Console, game: Game) -> None:
    """The result line: who won and why, with the finishing places."""
    outcome = game.outcome
    if outcome is None:
        console.print(f"[yellow]still playing[/]: seat {game.to_move} to move after {game.decisions} decisions")
        return
    places = " ".join("/".join(map(str, p)) for p in outcome.places)
    head = f"seat {outcome.winner} wins" if outcome.status == "won" else "drawn game"
    console.print(f"[bold green]{head}[/] ({outcome.reason.value}) after {game.decisions} decisions; places: {places}")


def render_bench(console: Console, results: list[BenchResult]) -> None:
    """A table of benchmark results, and the ratio when a peer ran too."""
    table = Table(title="Benchmark")
    for column in ("engine", "seats", "games", "seconds", "games/s", "decisions/s"):
        table.add_column(column, justify="right" if column != "engine" else "left")
    for r in results:
        table.add_row(r.rules, str(r.seats), str(r.games), f"{r.seconds:.2f}",
                      f"{r.games_per_s:,.0f}", f"{r.decisions_per_s:,.0f}")
    console.print(table)
    if len(results) == 2 and results[1].games_per_s:
        ratio = results[0].games_per_s / results[1].games_per_s
        console.print(f"games/s ratio arena / {results[1].rules}: [bold]{ratio:.2f}[/]")


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
             if c not in (0x09, 0x0A)}


def render_rankings_bench(console: Console, timed: RankingsBenchResult) -> None:
    """The figures of ``arena bench --rankings``."""
    console.print(f"{timed.games:,} synthetic games ({timed.bots} bots, {timed.seats} seats) stored "
                  f"in {timed.store_seconds:.1f}s ({timed.store_us_per_game:.0f} us a game, rated "
                  f"as they are stored); rankings: {timed.rank_seconds:.3f}s")


def inert(text: str) -> str:
    """Text from a bot, safe for a terminal: control characters are shown (``\\x1b``), never
    obeyed, so a bot cannot clear the screen, forge a line or hide text; lone surrogates are
    shown escaped too."""
    return storable(text).translate(_CONTROL)


def render_sandbox_bench(console: Console, measured: SandboxBenchResult) -> None:
    """Sandboxed games next to in-process ones, and the round trip next to the raw IPC cost."""
    render_bench(console, [measured.sandboxed, measured.inprocess])
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

def render_bots(console: Console, workspace: Workspace) -> None:
    """The built-in and registered bots of a workspace: name, kind, file, hash, date."""
    table = Table(title=f"bots in {workspace.root}")
    for column in ("name", "kind", "file", "sha256", "registered"):
        table.add_column(column)
    for name in BUILTIN_BOTS:
        table.add_row(name, "built-in", str(builtin_dir() / f"{name}.py"), "", "")
    for entry in workspace.registry.entries().values():
        table.add_row(entry.name, "registered", str(workspace.bots_dir / entry.file),
                      entry.sha256[:12], entry.date)
    console.print(table)


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
    """The duel's table: games, wins, win rate against par, faults."""
    table = Table(title=f"{result.rules}: {result.games} games, {result.seats} seats, "
                        f"{result.draws} drawn")
    for column in ("bot", "seats", "games", "wins", "win rate", "par", "faults"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for tally in result.tallies:
        faults = ", ".join(f"{code} {n}" for code, n in sorted(tally.faults.items())) or "-"
        table.add_row(tally.name, str(tally.seats), str(tally.games), str(tally.wins),
                      f"{tally.win_rate:.1%}", f"{result.par(tally):.1%}", faults)
    console.print(table)


# -- tournaments: rankings, crosstable, games ------------------------------------------------

DQ_MARK = " (DQ)"


FAULT_MARK = " !"


def render_rankings(console: Console, rankings: Rankings) -> None:
    """The rankings table; disqualified bots are marked ``(DQ)``, faulty ones ``!``."""
    seed = "" if rankings.tournament_seed is None else f", seed {rankings.tournament_seed}"
    table = Table(title=f"{rankings.tournament}: {rankings.games} games{seed}", title_justify="left")
    for header in ("#", "bot", "mu", "sigma", "mu-3σ", "games", "wins"):
        # Names never wrap; in a narrow terminal the intervals fold onto a second line instead.
        table.add_column(header, justify="left" if header == "bot" else "right", no_wrap=header == "bot")
    table.add_column("win rate [95%]", justify="right", overflow="fold")
    table.add_column("mean place [95%]", justify="right", overflow="fold")
    table.add_column("faults", justify="right")
    for standing in rankings.standings:
        table.add_row(*_ranking_cells(standing), style=_row_style(standing))
    console.print(table)


def render_head_to_head(console: Console, rankings: Rankings) -> None:
    """Crosstable: row bot finished ahead of column bot in ``ahead/shared`` games."""
    bots = rankings.bots
    table = Table(
        title="head to head", title_justify="left",
        caption="row bot ahead of column bot / games shared", caption_justify="left",
    )
    table.add_column("bot")
    for bot in bots:
        table.add_column(bot, justify="right")
    for a in bots:
        cells = [_h2h_cell(rankings, a, b) for b in bots]
        table.add_row(a, *cells)
    console.print(table)


def render_games(console: Console, records: Iterable[GameRecord]) -> None:
    """A list of games: id, deal, seats, winner, finishing order, reason, decisions, faults."""
    table = Table(title="games", title_justify="left")
    for header in ("id", "deal", "seats", "winner", "finishing order", "reason", "decisions", "faults"):
        table.add_column(header, justify="right" if header in ("id", "deal", "decisions") else "left")
    for record in records:
        table.add_row(
            str(record.game_id), str(record.deal_id), " ".join(record.table),
            record.winner_bot or "-", finishing_order(record), record.reason.value,
            str(record.decisions), _faults_text(record),
        )
    console.print(table)


def finishing_order(record: GameRecord) -> str:
    """Bots best first: ``>`` between places, ``=`` inside a shared place (``b > a = d > c``)."""
    return " > ".join(" = ".join(record.table[s] for s in group) for group in record.places)


def _ranking_cells(standing: Standing) -> list[str | Text]:
    stats = standing.stats
    name = standing.bot + (DQ_MARK if standing.disqualified else "")
    name += FAULT_MARK if stats.faults and not standing.disqualified else ""
    return [
        str(standing.rank), Text(name), f"{standing.mu:.2f}", f"{standing.sigma:.2f}",
        f"{standing.score:.2f}", str(stats.games), str(stats.wins),
        _with_interval(stats.win_rate, stats.win_rate_ci, percent=True),
        _with_interval(stats.mean_place, stats.mean_place_ci, percent=False),
        str(stats.faults),
    ]


def _row_style(standing: Standing) -> str:
    if standing.disqualified:
        return "dim strike"
    return "" if standing.clean else "yellow"


def _with_interval(value: float | None, interval: Interval | None, percent: bool) -> str:
    if value is None or interval is None:
        return "-"
    if percent:
        return f"{value:.1%} [{interval[0]:.1%}-{interval[1]:.1%}]"
    return f"{value:.2f} [{interval[0]:.2f}-{interval[1]:.2f}]"


def _h2h_cell(rankings: Rankings, a: str, b: str) -> str:
    if a == b:
        return "·"
    cell = rankings.head_to_head.get((a, b))
    return f"{cell.ahead}/{cell.games}" if cell else "-"


def _faults_text(record: GameRecord) -> str:
    return ", ".join(f"{f.bot}: {f.code.name}" for f in record.faults) or "-"


# -- the live display of a running tournament ---------------------------------------------

def progress_view(progress: Progress | None, width: int = 40) -> RenderableType:
    """Games done of total with a bar, games/s, ETA, faults, and the live top 5."""
    if progress is None:
        return Text("starting the workers...")
    bar = ProgressBar(total=max(progress.total, 1), completed=progress.done, width=width)
    line = Text(
        f" {progress.done}/{progress.total} games  {progress.games_per_s:.1f} games/s  "
        f"ETA {format_duration(progress.eta_s)}  faulty games {progress.faulty_games}"
        + (f"  skipped {progress.skipped}" if progress.skipped else "")
    )
    header = Table.grid()
    header.add_row(bar, line)
    return Group(header, leaders_table(progress))


def leaders_table(progress: Progress) -> Table:
    """The live top of the table: clean bots first, by TrueSkill's mu - 3 sigma (as the rankings)."""
    table = Table(title=f"{progress.tournament}: top {len(progress.leaders)} so far",
                  title_justify="left")
    for header in ("#", "bot", "mu-3σ", "mean place", "win rate", "games", "faults"):
        table.add_column(header, justify="left" if header == "bot" else "right")
    for rank, lead in enumerate(progress.leaders, 1):
        name = lead.bot + (" (DQ)" if lead.disqualified else "")
        style = "dim strike" if lead.disqualified else ("yellow" if lead.faults else "")
        place = "-" if lead.mean_place is None else f"{lead.mean_place:.2f}"
        rate = "-" if lead.win_rate is None else f"{lead.win_rate:.1%}"
        table.add_row(str(rank), name, f"{lead.score:.1f}", place, rate, str(lead.games),
                      str(lead.faults), style=style)
    return table


def render_report(console: Console, report: RunReport) -> None:
    """One summary line of a finished (or stopped) run, each disqualification, and the seed
    when it was drawn at random (the file has none)."""
    if report.seed_drawn:
        console.print(f"seed: {report.seed} (drawn at random, stored in {report.store_path}; "
                      "keep it secret until every game is played)")
    for bot, reason in sorted(report.disqualified.items()):
        console.print(f"[bold red]{bot} is disqualified[/]: {reason}")
    console.print(
        f"{report.tournament}: {report.stored} of {report.total} games stored"
        + (f", {report.skipped} skipped (disqualified bots)" if report.skipped else "")
        + f"; this run played {report.played} in {report.elapsed:.1f}s "
        f"({report.games_per_s:.1f} games/s, {report.workers} worker"
        + ("s" if report.workers != 1 else "")
        + ("" if report.parent_ms_per_game is None
           else f", parent CPU {report.parent_ms_per_game:.2f} ms/game")
        + f"); log: {report.log_path}"
    )


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
