"""``arena run`` of an adaptive tournament through typer's CliRunner, and how its live view and its
run summary say how far the ranking is from separated."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from arena.cli.render import course_lines, progress_view, render_report
from arena.tournament.adaptive import CourseState, End
from arena.tournament.runner import Leader, Progress, RunReport
from arena.tournament.separation import separation
from cli_helpers import invoke

DAWDLER = Path(__file__).resolve().parents[1] / "tournament" / "bots" / "dawdler.py"
LADDER = ("name: ladder\nrules: openspiel\nseats: 2\nformat: swiss\nseed: 5\n"
          "until: {margin: 1.5, games: 120}\nbots: ["
          + ", ".join(f"{{name: {name}, bot: {DAWDLER}, options: {{dawdle: {dawdle}}}}}"
                      for name, dawdle in (("quick", 0.0), ("steady", 0.4), ("slow", 0.8)))
          + "]\n")


def printed(renderable_or_report, width: int = 80) -> list[str]:
    con = Console(file=io.StringIO(), width=width, color_system=None)
    if isinstance(renderable_or_report, RunReport):
        render_report(con, renderable_or_report)
    else:
        con.print(renderable_or_report)
    return con.file.getvalue().splitlines()


def test_run_of_a_swiss_file_says_it_stopped_separated_and_ranks_the_bots(tmp_path: Path) -> None:
    (tmp_path / "ladder.yaml").write_text(LADDER)
    result = invoke(tmp_path, "run", str(tmp_path / "ladder.yaml"), "--workers", "2", columns=100)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    stop = next(i for i, line in enumerate(lines) if line.startswith("stopped, separated: "))
    assert "every neighbouring pair 1.5σ apart after" in lines[stop]
    assert lines[stop + 1].startswith("ranking: 2/2 pairs apart, closest ")
    ranked = [line.split()[1] for line in lines if line[:2] in ("1 ", "2 ", "3 ")]
    assert ranked == ["quick", "steady", "slow"]
    assert "resume with" not in result.stdout


def test_a_swiss_file_without_a_budget_is_one_line_and_runs_nothing(tmp_path: Path) -> None:
    (tmp_path / "ladder.yaml").write_text(LADDER.replace("until: {margin: 1.5, games: 120}\n", ""))
    result = invoke(tmp_path, "run", str(tmp_path / "ladder.yaml"), columns=100)
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'ladder.yaml'}: key 'until': required with format 'swiss': the most "
        "games it may play, e.g. until: {margin: 1.5, games: 4000}"
    ]
    assert "Traceback" not in result.output
    assert not (tmp_path / "results" / "ladder.sqlite").exists()


STATE = CourseState("swiss", 3, 18, 120, 1.5, separation(
    [("quick", 30.0, 2.0), ("steady", 27.0, 2.0), ("slow", 20.0, 2.0)], 1.5))


def test_the_live_view_says_how_far_the_ranking_is_from_separated() -> None:
    leaders = (Leader("quick", 12, 9, 15, 0, False, 30.0, 2.0),
               Leader("steady", 12, 6, 18, 0, False, 27.0, 2.0))
    lines = printed(progress_view(Progress("ladder", 120, 18, 0, 18, 0, 3.0, leaders,
                                           course=STATE), 80))
    # 27 - 20 = 7 over 2.83 is 2.47 sigma; 30 - 27 = 3 over 2.83 is 1.06: the closest pair
    assert "18/120 games" in lines[0]                                  # the budget is the total
    assert lines[1] == "swiss round 3: 1/2 pairs apart, closest quick-steady 1.06σ of 1.5σ"
    assert max(len(line) for line in lines) <= 80


def test_the_run_summary_says_why_an_adaptive_tournament_stopped() -> None:
    def report(state: CourseState, stored: int) -> RunReport:
        return RunReport("ladder", Path("results/ladder.sqlite"), Path("results/ladder.log"),
                         total=stored if state.end else state.budget, stored=stored, skipped=0,
                         played=stored, elapsed=3.0, workers=2, course=state)

    done = CourseState("swiss", 6, 36, 36, 1.5, STATE.separation, End.BUDGET)
    assert printed(report(done, 36))[2:4] == [
        "stopped, budget spent: 36 games in 6 rounds, another round would pass 36",
        "ranking: 1/2 pairs apart, closest quick-steady 1.06σ of 1.5σ",
    ]
    going = printed(report(STATE, 18))
    assert going[2] == "not ended yet: round 3 of a budget of 120 games"
    assert not report(STATE, 18).complete and report(done, 36).complete


def test_a_budget_that_is_no_whole_number_of_rounds_is_named_as_the_file_gave_it() -> None:
    """until: {games: 80} with rounds of 6 games plays 13 rounds, 78 games: the lines said
    'a budget of 78 games' and 'another round would pass 78', a budget nobody wrote."""
    going = CourseState("swiss", 2, 12, 78, 1.5, STATE.separation, None, 80)
    assert course_lines(going)[0] == "not ended yet: round 2 of a budget of 80 games (78 in whole rounds)"
    spent = CourseState("swiss", 13, 78, 78, 1.5, STATE.separation, End.BUDGET, 80)
    assert course_lines(spent)[0] == "stopped, budget spent: 78 games in 13 rounds, another round would pass 80"
