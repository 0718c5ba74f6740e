"""What `arena duel` shows, drawn on rich's in-memory console: the scores, the SPRT, the faults
with the end of the bot's output, and the one-line live progress, at 80 and 160 columns."""

from __future__ import annotations

import io
import re
from collections import Counter

import pytest
from rich.console import Console

from arena.cli.render import duel_progress_view, render_duel
from arena.play.faults import Fault, FaultCode
from arena.services.duel import BotTally, DuelProgress, DuelResult
from arena.services.duelstats import SprtOutcome
from arena.tournament.sprt import Estimate, Pentanomial, Sprt


def drawn(renderable_or_result, width: int = 80) -> list[str]:
    out = Console(file=io.StringIO(), width=width, color_system=None)
    if isinstance(renderable_or_result, DuelResult):
        render_duel(out, renderable_or_result)
    else:
        out.print(renderable_or_result)
    return out.file.getvalue().splitlines()  # type: ignore[attr-defined]


def head_to_head(sprt: SprtOutcome | None = None, faults: tuple[Fault, ...] = ()) -> DuelResult:
    pairs = Pentanomial((5, 0, 17, 0, 20))
    score = pairs.estimate()
    mirrored = Estimate(score.units, 2, 1 - score.score, score.variance)
    tallies = [BotTally("greedy", 1, 84, 57, score=score, moves_asked=1600, think_s=4.0),
               BotTally("random", 1, 84, 27, Counter({"CRASH": len(faults)}), score=mirrored)]
    return DuelResult("switch", 2, 84, 0, tallies, 1, faults, 2000, 42, pairs, sprt)


def test_two_bots_get_their_score_elo_los_and_pairs() -> None:
    lines = drawn(head_to_head())
    text = "\n".join(lines)
    assert "greedy vs random over 42 deal pairs: score 0.679 [0.575, 0.782]" in text
    assert "Elo +129.8 [+52.6, +221.9]" in text and "LOS 100.0%" in text
    assert "pairs by points  0: 5  ½: 0  1: 17  1½: 0  2: 20" in text
    assert "SPRT" not in text
    assert max(map(len, lines)) <= 80


def test_the_table_gives_each_bot_its_milliseconds_a_move() -> None:
    lines = drawn(head_to_head())
    greedy = next(line for line in lines if "greedy" in line and "%" in line)
    random_ = next(line for line in lines if "random" in line and "%" in line)
    assert "ms/move" in "\n".join(lines)
    assert greedy.rstrip(" │").endswith("2.5")     # 4 s over 1,600 moves
    assert random_.rstrip(" │").endswith("-")      # no move timed
    assert max(map(len, lines)) <= 80


@pytest.mark.parametrize("verdict, llr, words", [
    ("H1", 3.11, "H1 accepted (50) after 84 games"),
    ("H0", -2.95, "H0 accepted (0) after 84 games"),
    (None, 1.2, "no decision within 2,000 games"),
])
def test_the_sprt_says_what_it_decided_and_where_the_llr_stands(verdict, llr, words) -> None:
    outcome = SprtOutcome(Sprt(0, 50), llr, verdict, 84)
    lines = drawn(head_to_head(outcome))
    assert f"SPRT nElo 0 vs 50, alpha 0.05, beta 0.05: {words}" in lines
    assert f"  LLR {llr:.2f}, bounds [-2.94, 2.94]" in lines
    assert max(map(len, lines)) <= 80


def test_more_bots_get_a_table_of_scores_against_the_field_that_fits_80_columns() -> None:
    estimates = [Estimate(15, 4, 0.577, 0.0165), Estimate(15, 4, 0.419, 0.0215),
                 Estimate(15, 4, 0.478, 0.0185)]
    tallies = [BotTally(name, seats, 60, wins, score=e) for (name, seats, wins), e in
               zip([("greedy", 2, 40), ("a-rather-long-bot-name", 1, 6), ("heuristic", 1, 14)], estimates)]
    result = DuelResult("switch", 4, 60, 0, tallies, 1, (), 60, 15)
    for width in (80, 160):
        lines = drawn(result, width)
        assert max(map(len, lines)) <= width
        assert any("score against the field, over 15 deals" in line for line in lines)
        row = next(line for line in lines if "0.419" in line)
        assert "-56." in row and "%" in row
        # whole where it fits; at 80 columns cut (its row in the first table sets the width)
        assert ("a-rather-long-bot-name" in row) == (width == 160)


