"""What a reader sees of a number or a chapter's checks: one formatter and one report table for every page."""

from __future__ import annotations

import math
import re

import numpy as np

from ..claims import CERTIFICATE_METHODS

# Plain-text exponents and indices in the registry's strings (``e^{2ε} − 1``, ``e^ε``, ``e^-eps``, ``e^(−ε/2)``,
# ``δ_{n}``), which a page shows as superscripts and subscripts; the parentheses of ``^(…)`` only group.
_SCRIPT = re.compile(r"(?P<op>\^|_(?=\{))(?:\{(?P<braced>(?:[^{}]|\{[^{}]*\})*)\}|(?<=\^)\((?P<paren>[^()]*)\)"
                     r"|(?P<bare>[-−]?[A-Za-z0-9εδρσαβγλμ′̂∞]+))")


# A float written with all its digits (``9.999999999999999e-06``), as ``str(float)`` leaves it in a string.
_LONG_FLOAT = re.compile(r"(?<![\w.])\d+\.\d{9,}(?:e[-+]?\d+)?(?![\w.])")

# A number in Python's exponent form (``1e-06``, ``2.5e-7``, ``1.000e-06``), as ``str``, ``repr`` and the ``e``/``g``
# formats write it; not a part of a name (``x1e5``) or of a longer number.
_EXPONENT_FORM = re.compile(r"(?<![\w.])(?P<mantissa>\d+(?:\.\d+)?)e(?P<exponent>[-+]?\d+)(?!\w|\.\d)")


# A bare index in the registry's plain text: a Greek letter with a named index (``ε_DP``, ``δ_PDP``, ``Σ_c``), a
# one-letter variable or an operator (``max``, ``Pr``) with a one-character or signed-number index (``x_i``,
# ``x_-1``, ``Pr_𝒫``); longer names with an underscore (``prog_A``, ``delta_hat``) are identifiers, set as code.
_GREEK = "\u0370-\u03ff"
_BARE_INDEX = re.compile(rf"(?<![\w`])(?P<base>[A-Za-z{_GREEK}][\u0300-\u036f]?′?|max|min|sup|Pr)_(?P<index>[-−]?\d+"
                         rf"|(?<=[{_GREEK}]_)[A-Za-z0-9]+"
                         rf"|[^\s_.,;:!?)\]{{}}'\"<\\`])(?![^\W\u00b2\u00b3\u00b9\u2070-\u209f])")
# A capital variable numbered by digits (``D1``, ``R2``, as the causal models name their variables).
_NUMBERED_VARIABLE = re.compile(r"(?<![\w.])(?P<base>[A-Z])(?P<index>\d{1,2})(?![\w.])")
_SUBSCRIPT_DIGITS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
# An identifier with an underscore (``prog_status``, ``conversions.zcdp_gaussian_delta``, a test file's path):
# code, not prose.
_IDENTIFIER = re.compile(r"(?<![\w./`<-])(?=[\w./-]*[A-Za-z0-9]_[A-Za-z0-9])[A-Za-z][\w]*(?:[./-][\w]+)*(?![\w`>])")

# A parameter written as Python names it in a registry string (``eps=0.01, delta’=0.5``, ``delta_hat=0.1``,
# ``(eps, delta)-DP``): a reader sees the symbol (``ε = 0.01, δ′ = 0.5``, ``δ̂ = 0.1``, ``(ε, δ)-DP``); not inside
# a claim id (``kazan-ex4.2-per-release-delta-prime``).
_PARAMETER_NAMES = {"eps": "ε", "epsilon": "ε", "delta_hat": "δ̂", "delta": "δ", "rho": "ρ", "sigma": "σ",
                    "alpha": "α", "eta": "η"}
_PARAMETER = re.compile(r"(?<![\w.])(?<!\w-)(?P<name>epsilon|eps|delta_hat|delta|rho|sigma|alpha|eta)(?P<index>\d?)"
                        r"(?P<primes>[’′']*)"
                        r"(?![\w\-])(?P<equals>\s*=(?!=)\s*)?")
