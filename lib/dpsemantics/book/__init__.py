"""The book's tooling, apart from the mathematics: the table of contents, the reader-facing number
formatter and check tables, the house figure style, reruns, the student edition, exercises and the
Sphinx extension.  Everything here may import the mathematical modules; nothing there imports this.
"""

from .render import (checked_report, claim_link, claim_target, computed_cell, margin_cell, number, outcome, prose,
                     value_cell)
from .toc import ROOT, chapter_notebooks, chapter_numbers, docnames

__all__ = ["ROOT", "chapter_notebooks", "chapter_numbers", "checked_report", "claim_link", "claim_target",
           "computed_cell", "docnames", "margin_cell", "number", "outcome", "prose", "value_cell"]
