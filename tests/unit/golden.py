"""The golden-section search of :mod:`_support.golden`, under the name that tests/unit/test_safe_direction.py
imports (``from golden import golden_section``) until that file moves beside its module."""

from _support.golden import golden_section  # noqa: F401
