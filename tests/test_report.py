"""Tests for dpsemantics.report ("Your release, interpreted").

The Example 4.1 number is the paper's printed 96% (Kazan et al., Example 4.1: ρ = 0.01 per day, one month),
typed here from the paper.  The exact posterior of a 2-fold Laplace release is recomputed by a quadrature that
does not use the package (Theorem 3.1 with the Laplace density written out).
"""

from __future__ import annotations

import json
import math

import mpmath
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpsemantics import report as R
from dpsemantics.report.__main__ import main

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def upper(rep, prior=None):
    rows = rep["disclosure"]
    row = rows[0] if prior is None else next(r for r in rows if r["prior"] == prior)
    return row["posterior_upper"]


def test_example_4_1_month_reproduces_96_percent():
    rep = R.interpret({"mechanism": "zcdp", "rho": 0.3, "priors": [0.5], "delta_prime": 0.01}, horizon=1)
    assert round(upper(rep)["single_point"], 2) == 0.96  # "It reaches … 96% after one month"
    assert upper(rep)["best_point"] < upper(rep)["single_point"]
    assert upper(rep)["exact"] is None and "guarantee" in rep["methods"]["exact"]["unavailable"]


def test_daily_zcdp_composed_equals_monthly_rho():
    a = R.interpret({"mechanism": "zcdp", "rho": 0.01, "k": 30, "priors": [0.5]}, horizon=1)
    b = R.interpret({"mechanism": "zcdp", "rho": 0.3, "priors": [0.5]}, horizon=1)
    for key in ("single_point", "best_point"):
        assert upper(a)[key] == pytest.approx(upper(b)[key], rel=1e-12)


@PROPERTY
@given(mech=st.sampled_from(["laplace", "gaussian"]), eps=st.floats(0.05, 3.0), sigma=st.floats(0.5, 40.0),
       k=st.integers(1, 12), prior=st.floats(0.01, 0.99), delta_prime=st.floats(1e-4, 0.2))
def test_ordering_exact_best_single(mech, eps, sigma, k, prior, delta_prime):
    rel = {"mechanism": mech, "k": k, "priors": [prior], "delta_prime": delta_prime}
    rel.update({"epsilon": eps} if mech == "laplace" else {"sigma": sigma})
    rep = R.interpret(rel, horizon=1)
    u = upper(rep)
    tol = 1e-12
    assert u["exact"] <= u["best_point"] + tol
    assert u["best_point"] <= u["single_point"] + tol
    e = rep["eps_prime"]
    assert e["exact"] <= e["best_point"] * (1 + 1e-12) and e["best_point"] <= e["single_point"] * (1 + 1e-12)


def _laplace_2fold_threshold(eps, delta_prime):
    """The (1 − δ′)-quantile of the privacy loss of two Laplace releases (scale 1/ε, neighbours 0 and 1), by
    quadrature over the first output and the closed-form tail of the second (no package code)."""
    mpmath.mp.dps = 30
    e = mpmath.mpf(eps)

    def F(x):  # Laplace(0, 1/ε) CDF
        return mpmath.e ** (e * x) / 2 if x < 0 else 1 - mpmath.e ** (-e * x) / 2

    def tail(s):  # P[L > s] for one release, L(y) = ε(|y − 1| − |y|), y ~ Lap(0, 1/ε)
        if s < -e:
            return mpmath.mpf(1)
        if s >= e:
            return mpmath.mpf(0)
        return F((1 - s / e) / 2)

    def two(t):  # P[L1 + L2 > t]
        atoms = F(0) * tail(t - e) + (1 - F(1)) * tail(t + e)
        mid = mpmath.quad(lambda y: e / 2 * mpmath.e ** (-e * abs(y)) * tail(t - e * (abs(y - 1) - abs(y))), [0, 0.5, 1])
        return atoms + mid

    lo, hi = mpmath.mpf(-2 * eps), mpmath.mpf(2 * eps)
    if two(lo) <= delta_prime:
        return float(lo)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if two(mid) <= delta_prime else (mid, hi)
    return float(hi)


