"""The per-pass error model of pocketfft's real FFTs that pld.py's round-off bound rests on, checked against scipy's
own transforms.

pld.py derives, from the code of pocketfft's radf2/3/4/5 and radb2/3/4/5 passes and its twiddle tables, that each
pass errs by at most η = 24u relative to the sum of the moduli of its inputs (21.4u for radix 5, the largest), so a
length-n transform with L passes errs by at most ((1 + η)^L − 1)·‖x‖₁ on each coefficient.  Here scipy.fft.rfft and
irfft — the binaries that run — are compared with a reference DFT in long double (64-bit mantissa; its own error,
about n·2⁻⁶⁴‖x‖₁, is below 0.03u·‖x‖₁ at these lengths) on many inputs per length: random, ±1, wide-range (30
orders of magnitude) and aligned with one frequency, at each radix alone (n = r, r², …) and mixed.  The error,
divided by L·‖x‖₁, is the per-pass error these inputs imply; the test fails if it exceeds η, and reports it.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.fft import irfft, rfft

from dpsemantics import pld

U = 2.0**-53
ETA = 24.0  # the model's per-pass error, in units of u (pld._FFT_PASS)
TWO_PI = np.longdouble("6.283185307179586476925286766559005768394")  # 2π to long double (np.pi is a double)

LENGTHS = {
    "radix 2 (one 2, then 4s)": [2, 8, 32, 128, 512],
    "radix 4": [4, 16, 64, 256],
    "radix 3": [3, 9, 27, 81, 243, 729],
    "radix 5": [5, 25, 125, 625],
    "mixed": [12, 15, 20, 45, 60, 90, 360, 450],
}


def passes(n: int) -> int:
    """pocketfft's rfftp plan: 4 while it divides n, one 2, then 3s and 5s (rfftp::factorize), written here apart
    from pld._fft_passes."""
    count = 0
    for radix in (4, 2, 3, 5):
        while n % radix == 0:
            n //= radix
            count += 1
    assert n == 1
    return count


def dft_matrices(n: int):
    """cos and sin of 2π·jk/n in long double, j = 0..n/2 (the index reduced mod n first, so the angle is < 2π)."""
    idx = np.outer(np.arange(n // 2 + 1), np.arange(n)) % n
    angle = (TWO_PI / np.longdouble(n)) * idx.astype(np.longdouble)
    return np.cos(angle), np.sin(angle)


def hostile_inputs(n: int, rng: np.random.Generator) -> np.ndarray:
    count = int(min(200, max(3, 6000 // n)))
    s = np.arange(n)
    rows = [rng.random((count, n)),  # probabilities
            rng.choice([-1.0, 1.0], (count, n)),
            rng.standard_normal((count, n)) * np.exp(3.0 * rng.standard_normal((count, n))),  # ~30 orders
            np.exp(-rng.random((count, n)) * 69.0)]  # 1 down to 1e-30, as a composed law's tails
    freqs = rng.integers(0, n // 2 + 1, count)
    aligned = np.cos(2 * np.pi * ((freqs[:, None] * s[None, :]) % n) / n)
    rows += [aligned, np.sign(aligned + 1e-300), np.ones((1, n))]
    return np.concatenate(rows)


def implied_per_pass_errors(n: int, rng: np.random.Generator) -> tuple[float, float]:
    """(forward, inverse): the largest |computed − exact| / (L·‖input‖₁) over the hostile inputs, in units of u.
    For the inverse, the input is the computed spectrum Y (its full, conjugate-completed ‖Y‖₁/n is the scale of
    the output) and the exact scaling's 2u·|x| is taken off first."""
    cos, sin = dft_matrices(n)
    x = hostile_inputs(n, rng)
    ell = passes(n)
    xl = x.astype(np.longdouble)
    re, im = xl @ cos.T, -(xl @ sin.T)
    spec = rfft(x, axis=1)
    err = np.sqrt(((spec.real - re) ** 2 + (spec.imag - im) ** 2).astype(float))
    forward = float(np.max(err.max(axis=1) / (ell * np.abs(x).sum(axis=1)))) / U
    # inverse of the computed spectrum (DC's and, for even n, Nyquist's imaginary parts are not read by c2r)
    weight = np.full(n // 2 + 1, 2.0)
    weight[0] = 1.0
    yi = spec.imag.copy()
    yi[:, 0] = 0.0
    if n % 2 == 0:
        weight[-1] = 1.0
        yi[:, -1] = 0.0
    exact = ((spec.real * weight).astype(np.longdouble) @ cos - (yi * weight).astype(np.longdouble) @ sin) / n
    back = irfft(spec, n, axis=1)
    gap = np.abs((back - exact).astype(float)) - 2.0 * U * np.abs(exact.astype(float))
    scale = ell * (np.abs(spec) * weight).sum(axis=1) / n
    inverse = float(np.max(gap.max(axis=1) / scale)) / U
    return forward, inverse


@pytest.mark.parametrize("radix", list(LENGTHS))
def test_scipy_rfft_and_irfft_passes_stay_within_the_model(radix):
    rng = np.random.default_rng(sum(map(ord, radix)))
    worst = []
    for n in LENGTHS[radix]:
        forward, inverse = implied_per_pass_errors(n, rng)
        assert forward <= ETA, (radix, n, forward)  # the model's η
        assert inverse <= ETA, (radix, n, inverse)
        worst.append(max(forward, inverse))
    print(f"{radix}: implied per-pass error up to {max(worst):.2f}u (model {ETA:g}u)")
    assert max(worst) > 0.5  # the inputs do meet the rounding (a check of exact data would pass with 0)


def test_the_model_constant_is_the_one_the_bound_uses():
    assert pld._FFT_PASS == ETA * U
    for n in [n for lengths in LENGTHS.values() for n in lengths]:
        assert pld._fft_passes(n) == passes(n)


def test_a_length_the_model_does_not_cover_is_refused():
    # 7 and 11 would take pocketfft's generic passes, 2·101 Bluestein's algorithm: the model covers neither
    for n in (7, 11 * 16, 2 * 101):
        with pytest.raises(ValueError, match="n="):
            pld._fft_passes(n)
