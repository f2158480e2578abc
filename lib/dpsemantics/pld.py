"""Privacy-loss distributions (PLDs) with a pessimistic and an optimistic discretisation: composition of
Laplace, Gaussian, geometric, randomized-response and (ε, δ)-DP mechanisms and their mixtures, with a
bracket [optimistic, pessimistic] around the exact privacy profile δ(ε).

The privacy-loss random variable L = log(P(Y)/Q(Y)), Y ~ P (Kazan et al., Definition 2.2) determines the
privacy profile, the hockey-stick divergence δ(ε) = E[(1 − e^{ε − L})₊] + P[L = +∞] (Definition 2.1
through the loss), and composing independent mechanisms adds their losses (Kazan Theorem 2.8's
mechanism-specific refinement: the composed law is the convolution).  On a lattice {i·h} the convolution
is an FFT.  Two discretisations bound the exact profile from both sides, for any number of compositions:

* **pessimistic, connect-the-dots** (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022, "Connect the
  Dots: Tighter Discrete Approximations of Privacy Loss Distributions", PETS; the method of Google's
  dp_accounting): the loss values in each lattice cell [ih, (i+1)h] are replaced by the two end points,
  with the weights that keep both the cell's probability under P and its probability under Q
  (E_P[e^{−L}; cell]).  The discrete law then has *exactly* the mechanism's δ at every lattice point and is
  linear in e^ε between them; δ(ε) is convex in e^ε, so the chord lies above it, at every ε including
  negative ones, which is the dominance that survives composition (Doroshenko et al., Theorem 4.3).
  Mass beyond the last cell goes to +∞, mass below the first cell to the first point (both only raise δ).
  The error is O(h²) per mechanism, not O(h) as when every value is rounded up.
* **optimistic**: the outputs whose loss falls in a cell are merged into one output (a post-processing, so
  the merged pair is dominated by the mechanism's — Doroshenko et al., §4), whose loss log(P(cell)/Q(cell))
  lies in the cell; it is then rounded *down* to the lattice.  Cells are centred on lattice points, where the
  merged loss sits within O(h²) of the centre, so the rounding costs O(h²), not O(h).  Mass below the first
  cell is dropped and mass above the last cell goes to the last point (both only lower δ).

Composition uses exact-direction truncation: after each convolution, a run of entries at either end whose
*exact* mass is provably below 1e-30 (its computed sum plus the round-off allowance below) is moved to the
safe side (pessimistic: the upper end to +∞, the lower end to the lowest kept point; optimistic: the upper end
to the highest kept point, the lower end dropped), and the FFT's round-off is carried as a bound
on the Euclidean norm of the error vector (``err``, proved under the FFT error model stated below); a sum
of n entries with weights in [0, 1] is then off by at most √n·err (Cauchy–Schwarz), which is added to the
pessimistic δ and subtracted from the optimistic one.  ``self_compose(k)`` squares and multiplies (O(log k) convolutions).

:class:`PrivacyLossDistribution` is the interface: constructors :meth:`~PrivacyLossDistribution.laplace`, :meth:`~PrivacyLossDistribution.gaussian`,
:meth:`~PrivacyLossDistribution.geometric`, :meth:`~PrivacyLossDistribution.randomized_response`, :meth:`~PrivacyLossDistribution.approximate_dp`, :meth:`~PrivacyLossDistribution.from_atoms`, :meth:`~PrivacyLossDistribution.mixture`; :meth:`~PrivacyLossDistribution.compose`,
:meth:`~PrivacyLossDistribution.self_compose`; :meth:`~PrivacyLossDistribution.delta_bounds` / :meth:`~PrivacyLossDistribution.delta` (the safe, pessimistic value) and
:meth:`~PrivacyLossDistribution.epsilon_bounds` / :meth:`~PrivacyLossDistribution.epsilon`; :meth:`~PrivacyLossDistribution.tail_bounds` for P[L > t] (the PDP side).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.signal import fftconvolve, lfilter
from scipy.special import expit, log_ndtr

from . import _rounding, mechanisms
from ._rounding import UNIT_ROUNDOFF as _U  # u, the unit round-off
from ._validate import as_float, check_delta, check_epsilon, check_positive, check_positive_int
from .errors import NumericalLimit

__all__ = ["PrivacyLossDistribution", "tilted_self_composition"]

_TAIL = 1e-30  # mass this small at either end of a lattice is moved to the safe side after each step
_POINTS_MAX = 50_000_000  # a lattice longer than this does not fit in memory comfortably
_LOG_DROP = math.log(1e-20)  # FFT coefficients raised to the k-th power below this are dropped (and accounted)


# --- round-off of pocketfft's real FFTs (scipy.fft.rfft / irfft), the bound every FFT step here carries ---------
#
# The model (Higham 2002, "Accuracy and Stability of Numerical Algorithms", §24.1: the proof of Theorem 24.2,
# written for any Cooley–Tukey factorisation): a transform of length n = 2^a 3^b 5^c (``next_fast_len``) is
# computed as L passes of radix r ∈ {4, 2, 3, 5}; in each pass every (complex) output is formed from r inputs z_s
# and its error is at most η Σ_s |z_s|, η = 24u.  Two consequences, both used below:
#
# * componentwise: every input reaches every output along exactly one path, with weights of modulus 1, so
#   |fl(DFT x)_j − (DFT x)_j| ≤ ((1 + η)^L − 1)·‖x‖₁ for every j (Higham Lemma 3.8 applied to |A_L|···|A_1| = |F|);
# * normwise: one pass is √r times a unitary matrix and its error has ‖Δ‖₂ ≤ r·η·‖z‖₂ = √r·η·‖A‖₂‖z‖₂ (each
#   output within η√r times the norm of its group of r inputs, Cauchy–Schwarz; the groups partition the inputs), so
#   ‖fl(y) − y‖₂ ≤ ((1 + √5·η)^L − 1)·‖y‖₂ (Higham Theorem 24.2's argument); the inverse's 1/n scaling adds 2u.
#
# Derivation of η from the code that runs (scipy 1.17 calls pocketfft's C++ header, pocketfft_hdronly.h, read at
# mreineck/pocketfft branch cpp; standard model |fl(a ∘ b) − a ∘ b| ≤ u|a ∘ b|, γ_m = mu/(1 − mu)):
#
# * **the plan:** ``pocketfft_r`` takes ``rfftp`` (the FFTPACK real passes) whenever (largest prime factor)² ≤ n
#   or n < 50, so every 5-smooth n; Bluestein (``fftblue``) and the generic odd-radix passes (radfg/radbg) are never
#   reached.  ``rfftp::factorize`` takes 4 while it divides n, then one 2 (moved to the front), then 3s and 5s:
#   L = ⌊a/2⌋ + (a mod 2) + b + c (:func:`_fft_passes`).  Each pass maps the ido-point sub-DFTs of the previous
#   stage to those of the next (halfcomplex storage: the conjugate half is implied, the stored values are true DFT
#   intermediates), so its matrix is a radix-r butterfly times unit-modulus twiddles, as the model requires.
# * **twiddles** (``sincos_2pibyn``): w = v₁[i & mask]·v₂[i >> shift], each table entry cos/sin (glibc, within
#   1 ulp) of x·ang with x < n an exact integer and ang = π/(4n) rounded from long double (angle error ≤ 2.01u·π/4 =
#   1.6u), so each entry is within 1.6u + 2u = 3.6u of its exact value; their complex product adds √2γ₂ (Higham
#   Lemma 3.5): |w̃ − w| ≤ 3.6u + 3.6u + 2.83u + O(u²) ≤ 10u.  Forward passes multiply an input by conj(w̃), inverse
#   passes an output by w̃ (MULPM: two products and a sum per part, √2γ₂ again): |fl(w̃z) − wz| ≤ 12.9u|z|.
# * **butterflies:** the path from each real input to each real output of radf2/3/4/5 and radb2/3/4/5 carries
#   exactly one coefficient (1, ±½, or a rounded constant cos/sin of 2π/r: taui, tr11, ti11, tr12, ti12, hsqt2 —
#   each counted as one more rounding); the real and imaginary parts of a complex input z_s enter a real output
#   with coefficients |cos θ|, |sin θ|, so the sum over paths of |coefficient|·|leaf| is at most Σ_s |z_s|
#   (Cauchy–Schwarz), and each real output is within γ_d Σ_s |z_s| with d its largest number of roundings on a path
#   (Higham §3.1): d = 1 (radix 2: one PM), 2 (radix 4: two PM levels), 4 (radix 3: REARRANGE, the taui product and
#   its constant, PM; taur = −½ is exact), 6 (radix 5: REARRANGE, tr11·x + tr12·y + c as a product, two sums and the
#   constant, PM), the same counts for radb2/4/3/5 (which sum first and apply the twiddle last) and fewer for the
#   twiddle-free first points (i = 0, and i = ido − 1 when ido is even: hsqt2 or √2 times a sum, then one PM); a
#   fused multiply-add, where the compiler contracts a*b + c, only removes roundings.
#   A complex output is then within √2·γ_d Σ|z_s| from the butterfly.
# * **per pass:** η_r ≤ 12.9u + √2·d·u (1 + O(u)): 14.3u (radix 2), 15.7u (radix 4), 18.6u (radix 3), 21.4u
#   (radix 5), all below η = 24u; the forward transform's r2c output and the inverse's c2r input are copies (exact).
# * **scaling:** irfft multiplies by fct = double(1/(long double)n) (within u + 2⁻⁶⁴) once: 2u with its product.
# * **underflow** (masses near 1e-300 and subnormal): each operation may add 2⁻¹⁰⁷⁵ absolutely instead; L·n·8·2⁻¹⁰⁷⁵
#   is below 1e-300 for every lattice here, far below the 1e-10 relative slack every bound below carries.
#
# The check that can fail (tests/unit/pld/test_pld_fft_error_model.py): forward and inverse errors of scipy's own rfft/irfft
# against a long-double reference DFT, per radix (n = r, r², and the mixed lengths of ``next_fast_len``) on random,
# sign-aligned and wide-range inputs, divided by L·‖x‖₁: the per-pass error they imply is at most 2.4u (radix 5,
# whose derived bound is 21.4u), 2.1u (radix 3: 18.6u), 1.7u (radix 4: 15.7u), 1.3u (radix 2: 14.3u), 2.1u for mixed
# lengths up to 1350 (forward; the inverse at most 1.7u) — 10 to 20 times below η.  The whole bound is also
# tested against exact integer convolutions, including adversarial lattices (tests/unit/test_pld.py,
# tests/unit/test_accuracy.py).

_FFT_PASS = 24 * _U  # η: the error of one radix-≤5 pass, relative to the sum of the moduli of its inputs (≤ 21.4u)
_FFT_SCALE = 2 * _U  # the inverse's 1/n: fct rounded from long double, and its product


def _fft_passes(n: int) -> int:
    """The number of passes pocketfft's real transform makes at length n: its plan (``rfftp::factorize``) takes
    the factors 4 while they divide n, then one 2, then the odd factors; n from ``next_fast_len`` is 5-smooth.
    A length with a larger prime factor is refused: pocketfft would take its generic odd-radix passes or Bluestein's
    algorithm there, which the error model above does not cover (every caller here uses ``next_fast_len``)."""
    m, passes = n, 0
    for radix in (4, 2, 3, 5):
        while m % radix == 0:
            m //= radix
            passes += 1
    if m != 1:
        raise ValueError(f"the FFT error model covers lengths 2^a 3^b 5^c only (got n={n!r})")
    return max(passes, 1)


def _fft_error_factors(n: int) -> tuple[float, float]:
    """(componentwise, normwise) relative round-off factors of a length-n real FFT under the model above:
    ((1 + η)^L − 1, ((1 + √5·η)^L − 1)(1 + 2u) + 2u) with L the number of passes (:func:`_fft_passes`; the 2u is
    the inverse's scaling by 1/n)."""
    passes = _fft_passes(n)
    comp = math.expm1(passes * math.log1p(_FFT_PASS))
    norm = math.expm1(passes * math.log1p(math.sqrt(5.0) * _FFT_PASS)) * (1 + _FFT_SCALE) + _FFT_SCALE
    return comp, norm


def _fft_convolution_error(a: np.ndarray, b: np.ndarray) -> float:
    """A bound on ‖fftconvolve(a, b) − a∗b‖₂ for non-negative a, b (scipy: irfft(rfft(a)·rfft(b)) at the length
    N = next_fast_len(len a + len b − 1)), under the FFT model above.  The computed spectra are â + α, b̂ + β
    with |α_j| ≤ γ‖a‖₁ (componentwise) and ‖β‖₂ ≤ γ_norm‖b̂‖₂ (normwise), ‖b̂‖₂ = √N‖b‖₂; their product is
    rounded by √2γ₂ ≤ 3u (Higham Lemma 3.5) and |â_j| ≤ ‖a‖₁.  The spectral error αb̂ + âβ + αβ + ρ·product, mapped
    back by the inverse (Parseval: a spectral error of norm E becomes E/√N), is at most
    (γ(1 + γ_norm) + 3u(1 + γ)(1 + γ_norm))(‖a‖₁‖b‖₂ + ‖a‖₂‖b‖₁); the inverse transform adds γ_norm times the
    norm of the computed product's inverse, at most ‖a∗b‖₂ + that, with ‖a∗b‖₂ ≤ ‖a‖₁‖b‖₂ (Young)."""
    from scipy.fft import next_fast_len

    n = next_fast_len(a.size + b.size - 1, real=True)
    comp, norm = _fft_error_factors(n)
    a1, b1 = float(a.sum()) * (1 + a.size * _U), float(b.sum()) * (1 + b.size * _U)
    a2, b2 = float(np.linalg.norm(a)) * (1 + 2 * _U * a.size), float(np.linalg.norm(b)) * (1 + 2 * _U * b.size)
    spectral = (comp * (1 + norm) + 3 * _U * (1 + comp) * (1 + norm)) * (a1 * b2 + a2 * b1)
    return (spectral + norm * (a1 * b2 + spectral)) * (1 + 1e-10)


def _cyclic_power(probs: np.ndarray, k: int, n: int) -> tuple[np.ndarray, float]:
    """The cyclic k-fold convolution of the non-negative vector ``probs`` at length n, by one real FFT raised to
    the k-th power in polar form, and a bound on the Euclidean norm of its error against the exact one.

    The power |ĉ|^k·e^{ik·arg ĉ} = exp(k·log|ĉ| + ik·arg ĉ) is taken only where |ĉ|^k ≥ 1e-20 (the rest is set
    to 0).  The error, coefficient by coefficient (ĉ the exact transform, ĉ′ the computed one, g = γ‖p‖₁ the
    componentwise bound of the forward transform, M = |ĉ′| + g ≥ max(|ĉ|, |ĉ′|)):

    * kept: |w′ − ĉ^k| ≤ θ|ĉ′|^k + k·g·M^{k−1}, where θ bounds the polar form's relative error: log|ĉ′| is within
      2u + 2u|log|ĉ′|| and arg ĉ′ within 4πu (|arg| ≤ π, atan2 within 2 ulps), k times each plus their own
      rounding, and |k·log|ĉ′|| ≤ 46 on the kept ones: θ = ((2 + 5π)k + 150)u (1 + 1e-6), exp and cos/sin adding 8u;
      |ĉ′^k − ĉ^k| ≤ k|ĉ′ − ĉ|M^{k−1} (mean value theorem);
    * dropped: |0 − ĉ^k| ≤ M^k.

    By Parseval the spectral errors (each counted twice in the conjugate half) give √(Σ|E_j|²/n) in the result;
    the inverse transform adds γ_norm·‖IDFT(w′)‖₂ = γ_norm·rms|w′|.  Returns (q, bound)."""
    from scipy.fft import irfft, rfft

    coeffs = rfft(probs, n)
    comp, norm = _fft_error_factors(n)
    g = comp * float(probs.sum()) * (1 + probs.size * _U)
    with np.errstate(divide="ignore"):
        log_abs = np.log(np.abs(coeffs))
    log_mag = k * log_abs
    keep = log_mag > _LOG_DROP
    powered = np.zeros(coeffs.size, dtype=complex)
    powered[keep] = np.exp(log_mag[keep] + 1j * (k * np.angle(coeffs[keep])))
    q = irfft(powered, n)
    weight = np.full(coeffs.size, 2.0)  # the conjugate half of the full spectrum
    weight[0] = 1.0
    if n % 2 == 0:
        weight[-1] = 1.0
    theta = ((2 + 5 * math.pi) * k + 150) * _U * (1 + 1e-6)
    with np.errstate(divide="ignore", under="ignore", over="ignore"):
        log_m = np.logaddexp(log_abs, math.log(g)) if g > 0 else log_abs
        forward = np.exp(math.log(k * g) + (k - 1) * log_m) if g > 0 else np.zeros(coeffs.size)
        spec = np.where(keep, theta * np.exp(log_mag) * (1 + theta) + forward, np.exp(k * log_m))
        mag = np.abs(powered)
    spectral = math.sqrt(float(np.dot(weight, spec * spec)) / n)
    rms = math.sqrt(float(np.dot(weight, mag * mag)) / n)
    return q, (spectral + norm * rms) * (1 + 1e-10)


@dataclass
class _Lattice:
    """A law on {i·h : i = start, …, start + len(probs) − 1} plus an atom at +∞; ``err`` bounds the Euclidean
    norm of the absolute error of ``probs`` (FFT round-off; so also each entry's error), ``rel`` its relative error (the masses' own evaluation,
    which k-fold composition multiplies by at most k), ``direction`` is "up" (pessimistic) or "down"."""

    start: int
    probs: np.ndarray
    inf: float
    err: float
    direction: str
    rel: float = 0.0

    def trimmed(self) -> "_Lattice":
        """The lattice with its negligible ends moved to the safe side: the entries below index a and above index b
        go, where the *exact* mass of each removed run is at most 1e-30 (``_TAIL``).

        The exact mass of a run of m computed entries with sum S is at most S/(1 − rel) + √m·err and at least
        S(1 − rel) − √m·err (``rel`` bounds each entry relative to its exact value, and the absolute errors e_j of
        the run have Σ|e_j| ≤ √m·‖e‖₂ ≤ √m·err by Cauchy–Schwarz).  A run is removed only where its upper bound is
        at most ``_TAIL``; its mass then goes, pessimistic ("up"): the upper run's upper bound to +∞, the lower
        run's upper bound onto the first kept point (so the result is the computed law of a law that dominates the
        exact one: every removed exact mass is replaced by at least as much at a higher loss, and the kept entries
        keep their errors, so ``err`` and ``rel`` still hold); optimistic ("down"): the upper run's lower bound
        (at least 0) onto the last kept point, the lower run dropped (a law dominated by the exact one).  That moving
        mass up or to +∞ only raises δ(ε) = E[(1 − e^{ε−L})₊] + P[L = +∞] at every ε, and survives composition, is
        the pessimistic truncation of Koskela, Jälkö & Honkela (2020, AISTATS, §5) and Doroshenko et al. (2022, §4).
        Without the √m·err term a lattice that carries FFT round-off lost the exact mass of the entries its
        computed values had rounded to 0 (the entries past the last point count nowhere in δ's slack
        √(N − i)·err, which covers only the entries kept): the k-fold far tail fell below the exact one."""
        p = self.probs
        if p.size == 0:
            return self
        n = p.size
        grow = 1.0 / (1.0 - self.rel) if self.rel < 0.5 else math.inf  # S/(1 − rel): the run's exact mass at most
        with np.errstate(invalid="ignore", over="ignore"):
            low = np.cumsum(p) * grow + np.sqrt(np.arange(1, n + 1)) * self.err  # entries 0..i
            high = np.cumsum(p[::-1])[::-1] * grow + np.sqrt(np.arange(n, 0, -1)) * self.err  # entries i..n-1
        keep = np.flatnonzero(~(low <= _TAIL) & ~(high <= _TAIL))
        if keep.size == 0:
            keep = np.array([int(np.argmax(p))])
        a, b = int(keep[0]), int(keep[-1])
        below = float(low[a - 1]) if a > 0 else 0.0  # bounds on the exact mass of the removed runs (≤ _TAIL)
        above = float(high[b + 1]) if b + 1 < n else 0.0
        q = p[a:b + 1].copy()
        inf = self.inf
        if self.direction == "up":
            q[0] += below  # lower tail up to the first kept point
            inf += above  # upper tail to +∞
        elif b + 1 < n:  # upper tail down to the last kept point, at its least; the lower tail is dropped
            least = float(p[b + 1:].sum()) * max(1.0 - self.rel, 0.0) - math.sqrt(n - 1 - b) * self.err
            q[-1] += max(least, 0.0)
        return _Lattice(self.start + a, q, inf, self.err, self.direction, self.rel)

    def convolve(self, other: "_Lattice") -> "_Lattice":
        n = self.probs.size + other.probs.size - 1
        if n > _POINTS_MAX:
            raise NumericalLimit(f"h is too small for this composition: the lattice would need {n} points")
        rel = self.rel + other.rel + self.rel * other.rel
        if self.probs.size * other.probs.size < 2_000_000:
            conv = np.convolve(self.probs, other.probs)
            fft_err = 0.0
            rel += 2 * _U * min(self.probs.size, other.probs.size)  # sums of positive products
        else:
            conv = fftconvolve(self.probs, other.probs)
            fft_err = _fft_convolution_error(self.probs, other.probs)
        conv = np.maximum(conv, 0.0)
        # Young: ‖e_a * b‖₂ ≤ ‖e_a‖₂‖b‖₁, ‖e_a * e_b‖₂ ≤ ‖e_a‖₂‖e_b‖₁ ≤ ‖e_a‖₂‖e_b‖₂·√n
        err = (self.err * float(other.probs.sum()) + other.err * float(self.probs.sum())
               + self.err * other.err * math.sqrt(n) + fft_err)
        fin_a, fin_b = float(self.probs.sum()), float(other.probs.sum())
        inf = self.inf * (fin_b + other.inf) + other.inf * fin_a  # +∞ absorbs
        return _Lattice(self.start + other.start, conv, inf, err, self.direction, rel).trimmed()

    def scaled(self, w: float) -> "_Lattice":
        return _Lattice(self.start, self.probs * w, self.inf * w, self.err * w, self.direction, self.rel + _U)

    def added(self, other: "_Lattice") -> "_Lattice":
        lo = min(self.start, other.start)
        hi = max(self.start + self.probs.size, other.start + other.probs.size)
        p = np.zeros(hi - lo)
        p[self.start - lo:self.start - lo + self.probs.size] += self.probs
        p[other.start - lo:other.start - lo + other.probs.size] += other.probs
        return _Lattice(lo, p, self.inf + other.inf, self.err + other.err, self.direction,
                        max(self.rel, other.rel) + _U)

    def delta(self, eps: np.ndarray, h: float) -> np.ndarray:
        """Σ_{j: z_j > ε} p_j (1 − e^{ε − z_j}) + p_∞ (z_j = (start + j)·h), ± the round-off bounds, for every ε at
        once (O(N + len(ε)), no loop over ε).

        With i the first point above ε, C_i = Σ_{j≥i} p_j e^{−(z_j − z_i)} (:func:`_discounted_tail_sums`) and
        B_i = Σ_{j≥i} p_j (1 − e^{−(z_j − z_i)}) = B_{i+1} + (1 − e^{−h})·C_{i+1}, the sum is B_i + (1 − e^{ε − z_i})·C_i:
        every term and every partial sum is nonnegative, so nothing cancels (as it would in Σp − e^{ε}Σp·e^{−z}).
        The recursions run over at most n = N − i entries, each step a product and a sum of nonnegative numbers and
        the factor e^{−h} within 2u: the value is within 8(n + 2)u of itself relative.  The first point z_i is a
        rounded product (within u·z_i of (start + i)·h) and ε − z_i one more rounding, which moves 1 − e^{ε − z_i} by
        at most 2u(|z_i| + |ε|) absolutely (its slope is at most 1), so that term's error is at most
        2u(|z_i| + |ε|)·C_i however close ε is to z_i; and the point before, z_{i−1} ≤ ε as rounded, may lie above ε
        exactly, by at most that much, which it would contribute times p_{i−1} (the indices start + i stay far below
        2⁵², so the spacing h exceeds 2u·|z| and no other point is in doubt).  All are added (with ``rel``, the
        masses' own error, and the round-off bound √n·``err``) in the lattice's direction."""
        p = self.probs
        n = p.size
        z = (self.start + np.arange(n)) * h
        i = np.searchsorted(z, eps, side="right")  # the first point above ε (z increases)
        c = _discounted_tail_sums(p, h)
        b = np.append(np.cumsum((-math.expm1(-h) * c[1:])[::-1])[::-1], 0.0)  # B_i = Σ_{j>i} (1 − e^{−h}) C_j
        above = i < n
        z_ext, p_ext = np.append(z, 0.0), np.append(p, 0.0)  # index n: no point (ε above the lattice)
        first, before = z_ext[i], np.maximum(i - 1, 0)
        with np.errstate(invalid="ignore", over="ignore"):  # ε above the lattice (or +∞): no point above it, C = 0
            near = np.where(above, -np.expm1(eps - first), 0.0)
            placement = 2 * _U * ((np.abs(first) + np.abs(eps)) * c[i]
                                  + np.where(i > 0, (np.abs(z_ext[before]) + np.abs(eps)) * p_ext[before], 0.0))
            placement = np.where(np.isfinite(eps), placement, 0.0)  # ε = ±∞: e^{ε − z} is exactly 0 or ∞
        s = b[i] + near * c[i]
        count = n - i
        slack = self.err * np.sqrt(count) + (self.rel + 4 * _U + 8 * (count + 2) * _U) * s + placement
        out = s + self.inf + (slack if self.direction == "up" else -slack)
        return np.clip(out, 0.0, 1.0)


def _discounted_tail_sums(p: np.ndarray, h: float) -> np.ndarray:
    """C_i = Σ_{j≥i} p_j e^{−(j−i)h} for i = 0, …, N, by the stable backward recursion C_i = p_i + e^{−h}C_{i+1}
    (C_N = 0): the lattice law's discounted upper tails, from which its privacy profile is read."""
    return np.append(lfilter([1.0], [1.0, -math.exp(-h)], p[::-1])[::-1], 0.0)


def _profile_at(lat: _Lattice, h: float, e: np.ndarray) -> np.ndarray:
    """δ(ε) of the lattice law at ε = e·h for integer arrays ``e``, all at once, on the lattice's side.

    With A_i = Σ_{j≥i} p_j and C_i = Σ_{j≥i} p_j e^{−(j−i)h} (a stable backward recursion,
    C_i = p_i + e^{−h}C_{i+1}), δ(ε) = A_i − e^{ε − z_i}·C_i + p_∞ where z_i is the first point above ε.
    The evaluation error is at most 4(N + 2)u(A_i + C_i) (cumulative sums of positive terms), added to the
    lattice's own allowance (√(N − i)·``err`` over the entries summed, and ``rel``), in the lattice's direction."""
    p = lat.probs
    n = p.size
    a = np.append(np.cumsum(p[::-1])[::-1], 0.0)
    c = _discounted_tail_sums(p, h)
    i = np.clip(e - lat.start + 1, 0, n)
    # the exponent is −h inside the lattice and below 0 under it; above it (i = N, A = C = 0) it is clamped at 0:
    # e^{large}·0 was ∞·0 = NaN there, a NaN bound wherever the other side's lattice reached far above this one
    d = a[i] - np.exp(np.minimum((e - lat.start - i) * h, 0.0)) * c[i]
    slack = 4 * (n + 2) * _U * (a[i] + c[i]) + lat.err * np.sqrt(n - i) + (lat.rel + 4 * _U) * np.abs(d)
    out = d + lat.inf + (slack if lat.direction == "up" else -slack)
    return np.clip(out, 0.0, 1.0)


def _chernoff_window(lat: _Lattice, k: int, tail: float):
    """Indices [lo, hi] of the k-fold sum of the lattice law with P[S > hi] ≤ tail and P[S < lo] ≤ tail
    (each by a Chernoff bound min_t e^{k log M(t) − t·x}, M the exact moment-generating function of the
    finite part, normalised); returns (lo, hi, bound on P[S > hi], bound on P[S < lo])."""
    p = lat.probs
    total = float(p.sum())
    i = np.arange(p.size, dtype=float)
    w = p / total
    mean = float(np.sum(w * i))
    sd = math.sqrt(max(float(np.sum(w * (i - mean) ** 2)), 1e-300))
    logp = np.log(np.maximum(w, 1e-320))
    x = i - mean

    ts = np.geomspace(1e-6, 50.0, 80) / max(sd, 1.0)
    log_mgf = {}
    for sign in (1.0, -1.0):  # log E[e^{t·sign·(X − mean)}] for every t at once
        a = logp[None, :] + sign * ts[:, None] * x[None, :]
        top = a.max(axis=1)
        log_mgf[sign] = top + np.log(np.exp(a - top[:, None]).sum(axis=1))

    def bound(thr: float, sign: float) -> float:  # log of a bound on P[sign·(S − k·mean) ≥ thr]
        return float(np.min(k * log_mgf[sign] - ts * thr))

    log_tail = math.log(tail)
    half = max(10.0 * sd * math.sqrt(k), 10.0)
    while bound(half, 1.0) > log_tail and half < k * p.size:
        half *= 1.3
    up = min(half, k * (p.size - 1 - mean))
    half = max(10.0 * sd * math.sqrt(k), 10.0)
    while bound(half, -1.0) > log_tail and half < k * p.size:
        half *= 1.3
    down = min(half, k * mean)
    centre = lat.start * k + k * mean
    lo, hi = math.floor(centre - down), math.ceil(centre + up)
    tau_hi = 0.0 if up >= k * (p.size - 1 - mean) else math.exp(bound(up, 1.0))
    tau_lo = 0.0 if down >= k * mean else math.exp(bound(down, -1.0))
    return lo, hi, tau_hi, tau_lo


def _fft_power(lat: _Lattice, k: int) -> _Lattice:
    """The k-fold convolution of a lattice law by one real FFT raised to the k-th power, cyclic of length N
    ≥ the window: the mass outside the window (≤ τ each side, Chernoff, times M^k for a finite part of mass
    M > 1) folds into it or, where it lands in the N − width positions the window does not read, is lost.
    Pessimistic: the upper tail bound goes to +∞, the lower one onto the first point, and folded mass only
    adds δ; optimistic: the folded mass (≤ 2τ) is part of ``err``.  Round-off: the power and its bound are :func:`_cyclic_power` (a bound under the FFT model
    stated at the top of this module, not an allowance measured after the fact), plus the input's own error
    carried through k convolutions (Young: k·err·‖p‖₁^{k−1})."""
    from scipy.fft import next_fast_len

    lo, hi, tau_hi, tau_lo = _chernoff_window(lat, k, _TAIL)
    width = hi - lo + 1
    n = next_fast_len(max(width, lat.probs.size), real=True)
    if n > _POINTS_MAX:
        raise NumericalLimit(f"k is too large for this lattice step: the composed law needs {n} points (got k={k})")
    q, err = _cyclic_power(lat.probs, k, n)
    # the sum's index s sits at position (s − k·start) mod n; the window [lo, hi] is one cyclic run
    first = (lo - k * lat.start) % n
    run = q[first:first + width]
    if run.size < width:
        run = np.concatenate([run, q[:width - run.size]])
    probs = np.maximum(run, 0.0)  # the exact entries are ≥ 0: clipping only moves towards them
    if lat.err > 0:  # ‖(p + e)^{*k} − p^{*k}‖₂ ≤ k‖e‖₂(‖p‖₁ + √size·‖e‖₂)^{k−1}
        grow = (k - 1) * math.log1p(max(float(lat.probs.sum()) - 1.0, 0.0) + math.sqrt(lat.probs.size) * lat.err)
        err += k * lat.err * math.exp(min(grow, 700.0))
    inf = -math.expm1(k * math.log1p(-min(lat.inf, 1.0))) if lat.inf < 1 else 1.0
    # τ bounds the normalised law's tails; the finite part's mass M = Σp (up to its own rel) scales them by M^k
    mass = float(lat.probs.sum()) * (1 + lat.rel) * (1 + lat.probs.size * _U)
    scale = math.exp(min(k * math.log(mass), 700.0)) if mass > 1 else 1.0
    tau_hi, tau_lo = tau_hi * scale, tau_lo * scale
    if lat.direction == "up":
        inf += tau_hi
        probs[0] += tau_lo  # the lower tail, where the cyclic run misses it, onto the first point (raises δ)
    else:
        err += tau_hi + tau_lo  # the folded mass: its Euclidean norm is at most its total
    rel = min(k * lat.rel * (1 + k * lat.rel), 1.0)  # (1 + η)^k − 1 for kη small
    return _Lattice(lo, probs, inf, err, lat.direction, rel).trimmed()


def _log_diff(log_hi: np.ndarray, log_lo: np.ndarray) -> np.ndarray:
    """log(e^a − e^b) for a ≥ b, without cancellation."""
    with np.errstate(divide="ignore", invalid="ignore"):
        d = log_lo - log_hi
        out = log_hi + np.where(d > -math.log(2), np.log(-np.expm1(d)), np.log1p(-np.exp(d)))
    return np.where(log_hi == -np.inf, -np.inf, out)


class _ContinuousLoss:
    """A loss law given by log P[a < L ≤ b] and log Q[a < L ≤ b] on cells, and atoms (value, P-mass)."""

    def __init__(self, log_p_cell, log_q_cell, lo: float, hi: float, atoms=(), inf: float = 0.0):
        self.log_p_cell, self.log_q_cell = log_p_cell, log_q_cell
        self.lo, self.hi = lo, hi  # the continuous part lives in [lo, hi] (± a negligible tail)
        self.atoms = list(atoms)  # (value, P-mass); Q-mass is e^{−value}·P-mass
        self.inf = inf  # P-mass at +∞ (outputs Q never produces)


def _pessimistic(loss: _ContinuousLoss, h: float) -> _Lattice:
    """Connect-the-dots: each cell [ih, (i+1)h] keeps its P-mass m and Q-mass w, split between its ends:
    the upper end gets the fraction (1 − c)/(1 − e^{−h}), c = e^{ih}w/m = E[e^{−(L − ih)} | cell]."""
    i0, i1 = math.floor(loss.lo / h), math.ceil(loss.hi / h)
    # an atom a rounding above j·h with value/h == j in floats is split towards j + 1: keep that point
    i1 = max([i1] + [math.floor(v / h) + 1 for v, _ in loss.atoms if v > round(v / h) * h])
    probs = np.zeros(i1 - i0 + 1)
    inf = loss.inf
    if i1 > i0 and loss.log_p_cell is not None:
        a = (i0 + np.arange(i1 - i0)) * h
        b = a + h
        log_m, log_w = loss.log_p_cell(a, b), loss.log_q_cell(a, b)
        m = np.exp(log_m)
        with np.errstate(invalid="ignore", over="ignore"):
            one_minus_c = -np.expm1(np.minimum(a + log_w - log_m, 0.0))
        up = np.clip(np.where(m > 0, one_minus_c / -math.expm1(-h), 0.0), 0.0, 1.0)
        probs[:-1] += m * (1.0 - up)
        probs[1:] += m * up
        # the split's error: the exponent a + log w − log m is known to 4 ulps of its terms, divided by 1 − e^{−h}
        with np.errstate(invalid="ignore"):
            moved = np.where(m > 0, m * (4 * _U * (np.abs(a) + np.abs(log_m) + np.abs(log_w) + 2) / -math.expm1(-h)
                                         + 4 * _U), 0.0)
        entry_err = np.zeros_like(probs)
        entry_err[:-1] += moved
        entry_err[1:] += moved
        # the continuous mass outside [i0·h, i1·h]: below to the first point, above to +∞ (both only raise δ)
        probs[0] += float(np.exp(loss.log_p_cell(np.array([-np.inf]), np.array([i0 * h])))[0])
        inf += float(np.exp(loss.log_p_cell(np.array([i1 * h]), np.array([np.inf])))[0])
    for value, mass in loss.atoms:  # an atom is a cell of its own: split between its two lattice neighbours
        j = round(value / h)
        if value <= j * h:  # on the lattice point (or just below it): rounded up, the safe side
            probs[j - i0] += mass
            continue
        j = math.floor(value / h)
        frac = (value - j * h) / h
        up = -math.expm1(-frac * h) / -math.expm1(-h)  # keeps P- and Q-mass: the same formula, c = e^{−frac·h}
        probs[j - i0] += mass * (1.0 - up)
        probs[j + 1 - i0] += mass * up
    rel = 4 * _U
    if i1 > i0 and loss.log_p_cell is not None:
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = np.where(probs > 0, entry_err / probs, 0.0)
        rel += float(np.max(ratio))
    return _Lattice(i0, probs, inf, 0.0, "up", rel).trimmed()


def _optimistic(loss: _ContinuousLoss, h: float, shift: float = 0.0) -> _Lattice:
    """Merge the outputs of each cell [(i − ½)h + shift, (i + ½)h + shift] into one output, whose loss
    log(m/w) is rounded down to the lattice; atoms are rounded down; tails dropped / put at the top.
    ``shift`` moves the cells up by the amount (O(h²)) by which the merged loss of a centred cell falls
    below its centre, so that rounding down costs O(h²), not a whole h."""
    i0, i1 = math.floor(loss.lo / h), math.ceil(loss.hi / h)
    probs = np.zeros(i1 - i0 + 1)
    if i1 > i0 and loss.log_p_cell is not None:
        centre = (i0 + np.arange(i1 - i0 + 1)) * h
        a, b = centre - h / 2 + shift, centre + h / 2 + shift
        log_m, log_w = loss.log_p_cell(a, b), loss.log_q_cell(a, b)
        with np.errstate(invalid="ignore"):  # an empty cell (−∞ − −∞) merges nothing: treated as its centre below
            merged = log_m - log_w
        # the merged loss is known to 8 ulps of its terms: within that of the centre it is the centre
        tol = 8 * _U * (np.abs(log_m) + np.abs(log_w) + np.abs(centre))
        with np.errstate(invalid="ignore"):
            snapped = np.where(np.abs(merged - centre) <= tol, centre, merged)
            j = np.floor(np.where(np.isfinite(merged), snapped, centre) / h + 0.0).astype(np.int64)  # rounded down
            j = np.where(np.isfinite(merged) & (j * h > snapped), j - 1, j)
        j = np.clip(j, i0, i1)
        np.add.at(probs, j - i0, np.exp(log_m))
        probs[-1] += float(np.exp(loss.log_p_cell(np.array([i1 * h + h / 2 + shift]), np.array([np.inf])))[0])
    inf = loss.inf
    for value, mass in loss.atoms:
        j = round(value / h)
        if value < j * h:  # not on the lattice point: round down
            j = math.floor(value / h)
        if j - i0 < 0:
            continue  # below the lattice: dropped (only lowers δ)
        probs[min(j, i1) - i0] += mass
    rel = 4 * _U
    if i1 > i0 and loss.log_p_cell is not None:
        rel += 8 * _U * float(np.max(np.where(np.isfinite(log_m), np.abs(log_m), 0.0)) + 1.0)
    return _Lattice(i0, probs, inf, 0.0, "down", rel).trimmed()


def _check_h(h, span: float, span_of: str, reach: float = 0.0) -> float:
    """``h`` checked: the lattice over ``span`` (the caller's parameters that set it: ``span_of``, for the message)
    needs at most _POINTS_MAX points, and the loss values, up to ``reach`` in size, must be whole multiples of h
    that a float holds exactly (below 2⁵²)."""
    h = float(check_positive(h, "h", scalar=True))
    if not span / h <= _POINTS_MAX:
        raise NumericalLimit(f"h is too small for the span {span_of} = {span:.3g}: the lattice would need "
                         f"{span / h:.3g} points, more than {_POINTS_MAX:.0e} (got h={h!r})")
    if not reach / h < 2.0**52:
        raise NumericalLimit(f"h is too small for loss values of size {reach:.3g}: they would lie {reach / h:.3g} steps "
                         f"from 0 (got h={h!r})")
    return h


class PrivacyLossDistribution:
    """The privacy-loss law of a mechanism (or a composition) on the lattice {i·h}, in two discretisations:
    ``pessimistic`` (connect-the-dots, δ never below the exact profile) and ``optimistic`` (merged outputs
    rounded down, δ never above it).  See the module docstring for the construction and its sources.

    Typical use, k runs of a Laplace mechanism with ε₀ and one Gaussian run, on a common interval h::

        pld = PrivacyLossDistribution.laplace(eps0, h=h).self_compose(k).compose(
            PrivacyLossDistribution.gaussian(sigma, h=h))
        low, high = pld.delta_bounds(eps)      # the exact δ(ε) lies in [low, high]
        pld.epsilon(delta)                     # a safe ε (pessimistic)
        conversions.profile_pdp_epsilon(pld.delta, delta_prime)   # Theorem 3.9 along a safe profile

    Call a value exact only when [low, high] is narrower than the digits shown.  The error of the
    pessimistic side grows like k·h² (bench: Laplace ε₀ = 0.1 at h = ε₀/25, k = 10⁶: +0.9 %)."""

    def __init__(self, h: float, pessimistic: _Lattice, optimistic, count: int = 1):
        """``optimistic`` is a lattice or a function that builds it: it is computed on first use, so the safe
        queries (:meth:`delta`, :meth:`epsilon`) cost one discretisation, not two."""
        self.h, self.pessimistic, self.count = h, pessimistic, count
        self._optimistic = optimistic

    @property
    def optimistic(self) -> _Lattice:
        """The optimistic lattice (δ never above the exact profile), built on first use."""
        if callable(self._optimistic):
            self._optimistic = self._optimistic()
        return self._optimistic

    # ---------------------------------------------------------------------------- constructors

    @classmethod
    def _from_loss(cls, loss: _ContinuousLoss, h: float, shift: float = 0.0) -> "PrivacyLossDistribution":
        return cls(h, _pessimistic(loss, h), lambda: _optimistic(loss, h, shift))

    @classmethod
    def laplace(cls, eps, h=None) -> "PrivacyLossDistribution":
        """The Laplace mechanism with scale Δ/ε (an ε-DP mechanism): between the centres 0 and Δ the loss is
        +ε with P-probability ½, −ε with probability e^{−ε}/2, and in between has P-density ∝ e^{ℓ/2} and
        Q-density ∝ e^{−ℓ/2} on (−ε, ε) (``privacy_loss.PrivacyLoss.laplace``).  Default h = ε/1000."""
        eps = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))
        if eps > 700:
            raise NumericalLimit(f"eps must be at most 700 here (got eps={eps!r})")
        h = _check_h(eps / 1000 if h is None else h, 2 * eps, "2*eps")
        c = math.log(0.5) - eps / 2

        def log_p(a, b):  # P[a < L ≤ b] on the open part (−ε, ε): ½e^{−ε/2}(e^{b/2} − e^{a/2})
            a, b = np.clip(a, -eps, eps), np.clip(b, -eps, eps)
            return np.where(b > a, c + _log_diff(b / 2, a / 2), -np.inf)

        def log_q(a, b):  # Q[a < L ≤ b] = ½e^{−ε/2}(e^{−a/2} − e^{−b/2})
            a, b = np.clip(a, -eps, eps), np.clip(b, -eps, eps)
            return np.where(b > a, c + _log_diff(-a / 2, -b / 2), -np.inf)

        atoms = [(eps, 0.5), (-eps, 0.5 * math.exp(-eps))]
        return cls._from_loss(_ContinuousLoss(log_p, log_q, -eps, eps, atoms), h)

    @classmethod
    def gaussian(cls, sigma, sensitivity=1.0, h=None) -> "PrivacyLossDistribution":
        """The Gaussian mechanism N(f(x), σ²): L ~ N(μ, 2μ) under P and N(−μ, 2μ) under Q, μ = Δ²/(2σ²)
        (Balle & Wang 2018).  The lattice spans μ ± 40√(2μ) (the rest, below e^{−800}, is moved to the safe
        side); default h = √(2μ)/2000."""
        sigma = float(check_positive(sigma, "sigma", scalar=True))
        sensitivity = float(check_positive(sensitivity, "sensitivity", scalar=True))
        r = float(mechanisms._gaussian_ratio(sigma, sensitivity))  # Δ/σ, the one ratio the Gaussian profile uses
        with np.errstate(over="ignore", under="ignore"):
            mu = 0.5 * r * r
        if not (0.0 < mu < 1e12):
            raise NumericalLimit("sigma must give 0 < (sensitivity/sigma)**2/2 < 1e12 "
                             f"(got sigma={sigma!r}, sensitivity={sensitivity!r})")
        s = math.sqrt(2 * mu)
        h = _check_h(s / 2000 if h is None else h, 80 * s, "80*sensitivity/sigma")

        def log_cell(centre):
            def f(a, b):  # log(Φ((b − c)/s) − Φ((a − c)/s)), from the side of the smaller tail
                with np.errstate(over="ignore"):  # a cell edge beyond the float range (a huge h) is ±∞
                    za, zb = (np.asarray(a) - centre) / s, (np.asarray(b) - centre) / s
                lower = _log_diff(log_ndtr(zb), log_ndtr(za))
                upper = _log_diff(log_ndtr(-za), log_ndtr(-zb))
                return np.where(za > 0, upper, lower)
            return f

        # a centred cell's merged loss is centre − h²ℓ/(24μ) + O(h⁴): shift the cells up by twice the largest
        shift = min(h / 4, h * h * (mu + 40 * s) / (12 * mu))
        return cls._from_loss(_ContinuousLoss(log_cell(mu), log_cell(-mu), mu - 40 * s, mu + 40 * s), h, shift)

    @classmethod
    def randomized_response(cls, eps, h=None) -> "PrivacyLossDistribution":
        """ε-randomized response: L = ±ε with probabilities expit(±ε).  Default h = ε/1000 (exact on it)."""
        eps = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))
        h = _check_h(eps / 1000 if h is None else h, 2 * eps, "2*eps")
        return cls._from_loss(_ContinuousLoss(None, None, -eps, eps,
                                              [(eps, float(expit(eps))), (-eps, float(expit(-eps)))]), h)

    @classmethod
    def geometric(cls, eps, sensitivity: int = 1, h=None) -> "PrivacyLossDistribution":
        """The two-sided geometric (discrete Laplace) mechanism with ratio a = e^{−ε/Δ} and integer sensitivity Δ
        (Ghosh, Roughgarden & Sundararajan 2012): L = ε for noise ≤ 0, ε(Δ − 2j)/Δ for noise j ∈ {1, …, Δ−1},
        −ε for noise ≥ Δ.  Default h = ε/(1000Δ) (every atom on the lattice)."""
        eps = float(check_epsilon(eps, "eps", strictly_positive=True, scalar=True))
        d = check_positive_int(sensitivity, "sensitivity", maximum=10**6)
        h = _check_h(eps / (1000 * d) if h is None else h, 2 * eps, "2*eps")
        a = math.exp(-eps / d)
        atoms = [(eps, 1 / (1 + a)), (-eps, a**d / (1 + a))]
        atoms += [(eps * (d - 2 * j) / d, math.tanh(eps / d / 2) * a**j) for j in range(1, d)]
        return cls._from_loss(_ContinuousLoss(None, None, -eps, eps, atoms), h)

    @classmethod
    def approximate_dp(cls, eps, delta, h=None) -> "PrivacyLossDistribution":
        """The worst (ε, δ)-DP mechanism (Kairouz, Oh & Viswanath 2015, Theorem 3.3): with probability δ it
        reveals the input (loss +∞), otherwise ε-randomized response.  Default h = ε/1000."""
        eps = float(check_epsilon(eps, "eps", scalar=True))
        delta = float(check_delta(delta, "delta", open_high=True, scalar=True))
        if eps == 0.0:
            h = _check_h(1e-3 if h is None else h, 1.0, "1 (eps = 0)")
            return cls._from_loss(_ContinuousLoss(None, None, 0.0, 0.0, [(0.0, 1 - delta)], inf=delta), h)
        h = _check_h(eps / 1000 if h is None else h, 2 * eps, "2*eps")
        atoms = [(eps, (1 - delta) * float(expit(eps))), (-eps, (1 - delta) * float(expit(-eps)))]
        return cls._from_loss(_ContinuousLoss(None, None, -eps, eps, atoms, inf=delta), h)

    @classmethod
    def from_atoms(cls, values, weights, h=None) -> "PrivacyLossDistribution":
        """A purely discrete loss law, such as a finite mechanism's pair (``privacy_loss.PrivacyLoss.finite``):
        the loss values ``values`` (+∞ allowed: outputs only P produces) with their P-masses ``weights``; each
        atom's Q-mass is e^{−value} times its P-mass.  Default h = the spread of the finite values / 1000."""
        v = np.atleast_1d(np.asarray(as_float(values, "values"), dtype=float))
        w = np.atleast_1d(np.asarray(check_delta(weights, "weights"), dtype=float))
        if v.shape != w.shape or v.ndim != 1:
            raise ValueError(f"weights must be one mass per value (got shapes {v.shape} and {w.shape})")
        finite = np.isfinite(v) & (w > 0)
        inf = float(np.sum(w[np.isposinf(v)]))
        lo, hi = (float(v[finite].min()), float(v[finite].max())) if np.any(finite) else (0.0, 0.0)
        h = _check_h((hi - lo) / 1000 if h is None and hi > lo else 1e-3 if h is None else h, hi - lo,
                     "max(values) - min(values)", max(abs(lo), abs(hi)))
        atoms = [(float(a), float(m)) for a, m in zip(v[finite], w[finite])]
        return cls._from_loss(_ContinuousLoss(None, None, lo, hi, atoms, inf=inf), h)

    @classmethod
    def mixture(cls, weights, plds) -> "PrivacyLossDistribution":
        """The mechanism that runs component i with probability w_i and announces which (the components'
        outputs are disjoint): its loss law is Σ w_i · law_i, on both sides of the bracket.  All components
        must share h."""
        plds = list(plds)
        w = np.asarray(check_delta(weights, "weights"), dtype=float)
        if w.ndim != 1 or w.size != len(plds) or w.size == 0:
            raise ValueError("weights must be one number per distribution "
                             f"(got weights of shape {w.shape} for {len(plds)})")
        if abs(float(w.sum()) - 1.0) > 1e-12:
            raise ValueError(f"weights must sum to 1 (got sum {float(w.sum())!r})")
        if len({p.h for p in plds}) != 1:
            raise ValueError("plds must share the lattice step h to be mixed")
        pes = opt = None
        for wi, p in zip(w, plds):
            a, b = p.pessimistic.scaled(wi), p.optimistic.scaled(wi)
            pes, opt = (a, b) if pes is None else (pes.added(a), opt.added(b))
        return cls(plds[0].h, pes.trimmed(), opt.trimmed(), max(p.count for p in plds))

    # ---------------------------------------------------------------------------- composition

    def compose(self, other: "PrivacyLossDistribution") -> "PrivacyLossDistribution":
        """Both mechanisms run independently: the losses add, the laws convolve (both discretisations)."""
        if other.h != self.h:
            raise ValueError(f"other must share the lattice step h to be composed (got h={self.h!r} and {other.h!r})")
        return PrivacyLossDistribution(self.h, self.pessimistic.convolve(other.pessimistic),
                                       lambda: self.optimistic.convolve(other.optimistic), self.count + other.count)

    def self_compose(self, k) -> "PrivacyLossDistribution":
        """k independent runs: one FFT, raised to the k-th power, on a window that holds all but 1e-30 of the
        composed law (Chernoff bounds from the exact moment-generating function of the lattice law).  k ≤ 10⁹."""
        k = check_positive_int(k, "k", maximum=10**9)
        if k == 1:
            return self
        return PrivacyLossDistribution(self.h, _fft_power(self.pessimistic, k),
                                       lambda: _fft_power(self.optimistic, k), self.count * k)

    # ---------------------------------------------------------------------------- queries

    def delta_bounds(self, eps):
        """``(lower, upper)``: the exact δ(ε) of the composition lies between them (optimistic, pessimistic).
        Broadcasts over ``eps`` (real; negative ε allowed, where δ(ε) = E[(1 − e^{ε−L})₊] too)."""
        e = np.asarray(as_float(eps, "eps"), dtype=float)
        lo = self.optimistic.delta(e, self.h)
        hi = self.pessimistic.delta(e, self.h)
        return (float(lo) if lo.ndim == 0 else lo), (float(hi) if hi.ndim == 0 else hi)

    def delta(self, eps):
        """The pessimistic δ(ε): never below the exact profile of the composition (the safe value)."""
        eps = np.asarray(check_epsilon(eps, "eps"), dtype=float)
        out = self.pessimistic.delta(eps, self.h)
        return float(out) if out.ndim == 0 else out

    def _epsilon(self, lattice: _Lattice, delta: float) -> float:
        """The smallest ε ≥ 0 with lattice.delta(ε) ≤ δ: bisection on the piecewise-smooth profile, then
        bracketed by the lattice points (exact δ there) and refined in closed form on its piece."""
        f = lambda e: float(lattice.delta(np.asarray(e), self.h))  # noqa: E731
        if f(0.0) <= delta:
            return 0.0
        if lattice.inf > delta:
            return math.inf
        z_top = (lattice.start + lattice.probs.size) * self.h
        lo, hi = 0.0, max(z_top, 0.0) + self.h
        if f(hi) > delta:  # the round-off's placement allowance above the last point: no finite ε is proved
            return math.inf
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            lo, hi = (lo, mid) if f(mid) <= delta else (mid, hi)
            if hi - lo <= 4 * math.ulp(hi):
                break
        return hi

    def epsilon_bounds(self, delta):
        """``(lower, upper)``: the exact smallest ε with δ(ε) ≤ ``delta`` lies between them."""
        delta = float(check_delta(delta, "delta", open_low=True, scalar=True))
        return self._epsilon(self.optimistic, delta), _rounding.up(self._epsilon(self.pessimistic, delta), 2)

    def epsilon(self, delta) -> float:
        """The pessimistic ε at ``delta``: the composition is (ε, δ)-DP (the safe value)."""
        delta = float(check_delta(delta, "delta", open_low=True, scalar=True))
        return _rounding.up(self._epsilon(self.pessimistic, delta), 2)

    def tail_bounds_on_lattice(self):
        """``(t, lower, upper)``: bounds on P[L > t] at every lattice point t = i·h of the composed law, all at
        once (the loss's upper tail, Kazan et al. Definition 2.4).  From δ′(s) = −(P[L > s] − δ(s)) (the
        derivative of δ(ε) = E[(1 − e^{ε−L})₊]) and the monotonicity of P[L > s] and δ, for every η > 0:

            P[L > t] ≤ (δ(t − η) − δ(t))/η + δ(t − η),    P[L > t] ≥ (δ(t) − δ(t + η))/η + δ(t + η),

        evaluated with the pessimistic profile where δ enters with a plus sign and the optimistic one where
        it enters with a minus sign (so both are bounds), at the best η = m·h of a geometric grid of m.
        Much tighter than :meth:`tail_bounds` when the bracket is narrow (the error is O(η·density +
        bracket/η), not O(δ/η)).

        Rounded outward: the profiles are bounds on their sides (their own allowances); the last step, (a − b)/(m·h) +
        a of non-negative numbers, four roundings (under 5u), is widened by a relative 1e-12; and each bound is
        stated at the float t = fl(i·h), which may lie on either side of the lattice point i·h where it was formed
        (``_float_points``)."""
        h = self.h
        pes, opt = self.pessimistic, self.optimistic
        pes_end, opt_end = pes.start + pes.probs.size, opt.start + opt.probs.size
        lo, hi = min(pes.start, opt.start) - 1, max(pes_end, opt_end) + 1
        if hi - lo + 1 > _POINTS_MAX:  # the bounds are arrays over the union of the two lattices
            raise NumericalLimit(f"h={h!r} is too coarse for tail bounds of this composition: its optimistic and "
                                 f"pessimistic lattices lie {abs(pes.start - opt.start)} points apart, and the bounds "
                                 f"would need {hi - lo + 1} points, more than {_POINTS_MAX:.0e}")
        span = min(hi - lo, max(pes.probs.size, opt.probs.size) + 2)
        ms = np.unique(np.round(np.geomspace(1, max(span // 4, 2), 40)).astype(np.int64))
        pad = int(ms[-1])
        t = np.arange(lo, hi + 1)
        # Each side is formed only where its lattice tells something (where the optimistic lattice lies far below
        # the pessimistic one — a coarse h, many runs — the union is mostly neither: Laplace ε₀ = 0.1, k = 10⁹,
        # h = ε₀: 13 of its 14 million points, 70 s a call).  Below the pessimistic lattice the upper bound is 1
        # (the exact law's mass under it is below 1e-30, folded onto its first point); above the optimistic lattice
        # the lower bound is its δ there, which no η improves ((δ_opt − δ_pes)/η + δ_opt ≤ δ_opt = its p_∞).
        upper = np.ones(t.size)
        u0 = max(lo, pes.start - 1)
        if u0 <= hi:
            ts = np.arange(u0, hi + 1)
            up_d, low_t = _profile_at(pes, h, np.arange(u0 - pad, hi + 1)), _profile_at(opt, h, ts)
            at = ts - (u0 - pad)
            part = np.ones(ts.size)
            for m in ms:
                part = np.minimum(part, (up_d[at - m] - low_t) / (m * h) + up_d[at - m])
            upper[u0 - lo:] = part
        l1 = min(hi, opt_end + 1)
        lower = np.empty(t.size)
        lower[l1 - lo + 1:] = _profile_at(opt, h, np.array([l1 + 1]))[0] if l1 < hi else 0.0
        ts = np.arange(lo, l1 + 1)
        grid = np.arange(lo, l1 + pad + 1)
        low_d, up_d = _profile_at(opt, h, grid), _profile_at(pes, h, grid)
        at = ts - lo
        part = low_d[at].copy()
        for m in ms:
            part = np.maximum(part, (low_d[at] - up_d[at + m]) / (m * h) + low_d[at + m])
        lower[:l1 - lo + 1] = part
        upper = np.minimum(upper * (1 + 1e-12), 1.0)  # the few roundings of the last step, outward
        lower = np.maximum(lower * (1 - 1e-12), 0.0)
        return _float_points(t, h, lower, upper)

    def tail_bounds(self, t):
        """``(lower, upper)`` on P[L > t] (the probability that the loss exceeds t, Definition 2.4's δ′ side),
        from the profile: δ(t) ≤ P[L > t] ≤ δ(s)/(1 − e^{−(t − s)}) for every s < t, since
        δ(ε) = ∫_ε^∞ e^{ε − s} P[L > s] ds; the best s = t − η of a grid of η is taken.  Looser than the profile.

        Rounded outward: the lower end is the optimistic profile (a lower bound on δ, on its side); the upper end
        reads the pessimistic profile at the float s = fl(t − η) and divides by 1 − e^{−η′} at an η′ never above the
        exact t − s (fl(t − s) lowered one ulp), −expm1 lowered 5 ulps (within 4), the quotient raised 2 ulps."""
        t = float(as_float(t, "t", scalar=True))
        lower = float(self.optimistic.delta(np.asarray(t), self.h))
        s = t - np.geomspace(1e-4, 30.0, 120)
        with np.errstate(invalid="ignore", divide="ignore"):
            gap = _rounding.down(t - s, 1)
            denominator = _rounding.down(-np.expm1(-gap), 5)
            vals = _rounding.up(self.pessimistic.delta(s, self.h) / denominator, 2)
        vals = np.where(gap > 0, vals, 1.0)
        return lower, float(min(1.0, np.min(vals)))


def _float_points(i: np.ndarray, h: float, lower: np.ndarray, upper: np.ndarray):
    """``(t, lower, upper)`` with t = fl(i·h) for consecutive integers ``i``, and bounds on P[L > t] at those floats
    from bounds at the exact lattice points i·h.  Where t fell below i·h (found exactly by
    ``_rounding.product_error``), P[L > t] ≤ P[L > (i − 1)h]: the upper bound of the point before is taken; where t
    fell above, P[L > t] ≥ P[L > (i + 1)h]: the lower bound of the point after (h is far above an ulp of t, so t
    lies strictly between the neighbours); where the error is not known (beyond TwoProduct's range), both."""
    t, err, known = _rounding.product_error(i.astype(float), h)
    known = known | (t == 0)  # i = 0: the product is 0 exactly (err = 0)
    before = np.concatenate([[1.0], upper[:-1]])
    after = np.concatenate([lower[1:], [0.0]])
    upper = np.where(known & (err <= 0), upper, np.maximum(upper, before))
    lower = np.where(known & (err >= 0), lower, np.minimum(lower, after))
    return t, lower, upper


def tilted_self_composition(one: "PrivacyLossDistribution", k: int, eps_target: float):
    """δ(ε) at ε ≥ 0 of k runs of ``one`` (a single run's distribution: its pessimistic side), accurate in the far
    tail: a function never below the exact profile of the k-fold composition, or ``None`` when tilting does not apply
    (the target at or below the composed law's mean, or a lattice that carries round-off already).

    The FFT's round-off is a bound on the Euclidean norm of the whole error vector, so read directly it allows an
    error of about √n·‖err‖₂ on a tail sum, whatever the tail's size.  Here the law is exponentially tilted first,
    p̃_j = p_j·exp(λz_j − Λ) (Λ = log Σ p_j·exp(λz_j)), with λ > 0 chosen so that the tilted k-fold mean sits at
    ``eps_target``; the tilt commutes with convolution, (p^{*k})_s = (p̃^{*k})_s·exp(kΛ − λz_s), so an error vector
    ẽ of the tilted power (the bound of ``_cyclic_power``) becomes ẽ_s·exp(kΛ − λz_s) on the law, and on the sum
    over the points from i up (Cauchy–Schwarz) at most ‖ẽ‖₂·exp(kΛ − λz_i)/√(1 − exp(−2λh)): small where the
    profile is small.  The tilted masses are formed with a relative error of at most 8u(|log p_j| + |λz_j| + |Λ| + 1)
    (the computed Λ is used on both sides, so its own error cancels), carried k times like ``rel``; the untilted
    entries with a relative 4u(|kΛ − λz_s| + 1).  The points at or below 0 are left out (they add nothing to δ(ε) at
    ε ≥ 0); the mass beyond the Chernoff window goes to +∞ (the upper side) or folds into the window (the lower
    side, only raising δ), as in ``_fft_power``.

    So the function is a proved upper bound, not an estimate: every step above carries its allowance, the mass at +∞
    and beyond the window is rounded up, and the three parts of δ(ε) (the lattice's δ on its side, the FFT's error
    term, the mass beyond) are added and raised 2 ulps.  The release model reads it as a guarantee (the "pld-tilted"
    route of ``Composed.delta_routes``/``epsilon_routes``, where δ(ε) < 1e-6)."""
    from scipy.fft import next_fast_len
    from scipy.special import logsumexp

    if not isinstance(one, PrivacyLossDistribution):
        raise ValueError(f"one must be a PrivacyLossDistribution (got {one!r})")
    lat, h = one.pessimistic, one.h
    k = check_positive_int(k, "k", maximum=10**9)
    eps_target = float(check_epsilon(eps_target, "eps_target", scalar=True))
    if lat.err > 0 or not eps_target > 0 or lat.probs.size < 2:
        return None
    p = lat.probs
    z = (lat.start + np.arange(p.size)) * h
    with np.errstate(divide="ignore"):
        log_p = np.log(p)

    def tilted_mean(lam):
        w = log_p + lam * z
        return k * float(np.sum(np.exp(w - logsumexp(w)) * z))

    if tilted_mean(0.0) >= eps_target or tilted_mean(60.0) <= eps_target:
        return None
    lo_l, hi_l = 0.0, 60.0
    for _ in range(60):
        mid = 0.5 * (lo_l + hi_l)
        lo_l, hi_l = (mid, hi_l) if tilted_mean(mid) < eps_target else (lo_l, mid)
    lam = lo_l if lo_l > 0 else hi_l
    w = log_p + lam * z
    big_l = float(logsumexp(w))
    tilted = np.exp(w - big_l)
    finite = p > 0
    rel = lat.rel + 8 * _U * float(np.max(np.abs(log_p[finite]) + np.abs(lam * z[finite]) + abs(big_l) + 1.0))
    base = _Lattice(lat.start, tilted, 0.0, 0.0, "up", rel)
    lo, hi, tau_hi, _ = _chernoff_window(base, k, _TAIL)
    tau_hi *= 1 + 3 * k * rel  # the bound is taken from the computed masses: (1 + rel)^k of the exact ones
    width = hi - lo + 1
    n = next_fast_len(max(width, tilted.size), real=True)
    if n > _POINTS_MAX:
        return None
    q, err = _cyclic_power(tilted, k, n)
    first = (lo - k * lat.start) % n
    run = q[first:first + width]
    if run.size < width:
        run = np.concatenate([run, q[:width - run.size]])
    run = np.maximum(run, 0.0)
    zs = np.arange(lo, hi + 1) * h
    log_factor = k * big_l - lam * zs  # e^{kΛ − λz_s}: the tilted entry back to the law's scale
    keep = zs > 0
    with np.errstate(divide="ignore", over="ignore"):
        probs = np.where(keep & (run > 0), np.exp(np.log(np.where(run > 0, run, 1.0)) + log_factor), 0.0)
    if k * rel > 0.01:  # (1 + rel)^k − 1 ≤ k·rel(1 + k·rel) holds only for k·rel small
        return None
    with np.errstate(divide="ignore"):
        log_run = np.abs(np.log(run[keep & (run > 0)]))
    rel_k = k * rel * (1 + k * rel) + 4 * _U * (float(np.max(np.abs(log_factor[keep]), initial=0.0))
                                                 + float(np.max(log_run, initial=0.0)) + 1)
    # the mass at +∞ of k runs, 1 − (1 − p_∞)^k, rounded up: log1p within 4 ulps, the product ½, −expm1 4 ulps with
    # relative condition |y|e^y/(1 − e^y) ≤ 1 at y ≤ 0: under 17u, raised 20 ulps (the lattice adds it unscaled)
    inf = float(_rounding.up(-math.expm1(k * math.log1p(-min(lat.inf, 1.0))), 20)) if lat.inf < 1 else 1.0
    if tau_hi > 0:  # the tilted tail beyond the window, untilted (e^{kΛ − λz} ≤ its value at the window's top)
        top = k * big_l - lam * hi * h
        # exp within 4 ulps, the product and the sum ½ ulp each (the error of top is inside rel_k's allowance)
        inf = float(_rounding.up(inf + float(_rounding.up(tau_hi * math.exp(top), 6)), 1)) if top < 700 else math.inf
    law = _Lattice(lo, probs, min(inf, 1.0), 0.0, "up", rel_k)
    inf_extra = 0.0 if inf <= 1.0 else 1.0  # a tail beyond the float range: no guarantee from this route
    spread = 1.0 / math.sqrt(-math.expm1(-2.0 * lam * h))

    def delta(eps):
        e = np.asarray(check_epsilon(eps, "eps"), dtype=float)
        i = np.clip(np.searchsorted(zs, e, side="right"), 0, zs.size - 1)  # the first point above ε
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            fft = err * spread * np.exp(log_factor[i]) * (1 + 1e-10) if err > 0 else np.zeros(e.shape)
        fft = np.where(e < zs[-1], fft, 0.0)
        with np.errstate(over="ignore"):  # three non-negative bounds added: raised 2 ulps
            out = np.minimum(_rounding.up(law.delta(e, h) + inf_extra + fft * (1 + 4 * _U), 2), 1.0)
        return float(out) if out.ndim == 0 else out

    return delta
