"""The mechanism protocol (``dpsemantics.releases.Mechanism``), checked on every registered mechanism.

Every class a release may name (``releases.FROM_FIELDS``, filled by the classes' declarations) must:

* declare complete fields (name, symbol, help, a domain the report can state) and a valid ``example``;
* give a δ(ε) that is vectorised (an array of ε in, an array of δ out, equal to the calls one ε at a time), for
  one run and for several, through its own ``profile`` and through the composition's;
* with a privacy-loss law: give the law, its profile and its privacy-loss distribution, the profile equal to the
  default derived from the law and bracketed by the distribution's optimistic and pessimistic sides; without one,
  state a guarantee (pure ε, ρ or (ε, δ));
* refuse hostile field values with a ``ParameterError`` naming the field, both in ``from_fields`` and in the
  report's checks.

``test_a_profile_that_is_not_vectorised_is_refused`` feeds the vectorisation check a mechanism whose δ(ε) is
written with ``min()``, so that the check is seen to fail on what it is meant to catch.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpsemantics import releases
from dpsemantics.errors import ParameterError
from dpsemantics.report import fields as report_fields

MECHANISMS = sorted(releases.FROM_FIELDS.items())
IDS = [name for name, _ in MECHANISMS]
EPS = np.array([0.0, 0.05, 0.3, 1.0, 2.5, 7.0])


def example(cls):
    return cls.from_fields(**cls.example)


def assert_vectorised(fn, eps=EPS, label="δ(ε)"):
    """``fn`` maps an array of ε to an array of the same shape, equal to ``fn`` at each ε alone."""
    try:
        whole = np.asarray(fn(eps), dtype=float)
    except Exception as err:  # noqa: BLE001 - any failure on an array is the finding
        raise AssertionError(f"{label} is not vectorised: an array of ε raised {type(err).__name__}: {err}") from None
    assert whole.shape == eps.shape, f"{label} gave shape {whole.shape} for ε of shape {eps.shape}"
    one_by_one = np.array([float(fn(float(e))) for e in eps])
    np.testing.assert_allclose(whole, one_by_one, rtol=1e-12, atol=0.0, err_msg=label)
    assert np.all((whole >= 0) & (whole <= 1)), f"{label} left [0, 1]: {whole}"


@pytest.mark.parametrize("name, cls", MECHANISMS, ids=IDS)
def test_fields_are_declared_completely(name, cls):
    assert cls.name == name and cls.title
    for f in cls.fields:
        assert f.symbol and f.help and f.range_text(), f
        assert f.rational in ("up", "down")
        assert f.name in report_fields.FIELDS and f.name in report_fields.SYMBOLS
        assert report_fields.MECHANISMS[name]["fields"][f.name] == f.domain()
    declared = {f.name for f in cls.fields}
    assert set(cls.example) <= declared
    assert {f.name for f in cls.fields if f.required} <= set(cls.example)
    assert set(cls.together) | set(cls.either) | ({cls.alone} - {None}) <= declared
    m = example(cls)
    assert isinstance(m, releases.Mechanism) and m.name == name
    assert set(m.parameters()) <= set(report_fields.SYMBOLS)  # every parameter the report shows has a symbol
    # the release's checks accept the example too
    report_fields.validate({"mechanism": name, **cls.example})


@pytest.mark.parametrize("name, cls", MECHANISMS, ids=IDS)
@pytest.mark.parametrize("k", [1, 3])
def test_every_profile_is_vectorised(name, cls, k):
    m = example(cls)
    own = m.profile(k)
    if own is not None:
        assert_vectorised(own[0], label=f"{name}.profile({k})")
    composed = releases.Composed([(m, k)]).profile(2**12)
    assert composed is not None, f"{name}: no profile for {k} runs"
    assert_vectorised(composed[0], label=f"Composed([({name}, {k})]).profile()")


def check_law(m, name):
    """A mechanism known by its guarantee states one and has no law of its own; one with a law gives the law,
    its profile and its privacy-loss distribution, the profile equal to the default derived from the law and
    bracketed by the distribution's optimistic and pessimistic sides."""
    if m.guarantee_only:  # (it may have a privacy-loss distribution: its worst case's, as (ε, δ)-DP does)
        assert m.loss(1) is None
        assert (m.pure_epsilon(), m.rho(), m.stated_point()) != (None, None, None), f"{name} states no guarantee"
        return
    law = m.loss(1)
    assert law is not None, f"{name} has a law: it must give loss(1)"
    profile, pld = m.profile(1), m.pld(m.pld_step(1))
    assert profile is not None and pld is not None, f"{name} has a law: it must give profile(1) and pld(h)"
    exact = np.asarray(profile[0](EPS))
    # the default profile, derived from the law, gives the same values as any override
    np.testing.assert_allclose(np.asarray(releases.Mechanism.profile(m, 1)[0](EPS)), exact, rtol=1e-12, atol=1e-300)
    low, high = pld.delta_bounds(EPS)
    assert np.all(low <= exact * (1 + 1e-9) + 1e-12), (low, exact)
    assert np.all(exact <= high * (1 + 1e-9) + 1e-12), (exact, high)
    assert np.all(high - low <= 0.05), "the lattice at the advised step brackets the profile loosely"