_COMPARISONS = {"<=": "≤", ">=": "≥", "!=": "≠", "=>": "⇒"}
# What else a program writes and a reader would not (issue 39): ``n=10`` (an equals sign without spaces; not in
# ``:=``, ``==`` or a tag's attribute), ``random pair #3`` (a case number), ``0.999*max`` (a star for times),
# ``sqrt(…)``.
_TIGHT_EQUALS = re.compile(r"(?<=[^\s=<>!:≤≥≠])=(?![=\s\"'])|(?<=[^\s=<>!:≤≥≠])=(?=\s)|(?<=\s)=(?![=\s\"'])")
_CASE_NUMBER = re.compile(r"(?<=\w )#(?=\d)")
_STAR_TIMES = re.compile(r"(?<=\d)\s?\*\s?(?=[A-Za-z(])")
_SQRT = re.compile(r"\bsqrt\s?(?=\()")
# An event in mathematical notation, where = is written without spaces by convention (``Pr[O=3 | do(D₁=1)]``,
# ``M[Y:=0]``); innermost first, so that an intervention inside a probability is one event with it.
_MATH_EVENT = re.compile(r"\b(?:Pr|Cr|P|do|M|RP)\s?[\[(][^\[\]()]*[\])]")


def parameter_names(text: str) -> str:
    """``eps=0.01, delta1=0.5`` → ``ε = 0.01, δ₁ = 0.5``, ``delta’’`` → ``δ″``, ``<=`` → ``≤``: Python's names and
    operators as the symbols they stand for."""
    def symbol(m):
        primes = len(m.group("primes"))
        mark = "" if not primes else "′" if primes == 1 else "″" if primes == 2 else "‴"
        return (_PARAMETER_NAMES[m.group("name")] + m.group("index").translate(_SUBSCRIPT_DIGITS) + mark
                + (" = " if m.group("equals") else ""))

    text = _PARAMETER.sub(symbol, text)
    text = re.sub(r"(?<![<>!=])(<=|>=|!=|=>)(?![=>])", lambda m: _COMPARISONS[m.group()], text)
    return plain_operators(text)


def plain_operators(text: str) -> str:
    """``n=10`` → ``n = 10``, ``pair #3`` → ``pair 3``, ``0.999*max`` → ``0.999 × max``, ``sqrt(x)`` → ``√(x)``:
    a program's way of writing them as a reader's (:func:`prose` applies it to every registry string)."""
    text = _SQRT.sub("√", text)
    text = _STAR_TIMES.sub(" × ", text)
    text = _CASE_NUMBER.sub("", text)
    events: list[str] = []

    def hide(m):
        events.append(m.group())
        return f"\x00{len(events) - 1}\x00"

    while True:  # events in mathematical notation keep their own spacing
        hidden = _MATH_EVENT.sub(hide, text)
        if hidden == text:
            break
        text = hidden
    text = _TIGHT_EQUALS.sub(" = ", text)
    while "\x00" in text:
        text = re.sub(r"\x00(\d+)\x00", lambda m: events[int(m.group(1))], text)
    return text


# A claim's id in a registry note ("… the per-release δ): kazan-ex4.2-per-release-delta-prime."), linked to its row.
_CLAIM_ID = re.compile(r"(?<![\w`{/.-])[a-z]+-[A-Za-z0-9.-]*[A-Za-z0-9](?![\w`-])")


def _registry_ids() -> frozenset:
    global _IDS
    try:
        return _IDS
    except NameError:
        from .. import claims

        _IDS = frozenset(c.id for c in claims.registry())
        return _IDS


def claim_links(text: str) -> str:
    """Every id of the claims registry in ``text`` as a link to its row (:func:`claim_link`)."""
    if "-" not in text:
        return text
    ids = _registry_ids()
    return _CLAIM_ID.sub(lambda m: claim_link(m.group()) if m.group() in ids else m.group(), text)


