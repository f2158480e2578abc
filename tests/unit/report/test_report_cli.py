"""The report's command line as a careful tool (issue 36): --compare at the union of the priors and its refusals,
a gallery entry's source not overridden silently, exact rationals, huge integers, --force only over an earlier
report, folders as readable as the umask says, empty names, implausible δ′, refusals before any computation."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from dpsemantics.report.__main__ import main


def run(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr()


def one_line_error(cap, field):
    lines = cap.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {field}: "), cap.err
    assert "Traceback" not in cap.err and "sys.set_int_max_str_digits" not in cap.err
    return lines[0]


# ------------------------------------------------------------------ --compare


def test_compare_reads_every_release_at_the_union_of_the_priors(tmp_path, capsys):
    a = tmp_path / "a.json"
    a.write_text(json.dumps({"mechanism": "zcdp", "rho": 0.1, "priors": [0.5]}))
    b = tmp_path / "b.json"
    b.write_text(json.dumps({"mechanism": "laplace", "epsilon": 1, "priors": [0.01, 0.2]}))
    out = tmp_path / "cmp"
    code, cap = run(["--compare", str(a), str(b), "--output", str(out)], capsys)
    assert code == 0, cap.err
    data = json.loads((out / "compare.json").read_text())
    assert data["priors"] == [0.01, 0.2, 0.5]
    for rep in data["reports"]:
        assert [row["prior"] for row in rep["disclosure"]] == [0.01, 0.2, 0.5]
    md = (out / "compare.md").read_text()
    assert "no guarantee" not in md  # both releases bound the posterior at every prior
    # the Laplace release (pure ε = 1) reaches p e/(p e + 1 − p) at most, on every output
    rows = [line for line in md.splitlines() if line.startswith("| b ")]
    assert rows and "73.11 %" in rows[0]


@pytest.mark.parametrize("flag", [["--neighbours", "bounded"], ["--horizon", "3"], ["--unit", "person"],
                                  ["--epsilon", "1"], ["--invariant", "x"], ["--name", "x"]])
def test_compare_refuses_flags_it_cannot_apply(flag, tmp_path, capsys):
    out = tmp_path / "cmp"
    code, cap = run(["--compare", "census-2020-pl94-units", "wikipedia-pageviews-historical", *flag,
                     "--output", str(out)], capsys)
    assert code == 2
    assert flag[0] in one_line_error(cap, "compare")
    assert not out.exists()


# ------------------------------------------------------------------ sources first


def test_gallery_neighbours_stated_by_the_source_are_not_overridden(tmp_path, capsys):
    out = tmp_path / "u"
    code, cap = run(["--release", "census-2020-pl94-units", "--neighbours", "unbounded", "--output", str(out)],
                    capsys)
    assert code == 2 and not out.exists()
    line = one_line_error(cap, "neighbours")
    assert "bounded neighbors" in line and "tot_hu" in line and "membership" in line


def test_gallery_parameter_changed_is_said_at_the_top(tmp_path, capsys):
    out = tmp_path / "u"
    code, cap = run(["--release", "census-2020-pl94-units", "--rho", "1", "--output", str(out)], capsys)
    assert code == 0 and "warning:" in cap.err
    md = (out / "report.md").read_text()
    assert md.index("## Read this first") < md.index("## Headline")
    assert "not the published release" in md


# ------------------------------------------------------------------ numbers


def test_exact_rational_accepted_in_from_and_rounded_to_the_safe_side(tmp_path, capsys):
    src = tmp_path / "r.json"
    src.write_text(json.dumps({"mechanism": "zcdp", "rho": "11417641/152349649", "priors": ["1/2"],
                               "horizon": 1}))
    code, cap = run(["--from", str(src), "--output", str(tmp_path / "o")], capsys)
    assert code == 0, cap.err
    rep = json.loads((tmp_path / "o" / "report.json").read_text())
    from fractions import Fraction

    rho = rep["release"]["mechanisms"][0]["rho"]
    assert Fraction(rho) >= Fraction(11417641, 152349649) and rho == pytest.approx(11417641 / 152349649, rel=1e-15)
    assert rep["release"]["priors"] == [0.5]


@pytest.mark.parametrize("text", ['{"mechanism": "laplace", "epsilon": 1%s}' % (", \"k\": " + "1" * 5001),
                                  '{"mechanism": "zcdp", "rho": "1/%s"}' % ("7" * 5001)])
def test_a_5001_digit_number_is_one_line(text, tmp_path, capsys):
    src = tmp_path / "r.json"
    src.write_text(text)
    code, cap = run(["--from", str(src), "--output", str(tmp_path / "o")], capsys)
    assert code == 2
    assert "digits" in cap.err and len(cap.err.strip().splitlines()) == 1 and "int_max_str" not in cap.err


@pytest.mark.parametrize("bad", ['"1/0"', '"abc"', '"-1/2"', '"1.5/2"'])
def test_bad_rationals_are_refused(bad, tmp_path, capsys):
    src = tmp_path / "r.json"
    src.write_text('{"mechanism": "zcdp", "rho": %s}' % bad)
    code, cap = run(["--from", str(src), "--output", str(tmp_path / "o")], capsys)
    assert code == 2 and one_line_error(cap, "rho")


def test_empty_name_refused(tmp_path, capsys):
    code, cap = run(["--mechanism", "laplace", "--epsilon", "1", "--name", "", "--output", str(tmp_path / "o")],
                    capsys)
    assert code == 2 and one_line_error(cap, "name")


def test_implausible_delta_prime_is_said_at_the_top(tmp_path, capsys):
    code, cap = run(["--mechanism", "zcdp", "--rho", "0.1", "--delta-prime", "0.5", "--horizon", "1", "--output",
                     str(tmp_path / "o")], capsys)
    assert code == 0 and "warning: δ′ = 0.5" in cap.err
    md = (tmp_path / "o" / "report.md").read_text()
    assert md.index("## Read this first") < md.index("## Headline") and "δ′ = 0.5" in md


# ------------------------------------------------------------------ files


def test_force_replaces_only_an_earlier_report(tmp_path, capsys):
    folder = tmp_path / "thesis"
    (folder / "sub").mkdir(parents=True)
    (folder / "precious.txt").write_text("keep")
    (folder / "sub" / "thesis.tex").write_text("keep")
    argv = ["--mechanism", "laplace", "--epsilon", "1", "--horizon", "1", "--output", str(folder), "--force"]
    code, cap = run(argv, capsys)
    assert code == 2 and str(folder) in one_line_error(cap, "output")
    assert (folder / "precious.txt").read_text() == "keep" and (folder / "sub" / "thesis.tex").read_text() == "keep"
    # a report folder carries the marker, so a second --force replaces it
    report = tmp_path / "rep"
    assert run(argv[:-3] + ["--output", str(report)], capsys)[0] == 0
    assert (report / ".dpsemantics-report").is_file()
    assert run(argv[:-3] + ["--output", str(report), "--force"], capsys)[0] == 0


def test_report_folder_mode_follows_the_umask(tmp_path, capsys):
    old = os.umask(0o022)
    try:
        assert run(["--mechanism", "laplace", "--epsilon", "1", "--horizon", "1", "--output", str(tmp_path / "o")],
                   capsys)[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "o").stat().st_mode) == 0o755


@pytest.mark.parametrize("argv, field", [
    (["--mechanism", "dp", "--epsilon", "1", "--delta", "0.02", "--k", "1000000"], "delta_prime"),
    (["--mechanism", "laplace", "--epsilon", "0.1", "--k", "10000000", "--output", "/proc/x"], "output"),
    (["--mechanism", "gaussian", "--sigma", "3", "--k", "10000000", "--output", "/proc/x"], "output"),
])
def test_refusals_come_before_any_computation(argv, field, capsys, tmp_path):
    if "--output" not in argv:
        argv = argv + ["--output", str(tmp_path / "o")]
    start = time.perf_counter()
    code, cap = run(argv, capsys)
    assert code == 2 and one_line_error(cap, field)
    assert time.perf_counter() - start < 2.0  # a composition of 10⁶–10⁷ runs would take far longer
    assert not Path(tmp_path / "o").exists()


# ------------------------------------------------------------------ the page a director reads


def test_prior_figure_axes_are_chosen_from_the_release(tmp_path, capsys):
    """The Census persons release bounds the posterior above 99 % from the prior 0.01 on: on a linear prior axis
    every curve is flat at 1.  The axis must show where the bound moves."""
    out = tmp_path / "p"
    assert run(["--release", "census-2020-pl94-persons", "--output", str(out)], capsys)[0] == 0
    curve = json.loads((out / "report.json").read_text())["posterior_curve"]
    ys = [y for y in curve["best_point"] if y is not None]
    assert min(ys) < 0.05 and max(ys) > 0.95, (min(ys), max(ys))


GALLERY = ["census-2020-pl94-persons", "census-2020-pl94-units", "census-2020-pl94-pr-persons",
           "census-2020-pl94-pr-units", "wikipedia-pageviews-current", "wikipedia-pageviews-historical",
           "microsoft-us-broadband-zip", "israel-live-births-2014", "wikimedia-geoeditors-monthly"]


@pytest.mark.parametrize("name", GALLERY)
def test_every_gallery_entry_has_a_summary_before_the_theory(name, tmp_path, capsys):
    out = tmp_path / name
    code, cap = run(["--release", name, "--horizon", "1", "--output", str(out)], capsys)
    assert code == 0, cap.err
    md = (out / "report.md").read_text()
    entry = json.loads((Path(__file__).resolve().parents[3] / "lib/dpsemantics/report/gallery.json").read_text())[
        "releases"][name]
    summary = md.index("## Summary for decision-makers")
    assert summary < md.index("## What the guarantee is about") < md.index("## Disclosure risk")
    text = md[summary:].split("\n## ", 1)[0]
    assert "Who is protected: " + entry["release"]["unit"] in text
    assert "Against what: " in text and "Published exactly, outside the guarantee: " in text
    assert "The publisher's own figures: " in text
    for inv in entry["release"].get("invariants", []):
        assert inv in text
    # every source is quoted with its address
    for src in entry["sources"]:
        assert f"“{src['sentence']}”" in md and src["url"] in md
    # "best point route" is method-section wording, not the headline's
    head = md.split("## Headline", 1)[1].split("\n## ", 1)[0]
    assert "route" not in head and "best point" not in head


def test_census_summary_reconciles_the_publishers_epsilon_and_shows_finer_readings(tmp_path, capsys):
    out = tmp_path / "prp"
    assert run(["--release", "census-2020-pl94-pr-persons", "--horizon", "1", "--output", str(out)], capsys)[0] == 0
    md = (out / "report.md").read_text()
    text = md.split("## Summary for decision-makers", 1)[1].split("\n## ", 1)[0]
    assert "ε = 17.14, δ = 1 × 10⁻¹⁰" in text and "Both describe the same release" in text
    # one ε′ on the page: the summary's is the one the method section prints
    import re

    ours = re.search(r"this report: ε′ = ([0-9.]+) at δ′", text).group(1)
    assert re.findall(r"ε′ = ([0-9.]+)", md.split("## Disclosure risk", 1)[1].split("Best point:", 1)[1])[0] == ours
    # the certificate's per-attribute values, as a table
    for attr, value in (("hhgq", "8.69"), ("votingage", "9.49"), ("hispanic", "11.65"), ("cenrace", "11.69")):
        assert f"| {attr} | {value} |" in md


def test_exact_rationals_on_the_command_line(tmp_path, capsys):
    code, cap = run(["--mechanism", "zcdp", "--rho", "11417641/152349649", "--prior", "1/3", "--horizon", "1",
                     "--output", str(tmp_path / "o")], capsys)
    assert code == 0, cap.err
    rep = json.loads((tmp_path / "o" / "report.json").read_text())
    assert rep["release"]["priors"] == [1 / 3]
    with pytest.raises(SystemExit) as stop:  # argparse's own refusal, in the report's one-line form
        main(["--mechanism", "zcdp", "--rho", "1/x", "--output", str(tmp_path / "p")])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("error: arguments: ") and len(err.strip().splitlines()) == 1
