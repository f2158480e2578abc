"""The Gaussian profile over arrays (Balle & Wang 2018, Theorem 8): every branch runs in NumPy, including ε = 0 and
the bulk's corner where Φ(a) − e^ε Φ(b) cancels (ε < r²/2, r small), so that 10⁶ hostile inputs take a fraction of
a second (the mpmath route, one entry at a time, takes seconds).  Checked here: the corner against a 600-digit
mpmath reference written from the theorem (importing nothing from the package), no entry of a hostile grid takes
the mpmath route, and an array gives the same floats as its entries one by one (2-D shapes included)."""

from __future__ import annotations

import mpmath as mp
import numpy as np
import pytest

from dpsemantics import mechanisms


def exact_log_delta(eps: float, r: float) -> mp.mpf:
    """log(Φ(r/2 − ε/r) − e^ε Φ(−r/2 − ε/r)) at 600 digits (the two terms cancel to 10⁻³⁰⁰ here)."""
    with mp.workdps(600):
        e, rr = mp.mpf(eps), mp.mpf(r)
        return mp.log(mp.ncdf(rr / 2 - e / rr) - mp.exp(e) * mp.ncdf(-rr / 2 - e / rr))


@pytest.mark.parametrize("r", [1e-160, 1e-20, 1e-8, 1e-4, 1e-3, 2e-3])
def test_the_cancelling_bulk_corner_matches_mpmath(r):
    for frac in (1e-300, 1e-12, 0.3, 0.99, 1 - 1e-9):
        eps = frac * r * r / 2  # a = r/2 − ε/r > 0: the bulk, where δ ≈ 0.4·r ≪ Φ(a)
        if eps == 0.0:
            continue
        got = float(mechanisms._gaussian_evaluated(eps, 1.0 / r, 1.0)[2])  # the evaluation, before the raise
        want = exact_log_delta(eps, float(mp.mpf(1) / mp.mpf(1.0 / r)))  # at the float r = fl(1/σ) used
        assert abs(got - want) <= 1e-13 * max(1, abs(want)), (r, frac, got, want)
        assert mechanisms.gaussian_log_delta(eps, 1.0 / r) >= want  # the public log δ: on the safe side


def _hostile(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    eps = np.concatenate([10.0 ** rng.uniform(-12, 2.8, n), np.zeros(n // 10), rng.uniform(0, 1e-6, n // 10)])
    r = np.concatenate([10.0 ** rng.uniform(-8, 3, n), 10.0 ** rng.uniform(-320, -150, n // 10),
                        10.0 ** rng.uniform(-4, -2, n // 10)])
    eps, r = np.append(eps, [1.0, 1.0, 1e-300, 5.0]), np.append(r, [np.inf, 0.0, 1e308, 1e-3])
    return eps, r


def test_no_entry_of_a_hostile_grid_goes_to_mpmath(monkeypatch):
    def refuse(*args):
        raise AssertionError(f"mpmath route taken at {args}")

    monkeypatch.setattr(mechanisms, "_gaussian_log_delta_mp", refuse)
    eps, r = _hostile(20000, 3)
    assert not np.any(np.isnan(mechanisms._gaussian_log_delta_array(eps, r)))


def test_an_array_equals_its_entries_one_by_one():
    eps, r = _hostile(2000, 5)
    together = mechanisms._gaussian_log_delta_array(eps, r)
    alone = np.array([mechanisms._gaussian_log_delta_scalar(float(e), float(x)) for e, x in zip(eps, r)])
    # The same formulas, but NumPy's array exp/log (SIMD: AVX-512 on the CI machine) and the scalar path's libm
    # differ in the last bits, and a cancelling step amplifies that (up to about 10⁻¹³ in log δ here): equal within
    # 10⁻¹² in log δ (δ within a relative 10⁻¹², half the 2·10⁻¹² evaluation allowance gaussian_delta adds), and
    # exactly where either is 0 or infinite.
    special = ~np.isfinite(together) | ~np.isfinite(alone) | (together == 0) | (alone == 0)
    assert np.array_equal(together[special], alone[special])
    gap = np.abs(together[~special] - alone[~special])
    assert np.all(gap <= 1e-12 + 1e-13 * np.abs(alone[~special])), gap.max()
    sigma = 1.0 / r[:2000]  # (the first 2000 ratios lie in 1e-8 … 1e3)
    grid = mechanisms.gaussian_log_delta(eps[:2000].reshape(40, 50), sigma.reshape(40, 50))
    assert grid.shape == (40, 50)
    assert np.array_equal(grid.ravel(), mechanisms.gaussian_log_delta(eps[:2000], sigma))
