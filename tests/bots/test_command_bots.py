"""Command bots are first-class: `arena duel` and `arena submit` take `cmd:COMMAND`, a tournament
file's relative `cmd` paths are the file's folder's, and a faulty one's stderr is shown."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from arena.cli import app
from arena.errors import ConfigError
from arena.sandbox.workspace import Workspace
from arena.tournament.replay import open_results

runner = CliRunner()
REPO = Path(__file__).resolve().parents[2]
EXAMPLE = "cmd:python3 bots/examples/first_legal_cmd.py"
TALKS_THEN_CRASHES = '''import sys
for line in sys.stdin:
    print("read", line[:14], file=sys.stderr, flush=True)
    if '"act"' in line:
        print("cannot decide: giving up", file=sys.stderr, flush=True)
        sys.exit(3)
    print("ok", flush=True)
'''


def arena(*args: str):
    return runner.invoke(app, list(args))


def test_a_duel_takes_a_command_bot(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    result = arena("duel", EXAMPLE, "random", "--games", "6", "--seats", "2", "--seed", "3",
                   "--workers", "1", "--home", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "first_legal_cmd vs random over 3 deal pairs" in result.output
    assert "faulted" not in result.output


def test_submit_validates_and_registers_a_command_bot_that_then_plays_by_name(tmp_path, monkeypatch):
    source = tmp_path / "src"
    (source / "bots" / "examples").mkdir(parents=True)
    shutil.copy(REPO / "bots" / "examples" / "first_legal_cmd.py", source / "bots" / "examples")
    monkeypatch.chdir(source)
    home = tmp_path / "home"
    result = arena("submit", EXAMPLE, "--name", "first", "--seed", "4", "--home", str(home))
    assert result.exit_code == 0, result.output
    assert "ok   command" in result.output and "ok   vs-builtins" in result.output
    assert "accepted first as" in result.output
    entry = json.loads((home / "bots" / "registry.json").read_text())["bots"][0]
    assert (entry["name"], entry["file"], entry["command"]) == ("first", "first", ["python3", "first_legal_cmd.py"])
    registered = home / "bots" / "first" / "first_legal_cmd.py"
    assert registered.read_bytes() == (REPO / "bots" / "examples" / "first_legal_cmd.py").read_bytes()
    (source / "bots" / "examples" / "first_legal_cmd.py").write_text("import sys; sys.exit(1)\n")
    spec = Workspace(home).resolve_bot("first")
    assert spec.command == ("python3", str(registered))
    played = arena("duel", "first", "greedy", "--games", "4", "--seats", "2", "--seed", "4",
                   "--workers", "1", "--home", str(home))
    assert played.exit_code == 0 and "faulted" not in played.output, played.output
    listed = arena("bots", "--home", str(home))
    assert "first" in listed.output and "registered" in listed.output
    again = arena("submit", EXAMPLE, "--name", "first", "--home", str(home))
    assert again.exit_code == 1 and "--replace" in again.output
    (registered.parent / "README.txt").write_text("notes beside it: nothing that runs\n")
    assert Workspace(home).resolve_bot("first").command == ("python3", str(registered))
    registered.write_text(registered.read_text() + "# edited after submit\n")
    with pytest.raises(ConfigError, match=r"bot 'first': \S+first changed after it was submitted .*"
                                          r"submit it again from its source folder \(arena submit "
                                          r"'cmd:python3 first_legal_cmd.py' --name first --replace\)"):
        Workspace(home).resolve_bot("first")


def test_submit_rejects_a_command_whose_program_is_missing(tmp_path):
    result = arena("submit", "cmd:pyhton3 bot.py", "--home", str(tmp_path), "--seed", "1")
    assert result.exit_code == 1, result.output
    assert "FAIL command" in result.output and "program 'pyhton3' not found in /usr/bin:/bin" in result.output
    assert not (tmp_path / "bots").exists()


def test_a_command_bots_stderr_is_shown_with_its_faults(tmp_path, monkeypatch):
    (tmp_path / "talker.py").write_text(TALKS_THEN_CRASHES)
    monkeypatch.chdir(tmp_path)
    duel = arena("duel", "cmd:python3 talker.py", "random", "--games", "2", "--seats", "2",
                 "--seed", "5", "--workers", "1", "--home", str(tmp_path))
    assert duel.exit_code == 0, duel.output
    assert "talker faulted 2 times; the first, seat 1: CRASH" in duel.output
    assert "last lines of talker's output:" in duel.output
    assert "  | cannot decide: giving up" in duel.output
    assert "talker vs random over 1 deal pair: score 0.000" in duel.output
    submit = arena("submit", "cmd:python3 talker.py", "--home", str(tmp_path), "--seed", "5")
    assert submit.exit_code == 1, submit.output
    assert "rejected: check 'self-play' failed" in submit.output
    assert "CRASH: seat 0" in submit.output and "cannot decide: giving up" in submit.output


def test_a_tournament_files_relative_commands_are_its_folders_from_any_directory(tmp_path, monkeypatch):
    cup = tmp_path / "cup"
    cup.mkdir()
    for name in ("first.py", "second.py"):
        shutil.copy(REPO / "bots" / "examples" / "first_legal_cmd.py", cup / name)
    (cup / "cup.yaml").write_text(
        "name: cup\nseats: 2\nrounds: 2\nseed: 4\n"
        "bots: [random, {name: first, cmd: [python3, first.py]}, {name: second, cmd: python3 second.py}]\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)   # the workspace, holding neither file
    result = arena("run", "../cup/cup.yaml", "--workers", "1")
    assert result.exit_code == 0, result.output
    with open_results(elsewhere, "cup") as store:
        games = list(store.games())
    assert len(games) == 12   # 3 tables x 2 deals x 2 seatings
    assert {name for game in games for name in game.table} == {"random", "first", "second"}
    assert not [fault for game in games for fault in game.faults]


def test_a_registered_command_bot_keeps_its_options_declaration(tmp_path, monkeypatch):
    source = tmp_path / "src"
    source.mkdir()
    shutil.copy(REPO / "bots" / "examples" / "first_legal_cmd.py", source / "cbot.py")
    declaration = json.dumps({"level": {"type": "int", "default": 1, "min": 1, "max": 5}})
    (source / "cbot.options.json").write_text(declaration)
    monkeypatch.chdir(source)
    home = tmp_path / "home"
    result = arena("submit", "cmd:python3 cbot.py", "--name", "cb", "--seed", "4", "--home", str(home))
    assert result.exit_code == 0, result.output
    assert (home / "bots" / "cb" / "cbot.options.json").read_text() == declaration
    listed = arena("bots", "--home", str(home))
    assert "level" in listed.output, listed.output
    spec = Workspace(home).resolve_entry({"name": "x", "bot": "cb", "options": {"level": 3}}, [home])
    assert spec.options == (("level", 3),)


FIRST_LEGAL_SH = r'''#!/bin/sh
# The first legal action, in plain sh (builtins only: a bot cannot start a process).
while IFS= read -r line; do
  case "$line" in
    *'"type":"act"'* | *'"type": "act"'*)
      legal=${line#*'"legal":'}; legal=${legal#*'["'}; printf '%s\n' "${legal%%'"'*}" ;;
    *) echo ok ;;
  esac
done
'''


def test_a_program_of_the_bots_own_plays_from_its_copy(tmp_path, monkeypatch):
    """`cmd:./mybot` (README): the program itself is the bot's file, copied into its folder like
    any file its command names, so it plays in the sandbox and survives the original's removal."""
    source = tmp_path / "src"
    source.mkdir()
    program = source / "mybot"
    program.write_text(FIRST_LEGAL_SH)
    program.chmod(0o755)
    monkeypatch.chdir(source)
    home = tmp_path / "home"
    submitted = arena("submit", "cmd:./mybot", "--seed", "4", "--home", str(home))
    assert submitted.exit_code == 0, submitted.output
    assert (home / "bots" / "mybot" / "mybot").read_bytes() == FIRST_LEGAL_SH.encode()
    program.unlink()
    duel = arena("duel", "mybot", "random", "--games", "4", "--seats", "2", "--seed", "4",
                 "--workers", "1", "--home", str(home))
    assert duel.exit_code == 0, duel.output
    assert "mybot vs random over 2 deal pairs" in duel.output and "faulted" not in duel.output


@pytest.mark.parametrize("mode", [[], ["--trusted"]], ids=["confined", "trusted"])
def test_a_command_bot_that_logs_past_its_file_size_cap_keeps_playing(tmp_path, monkeypatch, mode):
    """A command bot's stderr is a file capped at 1 MiB a game (RLIMIT_FSIZE). Past it the kernel
    sends SIGXFSZ, whose default kills (a C or sh program keeps the default): a verbose bot is
    not a crashed one, so the signal is ignored and its writes beyond the cap fail instead."""
    chatty = FIRST_LEGAL_SH.replace("while IFS=", """text=x; i=0
while [ $i -lt 10 ]; do text="$text$text"; i=$((i + 1)); done
i=0
while [ $i -lt 1500 ]; do printf '%s\\n' "$text" >&2; i=$((i + 1)); done
while IFS=""", 1)
    program = tmp_path / "chatty"
    program.write_text(chatty)
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    duel = arena("duel", "cmd:./chatty", "random", "--games", "2", "--seats", "2", "--seed", "4",
                 "--workers", "1", "--home", str(tmp_path), *mode)
    assert duel.exit_code == 0, duel.output
    assert "chatty vs random over 1 deal pair" in duel.output and "faulted" not in duel.output, duel.output
