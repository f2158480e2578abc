"""The claims registry: every claim evaluates, has the expected status, and points into the book."""

import json
import os
import re
import subprocess
import sys

import pytest

from conftest import SESSION_ENV
from dpsemantics import book, claims

ALL = claims.registry()
_DIGEST: list[str] = []  # the package source's digest, formed once


def test_registry_is_not_empty_and_ids_unique():
    assert ALL, "no claims registered"
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("claim", ALL, ids=[c.id for c in ALL])
def test_claim_status_is_as_expected(claim):
    result = claims.evaluate(claim)
    if os.environ.get(SESSION_ENV):  # make test: the strict build's claims page reads it, not evaluating it again
        _DIGEST[:] = _DIGEST or [claims._source_digest()]
        claims.share_results(os.environ[SESSION_ENV], [result], _DIGEST[0])
    assert result.status == claim.expected, (
        f"{claim.id}: printed {claim.printed!r}, computed {result.computed!r}, status {result.status}, "
        f"expected {claim.expected}"
    )
    if claim.expected == "discrepancy":
        assert claim.note, f"{claim.id}: a discrepancy needs a note explaining its cause"
        assert claim.finding, f"{claim.id}: a discrepancy needs a finding (one of {sorted(claims.FINDINGS)})"


RELATIONS = [c for c in ALL if c.is_relation]


@pytest.mark.parametrize("claim", RELATIONS, ids=[c.id for c in RELATIONS])
def test_relation_is_attacked_with_evidence_and_margin(claim):
    """Every claim that a printed relation holds returns a Verdict: evidence kind, cases tried, margin."""
    result = claims.evaluate(claim)
    v = result.verdict
    assert v is not None, f"{claim.id}: a relation must return a claims.Verdict (lhs, rhs, evidence), not a bool"
    assert len(v.evidence) == 1 and v.kind in claims.EVIDENCE and set(v.methods) <= set(claims.SEARCH_METHODS)
    assert v.domain, f"{claim.id}: a verdict must say what it covers (domain)"
    if claim.expected == "not-checked":
        assert v.cases == 0 and "not checked" in v.domain and claim.note
        return
    assert v.cases >= 1 and v.margin == v.margin  # not NaN
    if claim.expected == "reproduced":
        assert v.margin <= 1 + claims.VERDICT_RTOL, f"{claim.id}: holds but margin {v.margin} > 1"
    else:
        assert v.worst, f"{claim.id}: a refuted relation must name its worst case (the counterexample)"


HOLDING = [c for c in RELATIONS if c.expected == "reproduced"]


def test_vacuous_cases_are_left_out_and_a_verdict_of_only_vacuous_cases_is_not_checked():
    v = claims.Verdict.of([0.0, 0.0, 0.5], [0.0, 0.0, 1.0], evidence="exhaustive", labels=["a", "b", "c"])
    assert v.cases == 1 and v.vacuous == 2 and v.margin == pytest.approx(0.5) and v.worst == "c" and v.checked
    empty = claims.Verdict.of([0.0, 0.0], [0.0, 0.0], evidence="extremal")
    assert not empty.checked and empty.cases == 0 and empty.vacuous == 2
    rel = claims.Claim("x-vacuous", "kazan", "", "", True, lambda tighten=1.0: empty)
    assert claims.evaluate(rel).status == "not-checked"
    assert claims.evaluate(claims.Claim("x-full", "kazan", "", "", True,
                                        lambda tighten=1.0: v)).status == "reproduced"


from dpsemantics.claims.mutations import KINDS, MUTATIONS  # noqa: E402


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[f"{m.claim_id}:{m.kind}" for m in MUTATIONS])
def test_mutated_statement_is_refuted(mutation):
    """Falsifiability: a false variant of a statement that holds (its bound at 0.99 × the known supremum, a
    smaller constant, a dropped hypothesis) must be refuted by the check.  (Tightening a bound to just below
    the check's own maximum proves nothing and is not used.)"""
    claim = claims.get(mutation.claim_id)
    assert claim.is_relation and claims.evaluate(claim).status == "reproduced", \
        f"{claim.id} must be a relation that holds"
    v = mutation.compute()
    assert isinstance(v, claims.Verdict) and v.checked
    assert not v.holds, f"{mutation.claim_id}: the mutated statement '{mutation.statement}' is not refuted"
    assert v.worst, f"{mutation.claim_id}: a refutation names its worst case"


