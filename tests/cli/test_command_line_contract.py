"""The command line's small promises (issue 11, point 12), through typer's CliRunner.

``--version``; the exit statuses the README documents (64 for a command line that cannot be
parsed, 2 only for an illegal or invalid replay move); "did you mean" for a mistyped tournament
key, preset and bot; a rule set run as a tournament; a tournament named without its file;
``--workers`` above the CPU count; and the summary after Ctrl-C, which counts the games stored.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

import arena
from arena import __main__ as entry
from arena.cli import app
from arena.cli.app import USAGE_STATUS
from arena.tournament.replay import open_results
from cli_helpers import error_line, invoke, runner

REPO = Path(__file__).resolve().parents[2]
FIRST_LEGAL = REPO / "tests" / "tournament" / "bots" / "first_legal.py"
SMALL = f"name: small\nseats: 3\nbots: [random, greedy, {FIRST_LEGAL}]\nrounds: 4\nseed: 4\n"


def test_version_prints_the_package_version(tmp_path: Path) -> None:
    result = invoke(tmp_path, "--version")
    assert result.exit_code == 0
    assert result.stdout == f"arena {arena.__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", arena.__version__)


def test_the_command_list_gives_each_command_its_summary_as_one_flowing_text(tmp_path: Path) -> None:
    """Seen in ``arena --help``: a summary written over several docstring lines kept its line
    breaks in the list ("decisions/s (or, with" and then "--rankings, how long..." on the next
    line, at any width). On a terminal wide enough for the longest, each command's summary is
    one line of the list, and it is the first paragraph of the command's own help, word for word."""
    import typer.main

    result = runner.invoke(app, ["--help"], env={"ARENA_HOME": str(tmp_path), "COLUMNS": "1000"})
    assert result.exit_code == 0
    group = typer.main.get_command(app)
    listed = {line.strip("│ ").split(" ", 1)[0]: line for line in result.stdout.splitlines()
              if line.startswith("│ ") and not line.startswith("│ --")}
    assert set(listed) >= {"rules", "bench", "run", "play", "watch"}
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        summary = " ".join((command.help or "").split("\n\n")[0].split())
        assert summary and summary in " ".join(listed[name].strip("│ ").split()), (name, listed[name])


def _commands(command, path):  # type: ignore[no-untyped-def]
    yield path, command
    for name, sub in getattr(command, "commands", {}).items():
        yield from _commands(sub, [*path, name])


def test_no_on_off_switch_is_shown_as_taking_a_value(tmp_path: Path) -> None:
    """typer lists a flag as `--trusted <bool>`, which reads as `--trusted false`; that command
    line then took 'false' for a bot. Every command's flags, --help and --version among them,
    show no value in the help."""
    import typer.main

    for path, _ in _commands(typer.main.get_command(app), []):
        result = invoke(tmp_path, *path, "--help")
        assert result.exit_code == 0, result.output
        assert "<bool>" not in result.output, path
        assert re.search(r"--help\s+Show this message and exit", result.output), path


def test_every_bracket_of_the_help_texts_is_shown(tmp_path: Path) -> None:
    """typer renders help with rich, whose markup takes ``[word]`` for a style and drops it:
    ``needs arena[cluster]`` was shown as ``needs arena``. A bracket meant as text is escaped
    (``\\[``), and then shown."""
    import typer

    shown = 0
    for path, command in _commands(typer.main.get_command(app), []):
        texts = [command.help or "", *(getattr(p, "help", None) or "" for p in command.params)]
        for text in texts:
            assert not re.search(r"(?<!\\)\[[\w.=-]+\]", text), f"arena {' '.join(path)}: {text}"
            for before, bracket in re.findall(r"(\S*)\\(\[[\w.=-]+\])", text):
                output = invoke(tmp_path, *path, "--help", columns=1000).stdout
                assert before + bracket in output and "\\[" not in output, (path, bracket)
                shown += 1
    assert shown >= 1   # arena run --cluster: needs dask[distributed]


@pytest.mark.parametrize("args", [
    ["run"],                               # a missing argument
    ["run", "x.yaml", "--workers", "two"],  # a bad value
    ["rankings", "demo", "--colour"],        # an unknown option of a command
    ["--colour"],                            # an unknown option of arena itself
    ["rnu", "x.yaml"],                       # an unknown command
])
def test_a_command_line_that_cannot_be_parsed_exits_64_not_2(tmp_path: Path, args: list[str]) -> None:
    result = invoke(tmp_path, *args)
    assert USAGE_STATUS == 64 and result.exit_code == USAGE_STATUS, result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", [
    ["duel", "random", "greedy", "--games", "2"], ["play", "--vs", "random"], ["calibrate", "random"],
    ["bench", "--games", "2"],
])
def test_a_table_of_no_seats_is_a_usage_error_not_the_presets_default(tmp_path: Path,
                                                                        command: list[str]) -> None:
    """`--seats 0` used to mean the preset's default (4 seats) and play on."""
    result = invoke(tmp_path, *command, "--seats", "0")
    assert result.exit_code == USAGE_STATUS, result.output
    assert "--seats" in result.output and "seed:" not in result.output