@pytest.mark.parametrize("name, cls", MECHANISMS, ids=IDS)
def test_law_profile_and_pld_agree(name, cls):
    check_law(example(cls), name)


HOSTILE = [-1.0, 0.0, math.nan, math.inf, -math.inf, 10**400, "x", True, [1.0, 2.0], 2.5, 1.0]


def _refused(cls, f, value) -> bool:
    """Whether ``value`` lies outside ``f``'s declared domain (so that it must be refused)."""
    if isinstance(value, (str, bool, list)):
        return True
    if f.whole and isinstance(value, int):  # a whole number of any size is one (10**400 included)
        return value < f.low
    x = float(value) if not isinstance(value, int) or abs(value) < 10**300 else math.inf
    if not math.isfinite(x):
        return True
    if f.whole and not float(x).is_integer():
        return True
    below = x <= f.low if (f.low_open and not f.whole) else x < f.low
    above = x >= f.high if f.high_open else x > f.high
    return below or above


@pytest.mark.parametrize("name, cls", MECHANISMS, ids=IDS)
def test_hostile_fields_are_refused_naming_the_field(name, cls):
    tried = 0
    for f in cls.fields:
        base = {} if f.name == cls.alone else {k: v for k, v in cls.example.items() if k != cls.alone}
        if f.name in cls.together:
            base.update({other: cls.example.get(other, 1e-6 if other == "delta" else 0.5) for other in cls.together})
        for value in HOSTILE:
            if not _refused(cls, f, value):
                continue
            tried += 1
            with pytest.raises(ParameterError) as info:
                cls.from_fields(**{**base, f.name: value})
            assert info.value.parameter == f.name, (f.name, value, str(info.value))
            with pytest.raises(report_fields.ReleaseError) as info:
                report_fields.validate({"mechanism": name, **base, f.name: value})
            assert info.value.field == f.name, (f.name, value, str(info.value))
    assert tried >= 5 * len(cls.fields)


# ------------------------------------------------------------------ the checks catch what they are meant to


class _MinProfile(releases.Laplace):
    """The Laplace mechanism with its δ(ε) written with ``min()``: right at one ε, wrong on an array (not
    registered: it declares no fields of its own)."""

    def profile(self, k):
        return (lambda e: min(1.0, max(0.0, 1.0 - np.exp((e - self.eps) / 2))), "min()", "none")


def test_a_profile_that_is_not_vectorised_is_refused():
    broken = _MinProfile(1.0)
    assert "laplace" in releases.FROM_FIELDS and releases.FROM_FIELDS["laplace"] is releases.Laplace
    assert broken.profile(1)[0](0.5) == pytest.approx(releases.Laplace(1.0).profile(1)[0](0.5))  # right at one ε
    with pytest.raises(AssertionError, match="not vectorised"):
        assert_vectorised(broken.profile(1)[0])
    # and the composition does not read the failure as a numerical one (falling back on basic composition's ε′
    # without a word)
    with pytest.raises(ValueError, match="truth value"):
        releases.Composed([broken]).best_point(0.01)


def test_a_missing_pld_or_law_is_caught():
    """Removing a built-in mechanism's ``pld`` or ``loss`` fails :func:`check_law` (removing its ``profile`` leaves
    the default, which the same check holds equal to the law's profile)."""

    class _NoPld(releases.Laplace):
        def pld(self, h):
            return None

    class _NoLaw(releases.Laplace):
        def loss(self, k):
            return None

    for broken in (_NoPld(0.5), _NoLaw(0.5)):
        with pytest.raises(AssertionError, match="has a law"):
            check_law(broken, type(broken).__name__)
