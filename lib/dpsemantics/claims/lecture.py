"""Claims of Lecture 1 (Brown, scribe Choudhary): the few statements it makes that can be computed."""

import numpy as np

from .. import indistinguishability as ind
from .. import mechanisms as mech
from . import Claim

CHAPTER = "book/intro"


def _two_pure_mechanisms_compose_to_sum():
    """Two ε-DP mechanisms run on the same data: the exact ε of the pair (randomized response, ε = 0.5)."""
    rr = mech.randomized_response(0.5)
    return rr.compose(rr).epsilon()


def _event_form_equals_indistinguishability_form():
    """Definition 1.1 (every event, every ordered adjacent pair) and Definition 4.1 give the same δ(ε)
    on a finite mechanism: the geometric count on {0,1}^3 at several ε."""
    geo = mech.geometric_count(3, 0.7)
    pairs = geo.adjacent_pairs()
    for eps in (0.0, 0.2, 0.5, 0.7):
        event_form = max(ind.smallest_delta_over_events(geo.matrix[i], geo.matrix[j], eps) for i, j in pairs)
        if abs(event_form - geo.delta(eps)) > 1e-12:
            return False
    return True


def _exp_close_to_linear_at_small_eps():
    """Relative gap between e^ε and 1 + ε at ε = 0.1 (the lecture's 'ε of order 0.1')."""
    return float((np.exp(0.1) - 1.1) / np.exp(0.1))


CLAIMS = [
    Claim(
        id="lecture-s5-pure-composition",
        paper="lecture",
        where="§5, composition of exponentials",
        statement="Running two ε-DP algorithms (here ε = 0.5) yields a 2ε-DP algorithm",
        printed=1.0,
        compute=_two_pure_mechanisms_compose_to_sum,
        atol=1e-12,
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-def4.1-equivalent-forms",
        paper="lecture",
        where="Definitions 1.1 and 4.1",
        statement="The event form and the indistinguishability form of (ε, δ)-DP define the same δ(ε)",
        printed=True,
        compute=_event_form_equals_indistinguishability_form,
        chapter=CHAPTER,
    ),
    Claim(
        id="lecture-s5-exp-linear",
        paper="lecture",
        where="§5, e^ε ≈ 1 + ε",
        statement="At ε = 0.1 the linear reading 1 + ε is within 0.5% of e^ε",
        printed=0.0,
        compute=_exp_close_to_linear_at_small_eps,
        atol=0.005,
        note="The lecture writes the approximation without a size; we state it at the lecture's typical ε = 0.1.",
        chapter=CHAPTER,
    ),
]
