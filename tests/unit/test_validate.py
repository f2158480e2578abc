"""The shared validators: every rejection names the parameter and the value."""

import numpy as np
import pytest

from dpsemantics import _validate as v


@pytest.mark.parametrize(
    "call, pattern",
    [
        (lambda: v.check_epsilon(-0.1), r"eps must be >= 0 \(got eps=-0.1\)"),
        (lambda: v.check_epsilon(float("nan")), r"eps must not be NaN"),
        (lambda: v.check_epsilon(np.inf), r"eps must be finite"),
        (lambda: v.check_epsilon("one"), r"eps must be a real number"),
        (lambda: v.check_positive(0.0, "rho"), r"rho must be > 0 \(got rho=0.0\)"),
        (lambda: v.check_delta(1.5), r"delta must be in \[0, 1\] \(got delta=1.5\)"),
        (lambda: v.check_probability(0.0, "prior", open_low=True), r"prior must be in \(0, 1\]"),
        (lambda: v.check_probability([0.2, 1.0], "prior", open_high=True),
         r"prior must be in \[0, 1\) \(got prior=1.0\)"),
        (lambda: v.check_positive_int(0, "k"), r"k must be a whole number >= 1 \(got k=0\)"),
        (lambda: v.check_positive_int(2.5, "k"), r"k must be a whole number"),
        (lambda: v.check_positive_int(True, "k"), r"k must be a whole number"),
        (lambda: v.check_distribution([0.5, 0.6], "belief"), r"belief must sum to 1"),
        (lambda: v.check_distribution([[0.5, 0.5]], "belief"), r"belief must be a non-empty 1-D array"),
        (lambda: v.check_distribution([1.5, -0.5], "belief"), r"belief must have entries in \[0, 1\]"),
        (lambda: v.check_row_stochastic([[0.5, 0.5], [0.2, 0.7]], "M"), r"row 1 of M must sum to 1"),
    ],
)
def test_rejections_name_parameter_and_value(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call()


def test_accepts_valid_input_and_keeps_shape():
    assert v.check_epsilon(0.5) == 0.5
    assert v.check_epsilon(np.inf, allow_inf=True) == np.inf
    assert v.check_positive_int(3.0, "k") == 3
    np.testing.assert_array_equal(v.check_delta([0.0, 1.0]), [0.0, 1.0])
    np.testing.assert_allclose(v.check_row_stochastic([[0.25, 0.75]]), [[0.25, 0.75]])
