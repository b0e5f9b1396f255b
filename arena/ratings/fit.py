"""Batch maximum-likelihood Elo ratings with honest 95% intervals (pure numpy, no Django).

Model: Bradley-Terry on the pairwise results of finishing orders, the model the incremental ladder Elo
also assumes. Each match of ``n`` players gives its ``n(n-1)/2`` pairs; in a pair, the player placed
ahead scores 1, a tie ½ each. ``P(i ahead of j) = 1 / (1 + 10^((R_j - R_i)/400))``. Every pair of a match
is weighted ``1/(n-1)`` (as in the incremental update, so a match is worth one game to each player).
If the finishing order follows Plackett-Luce (a race with Gumbel noise), the pairwise marginals are
exactly Bradley-Terry, so this composite likelihood is consistent.

Prior: each player also has ``prior_games`` virtual drawn games against a fixed 1500 player (as in
BayesElo). This keeps unbeaten or disconnected players finite and pins the scale's origin at 1500.

Fit: Newton's method on the penalised log-likelihood — with the dense Hessian up to ``dense_limit``
players, with conjugate gradients (Jacobi preconditioner, Hessian-vector products) above it.

Intervals: the pairs of one match are not independent, so the plain Fisher information would be too
confident for multi-player tables. The covariance is the **sandwich** ``H⁻¹ J H⁻¹`` (composite
likelihood / cluster-robust: ``H`` the Fisher information of the fit, ``J`` the sum over matches of the
outer products of each match's score vector). Exact (dense) up to ``dense_limit`` players; above it, the
diagonal is approximated by ``var_i = J_ii/H_ii² + Σ_j (c_ij/H_ii)² var_j`` (the player's own noise plus
that of its opponents, ``c_ij`` the information shared with ``j``). The 95% interval is
``rating ± 1.96·stderr``. Tests check that these intervals cover the true ratings about 95% of the
time; :func:`bootstrap_intervals` (resampling whole matches) is a slower cross-check.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from arena.ratings.elo import START_RATING

#: Natural-log units to Elo points.
ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054

MatchPlaces = Sequence[tuple[int, int]]
"""One match: ``(player id, place)`` per seat, place 1 = first, tied players share a place."""


@dataclass
class PairData:
    """The pairwise games of a set of matches, as flat arrays (one entry per pair of one match)."""

    ids: list[int]
    first: np.ndarray  # player index of the first player of the pair
    second: np.ndarray
    score: np.ndarray  # score of ``first`` against ``second`` (1, ½, 0)
    weight: np.ndarray  # 1 / (n - 1) for a match of n players
    match: np.ndarray  # match index
    slot_first: np.ndarray  # (match, seat) slot of ``first``
    slot_second: np.ndarray
    slot_player: np.ndarray  # player index of each slot
    games: np.ndarray  # matches played, per player

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.ids)

    @property
    def matches(self) -> int:
        """Number of matches."""
        return int(self.match.max()) + 1 if len(self.match) else 0


@dataclass
class FitResult:
    """Fitted ratings (Elo points) of ``ids`` with standard errors and 95% intervals."""

    ids: list[int]
    ratings: np.ndarray
    stderr: np.ndarray
    games: np.ndarray
    method: str
    iterations: int

    @property
    def low(self) -> np.ndarray:
        """Lower ends of the 95% intervals."""
        return self.ratings - Z95 * self.stderr

    @property
    def high(self) -> np.ndarray:
        """Upper ends of the 95% intervals."""
        return self.ratings + Z95 * self.stderr

    def as_dict(self) -> dict[int, tuple[float, float, float]]:
        """``{id: (rating, low, high)}``."""
        return {
            pid: (float(r), float(lo), float(hi))
            for pid, r, lo, hi in zip(self.ids, self.ratings, self.low, self.high, strict=True)
        }


def pair_data(matches: Iterable[MatchPlaces]) -> PairData:
    """Break every match into its weighted pairwise games (matches of one player are ignored)."""
    by_size: dict[int, list[MatchPlaces]] = {}
    for m in matches:
        if len(m) >= 2:
            by_size.setdefault(len(m), []).append(m)
    ids = sorted({pid for group in by_size.values() for m in group for pid, _ in m})
    index = {pid: k for k, pid in enumerate(ids)}
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("f", "s", "sc", "w", "m", "sf", "ss")}
    slot_players: list[np.ndarray] = []
    match_base = slot_base = 0
    for n, group in sorted(by_size.items()):
        players = np.array([[index[pid] for pid, _ in m] for m in group], dtype=np.int64)
        places = np.array([[place for _, place in m] for m in group], dtype=np.int64)
        count = len(group)
        match_ids = match_base + np.arange(count)
        slots = slot_base + np.arange(count * n).reshape(count, n)
        for a, b in combinations(range(n), 2):
            pa, pb = places[:, a], places[:, b]
            parts["f"].append(players[:, a])
            parts["s"].append(players[:, b])
            parts["sc"].append(np.where(pa < pb, 1.0, np.where(pa == pb, 0.5, 0.0)))
            parts["w"].append(np.full(count, 1.0 / (n - 1)))
            parts["m"].append(match_ids)
            parts["sf"].append(slots[:, a])
            parts["ss"].append(slots[:, b])
        slot_players.append(players.reshape(-1))
        match_base += count
        slot_base += count * n

    def cat(key: str, dtype: type) -> np.ndarray:
        return np.concatenate(parts[key]).astype(dtype) if parts[key] else np.zeros(0, dtype=dtype)

    slot_player = np.concatenate(slot_players) if slot_players else np.zeros(0, dtype=np.int64)
    return PairData(
        ids=ids,
        first=cat("f", np.int64),
        second=cat("s", np.int64),
        score=cat("sc", np.float64),
        weight=cat("w", np.float64),
        match=cat("m", np.int64),
        slot_first=cat("sf", np.int64),
        slot_second=cat("ss", np.int64),
        slot_player=slot_player,
        games=np.bincount(slot_player, minlength=len(ids)).astype(np.int64),
    )


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


class _Problem:
    """The penalised log-likelihood of aggregated pairs (pairs of the same two players summed)."""

    def __init__(self, data: PairData, weight: np.ndarray, prior_games: float) -> None:
        n = data.players
        self.n = n
        self.prior = prior_games
        key = data.first * n + data.second
        uniq, inverse = np.unique(key, return_inverse=True)
        self.i = uniq // n
        self.j = uniq % n
        self.w = np.bincount(inverse, weights=weight, minlength=len(uniq))
        self.ws = np.bincount(inverse, weights=weight * data.score, minlength=len(uniq))

    def loglik(self, theta: np.ndarray) -> float:
        d = theta[self.i] - theta[self.j]
        # w * [s log p + (1 - s) log(1 - p)] with log p = -log(1 + e^-d)
        ll = -(self.ws * np.logaddexp(0.0, -d) + (self.w - self.ws) * np.logaddexp(0.0, d)).sum()
        ll -= self.prior * 0.5 * (np.logaddexp(0.0, -theta) + np.logaddexp(0.0, theta)).sum()
        return float(ll)

    def gradient(self, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Gradient, the Hessian's diagonal (information) and per-pair curvature ``c``."""
        p = _sigmoid(theta[self.i] - theta[self.j])
        r = self.ws - self.w * p
        p0 = _sigmoid(theta)
        grad = np.bincount(self.i, r, self.n) - np.bincount(self.j, r, self.n) + self.prior * (0.5 - p0)
        c = self.w * p * (1.0 - p)
        diag = np.bincount(self.i, c, self.n) + np.bincount(self.j, c, self.n) + self.prior * p0 * (1 - p0)
        return grad, diag, c

    def dense_information(self, diag: np.ndarray, c: np.ndarray) -> np.ndarray:
        """The full information matrix (negative Hessian)."""
        h = np.zeros((self.n, self.n))
        np.add.at(h, (self.i, self.j), -c)
        h = h + h.T
        h[np.diag_indices(self.n)] = diag
        return h

    def hessian_vector(self, diag: np.ndarray, c: np.ndarray, v: np.ndarray) -> np.ndarray:
        """Information matrix times ``v`` without forming it."""
        return (
            diag * v - np.bincount(self.i, c * v[self.j], self.n) - np.bincount(self.j, c * v[self.i], self.n)
        )


