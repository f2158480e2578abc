"""dpsemantics.book.render: what a reader sees of the registry's strings."""

from types import SimpleNamespace

import numpy as np

import pytest

from dpsemantics.book import margin_cell, prose


@pytest.mark.parametrize("text, shown", [
    ("§5, e^ε ≈ 1 + ε", "§5, e<sup>ε</sup> ≈ 1 + ε"),
    ("e^{2ε} − 1", "e<sup>2ε</sup> − 1"),
    ("q = e^-eps/2", "q = e<sup>-ε</sup>/2"),
    ("ratio e^(−ε/s))", "ratio e<sup>−ε/s</sup>)"),
    ("∫_{ε}^{∞} e^{ε−z} dz", "∫<sub>ε</sub><sup>∞</sup> e<sup>ε−z</sup> dz"),
    ("x^{a^{b}}", "x<sup>a<sup>b</sup></sup>"),
])
def test_prose_sets_exponents_as_superscripts(text, shown):
    assert prose(text) == shown


@pytest.mark.parametrize("text", ["a ^ b", "$e^\\varepsilon$ stays math", "ε = 0.5",
                                  "Theorem 3.2, eq. (78), n = 3, v1.2"])
def test_prose_leaves_other_text(text):
    assert prose(text) == text


@pytest.mark.parametrize("text, shown", [
    ("ε_def ≤ ε_DP", "ε<sub>def</sub> ≤ ε<sub>DP</sub>"),
    ("1 − δ_PDP(ε)", "1 − δ<sub>PDP</sub>(ε)"),
    ("x_i ∈ S", "x<sub>i</sub> ∈ S"),
    ("ε_adv(51)", "ε<sub>adv</sub>(51)"),
    ("counterexample eps=0.01, delta_hat=0.0001", "counterexample ε = 0.01, δ̂ = 0.0001"),
    ("median, eps=1.0, delta1=0.03471", "median, ε = 1.0, δ₁ = 0.03471"),
    ("Pr[O=3 | do(D1=1)]", "Pr[O=3 \\| do(D₁=1)]"),
])
def test_prose_typesets_bare_indices(text, shown):
    assert prose(text) == shown


@pytest.mark.parametrize("text, shown", [
    ("δ = 1e-6", "δ = 10⁻⁶"),
    ("worst 3.45e-5 at b=1e-13", "worst 3.45×10⁻⁵ at b = 10⁻¹³"),
    ("eps=1.0, delta=1e-08", "ε = 1.0, δ = 10⁻⁸"),
    ("gap 1.000e-06.", "gap 10⁻⁶."),
    ("ε up to 1.9e+154", "ε up to 1.9×10¹⁵⁴"),
    ("9.999999999999999e-06", "10⁻⁵"),
    ("σ beyond 1.8e308", "σ beyond 1.8×10³⁰⁸"),  # past the float range: still written, not an error
])
def test_prose_writes_exponent_form_as_a_reader_does(text, shown):
    assert prose(text) == shown


@pytest.mark.parametrize("text", ["x1e5 and e5 are names", "v1.2e", "$10^{-6}$"])
def test_prose_leaves_names_with_exponents(text):
    assert prose(text) == text


def test_margin_cell_counts_cases_in_words():
    assert margin_cell(SimpleNamespace(margin=0.524, cases=1)) == "0.524 (1 case)"
    assert margin_cell(SimpleNamespace(margin=1.0, cases=10015)) == "1 (10 015 cases)"


