"""Tests for dpsemantics.report ("Your release, interpreted").

The Example 4.1 number is the paper's printed 96% (Kazan et al., Example 4.1: ρ = 0.01 per day, one month),
typed here from the paper.  The exact posterior of a 2-fold Laplace release is recomputed by a quadrature that
does not use the package (Theorem 3.1 with the Laplace density written out).
"""

from __future__ import annotations

import json
import math
import re

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
        mid = mpmath.quad(lambda y: e / 2 * mpmath.e ** (-e * abs(y)) * tail(t - e * (abs(y - 1) - abs(y))),
                          [0, 0.5, 1])
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
    (["--mechanism", "gaussian", "--sigma", "1e-300"], "sigma"),  # Δ/σ overflows: refused, not a traceback
    (["--mechanism", "laplace", "--epsilon", "1", "--k", "0"], "k"),
    (["--mechanism", "laplace", "--epsilon", "1", "--k", "2.5"], "k"),
    (["--mechanism", "laplace", "--epsilon", "1", "--k", "1000000001"], "k"),  # past releases.K_MAX = 10⁹
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


def test_refusals_of_the_mathematics_are_read_from_the_error_not_its_text(monkeypatch):
    """content.build takes the field from the package error's ``parameter`` attribute: a refusal whose message
    starts with another word (here "the") still lands on its field, with the reason after the subject."""
    from dpsemantics import releases
    from dpsemantics._validate import ParameterError

    refusal = ParameterError("sensitivity", "must be odd here (got 2)", subject="the sensitivity")

    def refuse(name, **fields):
        raise refusal

    monkeypatch.setattr(releases, "from_fields", refuse)
    with pytest.raises(R.ReleaseError) as info:
        R.parse_release({"mechanism": "laplace", "epsilon": 1, "sensitivity": 2})
    assert (info.value.field, info.value.message) == ("sensitivity", "must be odd here (got 2)")
    refusal = ParameterError("eps", "is too large")
    with pytest.raises(R.ReleaseError) as info:  # a parameter the release does not have: its first field, whole text
        R.parse_release({"mechanisms": [{"mechanism": "laplace", "epsilon": 1}]})
    assert (info.value.field, info.value.message) == ("mechanisms[0].epsilon", "eps is too large")


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
    src.write_text(json.dumps({"mechanism": "gaussian", "sigma": 12, "k": 40, "priors": [0.1, 0.5],
                               "delta_prime": 0.01}))
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


# ------------------------------------------------------------------ published releases (the gallery)
# Independent computations: written here from the papers' formulas with SciPy/mpmath, not with the package.

from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402

from scipy import optimize, stats  # noqa: E402

from dpsemantics.report import gallery  # noqa: E402


def cks_epsilon(rho, delta):
    """Canonne, Kamath & Steinke 2020, Corollary 13: ε = inf_α αρ + log(1 − 1/α) − (log δ + log α)/(α − 1)."""
    f = lambda a: a * rho + math.log1p(-1 / a) - (math.log(delta) + math.log(a)) / (a - 1)  # noqa: E731
    res = optimize.minimize_scalar(f, bounds=(1 + 1e-9, 1e6), method="bounded", options={"xatol": 1e-12})
    return res.fun


def theorem_3_9(eps, delta, delta_prime):
    """Kazan et al. Theorem 3.9: ε′ = log(δ′e^ε + δ) − log(δ′ − δ)."""
    return math.log(delta_prime * math.exp(eps) + delta) - math.log(delta_prime - delta)


def zcdp_single_point(rho, delta_prime):
    """Theorem 2.7 (ε = ρ + 2√(ρ log 1/δ)) then Theorem 3.9, at the δ < δ′ minimising ε′ (Example 4.1)."""
    f = lambda x: theorem_3_9(rho + 2 * math.sqrt(rho * -x), math.exp(x), delta_prime)  # noqa: E731
    res = optimize.minimize_scalar(f, bounds=(math.log(delta_prime) - 60, math.log(delta_prime) - 1e-9),
                                   method="bounded", options={"xatol": 1e-12})
    return res.fun


def gaussian_pdp_epsilon(mu, delta_prime):
    """The PDP ε of the Gaussian mechanism with Z ~ N(μ, 2μ): P[|Z| > ε] = δ′ (it is μ-zCDP, so no bound valid
    for every μ-zCDP mechanism can be below it)."""
    s = math.sqrt(2 * mu)
    return optimize.brentq(lambda e: stats.norm.sf(e, mu, s) + stats.norm.cdf(-e, mu, s) - delta_prime, 0, 1e3)