def indices(text: str) -> str:
    """Plain-text indices typeset: ``ε_DP`` → ``ε<sub>DP</sub>``, ``x_i`` → ``x<sub>i</sub>``, ``D1`` → ``D₁``;
    the identifiers left (``prog_status``) set as code."""
    text = _NUMBERED_VARIABLE.sub(lambda m: m.group("base") + m.group("index").translate(_SUBSCRIPT_DIGITS), text)
    text = _BARE_INDEX.sub(lambda m: f"{m.group('base')}<sub>{m.group('index')}</sub>", text)
    return _IDENTIFIER.sub(lambda m: f"`{m.group()}`", text)


def typeset_scripts(text: str, wrap) -> str:
    """``x^{…}``/``x^(…)``/``x^y`` (``y`` with an optional sign) and ``x_{…}`` in plain text, each replaced by
    ``wrap("sup" or "sub", inner)`` (inner scripts first); a bare ``_`` stays, since it is part of names
    (``ε_rr``)."""

    def script(m):
        tag = "sup" if m.group("op") == "^" else "sub"
        inner = next(m.group(g) for g in ("braced", "paren", "bare") if m.group(g) is not None)
        return wrap(tag, _SCRIPT.sub(script, inner))

    return _SCRIPT.sub(script, text)


def exponents(text: str, write=None) -> str:
    """``text`` with every number in Python's exponent form rewritten: by ``write(value)`` when given (the
    figures pass :func:`dpsemantics.book.plotting.readable_number`), else in :func:`scientific` form to the
    digits it shows: ``δ = 1e-06`` → ``δ = 10⁻⁶``, ``2.50e-7`` → ``2.5×10⁻⁷``."""

    def rewrite(m):
        value = float(m.group())
        if not math.isfinite(value):  # beyond the float range (1e400): a number of the text, not of Python
            return m.group("mantissa") + _power(int(m.group("exponent")), "×")
        if write is not None:
            return write(value)
        shown = len(m.group("mantissa").replace(".", "").lstrip("0"))
        return scientific(value, shown) if value else "0"

    return _EXPONENT_FORM.sub(rewrite, text)


def prose(text: str) -> str:
    """A registry string as Markdown for a page: outside ``$…$`` math and inline code, exponents become superscripts and
    indices subscripts (:func:`typeset_scripts`, :func:`indices`),
    floats written with all their digits go through :func:`number`, other numbers in exponent form (``1e-06``)
    are written in :func:`scientific` form (:func:`exponents`), and ``|`` is escaped (once) so that the text can
    sit in a table cell."""

    def plain(part):
        part = exponents(_LONG_FLOAT.sub(lambda m: number(float(m.group())), part))
        return claim_links(indices(parameter_names(typeset_scripts(part,
                                                                   lambda tag, inner: f"<{tag}>{inner}</{tag}>"))))

    # $…$ is typeset math already and `…` is code (a variable's name, `sigma`, stays one): both left alone
    parts = re.split(r"(\$[^$]+\$|`[^`]+`)", str(text))
    # an escaped | stays as it is, so that text already written for a page can pass again
    return re.sub(r"(?<!\\)\|", r"\\|", "".join(p if len(p) > 1 and p[0] == p[-1] and p[0] in "$`" else plain(p)
                                               for p in parts))


def trimmed(text: str) -> str:
    """A number printed to fixed decimals, without the zeros that only pad it (``2.000`` → ``2``, ``0.2500`` →
    ``0.25``, ``−0.0`` → ``0``): a glued ``{glue:text}`x:.3f``` shows the digits that carry information, as
    :func:`number` does; other text unchanged."""
    m = re.fullmatch(r"(?P<sign>[-−]?)(?P<whole>\d+)\.(?P<decimals>\d*?)0+", text)
    if m is None:
        return text
    shown = m.group("whole") + ("." + m.group("decimals") if m.group("decimals") else "")
    return ("" if float(shown) == 0 else m.group("sign")) + shown


