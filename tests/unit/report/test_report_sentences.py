"""Every sentence the report prints about a probability, checked from outside against a mechanism of the stated
class, by exact enumeration of its outputs (issue 36).

The kinds of sentence (found by reading ``report/render.py`` for "probability", "δ′", "always", "every output"):

1. the headline: "is p sure … becomes at most B sure, whatever the release shows" (pure: probability 1) or
   "… except on rare outputs of total probability at most δ′";
2. the disclosure table: the "always" column (pure), the single point, best point and exact columns, each with its
   probability (1, or at least 1 − δ′), and the lower bound, ratio and change columns;
3. the value reading under unbounded neighbours (a record's value changed: a removal and an addition);
4. "Whatever the prior": the ratio and the largest move of any prior;
5. the plain-language paragraph ("with certainty … between A% and B%");
6. the causal reading (relative probability at most e^ε, on every output for pure DP);
7. the composition table (the whole release repeated m times).

Each test builds the mechanism itself (finite output distributions: randomized response, the (ε, δ) worst case of
Kairouz, Oh & Viswanath, the issue's counterexample), checks that it belongs to the stated class by computing its
hockey-stick divergences here, and computes the posterior on every output.  Nothing from ``dpsemantics`` is called
for an expected value: the report is run through its command line and read from report.json and report.md.
"""

from __future__ import annotations

import json
import math
import re
from math import comb

import pytest

from dpsemantics.report.__main__ import main

PRIORS = ["--prior", "0.01", "--prior", "0.1", "--prior", "0.5"]


def run(argv, tmp_path, capsys):
    out = tmp_path / "r"
    assert main([*argv, "--horizon", "1", "--output", str(out), "--force"]) == 0, capsys.readouterr().err
    capsys.readouterr()
    return json.loads((out / "report.json").read_text()), (out / "report.md").read_text()


# ---------------------------------------------------------------------------------------------------------------
# mechanisms, built here: a mechanism is a list of output probabilities under each database
# ---------------------------------------------------------------------------------------------------------------


def hockey(p, q, eps):
    """sup_S P(S) − e^ε Q(S) over a finite output set."""
    return sum(max(0.0, a - math.exp(eps) * b) for a, b in zip(p, q))


def is_dp(p, q, eps, delta, slack=1e-15):
    return hockey(p, q, eps) <= delta + slack and hockey(q, p, eps) <= delta + slack


def randomized_response(eps):
    t = math.exp(eps) / (1 + math.exp(eps))
    return [t, 1 - t], [1 - t, t]


def kov(eps, delta):
    """The (ε, δ) worst case: reveal the record with probability δ, else randomized response."""
    t = math.exp(eps) / (1 + math.exp(eps))
    return [delta, 0.0, (1 - delta) * t, (1 - delta) * (1 - t)], [0.0, delta, (1 - delta) * (1 - t), (1 - delta) * t]


def posterior(prior, p1, p0):
    den = prior * p1 + (1 - prior) * p0
    return None if den == 0 else prior * p1 / den


def failure(prior, p_in, p_out, bound):
    """The largest probability, under either database, of an output whose posterior (first hypothesis) exceeds
    ``bound``."""
    bad = [i for i, (a, b) in enumerate(zip(p_in, p_out))
           if (x := posterior(prior, a, b)) is not None and x > bound * (1 + 1e-12)]
    return max(sum(p_in[i] for i in bad), sum(p_out[i] for i in bad))


def largest(prior, p_in, p_out):
    return max(x for a, b in zip(p_in, p_out) if (x := posterior(prior, a, b)) is not None)


def claimed_failure(rep, row, key):
    """The failure probability a table cell claims: 0 where the report says it holds always, else δ′."""
    return 0.0 if (row.get("holds_always") or {}).get(key) else rep["release"]["delta_prime"]


def headline(md):
    return md.split("## Headline", 1)[1].split("##", 1)[0].strip()