def _conjugate_gradient(
    problem: _Problem, diag: np.ndarray, c: np.ndarray, b: np.ndarray, tol: float = 1e-10
) -> np.ndarray:
    """Solve ``H x = b`` by preconditioned conjugate gradients."""
    x = np.zeros_like(b)
    r = b.copy()
    z = r / diag
    p = z.copy()
    rz = float(r @ z)
    norm_b = float(np.linalg.norm(b)) or 1.0
    for _ in range(10 * problem.n + 100):
        hp = problem.hessian_vector(diag, c, p)
        alpha = rz / float(p @ hp)
        x += alpha * p
        r -= alpha * hp
        if float(np.linalg.norm(r)) <= tol * norm_b:
            break
        z = r / diag
        rz_new = float(r @ z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x


def _newton(
    problem: _Problem, dense: bool, theta: np.ndarray | None = None, tol: float = 1e-9, max_iter: int = 100
) -> tuple[np.ndarray, int]:
    theta = np.zeros(problem.n) if theta is None else theta.copy()
    value = problem.loglik(theta)
    for iteration in range(1, max_iter + 1):
        grad, diag, c = problem.gradient(theta)
        if dense:
            step = np.linalg.solve(problem.dense_information(diag, c), grad)
        else:
            step = _conjugate_gradient(problem, diag, c, grad)
        scale = 1.0
        while True:
            candidate = theta + scale * step
            new_value = problem.loglik(candidate)
            if new_value >= value - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, value = candidate, new_value
        if float(np.max(np.abs(scale * step), initial=0.0)) < tol:
            return theta, iteration
    return theta, max_iter


def _match_scores(data: PairData, theta: np.ndarray) -> np.ndarray:
    """Each (match, seat) slot's score: its contribution to the gradient of its player."""
    p = _sigmoid(theta[data.first] - theta[data.second])
    r = data.weight * (data.score - p)
    slots = len(data.slot_player)
    return np.bincount(data.slot_first, r, slots) - np.bincount(data.slot_second, r, slots)


def _sandwich_dense(problem: _Problem, data: PairData, theta: np.ndarray) -> np.ndarray:
    _, diag, c = problem.gradient(theta)
    h_inv = np.linalg.inv(problem.dense_information(diag, c))
    g = _match_scores(data, theta)
    n = problem.n
    j = np.zeros((n, n))
    np.add.at(j, (data.slot_player, data.slot_player), g * g)
    cross = g[data.slot_first] * g[data.slot_second]
    np.add.at(j, (data.first, data.second), cross)
    np.add.at(j, (data.second, data.first), cross)
    variance = np.einsum("ik,ik->i", h_inv @ j, h_inv)
    return np.sqrt(np.maximum(variance, 0.0))


def _sandwich_diagonal(problem: _Problem, data: PairData, theta: np.ndarray, rounds: int = 4) -> np.ndarray:
    _, diag, c = problem.gradient(theta)
    g = _match_scores(data, theta)
    j_diag = np.bincount(data.slot_player, g * g, problem.n)
    own = j_diag / diag**2
    variance = own.copy()
    share_i = (c / diag[problem.i]) ** 2
    share_j = (c / diag[problem.j]) ** 2
    for _ in range(rounds):
        variance = (
            own
            + np.bincount(problem.i, share_i * variance[problem.j], problem.n)
            + np.bincount(problem.j, share_j * variance[problem.i], problem.n)
        )
    return np.sqrt(variance)


def fit_ratings(
    matches: Iterable[MatchPlaces] | PairData,
    prior_games: float = 1.0,
    dense_limit: int = 600,
) -> FitResult:
    """Fit Elo ratings to all ``matches`` at once; intervals by the sandwich (module docstring)."""
    data = matches if isinstance(matches, PairData) else pair_data(matches)
    n = data.players
    if n == 0:
        empty = np.zeros(0)
        return FitResult([], empty, empty, np.zeros(0, dtype=np.int64), "none", 0)
    dense = n <= dense_limit
    problem = _Problem(data, data.weight, prior_games)
    theta, iterations = _newton(problem, dense)
    stderr = _sandwich_dense(problem, data, theta) if dense else _sandwich_diagonal(problem, data, theta)
    return FitResult(
        ids=list(data.ids),
        ratings=START_RATING + ELO_PER_NAT * theta,
        stderr=ELO_PER_NAT * stderr,
        games=data.games,
        method="sandwich-dense" if dense else "sandwich-diagonal",
        iterations=iterations,
    )


def bootstrap_intervals(
    matches: Iterable[MatchPlaces] | PairData,
    samples: int = 200,
    prior_games: float = 1.0,
    seed: int = 0,
    dense_limit: int = 600,
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """95% percentile intervals from refits on matches resampled with replacement: ``(ids, low, high)``."""
    data = matches if isinstance(matches, PairData) else pair_data(matches)
    rng = np.random.default_rng(seed)
    total = data.matches
    dense = data.players <= dense_limit
    start, _ = _newton(_Problem(data, data.weight, prior_games), dense)
    draws = np.empty((samples, data.players))
    for b in range(samples):
        counts = np.bincount(rng.integers(0, total, total), minlength=total).astype(np.float64)
        problem = _Problem(data, data.weight * counts[data.match], prior_games)
        theta, _ = _newton(problem, dense, theta=start)
        draws[b] = START_RATING + ELO_PER_NAT * theta
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    return list(data.ids), low, high