def as_real(value):
    """``value`` as a Python ``int`` or ``float`` when it is a real number — Python, NumPy (scalars and 0-d
    arrays, ``longdouble`` included) or mpmath — else ``None``.  Booleans are not numbers here."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, np.floating) or type(value).__module__.startswith("mpmath"):
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _power(exponent: int, times: str = "") -> str:
    return f"{times}10{str(exponent).translate(_SUPERSCRIPT)}"


def scientific(value: float, digits: int = 4) -> str:
    """``value`` in scientific form as a reader writes it, to ``digits`` significant digits: ``2.5×10⁻⁶``,
    and ``10⁻⁶`` when the mantissa is 1 — never ``2.5e-06``."""
    mantissa, exponent = f"{value:.{max(digits, 1) - 1}e}".split("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    if mantissa in ("1", "-1"):
        return mantissa[:-1] + _power(int(exponent))
    return mantissa + _power(int(exponent), "×")


def number(value, digits: int = 4) -> str:
    """A number as a reader sees it: plain Python formatting, never a NumPy repr (``np.float64(...)``).

    Integers (and integral floats up to 1e15) print whole, infinity as ∞; other values to ``digits`` significant digits,
    in :func:`scientific` form (``2.5×10⁻⁶``) where Python's ``g`` format would use an exponent."""
    real = as_real(value)
    if real is None:
        return str(value.item() if hasattr(value, "item") else value)
    value = real
    if isinstance(value, float) and math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e15):
        return f"{int(value):,}".replace(",", " ") if abs(value) >= 10_000 else str(int(value))
    text = f"{value:.{digits}g}"
    return scientific(value, digits) if "e" in text else text


def value_cell(value) -> str:
    """A value in a table cell: booleans as "holds"/"fails", numbers through :func:`number`, text through
    :func:`prose`."""
    if isinstance(value, bool):
        return "holds" if value else "fails"
    if hasattr(value, "item") or as_real(value) is not None:  # NumPy booleans print as numbers do
        return number(value)
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(value_cell(v) for v in value) + ")"
    if isinstance(value, dict):
        return ", ".join(f"{prose(k)}: {value_cell(v)}" for k, v in value.items())
    return prose(value)


def _significant_digits(printed) -> int:
    """How many significant digits a printed number shows (``0.96`` → 2, ``1.72`` → 3, ``45`` → 2)."""
    digits = re.sub(r"[^0-9]", "", f"{printed!r}".split("e")[0]).lstrip("0")
    return max(len(digits), 1)


def computed_cell(computed, printed) -> str:
    """The computed value at the printed precision plus one digit, so that agreement and disagreement with
    the paper show at a glance."""
    if as_real(printed) is not None and as_real(computed) is not None:
        # a printed value stored as a computed float (e.g. e^0.05) has 17 digits: no reader needs more than six
        return number(computed, digits=min(_significant_digits(as_real(printed)) + 1, 6))
    return value_cell(computed)


def claim_anchor(claim_id: str) -> str:
    """The HTML id of a claim's row in the reproducibility report (``book/claims.md``)."""
    return "claim-" + claim_id


def claim_target(claim_id: str) -> str:
    """A claim's id as the first words of its row in the reproducibility report, carrying the row's anchor."""
    return f'<code class="claim-id" id="{claim_anchor(claim_id)}">{claim_id}</code>'


def claim_link(claim_id: str) -> str:
    """A claim's id linked to its row in the reproducibility report (the book's ``{claim}`` role)."""
    return f"{{claim}}`{claim_id}`"


def outcome(result) -> str:
    """A claim's outcome as text, with its finding: "reproduced", or "**discrepancy**: false statement"."""
    text = "reproduced" if result.status == "reproduced" else f"**{result.status}**"
    return text + (f": {result.finding.replace('-', ' ')}" if result.finding else "")


