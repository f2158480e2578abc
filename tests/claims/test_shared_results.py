"""Claims' results shared between processes (``SHARED_RESULTS_ENV``, which ``make test`` sets for its background
job: the strict build's chapters and report, then the student edition's report, each a new kernel): a claim is
evaluated once per source, by the first process that needs it, and read by the others; a different source
evaluates again; without the variable nothing is read or written."""

import pickle

from dpsemantics import claims

PAPER = "lecture"  # the paper whose claims evaluate fastest


def _rows(folder):
    return {row[0]: row for path in folder.glob("results-*.pickle") for row in pickle.loads(path.read_bytes())}


def test_without_the_variable_nothing_is_shared(tmp_path, monkeypatch):
    monkeypatch.delenv(claims.SHARED_RESULTS_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    claims.evaluate_all(PAPER)
    assert not list(tmp_path.rglob("*"))


def test_a_claim_is_evaluated_once_per_source(tmp_path, monkeypatch):
    monkeypatch.setenv(claims.SHARED_RESULTS_ENV, str(tmp_path))
    own = claims.registry(PAPER)
    first = claims.evaluate_all(PAPER)  # evaluates and writes
    assert [r.claim.id for r in first] == [c.id for c in own] and set(_rows(tmp_path)) == {c.id for c in own}
    assert [(r.status, r.computed) for r in first] == [(r.status, r.computed) for r in map(claims.evaluate, own)]

    # a second process reads: a result planted in the file is what it returns (nothing is evaluated again) ...
    (path,) = tmp_path.glob("results-*.pickle")
    rows = pickle.loads(path.read_bytes())
    planted = [(i, "planted", "not-checked", None) if i == own[0].id else (i, *rest) for i, *rest in rows]
    path.write_bytes(pickle.dumps(planted))
    again = claims.evaluate_all(PAPER)
    assert (again[0].computed, again[0].status) == ("planted", "not-checked") and again[0].claim is own[0]
    assert [(r.status, r.computed) for r in again[1:]] == [(r.status, r.computed) for r in first[1:]]
    assert len(list(tmp_path.glob("results-*.pickle"))) == 1  # nothing new to write

    # ... a claim missing from the files is evaluated and written beside them ...
    path.write_bytes(pickle.dumps(planted[:1]))
    mixed = claims.evaluate_all(PAPER)
    assert mixed[0].computed == "planted" and [r.status for r in mixed[1:]] == [r.status for r in first[1:]]
    assert len(list(tmp_path.glob("results-*.pickle"))) == 2

    # ... and another source is evaluated afresh
    monkeypatch.setattr(claims, "_source_digest", lambda: "another-source")
    assert [(r.status, r.computed) for r in claims.evaluate_all(PAPER)] == [(r.status, r.computed) for r in first]


def test_results_shared_by_another_process_are_read_not_evaluated(tmp_path, monkeypatch):
    """What ``make test``'s registry tests leave (:func:`claims.share_results`, one claim per call) is what the
    strict build's :func:`claims.evaluate_all` returns, and it evaluates nothing itself."""
    own = claims.registry(PAPER)
    for claim in own:
        claims.share_results(tmp_path, [claims.evaluate(claim)])
    assert set(_rows(tmp_path)) == {c.id for c in own} and len(list(tmp_path.glob("results-*.pickle"))) == len(own)
    monkeypatch.setenv(claims.SHARED_RESULTS_ENV, str(tmp_path))
    monkeypatch.setattr(claims, "evaluate", lambda claim: (_ for _ in ()).throw(AssertionError(claim.id)))
    read = claims.evaluate_all(PAPER)
    assert [r.claim.id for r in read] == [c.id for c in own]
    assert len(list(tmp_path.glob("results-*.pickle"))) == len(own)  # nothing written: nothing was evaluated