@pytest.mark.parametrize("eps,delta_prime", [(0.5, 0.01), (1.0, 0.05), (0.2, 0.2)])
def test_laplace_2fold_exact_against_quadrature(eps, delta_prime):
    t = _laplace_2fold_threshold(eps, delta_prime)
    rep = R.interpret({"mechanism": "laplace", "epsilon": eps, "k": 2, "priors": [0.5], "delta_prime": delta_prime},
                      horizon=1)
    brute = 1 / (1 + math.exp(-t))  # posterior at prior 1/2 (Theorem 3.1)
    got = upper(rep)["exact"]
    assert got >= brute - 1e-12  # the lattice is rounded to the safe side
    assert got <= brute + 1e-3


def test_gaussian_exact_is_closed_form():
    from scipy.stats import norm
    rep = R.interpret({"mechanism": "gaussian", "sigma": 12.0, "k": 40, "priors": [0.5], "delta_prime": 0.01},
                      horizon=1)
    mu = 40 / (2 * 144)
    t = mu + math.sqrt(2 * mu) * norm.ppf(0.99)
    assert upper(rep)["exact"] == pytest.approx(1 / (1 + math.exp(-t)), rel=1e-12)


def test_mixed_composition_and_geometric():
    rep = R.interpret({"mechanisms": [{"mechanism": "laplace", "epsilon": 0.2, "k": 3},
                                      {"mechanism": "gaussian", "sigma": 5.0},
                                      {"mechanism": "geometric", "epsilon": 0.3, "sensitivity": 2}],
                       "priors": [0.1, 0.5]}, horizon=2)
    for row in rep["disclosure"]:
        u = row["posterior_upper"]
        assert u["exact"] <= u["best_point"] <= u["single_point"]
    assert rep["methods"]["exact"]["is_bound"] is True
    geo = R.interpret({"mechanism": "geometric", "epsilon": 0.7, "k": 4}, horizon=1)
    rr = R.interpret({"mechanism": "randomized-response", "epsilon": 0.7, "k": 4}, horizon=1)
    assert geo["disclosure"] == rr["disclosure"]  # one geometric count has randomized response's privacy loss


def test_pure_release_readings():
    rep = R.interpret({"mechanism": "laplace", "epsilon": 0.5, "k": 2, "priors": [0.5]}, horizon=1)
    assert rep["semantic"]["exact"] == pytest.approx(math.tanh(0.5))
    assert rep["semantic"]["ks_theorem_2_2"] == pytest.approx(math.expm1(1.0))
    assert rep["causal"]["effect_bound"] == pytest.approx(1.0)
    assert [r["effect"] for r in rep["causal"]["relatives"]] == pytest.approx([2.0, 3.0, 4.0])
    assert rep["bayesian"]["membership"][0]["epsilon_mp"] <= 1.0 + 1e-12


# ------------------------------------------------------------------ the command line


def run(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr()


BAD = [
    (["--mechanism", "cauchy", "--epsilon", "1"], "mechanism"),
    (["--mechanism", "laplace", "--epsilon", "-0.5"], "epsilon"),
    (["--mechanism", "dp", "--epsilon", "1", "--delta", "1"], "delta"),
    (["--mechanism", "dp", "--epsilon", "1", "--delta", "-0.1"], "delta"),
    (["--mechanism", "laplace", "--epsilon", "1", "--prior", "0"], "priors"),
    (["--mechanism", "laplace", "--epsilon", "1", "--prior", "1.5"], "priors"),
    (["--mechanism", "gaussian", "--sigma", "0"], "sigma"),
    (["--mechanism", "gaussian", "--sigma", "-2"], "sigma"),
    (["--mechanism", "laplace", "--epsilon", "1", "--k", "0"], "k"),
    (["--mechanism", "laplace", "--epsilon", "1", "--k", "2.5"], "k"),
    (["--mechanism", "laplace", "--epsilon", "1", "--rho", "0.1"], "rho"),
    (["--mechanism", "gaussian", "--sigma", "1", "--epsilon", "0.1", "--delta", "1e-5"], "sigma"),
    (["--mechanism", "laplace", "--epsilon", "1", "--delta-prime", "1"], "delta_prime"),
    (["--mechanism", "dp", "--epsilon", "1", "--delta", "0.02", "--delta-prime", "0.01"], "delta_prime"),
]


@pytest.mark.parametrize("argv,field", BAD)
def test_bad_input_one_error_no_files(argv, field, tmp_path, capsys):
    out = tmp_path / "out"
    code, cap = run(argv + ["--output", str(out)], capsys)
    assert code != 0
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}: "), cap.err
    assert not out.exists()


