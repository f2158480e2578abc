"""The discrete Gaussian mechanism (``releases.DiscreteGaussian``; Canonne, Kamath & Steinke 2020).

Its guarantee is ρ = Δ²/(2σ²) zCDP (CKS Theorem 4), returned rounded up.  Its privacy profile is the zCDP
conversion of ρ (CKS Corollary 13), which must never fall below the exact profile: that is recomputed here from the
definition, without the package — δ(ε) = Σ_y max(0, P[Y = y] − e^ε P[Y = y − Δ]) for Y ~ N_Z(0, σ²), the
hockey-stick divergence between the outputs on two neighbouring counts 0 and Δ (the pair is symmetric), summed in
mpmath at 50 digits over |y| ≤ 40σ + 2Δ + 10, beyond which the masses are below 1e-340.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from dpsemantics import releases
from dpsemantics.errors import ParameterError
from dpsemantics.report import fields as report_fields
from dpsemantics.report.__main__ import main


def exact_delta(sigma: float, sensitivity: int, eps: float) -> float:
    with mpmath.workdps(50):
        s2 = 2 * mpmath.mpf(sigma) ** 2
        reach = int(40 * sigma) + 2 * sensitivity + 10
        mass = {y: mpmath.e ** (-mpmath.mpf(y) ** 2 / s2) for y in range(-reach - sensitivity, reach + sensitivity + 1)}
        total = mpmath.fsum(mass[y] for y in range(-reach, reach + 1))
        grow = mpmath.e ** mpmath.mpf(eps)
        return float(mpmath.fsum(max(0, mass[y] - grow * mass[y - sensitivity])
                                 for y in range(-reach, reach + sensitivity + 1)) / total)


@pytest.mark.parametrize("sigma, sensitivity", [(3.0, 1), (0.1, 1), (2.5, 4), (1e6, 7)])
def test_rho_is_the_exact_value_rounded_up(sigma, sensitivity):
    m = releases.DiscreteGaussian(sigma, sensitivity)
    exact = Fraction(sensitivity) ** 2 / (2 * Fraction(sigma) ** 2)
    assert Fraction(m.rho()) >= exact > Fraction(math.nextafter(m.rho(), 0.0))


@pytest.mark.parametrize("sigma, sensitivity", [(2.0, 1), (0.7, 1), (5.0, 3)])
@pytest.mark.parametrize("eps", [0.0, 0.5, 1.0, 3.0])
def test_profile_is_never_below_the_exact_one(sigma, sensitivity, eps):
    m = releases.DiscreteGaussian(sigma, sensitivity)
    exact = exact_delta(sigma, sensitivity, eps)
    given = m.delta(eps)
    assert exact <= given < 1.0
    assert given <= 6 * exact  # the conversion is an upper bound, not a vacuous one (ratios 1.3 to 5 here)


def test_it_reads_as_its_zcdp_guarantee():
    m = releases.DiscreteGaussian(2.0)
    assert m.rho() == 0.125 and m.guarantee_only and releases.Composed([m]).exact(0.01) is None
    assert m.pdp_epsilon(0.01) == releases.ZCDP(0.125).pdp_epsilon(0.01)
    assert m.repeat(4).pdp_epsilon(0.01) == releases.ZCDP(0.5).pdp_epsilon(0.01)
    assert m.group_of_two() == releases.ZCDP(0.5)  # the discrete Gaussian at 2Δ: ρ = (2Δ)²/(2σ²) = 4ρ


def test_refusals_name_the_field():
    for fields, name in (({"sigma": 0.0}, "sigma"), ({"sigma": 2.0, "sensitivity": 1.5}, "sensitivity"),
                         ({}, "sigma"), ({"sigma": 1e-300}, "sigma")):
        with pytest.raises(ParameterError) as info:
            releases.from_fields("discrete-gaussian", **fields)
        assert info.value.parameter == name


def test_the_report_takes_it_from_its_declaration(tmp_path, capsys):
    assert "discrete-gaussian" in report_fields.MECHANISMS and "discrete-gaussian" in report_fields.FIELDS["sigma"]
    out = tmp_path / "out"
    code = main(["--mechanism", "discrete-gaussian", "--sigma", "2", "--k", "3", "--output", str(out)])
    assert code == 0, capsys.readouterr().err
    text = (out / "report.md").read_text()
    assert "discrete-gaussian (σ = 2, Δ = 1), run k = 3 times" in text
