"""The files the repository ships for users are valid: the demo tournament, the sample position,
the rule-set examples in tournaments/, the new-bot template; and the documentation stays inside
the repository (every link resolves, no private note is named) and says what the code does."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import re
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from arena.engine.cards import Card
from arena.engine.game import Game
from arena.engine.position import load_position
from arena.engine.rules import load_rules, preset_names
from arena.services.submit import new_bot
from arena.tournament.adaptive import Course
from arena.tournament.config import Until, load_config
from arena.tournament.schedule import Schedule
from arena.tournament.store import SCHEMA_VERSION, Store
from arena.sandbox.snapshot import snapshot
from arena.sandbox.workspace import Workspace
from arena.engine.observation import Observation, observe
from arena.engine.outcome import OutcomeReason

ROOT = Path(__file__).resolve().parent.parent


def test_the_demo_tournament_is_valid_and_names_the_builtin_bots() -> None:
    config = load_config(ROOT / "tournaments" / "demo.yaml")
    assert config.rules == "switch"
    assert set(config.bot_names) == {"random", "greedy", "heuristic"}
    workspace = Workspace(ROOT)
    for entry in config.bots:
        assert workspace.resolve_bot(entry.spec).path.is_file()
    # 3 two-seat tables x 1,000 deals x 2 seatings (the README's "about 20 s")
    assert len(Schedule.from_config(config)) == 6000


def test_the_swiss_ladder_is_a_valid_adaptive_tournament_of_shipped_bots() -> None:
    config = load_config(ROOT / "tournaments" / "swiss-ladder.yaml")
    assert (config.format, config.seed, config.until) == ("swiss", None, Until(1.5, 4000))
    workspace = Workspace(ROOT)
    for entry in config.bots:
        assert workspace.resolve_entry(entry.spec, [ROOT]).path.is_file()
    course = Course(replace(config, seed=1))
    # six bots at four seats: two tables sharing two bots, each deal in 4 rotations (its comment)
    assert (course.tables_per_round, course.round_size, course.budget) == (2, 8, 4000)


def test_the_ladder_seats_the_four_built_in_bots_at_one_table_for_2000_games() -> None:
    config = load_config(ROOT / "tournaments" / "ladder.yaml")
    assert sorted(e.name for e in config.bots) == ["greedy", "heuristic", "mcts", "random"]
    assert (config.seats, config.format, config.seatings, config.until) == (4, "round-robin", "rotations", None)
    workspace = Workspace(ROOT)
    for entry in config.bots:
        assert workspace.resolve_entry(entry.spec, [ROOT]).path.is_file()
    # one table of four, each deal in its four rotations: 500 deals, 2,000 games (its comment)
    assert len(Schedule.from_config(config)) == 2000


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("preset", preset_names())
def test_the_strength_campaign_plays_mcts_against_heuristics_2000_games_in_every_preset(
        preset: str, seats: int) -> None:
    """Issue 13 point 3: for every preset at 2 and 4 seats, mcts at its defaults against
    heuristic (three heuristics at 4 seats), seats rotated, at least 2,000 games."""
    config = load_config(ROOT / "tournaments" / "strength" / f"{preset}-{seats}.yaml")
    assert (config.name, config.rules, config.seats) == (f"strength-{preset}-{seats}", preset, seats)
    bots = [e.spec if isinstance(e.spec, str) else dict(e.spec) for e in config.bots]
    copies = [{"name": f"heuristic-{n}", "bot": "heuristic"} for n in range(2, seats)]
    assert bots == ["mcts", "heuristic", *copies]  # no options: the defaults being measured
    assert (config.format, config.seatings, config.until) == ("round-robin", "rotations", None)
    assert len(Schedule.from_config(config)) == 2000


SHIPPED_STORES = sorted([*(ROOT / "results").glob("strength-*.sqlite"), ROOT / "results" / "ladder.sqlite"])


def tournament_file(store: Path) -> Path:
    """The tournament file a shipped store was played from."""
    if store.stem == "ladder":
        return ROOT / "tournaments" / "ladder.yaml"
    return ROOT / "tournaments" / "strength" / f"{store.stem.removeprefix('strength-')}.yaml"


@pytest.mark.parametrize("path", SHIPPED_STORES, ids=[p.stem for p in SHIPPED_STORES])
def test_a_shipped_strength_store_holds_games_of_its_tournament_file_and_bots(path: Path, tmp_path: Path) -> None:
    """The strength table's and the ladder's evidence (docs/tournaments.md): each store in
    results/ is a run of the tournament file of its name, with the bot snapshots that played it beside it, so that
    ``arena rankings`` reads it and ``arena run`` resumes it instead of refusing it."""
    config = load_config(tournament_file(path))
    raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    (schema,) = raw.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    (journal,) = raw.execute("PRAGMA journal_mode").fetchone()
    raw.close()
    # as this code writes it, so that opening it never upgrades (rewrites) the file in the clone
    assert (schema, journal) == (str(SCHEMA_VERSION), "delete")
    with Store.open(path, readonly=True) as store:
        info = store.tournament()
        assert info is not None and info.config_hash == config.config_hash
        assert 0 < store.game_count() <= len(Schedule.from_config(config))
        versions = store.bot_versions()
    assert set(versions) == {e.name for e in config.bots}
    workspace = Workspace(ROOT)
    for entry in config.bots:
        spec = workspace.resolve_entry(entry.spec, [ROOT])
        # the versions the shipped snapshots of this bot's file have with its options
        shipped = {snapshot(replace(spec, path=copy), tmp_path)[1]
                   for copy in (ROOT / "results" / "bots").glob(f"*/{spec.path.name}")
                   if hashlib.sha256(copy.read_bytes()).hexdigest() == copy.parent.name}
        assert versions[entry.name] in shipped, f"{entry.name}: no snapshot of the version that played"


SAMPLE_POSITION = ROOT / "tournaments" / "sample-position.yaml"


def played_out(path: Path) -> tuple[Game, int]:
    """The game of a position file once its moves are applied, and how many moves it lists."""
    position = load_position(path)
    for move in position.moves:
        position.game.apply(move)
    return position.game, len(position.moves)


def test_the_sample_position_replays_to_the_end_of_its_moves() -> None:
    game, moves = played_out(SAMPLE_POSITION)
    assert game.decisions == moves


@pytest.mark.parametrize("rules, expected", [("two-four-jacks", "7H !"), ("london", "7H !"), ("switch", "7H")])
def test_the_new_bot_template_calls_last_card_where_the_rules_have_it(tmp_path: Path, rules: str,
                                                                     expected: str) -> None:
    """W5, L10: the template's bot, left with one card after its play, adds the call (``!``)
    where the rule set has one, and not where it is illegal (switch)."""
    path = new_bot(Workspace(tmp_path), "mine")
    spec = importlib.util.spec_from_file_location("mine", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    bot = module.Bot()
    bot.on_game_start({"seed": 3, "seat": 0, "seats": 2, "rules": {}})
    game = Game.setup(load_rules(rules), [[Card.parse("7H"), Card.parse("3C")],
                                          [Card.parse("4D"), Card.parse("5D")]], Card.parse("9H"))
    action = bot.act(observe(game, 0))
    assert str(action) == expected
    game.apply(action)  # the referee takes it


# -- the documentation stays inside the repository --------------------------------------------

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_PATH = re.compile(r"`((?:arena|bots|docs|tournaments|tests|\.ci)/[^`\s:]*)")
# Paths the docs name that a run creates, or that stand for any file (NAME, x.py, my_bot, ...).
NOT_SHIPPED = re.compile(r"NAME|<|\{|\*|(^|/)x\.py|my_bot|registry\.json")
# The team's private notes, which a clone does not have.
PRIVATE = re.compile(r"RULINGS\.md|NOTATION\.md|SANDBOX\.md|RATINGS\.md|STYLE\.md|\.\./shared|/work/")


def _anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub derives them."""
    heads = re.findall(r"^#+ (.+)$", path.read_text(), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_of_the_docs_leads_to_a_file_of_the_repository(doc: Path) -> None:
    text = doc.read_text()
    for target in LINK.findall(text):
        assert "://" not in target and not target.startswith(("/", "~")), f"{doc.name}: {target} leaves the repository"
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        assert path.is_relative_to(ROOT) and path.is_file(), f"{doc.name}: {target} is no file of the repository"
        if anchor:
            assert anchor in _anchors(path), f"{doc.name}: {target} names no heading of {path.name}"
    for named in CODE_PATH.findall(text):
        if not NOT_SHIPPED.search(named):
            assert (ROOT / named).exists(), f"{doc.name}: `{named}` is no path of the repository"
    assert not PRIVATE.search(text), f"{doc.name} names a file outside the repository: {PRIVATE.search(text)}"


def test_the_readme_links_the_rules_and_the_notation() -> None:
    links = LINK.findall((ROOT / "README.md").read_text())
    assert {"docs/rules.md", "docs/notation.md"} <= set(links)


def test_the_rules_doc_states_every_ruling_the_tests_and_presets_cite() -> None:
    """Every ruling id a test or a preset names (S7, L10, G3a: a part of G3) is stated in
    docs/rules.md."""
    ruling = re.compile(r"\b([GSCFLWBIO][1-9][0-9]?)[a-c]?\b")
    stated = set(re.findall(r"\*\*([GSCFLWBIO][1-9][0-9]?) ", (ROOT / "docs" / "rules.md").read_text()))
    sources = [*(ROOT / "tests").rglob("test_*.py"), *(ROOT / "arena" / "engine" / "presets").glob("*.yaml")]
    cited = {m for path in sources for m in ruling.findall(path.read_text())}
    assert {"G1", "S15", "C6", "F9", "L11", "W6", "B6", "I5"} <= cited
    assert sorted(cited - stated) == []


def test_the_position_the_notation_shows_is_the_sample_file_with_its_defaults_written_out(
        tmp_path: Path) -> None:
    """docs/notation.md's position example names the sample file: every key it writes out is
    that file's value or default, so the example replays to the same position."""
    text = (ROOT / "docs" / "notation.md").read_text()
    shown = re.search(r"## Positions.*?```yaml\n(.*?)```", text, re.DOTALL)
    assert shown is not None and "sample-position.yaml" in text[:shown.start(1)]
    (tmp_path / "shown.yaml").write_text(shown[1])
    assert played_out(tmp_path / "shown.yaml")[0].to_json() == played_out(SAMPLE_POSITION)[0].to_json()


def test_the_notation_names_every_reason_a_game_of_one_hand_can_end_with() -> None:
    """`reason` in the replay JSON: every outcome of one hand (a match's `wins` is not one)."""
    text = (ROOT / "docs" / "notation.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| `reason` |"))
    named = set(re.findall(r"`([a-z-]+)` \(", row))  # each reason is followed by what it means
    assert named == {reason.value for reason in OutcomeReason} - {OutcomeReason.WINS.value}


def test_the_bot_guide_describes_every_field_of_the_observation() -> None:
    """docs/writing-bots.md's table of `obs`: a field a bot gets but cannot read about is one it
    finds by accident (`legal` was used by the guide's search bot and missing from the table)."""
    text = (ROOT / "docs" / "writing-bots.md").read_text()
    described = {name for line in text.splitlines() if line.startswith("| `")
                 for name in re.findall(r"`(\w+)`", line.split(" | ")[0])}
    public = {field.name for field in dataclasses.fields(Observation) if not field.name.startswith("_")}
    assert sorted(public - described) == []


def test_the_replay_json_in_the_notation_is_what_replay_prints() -> None:
    """docs/notation.md shows `arena replay tournaments/sample-position.yaml --json` as it is."""
    text = (ROOT / "docs" / "notation.md").read_text()
    shown = re.search(r"```json\n(.*?)```", text, re.DOTALL)
    assert shown is not None
    assert json.loads(shown[1]) == played_out(SAMPLE_POSITION)[0].to_json()
