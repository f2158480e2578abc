"""The shared validators: every rejection names the parameter and the value."""

import numpy as np
import pytest

from dpsemantics import _validate as v
from dpsemantics import disclosure as D
from dpsemantics import notions as N
from dpsemantics.privacy_loss import PrivacyLoss


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


@pytest.mark.parametrize(
    "call, pattern",
    [
        (lambda: D.dp_epsilon_for_pdp(np.linspace(1, 2, 2000), 0.1, np.linspace(0.05, 0.9, 2000)),
         r"delta_prime must exceed delta \(got delta_prime=0.05, delta=0.1 at index \(0,\)\)"),
        (lambda: D.epsilon_for_ratio(np.r_[np.full(999, 2.0), 0.5], 0.1, 0.5),
         r"max_ratio must be finite and > 1 \(got max_ratio=0.5 at index \(999,\)\)"),
        (lambda: D.epsilon_for_posterior(0.3, np.r_[np.full(10, 0.5), 0.3], 0.0, 0.1),
         r"max_posterior=0.3, prior=0.3 at index \(10,\)"),
        (lambda: N.ks_converse_level(np.linspace(0, 3, 1000)), r"eps=1.35135.* at index \(450,\)"),
        (lambda: N.scaled_posterior_ratio(np.linspace(3, 0, 1000), 0.3), r"alpha must be finite and >= 1"),
        (lambda: D.posterior_interval_probability(0.3, np.full(500, 0.6), np.linspace(0.9, 0.1, 500),
                                                  PrivacyLoss.laplace(1.0)), r"low=0.6, high=0.5"),
    ],
)
def test_a_relation_between_arrays_is_refused_at_its_first_bad_entry(call, pattern):
    """An error about one entry of a long array shows that entry and its index, not the arrays (the messages had
    printed numpy's summarised repr of both, with neither the offending entry nor where it was)."""
    with pytest.raises(ValueError, match=pattern) as err:
        call()
    assert len(str(err.value)) < 200 and "array(" not in str(err.value)


@pytest.mark.parametrize(
    "call, parameter, reason",
    [
        (lambda: v.check_epsilon(-0.1, "epsilon"), "epsilon", "must be >= 0 (got epsilon=-0.1)"),
        (lambda: v.check_positive_int(0, "k"), "k", "must be a whole number >= 1 (got k=0)"),
        (lambda: v.check_row_stochastic([[0.5, 0.5], [0.2, 0.7]], "M"), "M", None),
        (lambda: v.check_distribution_pair([1.0], [0.5, 0.5]), "q", "must have the same number of outputs (got 1 "
                                                                   "and 2)"),
        (lambda: N.scaled_posterior_ratio(np.linspace(3, 0, 5), 0.3), "alpha", None),
        (lambda: v.broadcast(a=np.zeros(2), b=np.zeros(3)), "a", None),
    ],
)
def test_refusals_carry_their_parameter(call, parameter, reason):
    """The package's refusal is a ValueError whose ``parameter`` attribute names the argument and whose ``reason`` is
    the message after the subject: a caller reads the field from the error, not from the text."""
    with pytest.raises(v.ParameterError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert info.value.parameter == parameter
    if reason is not None:
        assert info.value.reason == reason
    assert str(info.value).endswith(info.value.reason)


def test_parameter_error_survives_pickling():
    import pickle

    err = v.ParameterError("rho", "must be > 0 (got rho=0)", subject="the total rho")
    back = pickle.loads(pickle.dumps(err))
    assert (type(back), back.parameter, back.reason, str(back)) == (v.ParameterError, "rho", err.reason, str(err))