COMPOSITIONS = [
    ({"mechanisms": [{"mechanism": "laplace", "epsilon": 1, "sigma": 2}]}, "mechanisms[0].sigma"),
    ({"mechanisms": [{"mechanism": "laplace", "epsilon": 1}, {"mechanism": "zcdp"}]}, "mechanisms[1].rho"),
    ({"mechanism": "laplace", "epsilon": 1, "mechanisms": [{"mechanism": "laplace", "epsilon": 1}]}, "epsilon"),
    ({"mechanisms": [{"mechanism": "gaussian", "epsilon": 0.5}]}, "mechanisms[0].delta"),
    ({"mechanisms": [{"mechanism": "laplace", "epsilon": 1, "k": -1}]}, "mechanisms[0].k"),
    ({"mechanisms": []}, "mechanisms"),
    ({"mechanisms": [{"mechanism": "laplace", "epsilon": 1, "colour": 2}]}, "mechanisms[0].colour"),
    ({"mechanism": "zcdp", "rho": 0.1, "priors": [0.5, 0.0]}, "priors"),
]


@pytest.mark.parametrize("data,field", COMPOSITIONS)
def test_bad_json_one_error_no_files(data, field, tmp_path, capsys):
    src = tmp_path / "release.json"
    src.write_text(json.dumps(data))
    out = tmp_path / "out"
    code, cap = run(["--from", str(src), "--output", str(out)], capsys)
    assert code != 0
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}: "), cap.err
    assert not out.exists()


def test_unreadable_json(tmp_path, capsys):
    src = tmp_path / "release.json"
    src.write_text("{not json")
    code, cap = run(["--from", str(src), "--output", str(tmp_path / "out")], capsys)
    assert code == 2 and cap.err.startswith("error: from: ")


def test_help_documents_every_field(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for flag in ("--mechanism", "--epsilon", "--delta", "--sigma", "--sensitivity", "--rho", "--k", "--prior",
                 "--delta-prime", "--from", "--output", "--name"):
        assert flag in text
    for field in R.FIELDS:
        assert f"  {field}: " in text
    for mech in R.MECHANISMS:
        assert mech in text
    assert "mechanisms" in text and str(R.DEFAULT_DELTA_PRIME) in text and "0.01, 0.1, 0.5" in text


def test_json_equals_flags(tmp_path, capsys):
    flags = tmp_path / "flags"
    code, _ = run(["--mechanism", "gaussian", "--sigma", "12", "--k", "40", "--prior", "0.1", "--prior", "0.5",
                   "--delta-prime", "0.01", "--name", "g40", "--output", str(flags)], capsys)
    assert code == 0
    src = tmp_path / "g40.json"
    src.write_text(json.dumps({"mechanism": "gaussian", "sigma": 12, "k": 40, "priors": [0.1, 0.5], "delta_prime": 0.01}))
    viajson = tmp_path / "json"
    code, _ = run(["--from", str(src), "--output", str(viajson)], capsys)
    assert code == 0
    assert json.loads((flags / "report.json").read_text()) == json.loads((viajson / "report.json").read_text())


def test_outputs_are_self_contained(tmp_path, capsys):
    code, _ = run(["--mechanism", "laplace", "--epsilon", "0.5", "--k", "3", "--output", str(tmp_path)], capsys)
    assert code == 0
    page = (tmp_path / "report.html").read_text()
    md = (tmp_path / "report.md").read_text()
    assert page.count("<svg") == 3
    for fetch in ('src="http', "src='http", 'href="http', "<script", "<link", "@import"):
        assert fetch not in page  # nothing loaded from the network
    for text in (page, md):
        assert "np.float64" not in text and "\\frac" not in text and "$" not in text
    data = json.loads((tmp_path / "report.json").read_text())
    assert set(data["disclosure"][0]["posterior_upper"]) == {"single_point", "best_point", "exact"}
    for key in ("semantic", "bayesian", "causal", "composition"):
        assert key in data
