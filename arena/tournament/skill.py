"""TrueSkill for games of one-player teams, computed as the ``trueskill`` package computes it.

:class:`Skill` rates one game: the same factor graph, the same message schedule (up to ten sweeps
along the chain of rank differences, stopping once no message moves by more than ``1e-4``), the
same Gaussian arithmetic in the same order and the package's own normal distribution, so the
ratings agree with ``trueskill.TrueSkill.rate`` to the last few bits (the tests hold them to
``1e-12``). What it leaves out is the generality a tournament never uses (teams of several
players, partial-play weights, a draw probability that varies): the package builds a graph of
objects for every game and rates a four-seat game in about 0.5 ms; this straight-line version
takes a fraction of that, which is what lets the parent keep the ratings as games are committed.

A rating travels between games as the package's ``Rating`` does: the ``(mu, sigma)`` pair it was
built from, turned into precision and precision-adjusted mean when used, so a bot's rating after
any number of games is the package's. :class:`Ratings` keeps one per bot and applies games in
``game_id`` (schedule) order.

Facts followed (``RATINGS.md``): ``tau=0`` (a fixed pool; any drift keeps ratings wandering) and
a draw probability that fits rare ties (share of tied games / 6; default 0.005, never 0).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import trueskill

from arena.errors import ConfigError
from arena.tournament.errors import RecordError
from arena.tournament.records import GameRecord

DEFAULT_DRAW_PROBABILITY = 0.005
MIN_DELTA = 1e-4        # the package's DELTA: a sweep that moves no message more ends the loop
SWEEPS = 10             # the package's cap on sweeps along the chain of differences
INF = float("inf")


@dataclass(frozen=True)
class RatingSettings:
    """TrueSkill settings; ``draw_probability`` ~ share of games holding a tie / 6 (0 < p < 1)."""

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 0.0
    draw_probability: float = DEFAULT_DRAW_PROBABILITY

    def __post_init__(self) -> None:
        if not 0.0 < self.draw_probability < 1.0:
            raise ConfigError(
                f"rating setting 'draw_probability': expected a number strictly between 0 and 1 "
                f"(0 breaks tied games), got {self.draw_probability!r}"
            )
        if self.sigma <= 0 or self.beta <= 0 or self.tau < 0:
            raise ConfigError("rating settings: sigma and beta must be positive, tau >= 0")


@dataclass(frozen=True, slots=True)
class Rating:
    """A skill estimate: mean ``mu`` and standard deviation ``sigma``."""

    mu: float
    sigma: float

    @property
    def score(self) -> float:
        """The conservative rating ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


def _shown(mu: float, sigma: float) -> Rating:
    """The rating the package's ``Rating(mu, sigma)`` reports: rebuilt from its precision."""
    pi = sigma ** -2
    return Rating((pi * mu) / pi, math.sqrt(1 / pi))