def test_glue_keeps_every_digit_while_reader_numbers_round_the_outputs(monkeypatch):
    """Issue 25: ``use_reader_numbers`` wrote a glued 0.1000190 as "0.1", which ``{glue:text}`x:.6f``` padded
    to "0.100000".  The glued text must be the float's every digit, whatever the outputs' formatter does."""
    from IPython.core.formatters import format_display_data
    from IPython.core.interactiveshell import InteractiveShell
    import myst_nb

    from dpsemantics.book import notebook

    shell = InteractiveShell.instance()
    notebook.use_reader_numbers()
    assert shell.display_formatter.format(0.1000190)[0]["text/plain"] == "0.1"  # outputs: 4 digits
    glued = {}
    monkeypatch.setattr(myst_nb, "glue", lambda name, value, display=True: glued.update(
        {name: format_display_data(value)[0]["text/plain"]}))
    notebook.glue("eps", np.float64(0.1000190), display=False)
    notebook.glue("two_log_3", 2 * np.log(3), display=False)
    notebook.glue("n", np.int64(7), display=False)
    assert glued == {"eps": "0.100019", "two_log_3": "2.1972245773362196", "n": "7"}
    assert f"{float(glued['two_log_3']):.4f}" == "2.1972"


def test_status_sentence_comes_from_the_results():
    from dpsemantics.book.render import status_sentence

    ok = SimpleNamespace(status="reproduced", finding=None, claim=SimpleNamespace(id="a"))
    bad = SimpleNamespace(status="discrepancy", finding="unsafe-rounding", claim=SimpleNamespace(id="b"))
    assert status_sentence([ok] * 10) == "All ten printed values reproduce (claims registry)."
    assert status_sentence([ok, ok, bad]).startswith("In the claims registry, two of the three printed values "
                                                     "reproduce; {claim}`b` is a **discrepancy** by unsafe rounding")
    slip = SimpleNamespace(status="discrepancy", finding="typo", claim=SimpleNamespace(id="c"))
    bad2 = SimpleNamespace(status="discrepancy", finding="unsafe-rounding", claim=SimpleNamespace(id="d"))
    sentence = status_sentence([ok, bad, slip, bad2], noun="claim")
    assert sentence.startswith("In the claims registry, one of the four claims reproduces; {claim}`b` and {claim}`d` "
                               "are **discrepancies** by unsafe rounding")
    assert sentence.endswith("; {claim}`c` is a **discrepancy** (typo).")
    assert "`b` is a **discrepancy**" in status_sentence([ok, bad], link=lambda i: f"`{i}`")  # for a {glue:md} paste
    assert status_sentence([bad]).startswith("In the claims registry, the printed value does not reproduce; {claim}`b` "
                                             "is a **discrepancy**")
    with pytest.raises(ValueError, match="results"):
        status_sentence([])


@pytest.mark.parametrize("text, shown", [
    ("pair 92: PDP eps <= DP eps", "pair 92: PDP ε ≤ DP ε"),
    ("LP at prior 0.2, eps=0.5, delta’=0.002", "LP at prior 0.2, ε = 0.5, δ′ = 0.002"),
    ("delta’’ vs 4 sqrt(delta/n)", "δ″ vs 4 √(δ/n)"),
    ("eta=0.0001415: (eps, delta)-DP", "η = 0.0001415: (ε, δ)-DP"),
    ("joint delta of (x, A(x)) vs (x, A(x_-1))", "joint δ of (x, A(x)) vs (x, A(x<sub>-1</sub>))"),
    ("Σ_c(… + δ)", "Σ<sub>c</sub>(… + δ)"),
    ("SD(b̄_0, b̄_1)", "SD(b̄<sub>0</sub>, b̄<sub>1</sub>)"),
    ("max_𝒫 RP̄ ≤ e", "max<sub>𝒫</sub> RP̄ ≤ e"),
    ("§4, prog_status", "§4, `prog_status`"),
    ("profile (conversions.zcdp_gaussian_delta) and", "profile (`conversions.zcdp_gaussian_delta`) and"),
    ("see tests/test_indistinguishability.py", "see `tests/test_indistinguishability.py`"),
    # issue 39's check-table cells
    ("eps=0.5, n=10, delta=0.999*max", "ε = 0.5, n = 10, δ = 0.999 × max"),
    ("random pair #0, 2 outcomes", "random pair 0, 2 outcomes"),
    ("three-output mechanism, r=1.22347", "three-output mechanism, r = 1.22347"),
    ("random mechanism 6: DP => informed SP", "random mechanism 6: DP ⇒ informed SP"),
    ("local RR, n=3, ε=0.3, alpha=0.01", "local RR, n = 3, ε = 0.3, α = 0.01"),
    # an event in mathematical notation keeps its spacing; the comparison after it does not
    ("Pr[R1=1]=0.5, do(R2=0)", "Pr[R₁=1] = 0.5, do(R₂=0)"),
    ("M[Y:=0], a == b", "M[Y:=0], a == b"),
])
def test_prose_writes_python_as_a_reader_reads_it(text, shown):
    assert prose(text) == shown