def test_a_long_name_is_cut_in_the_middle_in_both_tables_and_shown_whole_once() -> None:
    """As every table of the arena: at 80 columns each row stays one line, a long name keeps
    its start and its end (a version) in the same cut in both tables, and appears whole below."""
    long = "suitkeeper_with_a_really_long_file_name_v2"
    estimates = [Estimate(15, 4, 0.49, 0.0001), Estimate(15, 4, 0.431, 0.0045),
                 Estimate(15, 4, 0.583, 0.0035)]
    tallies = [BotTally(name, seats, 12, wins, score=e) for (name, seats, wins), e in
               zip([(long, 2, 6), ("random", 1, 2), ("greedy", 1, 4)], estimates)]
    lines = drawn(DuelResult("switch", 4, 12, 0, tallies, 1, (), 12, 3))
    assert max(map(len, lines)) <= 80
    rows = [line for line in lines if line.startswith("│ suitkee")]
    assert len(rows) == 2   # one row in each table, neither wrapped
    cuts = {row.split("│")[1].strip() for row in rows}
    assert len(cuts) == 1 and (cut := cuts.pop()).endswith("_v2") and "…" in cut
    assert lines.count(f"{cut} = {long}") == 1


def test_many_fault_codes_wrap_in_their_cell_and_every_number_stays_whole() -> None:
    """A bot with four kinds of fault: its faults cell wraps at the commas; the name is cut in
    the middle (and shown whole below), and no count or rate is cut to an ellipsis."""
    pairs = Pentanomial((5, 0, 17, 0, 20))
    score = pairs.estimate()
    mirrored = Estimate(score.units, 2, 1 - score.score, score.variance)
    faults = Counter({"CRASH": 3, "ILLEGAL": 14, "INVALID": 1, "TIMEOUT": 120})
    tallies = [BotTally("mine-with-a-long-name-v2", 1, 84, 57, faults, score=score),
               BotTally("heuristic", 1, 84, 27, score=mirrored)]
    lines = drawn(DuelResult("switch", 2, 84, 0, tallies, 1, (), 2000, 42, pairs))
    assert max(map(len, lines)) <= 80
    row = next(line for line in lines if "67.9%" in line)
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells[1:6] == ["1", "84", "57", "67.9%", "50.0%"] and "…" in cells[0]
    table = "\n".join(lines)
    for code in ("CRASH 3,", "ILLEGAL 14,", "INVALID 1,", "TIMEOUT 120"):
        assert code in table
    assert f"{cells[0]} = mine-with-a-long-name-v2" in lines


@pytest.mark.parametrize("width", [60, 66, 80])
def test_a_narrow_console_leaves_columns_out_before_it_hides_a_fault_or_merges_two_names(
        width: int) -> None:
    """Two long names that differ only at their ends and a faulty bot, narrower than 80
    columns: before, the faults cell shrank to '…' (or nothing) and both long names read
    'a_v……' in the score table. Columns go first (ms/move, par, ...), never a fault or a name."""
    first = "a_very_long_bot_name_from_a_generated_file_alpha_alpha"
    second = "a_very_long_bot_name_from_a_generated_file_alpha_beta"
    estimates = [Estimate(10, 3, 0.52, 0.01), Estimate(10, 3, 0.5, 0.01), Estimate(10, 3, 0.48, 0.01)]
    tallies = [BotTally(name, seats, 30, wins, Counter(faults), score=e, moves_asked=300, think_s=0.3)
               for (name, seats, wins, faults), e in
               zip([(first, 1, 11, {}), (second, 1, 10, {}), ("crashy", 1, 9, {"INVALID": 3})], estimates)]
    lines = drawn(DuelResult("switch", 3, 30, 0, tallies, 1, (), 30, 10), width)
    assert max(map(len, lines)) <= width
    table = "\n".join(lines)
    assert "INVALID 3" in table
    for title in ("games, 3 seats", "score against the field"):
        start = next(i for i, line in enumerate(lines) if title in line)
        rows = [line for line in lines[start:start + 9] if line.startswith("│ a_")]
        cuts = [row.split("│")[1].strip() for row in rows]
        assert len(set(cuts)) == 2, (title, cuts)
        for cut, name in zip(cuts, (first, second)):   # the key below (it may wrap at its '=')
            assert re.search(rf"^{re.escape(cut)} =\s+{name}$", table, re.MULTILINE), (cut, table)
        for row in rows:
            assert all(cell.strip() and "…" not in cell for cell in row.split("│")[2:-1]), row