def expit(x):
    return 1 / (1 + math.exp(-x))


@pytest.mark.parametrize("argv", [["--list"], ["--release", "--list"], ["--list-releases"], ["--release"]])
def test_gallery_lists_each_entry_with_sources(argv, capsys):
    assert main(argv) == 0
    out = capsys.readouterr().out
    for name, entry in gallery.entries().items():
        assert name in out
        assert entry["sources"] and all(s["url"].startswith("https://") and s["sentence"] and s["confirmed"]
                                        for s in entry["sources"])
        assert entry["release"]["unit"] and entry["release"]["neighbours"] in ("bounded", "unbounded")


@pytest.mark.parametrize("name", ["census-2020-pl94-persons", "census-2020-pl94-units"])
def test_census_certificates_numbers_agree_and_report_is_bracketed(name, tmp_path, capsys):
    entry = gallery.entries()[name]
    rho = float(Fraction(entry["release"]["rho"]))
    published = float(Fraction(entry["published"]["epsilon"]))
    # the certificate's ε is the CKS conversion of its ρ at δ = 1e-10, to the printed digits
    assert cks_epsilon(rho, 1e-10) == pytest.approx(published, rel=1e-5)
    from dpsemantics.releases import ZCDP
    assert ZCDP(rho).epsilon(1e-10) == pytest.approx(published, rel=1e-5)
    code, _ = run(["--release", name, "--output", str(tmp_path / "out")], capsys)
    assert code == 0
    rep = json.loads((tmp_path / "out" / "report.json").read_text())
    assert rep["neighbours"] == "bounded" and rep["unit"] and rep["invariants"]
    assert rep["release"]["rho"] == pytest.approx(rho, rel=1e-15)
    eps = rep["eps_prime"]
    assert gaussian_pdp_epsilon(rho, 0.01) <= eps["best_point"] * (1 + 1e-9)
    assert eps["best_point"] <= eps["single_point"] * (1 + 1e-9)
    assert eps["single_point"] == pytest.approx(zcdp_single_point(rho, 0.01), rel=1e-6)


def test_wikipedia_current_exact_is_the_gaussian_closed_form(tmp_path, capsys):
    code, _ = run(["--release", "wikipedia-pageviews-current", "--output", str(tmp_path / "out")], capsys)
    assert code == 0
    rep = json.loads((tmp_path / "out" / "report.json").read_text())
    mu = 0.015
    for row in rep["disclosure"]:
        p = row["prior"]
        t = mu + math.sqrt(2 * mu) * stats.norm.isf(0.01)
        assert row["posterior_upper"]["exact"] == pytest.approx(p / (p + (1 - p) * math.exp(-t)), rel=1e-9)
    # "roughly equivalent to epsilon = 1, delta = 1e-07": the Gaussian profile (Balle & Wang) at ε = 1
    s = math.sqrt(2 * mu)
    delta_at_1 = stats.norm.cdf(-1 / s + s / 2) - math.exp(1) * stats.norm.cdf(-1 / s - s / 2)
    assert delta_at_1 < 1e-7
    assert rep["unit"].startswith("device-day") and rep["composition"]["horizon"] == 365


def test_wikipedia_historical_is_pure_laplace(tmp_path, capsys):
    code, _ = run(["--release", "wikipedia-pageviews-historical", "--horizon", "1", "--output",
                   str(tmp_path / "out")], capsys)
    assert code == 0
    rep = json.loads((tmp_path / "out" / "report.json").read_text())
    assert rep["release"]["pure_epsilon"] == 1.0
    row = next(r for r in rep["disclosure"] if r["prior"] == 0.5)
    # the Laplace loss sits at +ε with probability 1/2 > δ′: the exact bound is the pure one, e/(1 + e)
    assert row["posterior_upper"]["exact"] == pytest.approx(expit(1.0), rel=1e-12)
    assert row["posterior_upper"]["single_point"] == pytest.approx(expit(1.0), rel=1e-12)


# ------------------------------------------------------------------ totality: the tracebacks