# ---------------------------------------------------------------------------------------------------------------
# 1, 2: pure ε-DP — the bound holds always, and is attained (the strongest true sentence)
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eps", [0.2, 1.0, 9.98])
def test_pure_release_bound_holds_on_every_output_and_is_attained(eps, tmp_path, capsys):
    rep, md = run(["--mechanism", "dp", "--epsilon", str(eps), *PRIORS], tmp_path, capsys)
    p_in, p_out = randomized_response(eps)
    assert is_dp(p_in, p_out, eps, 0.0)
    head = headline(md)
    # the headline claims probability 1 (no δ′ failure in its bound) ...
    assert "never fails" in head and "except on rare outputs" not in head, head
    # ... and the disclosure section does not weaken it to "with probability at least 1 − δ′"
    section = md.split("## Disclosure risk", 1)[1].split("##", 1)[0]
    assert not section.lstrip().startswith("With probability at least 1 − δ′"), section[:200]
    for row in rep["disclosure"]:
        p = row["prior"]
        worst = largest(p, p_in, p_out)
        # every column the report marks as holding always does, on every output (failure probability 0) ...
        for key, value in row["posterior_upper"].items():
            assert value is not None, (key, "the exact worst case of a pure guarantee is known: not 'unavailable'")
            assert failure(p, p_in, p_out, value) <= claimed_failure(rep, row, key)
        # ... and the "always" bound is the exact worst case: randomized response reaches it
        assert row["posterior_always"] == pytest.approx(worst, rel=1e-12)
        assert row["posterior_upper"]["exact"] == pytest.approx(worst, rel=1e-12)
        # lower bound, ratio and change hold on every output too
        lows = [x for a, b in zip(p_in, p_out) if (x := posterior(p, a, b)) is not None]
        assert min(lows) >= row["posterior_lower"] * (1 - 1e-12)
        assert min(lows) == pytest.approx(row["posterior_lower"], rel=1e-12)
        assert max(lows) / p <= row["ratio"]["high"] * (1 + 1e-12) and min(lows) / p >= row["ratio"]["low"] * (
            1 - 1e-12)
        assert max(lows) - p <= row["difference"]["up"] + 1e-15 and min(lows) - p >= row["difference"]["down"] - 1e-15
    # the headline's number is the worst case at its prior, rounded up
    top = max(largest(r["prior"], p_in, p_out) for r in rep["disclosure"])
    if "more than 99.99 % sure" in head:
        assert top >= 0.9999
        return
    match = re.search(r"at most ([0-9.]+) % sure", head)
    assert match, head
    assert float(match.group(1)) / 100 >= top and float(match.group(1)) / 100 <= top + 1e-4


def test_pure_laplace_runs_keep_the_always_bound_and_mark_the_smaller_ones(tmp_path, capsys):
    """Ten Laplace runs: pure (ε = 5 in total); the exact route's bound is smaller and holds only with
    probability ≥ 1 − δ′.  Randomized response with ε = 5 is a mechanism of the same pure class: it breaks every
    bound below the "always" one with probability e⁵/(1 + e⁵) > δ′, so such a bound may not be printed as "always"."""
    rep, md = run(["--mechanism", "laplace", "--epsilon", "0.5", "--k", "10", *PRIORS], tmp_path, capsys)
    p_in, p_out = randomized_response(5.0)
    for row in rep["disclosure"]:
        assert failure(row["prior"], p_in, p_out, row["posterior_always"]) == 0
        for key, value in row["posterior_upper"].items():
            if value < row["posterior_always"] * (1 - 1e-9):
                assert not row["holds_always"][key], key
    assert "never fails" in headline(md)


# ---------------------------------------------------------------------------------------------------------------
# 1, 2: (ε, δ)-DP — every bound fails with probability at most δ′ on the worst-case mechanism
# ---------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("eps, delta", [(1.0, 1e-6), (3.0, 0.002), (0.3, 0.005)])
def test_approximate_dp_bounds_fail_at_most_delta_prime(eps, delta, tmp_path, capsys):
    rep, md = run(["--mechanism", "dp", "--epsilon", str(eps), "--delta", str(delta), *PRIORS], tmp_path, capsys)
    mechs = [kov(eps, delta), ([delta, 1 - delta], [0.0, 1.0]), ([0.0, 1.0], [delta, 1 - delta])]
    for p_in, p_out in mechs:
        assert is_dp(p_in, p_out, eps, delta)
        for row in rep["disclosure"]:
            for key, value in row["posterior_upper"].items():
                if value is not None:
                    assert failure(row["prior"], p_in, p_out, value) <= claimed_failure(rep, row, key) + 1e-15
    assert "δ′" in headline(md)  # not pure: the headline names its failure probability


# ---------------------------------------------------------------------------------------------------------------
# 3: the value reading under unbounded neighbours — the issue's counterexample
# ---------------------------------------------------------------------------------------------------------------


def value_mechanism(eps, delta):
    """Three databases: without the target (D0), with value a, with value b.  Output E has P0(E) = δ,
    Pa(E) = e^ε δ, Pb(E) = 0: the posterior of value a on E is 1, and Pa(E) = e^ε δ."""
    e = math.exp(eps) * delta
    return [e, 1 - e], [delta, 1 - delta], [0.0, 1.0]