@pytest.mark.parametrize("text", ["the delta-method", "a ≤ b", "{claim}`kazan-ex4.2-per-release-delta-prime`"])
def test_prose_leaves_claim_ids_and_words(text):
    assert prose(text) == text


def test_number_writes_infinity_as_a_reader_does():
    from dpsemantics.book import number

    assert number(float("inf")) == "∞" and number(-np.inf) == "−∞" and number(np.float64(2.5e-6)) == "2.5×10⁻⁶"


def test_prose_links_the_registry_ids_it_names():
    text = "for the per-release δ): kazan-ex4.2-per-release-delta-prime."
    assert prose(text) == "for the per-release δ): {claim}`kazan-ex4.2-per-release-delta-prime`."
    assert prose("a not-a-claim-id here") == "a not-a-claim-id here"


def test_a_solution_shows_its_check_as_table_rows_not_printed_python(monkeypatch):
    """Issue 25: exercise solutions printed ``[ok] eps_group: within …`` and dicts.  ``quantities(..., check=...)`` adds
    one row per part checked, the variable as code and the verdict in words; a wrong part says "not yet"."""
    import IPython.display

    from dpsemantics.book import coursework
    from dpsemantics.book.notebook import quantities

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj.data))
    right = coursework.check_group_answer(1.5, (1 + np.exp(0.5) + np.exp(1.0)) * 1e-3)
    wrong = coursework.check_group_answer(1.5, 3e-3)
    quantities("Groups of three.", {"ε_g": 1.5, "exact": True}, check=right)
    quantities("Groups of three.", {"ε_g": 1.5}, check=wrong)
    assert shown[0].startswith(":::{table} Groups of three.")
    assert "| ε<sub>g</sub> | 1.5 |" in shown[0] and "| exact | yes |" in shown[0]
    assert "| check of `eps_group` | right: " in shown[0] and "| check of `delta_group` | right: " in shown[0]
    assert "| check of `delta_group` | not yet: " in shown[1] and "| check of `eps_group` | right: " in shown[1]
    assert not any("[ok]" in s or "{'" in s for s in shown)
    markdown = wrong._repr_markdown_()  # a check shown alone: its parts in words, the variables as code
    assert "[ok]" not in markdown and "not yet: `delta_group`" in markdown and "right: `eps_group`" in markdown


def test_prose_leaves_inline_code_alone():
    """A variable set as code keeps its name: "check of `sigma`" is not "check of `σ`" (issue 25)."""
    assert prose("check of `sigma` and `delta_at_half`, sigma = 2") == "check of `sigma` and `delta_at_half`, σ = 2"
    assert prose("`x_i` and x_i") == "`x_i` and x<sub>i</sub>"


