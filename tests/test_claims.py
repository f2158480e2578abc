"""The claims registry: every claim evaluates, has the expected status, and points into the book."""

import json
import subprocess
import sys

import pytest

from dpsemantics import book, claims

ALL = claims.registry()


def test_registry_is_not_empty_and_ids_unique():
    assert ALL, "no claims registered"
    ids = [c.id for c in ALL]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("claim", ALL, ids=[c.id for c in ALL])
def test_claim_status_is_as_expected(claim):
    result = claims.evaluate(claim)
    assert result.status == claim.expected, (
        f"{claim.id}: printed {claim.printed!r}, computed {result.computed!r}, status {result.status}, "
        f"expected {claim.expected}"
    )
    if claim.expected == "discrepancy":
        assert claim.note, f"{claim.id}: a discrepancy needs a note explaining its cause"


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


def test_cli_json_lists_every_claim_with_status():
    out = subprocess.run([sys.executable, "-m", "dpsemantics.claims", "--json"], capture_output=True, text=True, check=True)
    rows = json.loads(out.stdout)
    assert {r["id"] for r in rows} == {c.id for c in ALL}
    assert all(r["status"] in ("reproduced", "discrepancy") for r in rows)


def test_cli_table_and_paper_filter():
    out = subprocess.run([sys.executable, "-m", "dpsemantics.claims", "--paper", "lecture"], capture_output=True, text=True, check=True)
    assert "lecture-s5-pure-composition" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "dpsemantics.claims", "--paper", "nobody"], capture_output=True, text=True)
    assert bad.returncode != 0 and "nobody" in bad.stderr