def test_value_reading_counterexample_of_issue_36(tmp_path, capsys):
    eps, delta = 3.0, 0.002
    pa, p0, pb = value_mechanism(eps, delta)
    assert is_dp(pa, p0, eps, delta) and is_dp(pb, p0, eps, delta)  # (3, 0.002)-DP, unbounded neighbours
    rep, md = run(["--mechanism", "dp", "--epsilon", "3", "--delta", "0.002", "--prior", "0.01"], tmp_path, capsys)
    v = rep["reading"]["value_reading"]
    assert v is not None
    for row in v["posteriors"]:
        if row["posterior_upper"] is None:
            continue  # no bound claimed: nothing to break
        claimed = 0.0 if v.get("always") else v["delta_prime"]
        assert failure(row["prior"], pa, pb, row["posterior_upper"]) <= claimed, (
            f"the value reading claims posterior ≤ {row['posterior_upper']} except with probability {claimed}; "
            f"on E it is 1, with probability {pa[0]:.4f}")
    # and the page does not print the doubled sentence
    assert "2δ′" not in md


def chain(eps, c=0.01):
    """Three databases, each of the pairs (a, 0) and (b, 0) ε-DP, the pair (a, b) 2ε apart on the first output."""
    x, ch = math.exp(eps), math.cosh(eps)
    pa = [x * c, 1 - 2 * c * ch, c / x]
    p0 = [c, 1 - 2 * c, c]
    pb = [c / x, 1 - 2 * c * ch, x * c]
    return pa, p0, pb


@pytest.mark.parametrize("eps", [0.2, 1.0])
def test_value_reading_pure_holds_always_and_is_attained(eps, tmp_path, capsys):
    """Pure ε: a value change moves the output law by at most 2ε (group privacy); the chain reaches it."""
    rep, _ = run(["--mechanism", "dp", "--epsilon", str(eps), *PRIORS], tmp_path, capsys)
    v = rep["reading"]["value_reading"]
    pa, p0, pb = chain(eps)
    assert is_dp(pa, p0, eps, 0.0) and is_dp(pb, p0, eps, 0.0)
    assert v.get("always"), "a pure release's value reading holds on every output"
    for row in v["posteriors"]:
        assert failure(row["prior"], pa, pb, row["posterior_upper"]) == 0
        assert row["posterior_upper"] == pytest.approx(largest(row["prior"], pa, pb), rel=1e-9)


# ---------------------------------------------------------------------------------------------------------------
# 3: zCDP — value reading at 4ρ, membership at ρ, against randomized response (ε²/2-zCDP)
# ---------------------------------------------------------------------------------------------------------------


def test_zcdp_bounds_hold_against_randomized_response(tmp_path, capsys):
    rho = 0.5
    rep, _ = run(["--mechanism", "zcdp", "--rho", str(rho), *PRIORS], tmp_path, capsys)
    eps = math.sqrt(2 * rho)  # ε-DP implies ε²/2-zCDP (Bun & Steinke 2016, Proposition 1.4)
    p_in, p_out = randomized_response(eps)
    for row in rep["disclosure"]:
        for key, value in row["posterior_upper"].items():
            if value is not None:
                assert failure(row["prior"], p_in, p_out, value) <= claimed_failure(rep, row, key)
    # value: two ε-steps through a middle database
    pa, p0, pb = chain(eps)
    assert is_dp(pa, p0, eps, 0.0) and is_dp(pb, p0, eps, 0.0)
    v = rep["reading"]["value_reading"]
    for row in v["posteriors"]:
        if row["posterior_upper"] is not None:
            assert failure(row["prior"], pa, pb, row["posterior_upper"]) <= v["delta_prime"]


# ---------------------------------------------------------------------------------------------------------------
# 4, 6: whatever the prior; the causal reading — pure randomized response reaches both
# ---------------------------------------------------------------------------------------------------------------


def test_prior_free_and_causal_readings_hold_and_are_reached(tmp_path, capsys):
    eps = 1.0
    rep, md = run(["--mechanism", "randomized-response", "--epsilon", str(eps), *PRIORS], tmp_path, capsys)
    p_in, p_out = randomized_response(eps)
    grid = [i / 2000 for i in range(1, 2000)]
    moves = [abs(largest(p, p_in, p_out) - p) for p in grid]
    pf = rep["prior_free"]
    assert max(moves) <= pf["difference"] + 1e-15 and max(moves) >= pf["difference"] - 1e-6
    ratios = [max(a / b, b / a) for a, b in zip(p_in, p_out)]
    assert max(ratios) <= rep["causal"]["relative_probability_max"] * (1 + 1e-12)
    assert max(ratios) == pytest.approx(rep["causal"]["relative_probability_max"], rel=1e-12)
    assert "On every output (pure ε-DP)" in md.split("## Whatever the prior", 1)[1].split("##", 1)[0]


# ---------------------------------------------------------------------------------------------------------------
# 5: the plain-language paragraph
# ---------------------------------------------------------------------------------------------------------------


