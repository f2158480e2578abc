"""The report prints every bound rounded outward at its last digit: read as a reader would, from report.md, each
upper bound is at least the value in report.json and each lower bound at most it.

A bound printed to four significant digits rounded to nearest is below the bound computed half of the time (an
upper posterior bound of 0.467849 as "46.78 %"), and the reader reads the printed digits.  The releases
are the gallery's published ones (the 2020 Census, Wikipedia's pageviews) and hand-made ones whose bounds fall
between printed digits; the parser below reads the Markdown and knows nothing of the renderer."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from dpsemantics.report.__main__ import main

SUPER = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def read_number(text: str) -> Fraction:
    """'46.79 %' → 0.4679, '8.204 × 10⁻⁵' → 8.204e-5, exactly (a Fraction), as printed."""
    text = text.strip()
    scale = Fraction(1, 100) if text.endswith("%") else Fraction(1)
    text = text.rstrip("%").strip().lstrip("+").replace("−", "-")
    if "× 10" in text:
        mantissa, exponent = text.split("× 10")
        return Fraction(mantissa.strip()) * Fraction(10) ** int(exponent.translate(SUPER)) * scale
    return Fraction(text) * scale


def table(md: str, header: str) -> list[list[str]]:
    lines = md.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header}"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def upper_ok(cell: str, value) -> bool:
    if value is None:
        return cell in ("no guarantee at this level", "unavailable")
    if cell == "above 99.99 %":
        return value >= 0.9999
    if cell == "below 0.01 %":
        return value < 1e-4
    return read_number(cell) >= Fraction(value)


def lower_ok(cell: str, value) -> bool:
    if cell in ("no guarantee at this level", "below 0.01 %"):
        return True
    if cell == "above 99.99 %":
        return value >= 0.9999
    return read_number(cell) <= Fraction(value)


RELEASES = [
    ["--release", "census-2020-pl94-persons"],
    ["--release", "wikipedia-pageviews-historical"],
    ["--mechanism", "dp", "--epsilon", "1.1", "--delta", "1e-7",
     "--prior", "0.013", "--prior", "0.21", "--prior", "0.5"],
    ["--mechanism", "zcdp", "--rho", "0.0371", "--prior", "0.001", "--prior", "0.05", "--prior", "0.333"],
]


@pytest.mark.parametrize("argv", RELEASES, ids=[" ".join(a[:4]) for a in RELEASES])
def test_printed_bounds_are_rounded_outward(argv, tmp_path, capsys):
    assert main([*argv, "--output", str(tmp_path / "r")]) == 0
    capsys.readouterr()
    rep = json.loads((tmp_path / "r" / "report.json").read_text())
    md = (tmp_path / "r" / "report.md").read_text()
    always = bool(rep.get("always"))  # a pure release has an "always" column before the three routes
    rows = table(md, "prior | always" if always else "prior | single point")
    assert len(rows) == len(rep["disclosure"])
    checked = 0
    for cells, d in zip(rows, rep["disclosure"]):
        if always:
            assert upper_ok(cells[1], d["posterior_always"]), (argv, cells[1], d["posterior_always"])
            cells = cells[:1] + cells[2:]
        for cell, key in zip(cells[1:4], ("single_point", "best_point", "exact")):
            assert upper_ok(cell, d["posterior_upper"][key]), (argv, key, cell, d["posterior_upper"][key])
            checked += 1
        assert lower_ok(cells[4], d["posterior_lower"]), (argv, cells[4], d["posterior_lower"])
        if cells[5].startswith("["):
            low, high = cells[5].strip("[]").split(",")
            assert read_number(low) <= Fraction(d["ratio"]["low"])
            assert read_number(high) >= Fraction(d["ratio"]["high"])
        down, up = cells[6].split("…")
        assert -read_number(down) >= Fraction(-d["difference"]["down"])
        assert read_number(up) >= Fraction(d["difference"]["up"])
        checked += 3
    assert checked >= 6 * len(rows)
    # the ε′ of the single and best points, as printed in the paragraph under the table
    for key, label in (("single_point", "Single point"), ("best_point", "Best point")):
        value = rep["eps_prime"][key]
        if value is None:
            continue
        match = re.search(label + r"[^\n]*?ε′ = ([0-9.]+(?: × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?)", md)
        assert match and read_number(match.group(1)) >= Fraction(value), (argv, key, match and match.group(1), value)