TRACEBACKS = [
    ["--mechanism", "dp", "--epsilon", "17.14", "--delta", "1e-10"],
    ["--mechanism", "laplace", "--epsilon", "17.14"],
    ["--mechanism", "zcdp", "--rho", "0.015", "--k", "900"],
    ["--mechanism", "laplace", "--epsilon", "0.44", "--k", "180"],
    ["--mechanism", "laplace", "--epsilon", "1", "--k", "40"],
    ["--mechanism", "zcdp", "--rho", "1e308"],
    ["--mechanism", "laplace", "--epsilon", "1e308"],  # these three: "eps must be finite (got eps=inf)" (2ε′, (m + 1)ε)
    ["--mechanism", "dp", "--epsilon", "1e308", "--delta", "1e-6"],
    ["--mechanism", "randomized-response", "--epsilon", "1.7e308"],
    ["--mechanism", "zcdp", "--rho", "0.1", "--delta-prime", "1e-300"],
    ["--mechanism", "dp", "--epsilon", "1", "--delta", "1e-7", "--k", "365"],
    ["--mechanism", "randomized-response", "--epsilon", "800"],
    ["--mechanism", "zcdp", "--rho", "1000"],
    # extremes of the valid range, beyond the list
    ["--mechanism", "laplace", "--epsilon", "5e-324", "--k", "7"],
    ["--mechanism", "laplace", "--epsilon", "1e300"],
    ["--mechanism", "randomized-response", "--epsilon", "1e300", "--k", "3"],
]


@pytest.mark.parametrize("argv", TRACEBACKS, ids=[" ".join(a[1:]) for a in TRACEBACKS])
def test_every_published_traceback_now_gives_a_report(argv, tmp_path, capsys):
    out = tmp_path / "out"
    code, cap = run(argv + ["--output", str(out)], capsys)
    assert code == 0, cap.err
    rep = json.loads((out / "report.json").read_text())  # strict JSON: no NaN or Infinity
    md = (out / "report.md").read_text()
    assert "nan" not in md.lower().split() and "inf " not in md
    for row in rep["disclosure"]:
        for value in row["posterior_upper"].values():
            assert value is None or 0 < value <= 1
    if rep["eps_prime"]["best_point"] is None:
        assert "no guarantee at this level" in md
    elif rep["headline"]["posterior_upper"] >= 0.9999:
        assert "above 99.99 %" in md