class Skill:
    """Rates games of one-player teams with fixed :class:`RatingSettings`."""

    def __init__(self, settings: RatingSettings | None = None) -> None:
        self.settings = settings = settings or RatingSettings()
        self.prior = (settings.mu, settings.sigma)
        self._beta2 = settings.beta ** 2
        self._tau = settings.tau
        env = trueskill.TrueSkill(mu=settings.mu, sigma=settings.sigma, beta=settings.beta,
                                  tau=settings.tau, draw_probability=settings.draw_probability,
                                  backend=None)
        self._margin = float(trueskill.calc_draw_margin(settings.draw_probability, 2, env))

    def rate(self, ratings: Sequence[tuple[float, float]],
             ranks: Sequence[int]) -> list[tuple[float, float]]:
        """New ``(mu, sigma)`` of each player of one game, given as ``(mu, sigma)`` with its rank
        (0 first; equal ranks tie). Raises ``FloatingPointError`` where the package does."""
        n = len(ratings)
        if n < 2 or len(ranks) != n:
            raise ValueError("a game needs at least two players, each with a rank")
        order = sorted(range(n), key=ranks.__getitem__)
        beta2, tau_dyn = self._beta2, self._tau
        # prior, performance and team-performance layers, top down
        rp, rt, pp, pt, tp, tt = [], [], [], [], [], []
        for i in order:
            mu_in, sigma_in = ratings[i]
            pi = sigma_in ** -2
            mu = (pi * mu_in) / pi
            sigma = math.sqrt(math.sqrt(1 / pi) ** 2 + tau_dyn ** 2)
            p0 = sigma ** -2
            t0 = p0 * mu
            rp.append(p0)
            rt.append(t0)
            a = 1. / (1. + beta2 * p0)
            p1, t1 = a * p0, a * t0
            pp.append(p1)
            pt.append(t1)
            p2 = 1. / (1 / p1)
            tp.append(p2)
            tt.append(p2 * (t1 / p1))
        sorted_ranks = [ranks[i] for i in order]
        team_p, team_t = tp[:], tt[:]           # each team variable's value
        left_p, left_t = [0.0] * n, [0.0] * n   # message to team i from difference i - 1
        right_p, right_t = [0.0] * n, [0.0] * n  # message to team i from difference i
        diffs = n - 1
        diff_p, diff_t = [0.0] * diffs, [0.0] * diffs    # each difference variable's value
        sum_p, sum_t = [0.0] * diffs, [0.0] * diffs      # its message from the sum factor
        cut_p, cut_t = [0.0] * diffs, [0.0] * diffs      # its message from the truncation
        ties = [sorted_ranks[j] == sorted_ranks[j + 1] for j in range(diffs)]
        margin = self._margin
        sweep = _SWEEPS[n] if n < len(_SWEEPS) else _sweep(n)
        sqrt, exp = math.sqrt, math.exp
        # Written out flat, as the package's operations in its order: a message's precision
        # (p) and precision-adjusted mean (t); every precision here is positive, so the
        # package's guards against a zero one never fire. "team / msg" is the team's value
        # without that message, a sum factor's message is 1 / (1/pa + 1/pb) with mean ma -+ mb.
        for _ in range(SWEEPS):
            delta = 0.
            # forward along the chain (each difference, then its message to the right team),
            # then back (its message to the left team); two teams: the first difference only
            for j, step in sweep:
                k = j + 1
                # the difference's sum factor, down: d_j = team_j - team_j+1
                ap, at = team_p[j] - right_p[j], team_t[j] - right_t[j]
                bp, bt = team_p[k] - left_p[k], team_t[k] - left_t[k]
                q = 1. / (1. / ap + 1. / bp)
                u = q * (at / ap - bt / bp)
                dp = (diff_p[j] - sum_p[j]) + q
                dt = (diff_t[j] - sum_t[j]) + u
                sum_p[j], sum_t[j] = sp, st = q, u
                # the truncation, up: the observed order (or tie) of the two teams
                old_p, old_t = cut_p[j], cut_t[j]
                cp, ct = dp - old_p, dt - old_t
                sqrt_pi = sqrt(cp)
                m = margin * sqrt_pi
                if ties[j]:
                    v, w = _tie(ct / sqrt_pi, m)
                else:   # the package's v_win / w_win, its cdf and pdf written out
                    x = ct / sqrt_pi - m
                    e = -x / _SQRT2
                    z = abs(e)
                    c = 1. / (1. + z / 2.)
                    r = c * exp(-z * z - 1.26551223 + c * (1.00002368 + c * (
                        0.37409196 + c * (0.09678418 + c * (-0.18628806 + c * (
                            0.27886807 + c * (-1.13520398 + c * (1.48851587 + c * (
                                -0.82215223 + c * 0.17087277)))))))))
                    denom = 0.5 * (2. - r if e < 0 else r)
                    v = (_PDF_SCALE * exp(-(x ** 2 / 2))) / denom if denom else -x
                    w = v * (v + x)
                    if not 0 < w < 1:
                        raise FloatingPointError("TrueSkill cannot rate this game in floating point")
                denom = 1. - w
                p, t = cp / denom, (ct + sqrt_pi * v) / denom
                cut_p[j], cut_t[j] = (p + old_p) - dp, (t + old_t) - dt
                diff_p[j], diff_t[j] = p, t
                pi_delta = abs(dp - p)
                if pi_delta != INF:
                    delta = max(delta, abs(dt - t), sqrt(pi_delta))
                if step > 0:    # to the right team: team_j+1 = team_j - d_j
                    cp, ct = p - sp, t - st
                    q = 1. / (1. / ap + 1. / cp)
                    u = q * (at / ap - ct / cp)
                    team_p[k] = (team_p[k] - left_p[k]) + q
                    team_t[k] = (team_t[k] - left_t[k]) + u
                    left_p[k], left_t[k] = q, u
                elif step < 0:  # to the left team: team_j = d_j + team_j+1
                    cp, ct = p - sp, t - st
                    q = 1. / (1. / cp + 1. / bp)
                    u = q * (ct / cp + bt / bp)
                    team_p[j] = (team_p[j] - right_p[j]) + q
                    team_t[j] = (team_t[j] - right_t[j]) + u
                    right_p[j], right_t[j] = q, u
            if delta <= MIN_DELTA:
                break
        # both ends of the chain, up
        ap, at = diff_p[0] - sum_p[0], diff_t[0] - sum_t[0]
        bp, bt = team_p[1] - left_p[1], team_t[1] - left_t[1]
        q = 1. / (1. / ap + 1. / bp)
        u = q * (at / ap + bt / bp)
        team_p[0] = (team_p[0] - right_p[0]) + q
        team_t[0] = (team_t[0] - right_t[0]) + u
        right_p[0], right_t[0] = q, u
        j, k = diffs - 1, diffs
        ap, at = team_p[j] - right_p[j], team_t[j] - right_t[j]
        bp, bt = diff_p[j] - sum_p[j], diff_t[j] - sum_t[j]
        q = 1. / (1. / ap + 1. / bp)
        u = q * (at / ap - bt / bp)
        team_p[k] = (team_p[k] - left_p[k]) + q
        team_t[k] = (team_t[k] - left_t[k]) + u
        result: list[tuple[float, float]] = [self.prior] * n
        for k, i in enumerate(order):
            # team performance -> performance -> rating, bottom up
            dp, dt = team_p[k] - tp[k], team_t[k] - tt[k]
            mu = (dt / dp) if dp else 0.
            inv = 0 + 1. / dp if dp else INF
            p = 1. / inv
            p3, t3 = pp[k] + p, pt[k] + p * mu
            mp, mt = p3 - pp[k], t3 - pt[k]
            a = 1. / (1. + beta2 * mp)
            fp, ft = rp[k] + a * mp, rt[k] + a * mt
            result[i] = ((ft / fp) if fp else 0., math.sqrt(1 / fp) if fp else INF)
        return result