def test_evidence_label_names_what_a_certificate_covers():
    """Issue 35: 24 certificates computed at a few parameter values were labelled "certified" alone; the kind itself
    now says what was proved, and the label says it in reader words with the domain or the points."""
    from dpsemantics.claims import Verdict
    from dpsemantics.book.render import evidence_label

    listed = Verdict(True, 0.9, ("certified-lp",), 12, domain="every mechanism with 3 outputs, at e^ε ∈ {11/10, 2}")
    assert listed.kind == "certified-at-points" and listed.points == ("e^ε ∈ {11/10, 2}",)
    assert listed.scope == "listed values" and listed.certified_by == "certified-lp" and not listed.certified
    assert evidence_label(listed).startswith("exact at e<sup>ε</sup> ∈ {11/10, 2} only (exact LP)")
    twice = Verdict(True, 0.9, ("certified-interval",), 5, domain="b ∈ [0, 1] (both branches) at ε ∈ {0.1, 0.5}")
    assert twice.points == ("ε ∈ {0.1, 0.5}",)  # not "b ∈ [0, 1]", an interval, nor "branches"
    given = Verdict.of([0.5, 1.0], [1.0, 1.0], evidence="certified-interval", points=("ε = 1", "ε = 2"),
                       domain="b ∈ [0, 1]")
    assert given.kind == "certified-at-points" and evidence_label(given).startswith("exact at ε = 1; ε = 2 only "
                                                                                    "(interval arithmetic)")
    whole = Verdict(True, 1.0, ("certified-interval",), 40, domain="ε ∈ [10⁻⁹, 50], q ∈ [0, 1]")
    assert whole.scope == "whole domain" and whole.certified and whole.points == ()
    assert evidence_label(whole).startswith("proved on the whole domain (interval arithmetic): ε")
    refuted = Verdict(False, 1.5, ("certified-lp",), 1, domain="every population: refuted at ε = 1/2")
    assert refuted.kind == "counterexample" and refuted.scope == "counterexample" and not refuted.certified
    assert evidence_label(refuted).startswith("counterexample (exact LP)")
    search = Verdict(True, 0.99, ("search",), 120, methods=("random-search",), domain="120 cases")
    assert search.scope == "cases tried"
    assert evidence_label(search) == "search over 120 cases (random search)"


def test_evidence_summary_is_the_labels_kind_without_its_domain():
    """The claims page's compact table shows what was shown and where (issue 35): a proof or counterexample with its
    domain, a certificate at points with its points, a search with its count but without its methods."""
    from dpsemantics.book.render import evidence_summary
    from dpsemantics.claims import Verdict

    listed = Verdict(True, 0.9, ("certified-lp",), 12, domain="every mechanism with 3 outputs, at e^ε ∈ {11/10, 2}")
    whole = Verdict(True, 1.0, ("certified-interval",), 40, domain="ε ∈ [10⁻⁹, 50], q ∈ [0, 1]")
    refuted = Verdict(False, 1.5, ("certified-lp",), 1, domain="every population: refuted at ε = 1/2")
    search = Verdict(True, 0.99, ("search",), 120, methods=("random-search",), domain="120 cases")
    assert evidence_summary(listed) == "exact at e<sup>ε</sup> ∈ {11/10, 2} only (exact LP)"
    assert evidence_summary(whole) == "proved on the whole domain (interval arithmetic)"
    assert evidence_summary(refuted) == "counterexample (exact LP)"
    assert evidence_summary(search) == "search over 120 cases"


def test_checked_report_shows_what_was_proved_and_where():
    """Issue 35: a chapter's check table gives the domain or the points beside the kind, in reader words."""
    from dpsemantics import claims
    from dpsemantics.book.render import checked_report

    def result(cid, verdict):
        claim = claims.Claim(cid, "ks", "Lemma 1", "a ≤ b", True, lambda: verdict)
        return claims.Result(claim, verdict.holds, "reproduced" if verdict.holds else "discrepancy", verdict)

    at = claims.Verdict.of([0.5], [1.0], evidence="certified-lp", points=["e^ε = 11/10"],
                           domain="every mechanism with 3 outputs")
    whole = claims.Verdict.of([1.0], [1.0], evidence="certified-interval", domain="ε ∈ [10⁻⁹, 50]")
    table = checked_report([result("x-at", at), result("x-whole", whole)])
    assert "exact at e<sup>ε</sup> = 11/10 only (exact LP); domain: every mechanism with 3 outputs" in table
    assert "proved on the whole domain (interval arithmetic): ε ∈ [10⁻⁹, 50]" in table