def test_plain_language_interval_contains_every_posterior(tmp_path, capsys):
    eps = 0.2
    rep, md = run(["--mechanism", "dp", "--epsilon", str(eps), "--prior", "0.5"], tmp_path, capsys)
    text = md.split("## In plain language", 1)[1].split("##", 1)[0]
    low, high = (float(x) / 100 for x in re.search(r"between ([0-9.]+) ?% and ([0-9.]+) ?%", text).groups())
    p_in, p_out = randomized_response(eps)
    posts = [posterior(0.5, a, b) for a, b in zip(p_in, p_out)]
    assert "cannot fail" in text  # pure: the sentence holds on every output
    assert low <= min(posts) and max(posts) <= high, (low, high, posts)


# ---------------------------------------------------------------------------------------------------------------
# 7: the composition table — m runs of randomized response, enumerated (binomial)
# ---------------------------------------------------------------------------------------------------------------


def test_composition_rows_fail_at_most_delta_prime(tmp_path, capsys):
    eps, prior = 0.5, 0.5
    out = tmp_path / "c"
    assert main(["--mechanism", "randomized-response", "--epsilon", str(eps), "--prior", str(prior), "--horizon",
                 "20", "--output", str(out)]) == 0
    capsys.readouterr()
    rep = json.loads((out / "report.json").read_text())
    dp = rep["composition"]["delta_prime"]
    t = math.exp(eps) / (1 + math.exp(eps))
    for row in rep["composition"]["rows"]:
        m = row["repetitions"]
        # outputs: the number j of "yes" answers; the loss is (2j − m)ε
        p_in = [comb(m, j) * t**j * (1 - t) ** (m - j) for j in range(m + 1)]
        p_out = [comb(m, j) * (1 - t) ** j * t ** (m - j) for j in range(m + 1)]
        for key in ("single_point", "best_point", "exact"):
            if row[key] is not None:
                assert failure(prior, p_in, p_out, row[key]) <= dp + 1e-12, (m, key)


@pytest.mark.parametrize("neighbours", ["unbounded", "bounded"])
def test_plain_language_interval_fails_at_most_delta_prime(neighbours, tmp_path, capsys):
    """(ε, δ): 'between A and B … except on rare outputs of total probability at most δ′' — both ends together,
    against the worst-case (ε, δ) mechanism; printed for bounded neighbours too (the value reading)."""
    eps, delta = 1.0, 1e-6
    rep, md = run(["--mechanism", "dp", "--epsilon", str(eps), "--delta", str(delta), "--prior", "0.5",
                   "--neighbours", neighbours], tmp_path, capsys)
    text = md.split("## In plain language", 1)[1].split("##", 1)[0]
    low, high = (float(x) / 100 for x in re.search(r"between ([0-9.]+) ?% and ([0-9.]+) ?%", text).groups())
    assert "at most 1 %" in text  # δ′ = 0.01, as the release's default
    p_in, p_out = kov(eps, delta)
    assert is_dp(p_in, p_out, eps, delta)
    outside = [i for i, (a, b) in enumerate(zip(p_in, p_out))
               if (x := posterior(0.5, a, b)) is not None and not low <= x <= high]
    assert max(sum(p_in[i] for i in outside), sum(p_out[i] for i in outside)) <= rep["release"]["delta_prime"]


def gaussian_failure(prior, bound, mu):
    """P[posterior > bound] for the pair N(0, σ²), N(Δ, σ²) with μ = Δ²/(2σ²), the output drawn from the first
    hypothesis's law: the loss is N(μ, 2μ) there, and the posterior exceeds the bound when the loss exceeds
    logit(bound) − logit(prior)."""
    if bound >= 1:
        return 0.0
    t = math.log(bound / (1 - bound)) - math.log(prior / (1 - prior))
    return 0.5 * math.erfc((t - mu) / (2 * math.sqrt(mu)))


def test_gaussian_membership_and_value_bounds_fail_at_most_delta_prime(tmp_path, capsys):
    """A Gaussian mechanism (σ = 2, Δ = 1): membership against the pair at distance Δ; the value reading against the
    pair at distance 2Δ (a removal then an addition, by the triangle inequality), computed with erfc here."""
    sigma = 2.0
    rep, _ = run(["--mechanism", "gaussian", "--sigma", str(sigma), *PRIORS], tmp_path, capsys)
    dp = rep["release"]["delta_prime"]
    mu1, mu2 = 1 / (2 * sigma**2), 4 / (2 * sigma**2)
    for row in rep["disclosure"]:
        for key, value in row["posterior_upper"].items():
            if value is not None:
                assert gaussian_failure(row["prior"], value, mu1) <= dp * (1 + 1e-9), key
    v = rep["reading"]["value_reading"]
    assert not v["always"]
    for row in v["posteriors"]:
        assert row["posterior_upper"] is not None
        assert gaussian_failure(row["prior"], row["posterior_upper"], mu2) <= dp * (1 + 1e-9)
        # near-tight: the pair's own law is used, so the failure probability is not far below δ′
        assert gaussian_failure(row["prior"], row["posterior_upper"], mu2) > dp / 10