def _sweep(n: int) -> tuple[tuple[int, int], ...]:
    """One sweep of the package's schedule for ``n`` teams: (difference, direction of its up
    message: +1 to the right team, -1 to the left one, 0 none)."""
    diffs = n - 1
    if diffs == 1:
        return ((0, 0),)
    return tuple((j, 1) for j in range(diffs - 1)) + tuple((j, -1) for j in range(diffs - 1, 0, -1))


_SWEEPS = tuple(_sweep(n) if n >= 2 else () for n in range(11))


def _tie(diff: float, margin: float) -> tuple[float, float]:
    """The package's ``v_draw`` and ``w_draw`` of two teams within ``margin`` of each other
    (its cdf and pdf written out, as in :meth:`Skill.rate`)."""
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    ea, eb = -a / _SQRT2, -b / _SQRT2
    za, zb = abs(ea), abs(eb)
    ca, cb = 1. / (1. + za / 2.), 1. / (1. + zb / 2.)
    ra = ca * math.exp(-za * za - 1.26551223 + ca * (1.00002368 + ca * (
        0.37409196 + ca * (0.09678418 + ca * (-0.18628806 + ca * (
            0.27886807 + ca * (-1.13520398 + ca * (1.48851587 + ca * (
                -0.82215223 + ca * 0.17087277)))))))))
    rb = cb * math.exp(-zb * zb - 1.26551223 + cb * (1.00002368 + cb * (
        0.37409196 + cb * (0.09678418 + cb * (-0.18628806 + cb * (
            0.27886807 + cb * (-1.13520398 + cb * (1.48851587 + cb * (
                -0.82215223 + cb * 0.17087277)))))))))
    denom = 0.5 * (2. - ra if ea < 0 else ra) - 0.5 * (2. - rb if eb < 0 else rb)
    if not denom:
        raise FloatingPointError("TrueSkill cannot rate this tie in floating point")
    pdf_a, pdf_b = _PDF_SCALE * math.exp(-(a ** 2 / 2)), _PDF_SCALE * math.exp(-(b ** 2 / 2))
    v_abs = (pdf_b - pdf_a) / denom     # v of |diff|: the sign is +
    return v_abs * (-1 if diff < 0 else +1), (v_abs ** 2) + (a * pdf_a - b * pdf_b) / denom