@pytest.mark.parametrize("worst, shown", [
    ("three-output mechanism, r=1.22347, eps=0.01", "three-output mechanism, r = 1.223, ε = 0.01"),
    ("eps=3.000", "ε = 3"),
    ("eps=0.4500, s = 0.2250", "ε = 0.45, s = 0.225"),
    ("eta=3.80968e-14: (eps, delta)-DP", "η = 3.81×10⁻¹⁴: (ε, δ)-DP"),
    ("Pr[B in Bad'2], eps=1.0", "Pr[B ∈ Bad′₂], ε = 1.0"),
    ("Theorem 3.10 at n=10, δ = 0.999*max", "Theorem 3.10 at n = 10, δ = 0.999 × the largest allowed"),
    ("e^ε = 1001/1000, prior 0.5", "e<sup>ε</sup> = 1001/1000, prior 0.5"),
    ((5.0, 1e-12, 1.0), "(5, 10⁻¹², 1)"),
    ("pair of mechanisms 56", "pair of mechanisms no. 56"),
    ("delta’’ vs 4 sqrt(delta/n): n=10", "δ″ against 4 √(δ/n): n = 10"),
    ("random pair #0, 2 outcomes", "random pair no. 0, 2 outcomes"),
    ("merge outcomes 1 and 2; random mechanism 8, 3 outputs",
     "merge outcomes 1 and 2; random mechanism no. 8, 3 outputs"),
    ("random pair 58 (2 outputs), b=0.5", "random pair no. 58 (2 outputs), b = 0.5"),
])
def test_worst_cell_writes_a_label_in_a_readers_digits(worst, shown):
    from dpsemantics.book.render import worst_cell

    assert worst_cell(worst) == shown


def _result(status, finding=None, relation=True):
    return SimpleNamespace(status=status, finding=finding, verdict=object() if relation else None,
                           claim=SimpleNamespace(id="x"))


def test_count_sentence_partitions_add_up():
    """Issue 39: "Of 24 claims, 19 are relations … and 6 are discrepancies" read as 25; each of the sentence's two
    partitions (relations and printed values; reproduced, discrepancies and not checked) sums to the total."""
    import re

    from dpsemantics.book.render import count_sentence

    results = ([_result("reproduced")] * 13 + [_result("reproduced", relation=False)] * 5
               + [_result("discrepancy", "typo")] * 4 + [_result("discrepancy", "different-reading")] * 2
               + [_result("not-checked", relation=False)])
    sentence = count_sentence(results)
    assert sentence == ("Of the 25 claims, 19 are relations (attacked or certified) and 6 are printed values "
                        "(recomputed); 18 reproduce, 6 are discrepancies (4 typos, 2 values of another reading) "
                        "and 1 is not checked.")
    first, second = sentence.split(";")
    total, *kinds = map(int, re.findall(r"\d+", first))
    assert sum(kinds) == total == len(results)
    statuses = [int(n) for n in re.findall(r"(\d+) (?:reproduce|are|is)\b", second)]
    assert sum(statuses) == len(results)
    assert count_sentence([_result("discrepancy", "typo", relation=False)] + [_result("reproduced")]) == (
        "Of the 2 claims, 1 is a relation (attacked or certified) and 1 is a printed value (recomputed); 1 reproduces "
        "and 1 is a discrepancy (1 typo).")
    with pytest.raises(ValueError, match="results"):
        count_sentence([])


@pytest.mark.parametrize("text, shown", [("2.000", "2"), ("0.5000", "0.5"), ("0.2500", "0.25"), ("-0.000", "0"),
                                         ("−1.50", "−1.5"), ("1.434", "1.434"), ("10", "10"), ("95.0%", "95.0%"),
                                         ("ε = 1.00", "ε = 1.00")])
def test_trimmed_drops_only_padding_zeros(text, shown):
    """Issue 39: {glue:text}`x:.3f` showed "2.000" and "1.000000000" beside numbers written by number()."""
    from dpsemantics.book.render import trimmed

    assert trimmed(text) == shown