def test_vacuous_levels_are_flagged_not_printed(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(["--mechanism", "laplace", "--epsilon", "3", "--horizon", "1", "--output", str(out)], capsys)[0] == 0
    md = (out / "report.md").read_text()
    # e^3 − 1 = 19.1 and e^6 − 1 are no bound on a statistical difference: flagged, not printed
    assert "19.09" not in md and "no guarantee at this level" in md
    assert "(the two-point belief): for the adversary" not in md


# ------------------------------------------------------------------ neighbours, unit, schema


def test_bounded_neighbours_change_the_reading(tmp_path, capsys):
    reps = {}
    for nb in ("unbounded", "bounded"):
        out = tmp_path / nb
        code, _ = run(["--mechanism", "zcdp", "--rho", "0.5", "--neighbours", nb, "--unit", "person", "--invariant",
                       "state totals", "--horizon", "1", "--output", str(out)], capsys)
        assert code == 0
        reps[nb] = (json.loads((out / "report.json").read_text()), (out / "report.md").read_text())
    (u, _), (b, b_md) = reps["unbounded"], reps["bounded"]
    assert u["schema_version"] == b["schema_version"] == R.SCHEMA_VERSION
    assert (u["neighbours"], b["neighbours"], b["unit"]) == ("unbounded", "bounded", "person")
    assert "in the data" in u["reading"]["question"] and "value" in b["reading"]["question"]
    assert any(text.startswith("membership") for text in b["reading"]["not_covered"])
    assert any("state totals" in text for text in b["reading"]["not_covered"])
    assert "membership" in b_md and "given that the target is in the data" in b_md
    # the numbers are the same; what they are about differs
    assert u["disclosure"] == b["disclosure"]
    # unbounded: a value change is a group of two; for ρ-zCDP group privacy gives 4ρ (Bun & Steinke Prop. 1.9),
    # read at the same δ′ (never ε′ and δ′ doubled: tests/unit/report/test_report_sentences.py shows that false)
    v = u["reading"]["value_reading"]
    four = R.interpret({"mechanism": "zcdp", "rho": 2.0, "priors": u["release"]["priors"], "horizon": 1})
    assert v["eps_prime"] == pytest.approx(four["eps_prime"]["best_point"], rel=1e-9) and v["delta_prime"] == 0.01
    assert [x["posterior_upper"] for x in v["posteriors"]] == pytest.approx(
        [d["posterior_upper"]["best_point"] for d in four["disclosure"]], rel=1e-9)
    assert b["reading"]["value_reading"] is None


def test_report_json_carries_numbers_not_strings(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(["--mechanism", "gaussian", "--sigma", "3", "--k", "4", "--output", str(out)], capsys)[0] == 0
    rep = json.loads((out / "report.json").read_text())
    for row in rep["disclosure"]:
        assert all(isinstance(row[k], float) for k in ("prior", "posterior_lower"))
        assert all(isinstance(v, float) for v in row["posterior_upper"].values())
    for row in rep["composition"]["rows"]:
        assert isinstance(row["repetitions"], int) and isinstance(row["best_point"], float)
    csv_text = (out / "report.csv").read_text().splitlines()
    assert csv_text[0].startswith("prior,") and len(csv_text) == 1 + len(rep["disclosure"])
    assert float(csv_text[1].split(",")[2]) == rep["disclosure"][0]["posterior_upper"]["single_point"]


def test_horizon_is_an_input_and_composition_reaches_it(tmp_path, capsys):
    out = tmp_path / "out"
    assert run(["--mechanism", "gaussian", "--sigma", "12", "--horizon", "40", "--output", str(out)], capsys)[0] == 0
    rep = json.loads((out / "report.json").read_text())
    reps = [r["repetitions"] for r in rep["composition"]["rows"]]
    assert reps[0] == 1 and reps[-1] == 40 and len(reps) <= 12
    last = rep["composition"]["rows"][-1]  # 40 runs of σ = 12: the closed form at μ = 40/288
    mu = 40 / 288
    t = mu + math.sqrt(2 * mu) * stats.norm.isf(0.01)
    p = rep["composition"]["prior"]
    assert last["exact"] == pytest.approx(p / (p + (1 - p) * math.exp(-t)), rel=1e-9)


# ------------------------------------------------------------------ files


def _listing(folder: Path):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_existing_output_refused_then_replaced_with_force(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "stale.svg").write_text("old")
    argv = ["--mechanism", "laplace", "--epsilon", "1", "--horizon", "1", "--output", str(out)]
    code, cap = run(argv, capsys)
    assert code == 2 and cap.err.startswith("error: output: ") and len(cap.err.strip().splitlines()) == 1
    assert _listing(out) == ["stale.svg"]
    code, cap = run(argv + ["--force"], capsys)  # not an earlier report (no marker): --force refuses too
    assert code == 2 and "is not an earlier report" in cap.err and _listing(out) == ["stale.svg"]
    (out / ".dpsemantics-report").write_text("")  # as an earlier report leaves it
    code, _ = run(argv + ["--force"], capsys)
    assert code == 0 and "stale.svg" not in _listing(out) and "report.json" in _listing(out)
    assert _listing(tmp_path) == ["out"] + [f"out/{name}" for name in _listing(out)]  # no temporary folder left


@pytest.mark.parametrize("where", ["file", "/dev/null/x", "/proc/report"])
def test_unwritable_outputs_are_one_line_errors(where, tmp_path, capsys):
    target = tmp_path / "a-file" if where == "file" else Path(where)
    if where == "file":
        target.write_text("keep")
    code, cap = run(["--mechanism", "laplace", "--epsilon", "1", "--output", str(target)], capsys)
    assert code == 2 and cap.err.startswith("error: output: ") and len(cap.err.strip().splitlines()) == 1
    if where == "file":
        assert target.read_text() == "keep"


def test_default_output_is_in_the_current_directory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run(["--mechanism", "laplace", "--epsilon", "1", "--horizon", "1", "--name", "mine"], capsys)[0] == 0
    assert (tmp_path / "mine-report" / "report.json").exists()


LIMITS = [
    (b"\xff\xfe{}", "not UTF-8"),
    (("[" * 100_000 + "]" * 100_000).encode(), "too many"),
    (json.dumps({"mechanism": "laplace", "epsilon": 1, "x": [[[[[[[[[[1]]]]]]]]]]}).encode(), "nested deeper"),
    (b'{"mechanism": "laplace", "epsilon": 1, "epsilon": 2}', "duplicate key"),
    (json.dumps({"mechanisms": [{"mechanism": "laplace", "epsilon": 0.1}] * 2000}).encode(), "more than"),
    (json.dumps({"mechanisms": [{"mechanism": "laplace", "epsilon": 0.1}] * 100}).encode(), "at most 64"),
    (b'{"mechanism": "laplace", "epsilon": NaN}', "NaN"),
    (b" " * 1_000_001, "larger than"),
]


@pytest.mark.parametrize("content,words", LIMITS, ids=[w for _, w in LIMITS])
def test_release_files_within_limits(content, words, tmp_path, capsys):
    src = tmp_path / "release.json"
    src.write_bytes(content)
    out = tmp_path / "out"
    code, cap = run(["--from", str(src), "--output", str(out)], capsys)
    assert code == 2 and words in cap.err and len(cap.err.strip().splitlines()) == 1, cap.err
    assert not out.exists()


def test_compare_side_by_side(tmp_path, capsys):
    out = tmp_path / "cmp"
    code, cap = run(["--compare", "census-2020-pl94-persons", "wikipedia-pageviews-current", "--prior", "0.5",
                     "--output", str(out)], capsys)
    assert code == 0
    rows = (out / "compare.csv").read_text().splitlines()
    assert len(rows) == 3 and "bounded" in rows[1] and "unbounded" in rows[2]


# ------------------------------------------------------------------ structure


def test_report_has_no_string_dispatch_and_no_book_imports():
    root = Path(R.__file__).parent
    for path in list(root.glob("*.py")) + [root.parent / "releases.py"]:
        text = path.read_text()
        assert '["mechanism"]' not in text, path
        assert "from ..book" not in text and "dpsemantics.book import" not in text and "from .book" not in text, path


def test_help_and_refusals_do_not_load_the_mathematics():
    import subprocess
    import sys

    code = ("import sys\nfrom dpsemantics.report.__main__ import main\n"
            "rc = main(['--mechanism', 'laplace', '--epsilon', '-1'])\n"
            "assert rc == 2, rc\n"
            "assert 'numpy' not in sys.modules and 'scipy' not in sys.modules, sorted(sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "error: epsilon: must be > 0 (got -1.0)"


def test_gallery_ships_as_package_data():
    text = (Path(R.__file__).parents[3] / "pyproject.toml").read_text()
    assert '"dpsemantics.report" = ["gallery.json"]' in text


# ------------------------------------------------------------------ "exact" only when the bracket is narrow

def test_laplace_k_1e5_is_an_upper_bound_with_its_bracket(tmp_path, capsys):
    """A value is called "exact" only when its bracket is narrow: here the lattice's 0.930 is an upper bound and
    the truth is 0.686867 (bracket [0.686857, 0.686878]; tests/unit/releases/test_releases.py recomputes it by
    Gil-Pelaez inversion without the package)."""
    out = tmp_path / "r"
    code, _ = run(["--mechanism", "laplace", "--epsilon", "0.001", "--k", "100000", "--prior", "0.5",
                   "--output", str(out)], capsys)
    assert code == 0
    rep = json.loads((out / "report.json").read_text())
    ex = rep["methods"]["exact"]
    high, low = upper(rep)["exact"], ex["posterior_low"][0]
    assert low <= 0.686857 and 0.686878 <= high <= 0.686878 * 1.01
    assert ex["eps_prime_low"] <= ex["eps_prime_high"] == rep["eps_prime"]["exact"]
    assert ex["threshold_low"] <= ex["threshold_high"]
    text = (out / "report.md").read_text()
    assert "Upper bound (not exact at the digits shown)" in text
    shown = re.search(r"prior 0\.5: \[(\d+\.\d\d) %, (\d+\.\d\d) %\]", text)  # the printed bracket holds the truth
    assert shown and float(shown[1]) <= 68.6857 and 68.6878 <= float(shown[2]) <= float(shown[1]) + 0.2
    assert "Exact: " not in text


def test_closed_form_is_called_exact(tmp_path, capsys):
    out = tmp_path / "r"
    assert run(["--mechanism", "gaussian", "--sigma", "3", "--k", "4", "--output", str(out)], capsys)[0] == 0
    text = (out / "report.md").read_text()
    assert "Exact: closed form" in text and "Upper bound (not exact" not in text


def test_the_report_takes_the_k_the_release_model_takes():
    """One limit on k: the report's fields accept k = 10⁹, what releases accepts (it refused k > 10⁷ while the
    release model took 10⁹), and refuse 10⁹ + 1 naming k, in a composition naming the part."""
    from dpsemantics import releases
    from dpsemantics.report import fields

    assert fields.K_MAX is releases.K_MAX == 10**9
    assert fields.validate({"mechanism": "zcdp", "rho": 1e-9, "k": 10**9})["components"][0][1] == 10**9
    with pytest.raises(fields.ReleaseError, match="k") as err:
        fields.validate({"mechanisms": [{"mechanism": "zcdp", "rho": 1e-9, "k": 10**9 + 1}]})
    assert err.value.field == "mechanisms[0].k"