def test_at_least_ten_statements_are_mutated_with_every_kind():
    assert len({m.claim_id for m in MUTATIONS}) >= 10
    assert {m.kind for m in MUTATIONS} == set(KINDS)
    with pytest.raises(ValueError, match="kind"):
        type(MUTATIONS[0])("x", "tighter", "", lambda: None)
    with pytest.raises(ValueError, match="supremum"):
        type(MUTATIONS[0])("x", "bound-at-0.99-supremum", "", lambda: None)


def test_verdict_margin_and_tightening():
    v = claims.Verdict.of([0.5, 0.9], [1.0, 1.0], evidence="exhaustive", labels=["a", "b"])
    assert v.holds and v.margin == pytest.approx(0.9) and v.worst == "b" and v.cases == 2
    assert not claims.Verdict.of([0.5, 0.9], [1.0, 1.0], evidence="exhaustive", tighten=0.89).holds
    broken = claims.Verdict.of([0.0, 2.0], [0.0, 1.0], evidence="extremal")
    assert not broken.holds and broken.margin == pytest.approx(2.0)
    assert not claims.Verdict.of([0.0], [0.0], evidence="closed-form").checked
    with pytest.raises(ValueError, match="evidence"):
        claims.Verdict.of([1.0], [1.0], evidence="vibes")
    with pytest.raises(ValueError, match="equal size"):
        claims.Verdict.of([1.0, 2.0], [1.0], evidence="exhaustive")


def test_unsafe_rounding_is_reported_for_bounds():
    up = claims.Claim("x-up", "kazan", "", "", 0.02, lambda: 0.024999, atol=0.005, bound="upper")
    # a bound rounded to its unsafe side makes the printed statement false: a discrepancy, by rounding
    assert claims.evaluate(up).status == "discrepancy" and claims.evaluate(up).finding == "unsafe-rounding"
    safe = claims.Claim("x-safe", "kazan", "", "", 0.03, lambda: 0.024999, atol=0.006, bound="upper")
    assert claims.evaluate(safe).finding == "" and claims.evaluate(safe).status == "reproduced"
    low = claims.Claim("x-low", "kazan", "", "", 0.48, lambda: 0.4751, atol=0.005, bound="lower")
    assert claims.evaluate(low).finding == "unsafe-rounding" and claims.evaluate(low).status == "discrepancy"
    far = claims.Claim("x-far", "kazan", "", "", 0.48, lambda: 0.40, atol=0.005, bound="lower")
    assert claims.evaluate(far).status == "discrepancy" and claims.evaluate(far).finding == ""


@pytest.mark.parametrize("claim", ALL, ids=[c.id for c in ALL])
def test_claim_points_to_a_chapter_in_the_book(claim):
    assert claim.chapter in book.docnames(), f"{claim.id}: chapter {claim.chapter!r} is not in _toc.yml"


def test_matches_respects_tolerance():
    assert claims.matches(0.46, 0.4649, atol=0.005)
    assert not claims.matches(0.46, 0.4651, atol=0.005)
    assert claims.matches(100, 101, rtol=0.01)
    assert claims.matches(True, True) and not claims.matches(True, False)


def test_claim_rejects_bad_fields():
    with pytest.raises(ValueError, match="paper"):
        claims.Claim("x", "nobody", "", "", 1.0, lambda: 1.0)
    with pytest.raises(ValueError, match="expected"):
        claims.Claim("x", "kazan", "", "", 1.0, lambda: 1.0, expected="maybe")
    with pytest.raises(ValueError, match="finding"):
        claims.Claim("x", "kazan", "", "", 1.0, lambda: 1.0, finding="oops")
    with pytest.raises(ValueError, match="bound"):
        claims.Claim("x", "kazan", "", "", 1.0, lambda: 1.0, bound="sideways")


