"""An independent reference for the k-fold Laplace mechanism's privacy profile δ(ε), in mpmath.

It imports nothing from dpsemantics (nor from any accountant).  The privacy loss of one run of the Laplace
mechanism with scale 1/ε₀ between neighbouring centres 0 and 1 is L = ε₀ with P-probability ½, −ε₀ with
probability e^{−ε₀}/2, and ε₀(1 − 2y) for y ∈ (0, 1) with P-density (ε₀/2)e^{−ε₀y}; its moment-generating
function under P is therefore, in closed form,

    M(z) = E_P[e^{zL}] = ½e^{zε₀} + ½e^{−ε₀(1+z)} + ½e^{zε₀}(1 − e^{−ε₀(1+2z)})/(1 + 2z),

and k independent runs have M(z)^k.  The profile δ(ε) = E_P[(1 − e^{ε−L})₊] (Kazan et al., Definition 2.1
through the loss) follows from the inverse Laplace transform of (1 − e^{−t})₊, which is 1/(z(z + 1)):

    δ(ε) = (1/2πi) ∫_{c−i∞}^{c+i∞} M(z)^k e^{−zε} / (z(z + 1)) dz,   any c > 0,

an absolutely convergent integral along a vertical line (the loss is bounded, so M is entire).  The line is
put through the saddle point of the integrand's modulus, where the integrand is smooth and does not cancel;
the value does not depend on c, which the tests use as a check (two contours agree to 1e-24).  The part of the
line beyond U = max(60 widths, 40/ε₀) is bounded above in closed form (|M(c + iu)| is at most the atoms'
modulus plus the continuous part's bound, which decays like 1/u) and returned as ``rest``.
"""

from __future__ import annotations

import mpmath as mp


def _mgf(z, e0):
    """E_P[e^{zL}] of one run (closed form above)."""
    a = mp.exp(z * e0)
    w = 1 + 2 * z
    return a / 2 + mp.exp(-e0 * (1 + z)) / 2 + a * (-mp.expm1(-e0 * w)) / w / 2


def laplace_delta(eps0: float, k: int, eps: float, dps: int = 30, contour: float = 1.0):
    """``(δ(ε), rest)``: the exact δ(ε) of k runs of the ε₀-Laplace mechanism to about ``dps`` digits, and a
    bound on the part of the integral left out (``rest``; below 1e-28 in every case the bench uses).
    ``contour`` scales the saddle point's abscissa c (any c > 0 gives the same value)."""
    with mp.workdps(dps):
        e0, e = mp.mpf(eps0), mp.mpf(eps)
        log_m = lambda z: mp.log(_mgf(z, e0))  # noqa: E731
        exponent = lambda c: k * log_m(c) - c * e - mp.log(c * (c + 1))  # noqa: E731
        slope = lambda c: mp.diff(exponent, c)  # noqa: E731
        lo, hi = mp.mpf("1e-8"), mp.mpf(50)
        if slope(lo) > 0:
            raise ValueError(f"eps must lie above the mean loss k·E[L] for this reference (got eps={eps!r})")
        for _ in range(120):  # the exponent is convex in c > 0: bisection on its slope
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if slope(mid) < 0 else (lo, mid)
        c = (lo + hi) / 2 * contour
        width = 1 / mp.sqrt(mp.diff(lambda x: k * log_m(x), c, 2))

        def integrand(u):
            z = c + 1j * u
            return mp.re(mp.exp(k * log_m(z) - z * e) / (z * (z + 1)))

        near = 60 * width
        top = max(near, 40 / e0)
        points = [mp.mpf(0)] + [width * j for j in (0.5, 1, 2, 3, 5, 8, 12, 20, 30, 45)] + [near]
        far = [near]
        while far[-1] + mp.pi / (2 * e0) < top:
            far.append(far[-1] + mp.pi / (2 * e0))
        far.append(top)
        value = (mp.quad(integrand, points) + (mp.quad(integrand, far) if top > near else 0)) / mp.pi
        bound = (mp.exp(c * e0) / 2 + mp.exp(-e0 * (1 + c)) / 2
                 + mp.exp(c * e0) * (1 + mp.exp(-e0 * (1 + 2 * c))) / (4 * top))
        rest = bound**k * mp.exp(-c * e) / (mp.pi * top)
        return float(value), float(rest)


def _power_exp_integral(n: int, lam, t):
    """∫₀ᵗ sⁿ e^{λs} ds = n!/(−λ)ⁿ⁺¹ · (1 − e^{λt} Σ_{i≤n} (−λt)ⁱ/i!), λ ≠ 0 (repeated integration by parts)."""
    x = -lam * t
    partial = mp.fsum(x**i / mp.factorial(i) for i in range(n + 1))
    return mp.factorial(n) / (-lam) ** (n + 1) * (1 - mp.exp(-x) * partial)


def laplace_delta_mixture(eps0: float, k: int, eps: float, dps: int = 60):
    """The exact δ(ε) of k runs of the ε₀-Laplace mechanism as a finite sum, for small k (the contour integral's
    truncation bound is loose there: 5 % of δ at k = 10).  Of the k runs, a have the loss +ε₀ (P-probability ½
    each), b the loss −ε₀ (½e^{−ε₀}) and m = k − a − b the loss ε₀(1 − 2y), y ∈ (0, 1) with P-density
    (ε₀/2)e^{−ε₀y}; the sum S of the m values y has the density (ε₀/2)^m e^{−ε₀s} times the Irwin–Hall density
    Σⱼ (−1)ʲ C(m, j)(s − j)₊^{m−1}/(m − 1)!, so with L = ε₀(a − b + m − 2S) each term of
    δ(ε) = E_P[(1 − e^{ε−L})₊] is a sum of integrals sⁿe^{λs} in closed form.  The alternating sums cancel:
    ``dps`` must exceed about k·log₁₀(k) digits."""
    with mp.workdps(dps):
        e0, e = mp.mpf(eps0), mp.mpf(eps)
        total = mp.mpf(0)
        for a in range(k + 1):
            for b in range(k + 1 - a):
                m = k - a - b
                weight = (mp.factorial(k) / (mp.factorial(a) * mp.factorial(b) * mp.factorial(m))
                          * mp.mpf(2) ** -(a + b) * mp.exp(-e0 * b))
                c = e - e0 * (a - b + m)  # the positive part holds where s < s* = −c/(2ε₀)
                if m == 0:
                    total += weight * max(1 - mp.exp(c), 0)
                    continue
                top = min(-c / (2 * e0), m)
                inner = mp.mpf(0)
                for j in range(m):
                    if j >= top:
                        break
                    t = top - j
                    inner += (-1) ** j * mp.binomial(m, j) * (
                        mp.exp(-e0 * j) * _power_exp_integral(m - 1, -e0, t)
                        - mp.exp(c + e0 * j) * _power_exp_integral(m - 1, e0, t))
                total += weight * (e0 / 2) ** m / mp.factorial(m - 1) * inner
        return float(total)