_COUNT_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def status_sentence(results, noun: str = "printed value", link=None) -> str:
    """A sentence about claims' outcomes generated from the registry's results (``claims.evaluate``), never typed
    beside them: "All ten printed values reproduce (claims registry)." or "In the claims registry, two of the
    nine printed values reproduce; {claim}`a` and {claim}`b` are **discrepancies** by unsafe rounding (…);
    {claim}`c` is a **discrepancy** (false statement)." — the others grouped by status and finding, whether by rounding or not.
    ``link`` writes a claim's id (default :func:`claim_link`; a sentence glued with ``{glue:md}`` is parsed as
    CommonMark, where the ``{claim}`` role is not known: pass ``lambda i: f"`{i}`"`` there)."""
    results = list(results)
    if not results:
        raise ValueError("results must name at least one claim (got an empty list)")
    link = link or claim_link

    def count(n):
        return _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)

    def nouns(n):
        return noun + ("s" if n != 1 else "")

    bad = [r for r in results if r.status != "reproduced"]
    n = len(results)
    if not bad:
        return (f"{'All ' + count(n) if n > 2 else ('Both' if n == 2 else 'The')} {nouns(n)} "
                f"{'reproduce' if n != 1 else 'reproduces'} (claims registry).")
    groups: dict = {}
    for r in bad:
        groups.setdefault((r.status, r.finding), []).append(link(r.claim.id))
    others = []
    for (status, finding), links in groups.items():
        words = status.replace("-", " ")
        kind = (f"are **{'discrepancies' if words == 'discrepancy' else words}**" if len(links) > 1
                else f"is {'a ' if words == 'discrepancy' else ''}**{words}**")
        if finding == "unsafe-rounding":
            why = (" by unsafe rounding (they agree only at the printed precision, rounded on the unsafe side)"
                   if len(links) > 1 else
                   " by unsafe rounding (it agrees only at the printed precision, rounded on the unsafe side)")
        else:
            why = f" ({finding.replace('-', ' ')})" if finding else ""
        others.append(f"{', '.join(links[:-1]) + ' and ' if len(links) > 1 else ''}{links[-1]} {kind}{why}")
    good = n - len(bad)
    head = (f"{count(good)} of the {count(n)} {nouns(n)} {'reproduces' if good == 1 else 'reproduce'}"
            if good else f"none of the {count(n)} {nouns(n)} reproduce" if n > 1 else f"the {noun} does not reproduce")
    return f"In the claims registry, {head}; {'; '.join(others)}."


_EVIDENCE_WORDS = {**CERTIFICATE_METHODS, "closed-form": "closed form", "random-search": "random search",
                   "optimised-search": "optimised search"}
_EVIDENCE_NAME = re.compile(r"(?<![\w`-])(" + "|".join(_EVIDENCE_WORDS) + r")(?![\w`-])")


def evidence_words(text: str) -> str:
    """The registry's names of evidence kinds and search methods in a text written as words, as the tables write
    them: "(certified-lp)" → "(exact LP)", "(random-search, optimised-search)" → "(random search, optimised
    search)" (issue 39: one table wrote "certified lp", another "certified-lp")."""
    return _EVIDENCE_NAME.sub(lambda m: _EVIDENCE_WORDS[m.group()], text)