def test_json_rows_list_every_claim_with_status_evidence_and_domain():
    """The rows `python -m dpsemantics.claims --json` prints (Result.to_dict, in process: the searches are cached, so
    the whole registry is not evaluated a second time in a subprocess; the CLI itself is run on one paper below)."""
    rows = json.loads(json.dumps([claims.evaluate(c).to_dict() for c in ALL]))
    assert {r["id"] for r in rows} == {c.id for c in ALL}
    assert all(r["status"] in claims.STATUSES for r in rows)
    relations = [r for r in rows if r["printed"] is True]
    assert all(r["evidence"] in claims.EVIDENCE and r["domain"] and r["certificate"] for r in relations)
    # a certificate computed at finitely many parameter values says so (issue 35): the Table 1 LPs at four e^ε
    by_id = {r["id"]: r for r in relations}
    table1 = by_id["tsd-table1-def2-attack"]
    assert table1["evidence"] == "certified-at-points" and table1["scope"] == "listed values"
    assert table1["points"] == ["e^ε = 11/10", "e^ε = 3/2", "e^ε = 2", "e^ε = 5"]
    assert table1["certified_by"] == "certified-lp"
    whole = by_id["lecture-def4.1-equivalent-forms"]
    assert whole["evidence"] in claims.CERTIFIED and whole["scope"] == "whole domain" and whole["points"] == []
    # the kind and the scope say the same thing; a certified verdict that does not hold is a counterexample
    scope_of = {"certified-lp": "whole domain", "certified-interval": "whole domain",
                "certified-at-points": "listed values", "counterexample": "counterexample",
                "closed-form": "cases tried", "search": "cases tried"}
    assert all(r["scope"] == scope_of[r["evidence"]] for r in relations)
    assert all(r["points"] for r in relations if r["evidence"] == "certified-at-points")
    assert all(r["evidence"] in ("certified-at-points", "counterexample") for r in relations if r["points"])
    assert all(r["evidence"] == "counterexample" for r in relations
               if r["certified_by"] and r["computed"] is False and r["status"] != "not-checked")
    assert all(r["vacuous"] >= 0 and (r["cases"] > 0) == (r["status"] != "not-checked") for r in relations)


def test_cli_table_and_paper_filter():
    out = subprocess.run([sys.executable, "-m", "dpsemantics.claims", "--paper", "lecture"], capture_output=True,
                         text=True, check=True)
    assert ("lecture-s5-pure-composition" in out.stdout and "certified-lp" in out.stdout
            and "certified on their whole stated domain" in out.stdout and "exact at listed" in out.stdout)
    js = subprocess.run([sys.executable, "-m", "dpsemantics.claims", "--paper", "lecture", "--json"],
                        capture_output=True,
                        text=True, check=True)
    rows = json.loads(js.stdout)
    assert {r["id"] for r in rows} == {c.id for c in claims.registry("lecture")}
    assert {r["evidence"] for r in rows if r["printed"] is True} >= {"certified-lp", "search"}
    bad = subprocess.run([sys.executable, "-m", "dpsemantics.claims", "--paper", "nobody"], capture_output=True,
                         text=True)
    assert bad.returncode != 0 and "nobody" in bad.stderr


def test_evidence_kind_says_what_was_proved():
    """Issue 35: a certificate keeps a proof's kind only on the whole domain and only while it holds; with points it
    is certified-at-points, refuted it is a counterexample; the method stays in certified_by."""
    from dataclasses import replace

    whole = claims.Verdict.of([0.5, 1.0], [1.0, 1.0], evidence="certified-lp", domain="every e^ε > 1")
    assert whole.kind == "certified-lp" and whole.certified and whole.scope == "whole domain" and whole.points == ()
    at = claims.Verdict.of([0.5, 1.0], [1.0, 1.0], evidence="certified-lp", points=["e^ε = 2", "e^ε = 3"],
                           domain="every mechanism with 3 outputs")
    assert at.kind == "certified-at-points" and at.exact and not at.certified and at.certified_by == "certified-lp"
    assert at.points == ("e^ε = 2", "e^ε = 3") and at.scope == "listed values"
    for v in (claims.Verdict.of([0.5, 1.0], [1.0, 1.0], evidence="certified-interval", tighten=0.99),
              claims.Verdict.of([0.5, 1.0], [1.0, 1.0], evidence="certified-lp", tighten=0.99, points=["ε = 1"])):
        assert v.kind == "counterexample" and not v.certified and v.scope == "counterexample" and v.certified_by
    # transitional: a domain that lists values and no points given
    listed = claims.Verdict.of([1.0], [1.0], evidence="certified-interval", domain="b ∈ [0, 1] at ε ∈ {0.1, 0.5}")
    assert listed.kind == "certified-at-points" and listed.points == ("ε ∈ {0.1, 0.5}",)
    # replace() keeps the points (never a silent promotion to the whole domain) unless told points=()
    assert replace(listed, evidence=("certified-interval",), domain="every ε > 0").kind == "certified-at-points"
    assert replace(listed, evidence=("certified-interval",), domain="every ε > 0", points=()).certified
    assert replace(whole, evidence=("closed-form",)).certified_by == ""  # no certificate: no method
    with pytest.raises(ValueError, match="points"):
        replace(listed, domain="every ε > 0", points=())  # still labelled at points, but no point named
    for kind in ("certified-at-points", "counterexample"):
        with pytest.raises(ValueError, match="evidence"):
            claims.Verdict.of([1.0], [1.0], evidence=kind)
    assert claims.Verdict.of([1.0], [1.0], evidence="extremal").points == ()


