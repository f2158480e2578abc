"""What a reader sees of a number or a chapter's checks: one formatter and one report table for every page."""

from __future__ import annotations


def number(value, digits: int = 4) -> str:
    """A number as a reader sees it: plain Python formatting, never a NumPy repr (``np.float64(...)``).

    Integers (and integral floats up to 1e15) print whole; other values to ``digits`` significant digits,
    in scientific form with a short exponent (``1e-06`` → ``1e-6``) when very large or small."""
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e15):
        return f"{int(value):,}".replace(",", " ") if abs(value) >= 10_000 else str(int(value))
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        text = f"{mantissa}e{int(exp)}"
    return text


def checked_report(results, unchecked) -> str:
    """The Markdown of a chapter's closing section "What this chapter checked", from the claims registry:
    relations attacked (evidence, cases, margin, worst case, outcome), printed values recomputed, and the
    statements left unchecked with the reason (``unchecked``: rows of (where, statement, why not))."""

    def cell(value):
        text = number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
        return text.replace("|", "\\|")

    def outcome(r):
        return r.status + (f" ({r.finding.replace('-', ' ')})" if r.finding else "")

    relations = [r for r in results if r.verdict is not None]
    values = [r for r in results if r.verdict is None]
    lines = ["**Relations, attacked.**", "", "| claim | where | evidence | cases | margin | worst case | outcome |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| `{r.claim.id}` | {cell(r.claim.where)} | {', '.join(r.verdict.evidence)} | {r.verdict.cases} | "
              f"{r.verdict.margin:.4g} | {cell(r.verdict.worst)} | {outcome(r)} |" for r in relations]
    lines += ["", "**Printed values, recomputed.**", "", "| claim | where | printed | computed | outcome |",
              "|---|---|---|---|---|"]
    lines += [f"| `{r.claim.id}` | {cell(r.claim.where)} | {cell(r.claim.printed)} | {cell(r.computed)} | {outcome(r)} |"
              for r in values]
    lines += ["", "**Stated in the paper, not checked, and why.**", "", "| where | statement | why not |", "|---|---|---|"]
    lines += [f"| {cell(w)} | {cell(s)} | {cell(y)} |" for w, s, y in unchecked]
    return "\n".join(lines)