def evidence_label(verdict) -> str:
    """What a verdict's evidence proves, in words that claim no more (its kind,
    :data:`dpsemantics.claims.EVIDENCE`): a proof on the whole stated domain ("proved on the whole domain (exact
    LP): every …"), exact certificates at finitely many parameter values, named with them ("exact at
    e^ε ∈ {11/10, 2} only (exact LP)"), a certified counterexample, or a search on the cases tried
    (its methods)."""
    domain = evidence_words(prose(verdict.domain)) if verdict.domain else ""
    kind = verdict.kind
    if verdict.exact:
        how = CERTIFICATE_METHODS[verdict.certified_by]
        if kind == "counterexample":
            return f"counterexample ({how})" + (f": {domain}" if domain else "")
        if kind == "certified-at-points":
            return (f"exact at {prose('; '.join(verdict.points))} only ({how})"
                    + (f"; domain: {domain}" if domain else ""))
        return f"proved on the whole domain ({how})" + (f": {domain}" if domain else "")
    if kind == "search" or kind == "closed-form":
        words = "search" if kind == "search" else "closed form"
        methods = ", ".join(m.replace("-", " ") for m in verdict.methods)
        head = f"{words} over {number(verdict.cases)} case{'' if verdict.cases == 1 else 's'}"
        default = str(verdict.domain).startswith(f"{verdict.cases} case")  # Verdict.of's own count, said above
        return head + (f" ({methods})" if methods else "") + (f": {domain}" if domain and not default else "")
    return kind.replace("-", " ") + (f": {domain}" if domain else "")


def evidence_summary(verdict) -> str:
    """:func:`evidence_label` for a compact table (the claims page's index, one line a claim): what was shown and
    where — a proof on the whole domain or a counterexample with its method ("proved on the whole domain (exact
    LP)"; the domain itself is in the claim's full entry), the points of a certificate at points ("exact at
    e^ε ∈ {11/10, 2} only (exact LP)"), and a search or closed form with its count, without its methods
    ("search over 120 cases")."""
    words = evidence_label(verdict)
    if verdict.kind == "certified-at-points":
        return words.split("; domain: ", 1)[0]
    if verdict.exact:
        return words.split(": ", 1)[0]
    return re.sub(r" \([^)]*\)$", "", words.split(": ", 1)[0])


def margin_cell(verdict) -> str:
    """A verdict's margin (worst case as a fraction of the bound; 1 = attained) and how many cases backed it."""
    margin = "∞" if verdict.margin == float("inf") else number(verdict.margin, 3)
    return f"{margin} ({number(verdict.cases)} case{'' if verdict.cases == 1 else 's'})"


# A decimal in a worst case's label (``r = 1.22347``, ``ε = 3.000``), not a part of a name, a fraction or a
# section number (``Theorem 3.10``, ``§4.5``, ``eq. (2.4)``).
_DECIMAL = re.compile(r"(?<![\w./])\d+\.\d+(?![\w/]|\.\d)")
_NUMBERED_THING = re.compile(r"(?:Theorem|Lemma|Corollary|Definition|Def\.|Example|Proposition|Remark|Section|"
                             r"Table|Figure|Fig\.|Exercise|Appendix|eq\.|eqs\.|§)\s?\(?$")


def readable_decimals(text: str, digits: int = 4) -> str:
    """Decimals of a label to at most ``digits`` significant digits, without trailing zeros after the second
    decimal: ``r = 1.22347`` → ``r = 1.223``, ``ε = 3.000`` → ``ε = 3``, ``0.4500`` → ``0.45``,
    ``3.80968×10⁻¹⁴`` → ``3.81×10⁻¹⁴``; ``ε = 1.0`` and numbered things (``Theorem 3.10``) stay."""

    def rewrite(m):
        if _NUMBERED_THING.search(text[max(0, m.start() - 12):m.start()]):
            return m.group()
        shown = m.group()
        significant = len(shown.replace(".", "").lstrip("0"))
        if significant > digits:
            shown = f"{float(shown):.{digits}g}"
            if "e" in shown:  # beyond the g format's plain range: leave the label's own digits
                return m.group()
            if "." not in shown:
                return shown
        whole, decimals = shown.split(".")
        if len(decimals) >= 2 and decimals.endswith("0"):
            decimals = decimals.rstrip("0")
            return whole + ("." + decimals if decimals else "")
        return shown

    return _DECIMAL.sub(rewrite, text)