def test_no_complete_deal_means_no_score() -> None:
    tallies = [BotTally("greedy", 1, 1, 1), BotTally("random", 1, 1, 0)]
    lines = drawn(DuelResult("switch", 2, 1, 0, tallies, 1, (), 1, 0, Pentanomial()))
    assert "no deal was played in every seating: no score (play more games)" in lines


def test_a_faulty_bot_shows_its_first_fault_and_the_end_of_its_output_made_inert() -> None:
    tail = "\n".join([f"line {i}" for i in range(10)] + ["giving up\x1b[2J now"])
    faults = (Fault(1, "random", FaultCode.CRASH, "the bot closed its output: exit status 3", tail),
              Fault(0, "random", FaultCode.CRASH, "the bot closed its output: exit status 3", tail))
    lines = drawn(head_to_head(faults=faults))
    assert "random faulted 2 times; the first, seat 1: CRASH" in lines
    assert "  the bot closed its output: exit status 3" in lines
    at = lines.index("  last lines of random's output:")
    assert lines[at + 1:at + 6] == ["  | line 6", "  | line 7", "  | line 8", "  | line 9",
                                    "  | giving up\\x1b[2J now"]


def progress(first: str = "greedy", sprt: bool = True) -> DuelProgress:
    outcome = SprtOutcome(Sprt(0, 50), 1.83, None, 1200) if sprt else None
    return DuelProgress(1200, 20000, 3.2, first, Pentanomial((60, 0, 300, 0, 240)).estimate(), outcome)


@pytest.mark.parametrize("width", [80, 160])
def test_the_live_progress_is_one_line_that_never_wraps(width: int) -> None:
    (line,) = drawn(duel_progress_view(progress()), width)
    assert "1,200/20,000 375/s ETA 0:50  LLR 1.83/2.94  greedy 0.650 Elo +108" in line
    assert len(line) <= width
    (cut,) = drawn(duel_progress_view(progress("a-bot-with-a-name-long-enough-to-overflow")), 80)
    assert len(cut) <= 80 and cut.endswith("…") and "LLR 1.83/2.94" in cut
    (plain,) = drawn(duel_progress_view(progress(sprt=False)), width)
    assert "LLR" not in plain and "greedy 0.650" in plain
    assert drawn(duel_progress_view(None), width) == ["starting the workers..."]


@pytest.mark.parametrize("counts, score, elo", [
    ((1, 0, 0, 0, 0), "0.000", "-inf"),     # one pair, both games lost
    ((0, 0, 3, 0, 0), "0.500", "+0.0"),     # three pairs, each split 1-1
])
def test_a_score_every_deal_pair_shared_claims_no_interval_or_likelihood(counts, score, elo) -> None:
    """Two deals that each went the same way are no evidence of a spread: a zero-width interval
    and a LOS of 0% or 100% would claim a certainty that two games cannot give."""
    pairs = Pentanomial(counts)
    estimate = pairs.estimate()
    mirrored = Estimate(estimate.units, 2, 1 - estimate.score, estimate.variance)
    tallies = [BotTally("random", 1, 2, 0, score=estimate), BotTally("heuristic", 1, 2, 2, score=mirrored)]
    text = "\n".join(drawn(DuelResult("switch", 2, pairs.pairs * 2, 0, tallies, 1, (), 2, pairs.pairs, pairs)))
    assert f"score {score}\n" in text
    assert f"  Elo {elo}   LOS -\n" in text
    assert "no interval yet: every deal pair scored the same" in text
    assert "[" not in text.split("score", 1)[1].split("pairs by points")[0]