def test_mechanism_words_reads_a_release_in_the_books_words():
    """Issue 39: the gallery table showed "zcdp (ρ = 2.55623)" and "gaussian (σ = 5.7735, …)"."""
    from dpsemantics.book.render import mechanism_words

    assert mechanism_words({"mechanism": "zcdp", "rho": 2.556225581051331, "k": 1}) == "zCDP, ρ = 2.556, run once"
    assert mechanism_words({"mechanism": "gaussian", "sigma": 5.773502691896257, "sensitivity": 1.0, "mu": 0.015,
                            "k": 30}) == "Gaussian, σ = 5.774, Δ = 1, μ = 0.015, run 30 times"
    assert mechanism_words({"mechanism": "dp", "epsilon": 9.98, "delta": 0.0, "k": 1}) == (
        "(ε, δ)-DP, ε = 9.98, δ = 0, run once")
    with pytest.raises(ValueError, match="mechanism"):
        mechanism_words({"mechanism": "exponential"})


def test_captioned_numbers_a_table_and_names_it():
    """Issue 39: the paper's Table 1, regenerated in the causal chapter, was shown without number or caption."""
    from dpsemantics.book.render import captioned

    assert captioned("The paper's Table 1.", ["| a |", "|---|", "| 1 |"], "tbl-x") == [
        ":::{table} The paper's Table 1.", ":name: tbl-x", "", "| a |", "|---|", "| 1 |", ":::"]
    assert captioned("C.", ["| a |"])[:2] == [":::{table} C.", ""]


def test_greek_letters_of_the_prose_are_set_in_italic_as_in_the_math():
    """Issue 39: an upright ε or δ in a sentence beside the italic ε of MathJax in the same clause."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    from dpsemantics.book.sphinx_extras import _TABLE_RULES, italic_greek

    document = new_document("sample", get_default_settings(Parser))
    paragraph = nodes.paragraph()
    paragraph += [nodes.Text("(ε, δ′)-DP with ε̄ = 0.1 and "), nodes.math("\\varepsilon", "\\varepsilon"),
                  nodes.literal("eps_δ", "eps_δ"), nodes.Text(" ; e^ε untypeset")]
    document += paragraph
    before = paragraph.astext()
    italic_greek(document)
    italic = [n.astext() for n in document.findall(nodes.inline) if "math-var" in n["classes"]]
    assert italic == ["ε", "δ", "ε̄"]  # not in code, not in math, not beside ^ (left for the raw-TeX check)
    assert paragraph.astext() == before
    italic_greek(document)  # twice: nothing wrapped again
    assert [n.astext() for n in document.findall(nodes.inline) if "math-var" in n["classes"]] == italic
    assert "span.math-var { font-style: italic; }" in _TABLE_RULES


def test_powers_of_ten_take_a_times_sign():
    """Issue 39: "2.12·10⁻⁵" beside "3.45×10⁻⁵" in one chapter."""
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    from dpsemantics.book.sphinx_extras import times_powers

    document = new_document("sample", get_default_settings(Parser))
    paragraph = nodes.paragraph()
    paragraph += [nodes.Text("δ(0.6) ≈ 2.12·10⁻⁵ > 10⁻⁵ and 2·(8) = 3"), nodes.literal("1·10⁻⁵", "1·10⁻⁵")]
    document += paragraph
    times_powers(document)
    assert paragraph.astext() == "δ(0.6) ≈ 2.12×10⁻⁵ > 10⁻⁵ and 2·(8) = 31·10⁻⁵"


def test_evidence_words_name_kinds_as_the_tables_do():
    from dpsemantics.book.render import evidence_words

    assert evidence_words("Margin and worst case from 90 cases (certified-lp).") == (
        "Margin and worst case from 90 cases (exact LP).")
    assert evidence_words("1543 cases (extremal, optimised-search)") == "1543 cases (extremal, optimised search)"
    kept = "claim kazan-certified-lp-x and `certified-lp`"
    assert evidence_words(kept) == kept


def test_the_page_script_makes_figures_zoomable():
    """Issue 39: at 390 px a figure's labels shrink to about 5 px; each figure links to itself at full size."""
    from dpsemantics.book.sphinx_extras import _OPEN_CHECKS_JS

    assert 'querySelectorAll("main figure img")' in _OPEN_CHECKS_JS and 'a.target = "_blank"' in _OPEN_CHECKS_JS