# A search's case by its index ("pair of mechanisms 56", "random model 25"): a numbered case, "pair no. 56".
_CASE = re.compile(r"(?<![\w#])(?P<what>pair of mechanisms|pair|model|mechanism|deterministic g) #?(?P<number>\d+)\b"
                   r"(?! (?:and|outputs?|outcomes?|cases?|records?)\b)")


def worst_cell(worst) -> str:
    """A verdict's worst case as a reader reads it: numbers through :func:`number`, a label through
    :func:`prose` with :func:`readable_decimals` (``r=1.22347`` → ``r = 1.223``), set membership written
    as such (``Pr[B in Bad'2]`` → ``Pr[B ∈ Bad′₂]``) and a search's case as a numbered case (``pair of
    mechanisms 56`` → ``pair of mechanisms no. 56``)."""
    if isinstance(worst, str):
        worst = re.sub(r"(?<=[A-Za-z])'(\d)\b", lambda m: "′" + m.group(1).translate(_SUBSCRIPT_DIGITS), worst)
        worst = re.sub(r"(\[[^\]]*?) in (?=[^\]]*\])", r"\1 ∈ ", worst)
        worst = _CASE.sub(r"\g<what> no. \g<number>", worst)
        worst = re.sub(r"(?<=\d)\s?\*\s?max\b", " × the largest allowed", worst)  # δ = 0.999*max
        worst = re.sub(r"(?<=\S) vs\.? (?=\S)", " against ", worst)
        return readable_decimals(prose(worst))
    if isinstance(worst, (tuple, list)):
        return "(" + ", ".join(worst_cell(v) for v in worst) + ")"
    return value_cell(worst)


_FINDING_NOUNS = {"false-statement": ("false statement", "false statements"),
                  "proof-gap": ("proof gap", "proof gaps"), "typo": ("typo", "typos"),
                  "unsafe-rounding": ("bound rounded on the unsafe side", "bounds rounded on the unsafe side"),
                  "different-reading": ("value of another reading", "values of another reading"),
                  "unresolved": ("unresolved", "unresolved"), None: ("of no stated kind", "of no stated kind")}