def test_an_illegal_replay_move_keeps_exit_2(tmp_path: Path) -> None:
    position = (REPO / "tournaments" / "sample-position.yaml").read_text()
    path = tmp_path / "position.yaml"
    path.write_text(position.replace('moves: ["7H 2H 2C 5H JH", draw]', "moves: [draw]"))
    result = invoke(tmp_path, "replay", str(path), "--json")
    assert result.exit_code == 2 and '"error": "illegal"' in result.stdout


def test_a_mistyped_tournament_key_offers_the_key(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("bots: [random, greedy]\nseats: 2\nrouds: 3\n")
    line = error_line(invoke(tmp_path, "run", str(tmp_path / "t.yaml")))
    assert line.endswith("key 'rouds': unknown key (did you mean 'rounds'?)")


def test_a_tournaments_rules_and_seats_errors_name_the_file_and_the_key(tmp_path: Path) -> None:
    (tmp_path / "t.yaml").write_text("bots: [random, greedy]\nseats: 2\nrules: swtich\n")
    assert error_line(invoke(tmp_path, "run", str(tmp_path / "t.yaml"))).startswith(
        f"error: {tmp_path / 't.yaml'}: key 'rules': unknown rules 'swtich' (did you mean 'switch'?)")
    (tmp_path / "t.yaml").write_text("bots: [random, greedy, heuristic, mcts, {name: r2, bot: random},"
                                     " {name: r3, bot: random}, {name: r4, bot: random}]\nseats: 7\n")
    assert error_line(invoke(tmp_path, "run", str(tmp_path / "t.yaml"))) == (
        f"error: {tmp_path / 't.yaml'}: key 'seats': rules 'switch': seats must be 2..6, got 7")


def test_a_mistyped_preset_offers_the_preset(tmp_path: Path) -> None:
    line = error_line(invoke(tmp_path, "rules", "swtich"))
    assert line.startswith("error: unknown rules 'swtich' (did you mean 'switch'?): presets are ")
    (tmp_path / "mine.yaml").write_text("base: crazy-eigths\n")
    assert "unknown preset 'crazy-eigths' (did you mean 'crazy-eights'?)" in error_line(
        invoke(tmp_path, "rules", str(tmp_path / "mine.yaml")))


def test_a_mistyped_bot_offers_the_bot(tmp_path: Path) -> None:
    line = error_line(invoke(tmp_path, "duel", "gredy", "random", "--games", "2"))
    assert line.startswith("error: unknown bot 'gredy' (did you mean 'greedy'?): ")
    assert "did you mean" not in error_line(invoke(tmp_path, "duel", "zzz", "random", "--games", "2"))


@pytest.mark.parametrize("rule_set", [REPO / "arena" / "engine" / "presets" / "switch.yaml",
                                      REPO / "tournaments" / "switch-no-flush.yaml"])
def test_a_rule_set_run_as_a_tournament_says_what_it_is(tmp_path: Path, rule_set: Path) -> None:
    line = error_line(invoke(tmp_path, "run", str(rule_set)))
    assert line == (f"error: {rule_set}: a rule set, not a tournament: name it in a tournament "
                    f"('rules: {rule_set}'), or show it with: arena rules {rule_set}")
    assert not (tmp_path / "results").exists()


def test_a_position_run_as_a_tournament_says_what_it_is(tmp_path: Path) -> None:
    position = REPO / "tournaments" / "sample-position.yaml"
    assert error_line(invoke(tmp_path, "run", str(position))) == (
        f"error: {position}: a position, not a tournament: replay it with: arena replay "
        f"{position}   (or step through it with: arena watch --position {position})")
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("command, given, words", [
    (["replay"], "demo.yaml", "a tournament, not a position: run it with: arena run {}"),
    (["watch", "--position"], "demo.yaml", "a tournament, not a position: run it with: arena run {}"),
    (["rules"], "demo.yaml", "a tournament, not a rule set: run it with: arena run {}"),
    (["rules"], "sample-position.yaml", "a position, not a rule set: replay it with: arena replay {}"),
    (["replay"], "switch-no-flush.yaml", "a rule set, not a position: name it in a tournament"),
])
def test_each_file_given_to_another_kinds_command_says_what_it_is(
        tmp_path: Path, command: list[str], given: str, words: str) -> None:
    """Tournament, rule set and position files each name themselves and the command that takes
    them, whichever command they are given to (not "key 'name': unknown key")."""
    path = REPO / "tournaments" / given
    line = error_line(invoke(tmp_path, *command, str(path)))
    assert line.startswith(f"error: {path}: ") and words.format(path) in line


@pytest.mark.parametrize("command", [["rules"], ["replay"], ["watch", "--position"]])
def test_the_command_offered_for_another_kinds_file_runs_as_copied(tmp_path: Path,
                                                                    command: list[str]) -> None:
    """A path with a space (or a quote) is quoted for the shell in the command offered."""
    path = tmp_path / "it's my demo.yaml"
    path.write_text((REPO / "tournaments" / "demo.yaml").read_text())
    line = error_line(invoke(tmp_path, *command, str(path)))
    assert line.startswith(f"error: {path}: a tournament, not a "), line
    assert shlex.split(line.split("run it with: ", 1)[1]) == ["arena", "run", str(path)]


def test_the_rules_line_offered_for_a_rule_set_reads_back_as_its_path(tmp_path: Path) -> None:
    """'rules: a: b#c.yaml' is not the path to YAML; the line offered is quoted where needed."""
    import yaml
    path = tmp_path / "house: rules #2.yaml"
    path.write_text((REPO / "tournaments" / "switch-no-flush.yaml").read_text())
    line = error_line(invoke(tmp_path, "run", str(path)))
    offered = re.search(r"name it in a tournament \('(rules: .*)'\), or show it with: ", line)
    assert offered, line
    assert yaml.safe_load(offered[1]) == {"rules": str(path)}


def test_a_tournament_is_found_by_name_in_the_workspace_and_a_typo_is_answered(tmp_path: Path) -> None:
    (tmp_path / "tournaments").mkdir()
    (tmp_path / "tournaments" / "small.yaml").write_text(SMALL)
    result = invoke(tmp_path, "run", "small", "--max-games", "2", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "small: 2 of 12 games stored" in result.stdout
    assert "resume with: arena run small --workers 1" in result.stdout
    line = error_line(invoke(tmp_path, "run", "smal"))
    assert line.startswith("error: unknown tournament 'smal' (did you mean 'small'?): ")
    assert "demo" in line  # the shipped tournament is offered too


def test_more_workers_than_cpus_warns_once_and_still_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    (tmp_path / "small.yaml").write_text(SMALL)
    result = invoke(tmp_path, "run", str(tmp_path / "small.yaml"), "--workers", "2", "--max-games", "2")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "warning: --workers 2 is more than the 1 CPUs of this machine: the workers will share "
        "them, so the run is no faster"]
    assert "2 of 12 games stored" in result.stdout
    quiet = invoke(tmp_path, "run", str(tmp_path / "small.yaml"), "--workers", "1", "--max-games", "1")
    assert quiet.exit_code == 0 and quiet.stderr == ""


@pytest.mark.parametrize("workers", [1, 2])
def test_the_summary_after_ctrl_c_counts_the_games_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Ctrl-C (here: the live display raising KeyboardInterrupt after the third stored game)
    stops the run; the results that had arrived are stored in schedule order (with two workers
    some wait for an earlier game: those that can follow are stored, the others are lost), and
    the summary's two counts are the store's."""
    from arena.cli import tournament as commands

    def interrupt(self, progress) -> None:
        if progress.stored >= 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(commands._Display, "update", interrupt)
    (tmp_path / "small.yaml").write_text(SMALL)
    result = invoke(tmp_path, "run", str(tmp_path / "small.yaml"), "--workers", str(workers))
    assert result.exit_code == 130, result.output
    summary = re.search(r"small: (\d+) of 12 games stored; this run played (\d+) in", result.stdout)
    assert summary, result.stdout
    with open_results(tmp_path, "small") as store:
        stored = store.game_count()
        assert [g.game_id for g in store.games()] == list(range(stored))
    assert stored >= 3
    assert (int(summary[1]), int(summary[2])) == (stored, stored)


def test_a_ctrl_c_while_the_command_line_loads_ends_it_with_130_and_no_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading typer, rich and the commands takes about 0.4 s; an interrupt then used to print
    Python's traceback of the import instead of the interrupted command's status."""
    class Interrupting:
        """Finds nothing, but is interrupted when arena.cli is looked for."""

        def find_spec(self, name: str, path: object, target: object = None) -> None:
            if name == "arena.cli":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "arena.cli")
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    with pytest.raises(SystemExit) as stopped:
        entry.main()
    assert stopped.value.code == 130
