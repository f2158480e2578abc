"""The package's two errors, both :class:`ValueError` (plain Python, importable before NumPy):

* :class:`ParameterError`: an argument refused; ``parameter`` names it, so that a caller (the release report)
  reads the field from the error, never from its message;
* :class:`NumericalLimit`: a valid question that a computation cannot answer within its range (no ε up to the
  search's ceiling, a value beyond the float range).  A caller with a coarser valid answer (a release's basic
  composition) falls back on this error, and on no other ``ValueError``: a bug stays a bug.
"""

from __future__ import annotations

__all__ = ["ParameterError", "NumericalLimit"]


class ParameterError(ValueError):
    """The package's refusal of an argument: ``parameter`` names the argument, ``reason`` says what is wrong with
    it (``"must be > 0 (got eps=-1)"``).  The message is ``"<subject> <reason>"``, the subject being the parameter
    unless a sentence needs more (``"row 1 of M"``, ``"p and q"``)."""

    def __init__(self, parameter: str, reason: str, *, subject: str | None = None):
        self.parameter, self.reason = parameter, reason
        subject = parameter if subject is None else subject
        super().__init__(f"{subject} {reason}" if subject else reason)

    def __reduce__(self):  # pickled (by a process pool) with its attributes
        return _rebuild, (type(self), self.parameter, self.reason, str(self))


class NumericalLimit(ValueError):
    """A valid question beyond what the computation reaches (see the module's docstring)."""


def _rebuild(cls, parameter, reason, message):
    err = cls.__new__(cls)
    err.parameter, err.reason = parameter, reason
    ValueError.__init__(err, message)
    return err