def test_interval_proof_proves_a_true_inequality_and_refutes_a_false_one():
    from mpmath import iv

    from dpsemantics.claims.certify import prove_nonnegative

    ok = prove_nonnegative(lambda x, y: iv.exp(x + y) - 1 - x - y, [(-1.0, 1.0), (-0.5, 2.0)],)
    assert not ok.proved  # e^t − 1 − t touches 0 along x + y = 0: undecided boxes are reported, not passed
    shifted = prove_nonnegative(lambda x: iv.exp(x) - x, [(-3.0, 3.0)])
    assert shifted.proved and shifted.boxes >= 1
    bad = prove_nonnegative(lambda x: iv.mpf(0.2) - x * x, [(0.0, 1.0)])
    assert not bad.proved and bad.value_at_midpoint < 0  # a counterexample, with its box
    anchored = prove_nonnegative(lambda x: x - iv.sin(x), [(0.0, 2.0)], dh=lambda x: 1 - iv.cos(x), anchor=0.0)
    assert anchored.proved
    with pytest.raises(ValueError, match="box"):
        prove_nonnegative(lambda x: x, [(1.0, 0.0)])


def test_lp_upper_bound_is_exact_and_valid_whatever_the_dual():
    from fractions import Fraction as F

    from dpsemantics.claims.certify import lp_upper_bound

    # max x + y s.t. x + 2y ≤ 4, 3x + y ≤ 6, 0 ≤ x, y ≤ 10: optimum 14/5 at (8/5, 6/5)
    cert = lp_upper_bound([F(1), F(1)], [[F(1), F(2)], [F(3), F(1)]], [F(4), F(6)], [], [], [F(10), F(10)])
    assert cert.bound == F(14, 5) and abs(cert.primal - 2.8) < 1e-9 and cert.size == (2, 2, 0)


def test_relations_report_certified_fraction_and_certificates():
    """Every relation names one evidence kind and a domain; those with an exact certificate (on the whole domain, at
    listed points, or a counterexample) carry a reproducible one that names its method."""
    results = [claims.evaluate(c) for c in RELATIONS]
    exact = [r for r in results if r.verdict.exact]
    # issue 20's target: at least 60 % of the printed relations rest on an exact certificate (issue 35: of any scope)
    assert len(exact) >= 0.6 * len(results), f"only {len(exact)} of {len(results)} relations exact"
    for r in exact:
        assert r.verdict.certificate and r.verdict.domain and r.status in ("reproduced", "discrepancy")
        # an interval certificate counts its boxes, or says that every check is an exact identity (no box needed)
        if r.verdict.certified_by == "certified-interval":
            assert re.search(r"\bbox(es)?\b|≡ 0 in exact rationals", r.verdict.certificate), r.verdict.certificate
        assert ("LPs" in r.verdict.certificate) == (r.verdict.certified_by == "certified-lp"), r.claim.id


TSD_SEARCHES = [c for c in RELATIONS if c.paper == "tsd"]


@pytest.mark.parametrize("claim", TSD_SEARCHES, ids=[c.id for c in TSD_SEARCHES])
def test_search_states_its_supremum_and_a_second_optimiser_that_does_not_beat_it(claim):
    """Issue 20: a relation left to search records the known supremum (with its source), reaches ≥ 0.99 of it, and
    names a second, different optimiser that finds no larger ratio — or says why there is none."""
    v = claims.evaluate(claim).verdict
    if v.kind != "search":
        return
    assert v.second, f"{claim.id}: a search must name a second optimiser or say why there is none"
    if v.second_best is None:
        assert v.second.startswith("none: ")
    else:
        assert v.second_best <= v.margin * (1 + claims.VERDICT_RTOL)
    if claim.expected == "reproduced" and v.supremum is not None:
        assert v.supremum_from and v.supremum_ratio >= 0.99
    row = claims.evaluate(claim).to_dict()
    assert {"supremum", "supremum_from", "supremum_ratio", "second_optimiser", "second_best"} <= set(row)


def test_a_supremum_is_non_negative_and_its_ratio_is_the_margin_over_it():
    v = claims.Verdict.of([0.5, 0.99], [1.0, 1.0], evidence="random-search", supremum=1.0, supremum_from="a witness")
    assert v.supremum_ratio == pytest.approx(0.99)
    with pytest.raises(ValueError, match="supremum"):
        claims.Verdict.of([0.5], [1.0], evidence="random-search", supremum=-1.0, supremum_from="nowhere")