# The package's fallback backend (trueskill.backends, BSD licence) is written out where it is
# used, for the standard normal only: cdf(x) = erfc(-x / sqrt 2) / 2 with the same polynomial
# erfc, pdf(x) = exp(-x^2 / 2) / sqrt(2 pi), the same operations, so the same bits.
_SQRT2 = math.sqrt(2)
_PDF_SCALE = 1 / math.sqrt(2 * math.pi)


class Ratings:
    """TrueSkill ratings of every bot, fed finished games in ``game_id`` (schedule) order.

    The order is the one the runner commits games in; a game with a lower id than one already
    applied is refused (:class:`RecordError`), as rating it late would give another result than
    the tournament's.
    """

    def __init__(self, settings: RatingSettings | None = None) -> None:
        self.skill = Skill(settings)
        self.settings = self.skill.settings
        self._ratings: dict[str, tuple[float, float]] = {}
        self._next = 0
        self.applied = 0

    @property
    def next_id(self) -> int:
        """The lowest game id that may be applied next."""
        return self._next

    def add(self, record: GameRecord) -> None:
        """Apply one finished game; its id must be above every id applied before."""
        if record.game_id < self._next:
            raise RecordError(f"game {record.game_id} comes after game {self._next - 1} was rated: "
                              "ratings take games in schedule order")
        prior = self.skill.prior
        table = record.table
        rated = self.skill.rate([self._ratings.get(bot, prior) for bot in table], _ranks(record))
        for bot, new in zip(table, rated):
            self._ratings[bot] = new
        self._next = record.game_id + 1
        self.applied += 1

    def add_many(self, records: Iterable[GameRecord]) -> None:
        """Apply several games, in ``game_id`` order."""
        for record in records:
            self.add(record)

    def rating(self, bot: str) -> Rating:
        """The current rating of ``bot`` (the prior if it has not played)."""
        return _shown(*self._ratings.get(bot, self.skill.prior))

    def ratings(self) -> dict[str, Rating]:
        """Current ratings of every bot that has played, by name."""
        return {bot: _shown(*pair) for bot, pair in self._ratings.items()}

    def state(self) -> dict[str, tuple[float, float]]:
        """Each rated bot's ``(mu, sigma)`` as carried between games (to store and restore)."""
        return dict(self._ratings)

    def restore(self, state: dict[str, tuple[float, float]], next_id: int, applied: int) -> None:
        """Continue from a :meth:`state` taken after ``applied`` games, the last one ``next_id - 1``."""
        self._ratings = dict(state)
        self._next, self.applied = next_id, applied


def _ranks(record: GameRecord) -> list[int]:
    ranks = [0] * len(record.table)
    for rank, group in enumerate(record.places):
        for seat in group:
            ranks[seat] = rank
    return ranks