def count_sentence(results, noun: str = "claim") -> str:
    """How a chapter's claims divide, counted from the results it describes, in two partitions that each add up
    to the total: "Of the 24 claims, 19 are relations (attacked or certified) and 5 are printed values
    (recomputed); 18 reproduce and 6 are discrepancies (4 typos, 2 values of another reading)." — never glued
    counts that a reader must add."""
    results = list(results)
    if not results:
        raise ValueError("results must name at least one claim (got an empty list)")

    def count(n, one, many):
        return f"{number(n)} {one if n == 1 else many}"

    n = len(results)
    relations = sum(r.verdict is not None for r in results)
    head = f"Of the {count(n, noun, noun + 's')}" if n > 1 else f"Of the one {noun}"
    kinds = [(relations, "is a relation (attacked or certified)", "are relations (attacked or certified)"),
             (n - relations, "is a printed value (recomputed)", "are printed values (recomputed)")]
    split = " and ".join(count(k, one, many) for k, one, many in kinds if k)
    by_status = {s: [r for r in results if r.status == s] for s in ("reproduced", "discrepancy", "not-checked")}
    if sum(len(v) for v in by_status.values()) != n:
        raise ValueError(f"results must have a status in {('reproduced', 'discrepancy', 'not-checked')}")
    parts = []
    if by_status["reproduced"]:
        parts.append(f"{number(len(by_status['reproduced']))} reproduce"
                     + ("s" if len(by_status["reproduced"]) == 1 else ""))
    bad = by_status["discrepancy"]
    if bad:
        findings: dict = {}
        for r in bad:
            findings[r.finding] = findings.get(r.finding, 0) + 1
        detail = ", ".join(count(k, *_FINDING_NOUNS[f]) for f, k in sorted(
            findings.items(), key=lambda item: (-item[1], str(item[0]))))
        parts.append(count(len(bad), "is a discrepancy", "are discrepancies")
                     + (f" ({detail})" if len(findings) > 1 or None not in findings else ""))
    if by_status["not-checked"]:
        parts.append(count(len(by_status["not-checked"]), "is not checked", "are not checked"))
    tail = " and ".join([", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)
    return f"{head}, {split}; {tail}."


_MECHANISM_NAMES = {"laplace": "Laplace", "gaussian": "Gaussian", "randomized-response": "randomized response",
                    "geometric": "geometric", "dp": "(ε, δ)-DP", "zcdp": "zCDP"}
_MECHANISM_PARAMETERS = {"epsilon": "ε", "delta": "δ", "sigma": "σ", "sensitivity": "Δ", "rho": "ρ", "mu": "μ"}


def mechanism_words(mechanism: dict) -> str:
    """A release's mechanism (a row of a report's ``release.mechanisms``) as a table cell reads it: its name as the
    book writes it, its parameters to four significant digits, how often it runs ("zCDP, ρ = 2.556, run once";
    "Gaussian, σ = 5.774, Δ = 1, μ = 0.015, run 30 times"), not the report's field names ("zcdp (ρ = 2.55623)")."""
    name = mechanism.get("mechanism")
    if name not in _MECHANISM_NAMES:
        raise ValueError(f"mechanism must be one of {sorted(_MECHANISM_NAMES)} (got mechanism={name!r})")
    parts = [f"{symbol} = {number(mechanism[key], 4)}" for key, symbol in _MECHANISM_PARAMETERS.items()
             if key in mechanism]
    runs = mechanism.get("k", 1)
    return ", ".join([_MECHANISM_NAMES[name], *parts, "run once" if runs == 1 else f"run {number(runs)} times"])


def captioned(caption: str, lines: list[str], name: str | None = None) -> list[str]:
    """Markdown table lines as a numbered table with a caption (MyST's ``{table}`` directive in a colon fence),
    named ``name`` for ``{numref}`` when given."""
    return [f":::{{table}} {caption}", *([f":name: {name}"] if name else []), "", *lines, ":::"]


def checked_report(results, unchecked=None) -> str:
    """The Markdown of a chapter's closing section "How this was checked", from the claims registry, as
    numbered, captioned tables: relations attacked (evidence as :func:`evidence_label` words it, margin with its
    cases, outcome; the chapter's
    prose defines the margin once), printed values recomputed (at the printed precision), and the statements
    left unchecked with the reason (``unchecked``: rows of (where, statement, why not); left out when ``None``)."""
    relations = [r for r in results if r.verdict is not None]
    values = [r for r in results if r.verdict is None]
    lines = captioned("Relations, attacked: the evidence (what was shown, on which domain or at which points), "
                       "the margin and the worst case found.", [
        "| where | claim | evidence | margin | worst case | outcome |", "|---|---|---|---|---|---|",
        *[f"| {prose(r.claim.where)} | {claim_link(r.claim.id)} | "
          f"{evidence_label(r.verdict)} | {margin_cell(r.verdict)} | "
          f"{worst_cell(r.verdict.worst)} | {outcome(r)} |" for r in relations]])
    lines += [""] + captioned("Printed values, recomputed at the printed precision.", [
        "| where | claim | printed | computed | outcome |", "|---|---|---|---|---|",
        *[f"| {prose(r.claim.where)} | {claim_link(r.claim.id)} | {value_cell(r.claim.printed)} | "
          f"{computed_cell(r.computed, r.claim.printed)} | {outcome(r)} |" for r in values]])
    if unchecked is not None:
        lines += [""] + captioned("Stated in the paper, not checked, and why.", [
            "| where | statement | why not |", "|---|---|---|",
            *[f"| {prose(w)} | {prose(s)} | {prose(y)} |" for w, s, y in unchecked]])
    return "\n".join(lines)
