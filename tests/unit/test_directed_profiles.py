"""Profiles and losses that decide a guarantee are on the safe side of the exact value, and bad input is named.

References are mpmath at 60 digits written from the papers' formulas, without the package; each test asserts the
direction (never below the exact value) and that the allowance is small.
"""

from __future__ import annotations

import pytest

from dpsemantics.privacy_loss import PrivacyLoss


@pytest.mark.parametrize("eps, d", [(5e-324, 3), (5e-324, 2), (1e-323, 10**6)])
def test_geometric_refuses_an_eps_whose_quotient_underflows_with_the_callers_value(eps, d):
    # before: "eps must be > 0 (got eps=0.0)", the value of ε/Δ inside the pmf, not the caller's
    with pytest.raises(ValueError, match=rf"eps.*sensitivity={d}.*got eps={eps!r}\)"):
        PrivacyLoss.geometric(eps, d)
    assert PrivacyLoss.geometric(eps, 1).pdp_delta(0.0) > 0  # Δ = 1 needs no quotient: accepted
