"""A map of the privacy notions of the whole book, as data joined to the claims registry.

:data:`NOTIONS` are the nodes (a definition of one of the five source documents) and :data:`RELATIONS`
the arrows: "a mechanism with the source notion at these parameters has the target notion at those",
each labelled with its parameter transformation and the theorem (numbered as in the paper that proves it).
:func:`table_rows` lists the arrows for a table in the book; ``dpsemantics.book.notion_map_figure`` lays the map out
and draws it (the data holds no coordinates).

Theorem numbers come from the papers themselves: Lecture 1 (002), Kasiviswanathan & Smith (000, "K&S"),
Zhao (001), Tschantz, Sen & Datta (003, "TSD"), Kazan et al. (004).  Two arrows rest on results of
Yang et al. (SIGMOD 2015) that the book only meets through TSD's §3 citation; they are marked so.

Arrows are joined to the registry: each names the ids of the claims that check it (``Relation.claims``), and
:func:`status` reads the registry — an arrow whose claim is a discrepancy is ``"refuted"`` and is drawn dashed,
crossed and labelled so (never as a valid arrow); an arrow with no claim yet is ``"unchecked"`` and drawn dotted.
An arrow that holds only under a hypothesis the paper leaves out names, in ``Relation.needs``, the claims that refute
it without that hypothesis (discrepancies that do not refute the arrow as stated with its condition); the figure
writes the hypothesis on such an arrow.

No chapter is typed here.  A notion is defined in the chapter of its paper (the ``CHAPTER`` of that paper's claims
module); an arrow is checked in the chapter of its first claim, or, with no claim, in the chapter of its paper
(:attr:`Relation.chapter`); :func:`chapters` lists them.  The chapters' numbers and titles are the table of
contents' (``dpsemantics.book.toc``).
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass

from . import PAPERS

__all__ = ["Notion", "Relation", "NOTIONS", "RELATIONS", "STATUSES", "chapters", "paper_chapter", "notion",
           "relations_between", "relations_checked_in", "status", "statuses", "table_rows"]

#: How an arrow stands against the registry.
STATUSES = {
    "valid": "every claim that checks the arrow is reproduced",
    "refuted": "a claim that checks the arrow is a discrepancy: the relation fails as printed",
    "unchecked": "no claim of the registry checks the arrow yet",
}


def paper_chapter(paper: str) -> str:
    """The chapter (Jupyter Book docname) that reproduces a paper: the ``CHAPTER`` of its claims module
    (``paper_chapter("zhao") == "book/privacy-notions"``)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {sorted(PAPERS)} (got paper={paper!r})")
    return importlib.import_module(f"{__package__}.{paper}").CHAPTER


@functools.cache
def _claim_chapters() -> dict[str, str]:
    from . import registry

    return {c.id: c.chapter for c in registry()}


@dataclass(frozen=True)
class Notion:
    """A node: ``key`` (stable id), ``label`` (short, for the figure), ``definition`` (where it is defined),
    ``paper`` (claims paper key); its ``chapter`` is where it is defined."""

    key: str
    label: str
    definition: str
    paper: str

    @property
    def chapter(self) -> str:
        """The chapter of the notion's paper (:func:`paper_chapter`)."""
        return paper_chapter(self.paper)


@dataclass(frozen=True)
class Relation:
    """An arrow ``source → target``: ``transform`` is the parameter map (Matplotlib mathtext), ``theorem``
    the result that proves it, ``paper`` its claims key, ``condition`` any side condition and ``caveat`` its
    short form for the figure (required with a condition), ``both_ways`` for an equivalence at the same
    parameters, ``claims`` the ids of the claims in :mod:`dpsemantics.claims` that check it (see :func:`status`),
    ``needs`` the ids of the claims that show its condition is needed (the relation without the condition is a
    discrepancy of the registry; they do not change :func:`status`, and the figure labels the arrow with its
    caveat)."""

    source: str
    target: str
    transform: str
    theorem: str
    paper: str
    condition: str = ""
    both_ways: bool = False
    claims: tuple[str, ...] = ()
    caveat: str = ""
    needs: tuple[str, ...] = ()

    def __post_init__(self):
        if self.condition and not self.caveat:
            raise ValueError(f"caveat must summarise the condition of {self.source} → {self.target} "
                             f"(got condition={self.condition!r}, caveat='')")
        if self.needs and not self.condition:
            raise ValueError(f"needs names claims that show a condition is needed: {self.source} → {self.target} "
                             f"has no condition (got needs={self.needs!r})")

    @property
    def chapter(self) -> str:
        """Where the book checks the arrow: the chapter of its first claim, or of its paper when no claim checks
        it.  A claim id the registry does not know is an error (as in :func:`status`)."""
        if not self.claims:
            return paper_chapter(self.paper)
        try:
            return _claim_chapters()[self.claims[0]]
        except KeyError:
            raise ValueError(f"arrow {self.source} → {self.target} names claims not in the registry "
                             f"(got {self.claims[0]!r})") from None


#: The notions (nodes) of the map, one per definition the chapters state.
NOTIONS: tuple[Notion, ...] = (
    Notion("dp", "ε-DP", "Lecture 1, Definition 1.1 (δ = 0); K&S Definition 1.1", "lecture"),
    Notion("approx-dp", "(ε, δ)-DP", "Lecture 1, Definition 1.1; Kazan et al., Definition 2.1", "lecture"),
    Notion("pdp", "(ε, δ)-probabilistic DP", "Kazan et al., Definition 2.4", "kazan"),
    Notion("zcdp", "ρ-zCDP", "Kazan et al., Definition 2.6", "kazan"),
    Notion("disclosure", "disclosure-risk bounds\n(posterior, ratio, difference)",
           "Kazan et al., Theorems 3.2, 3.3, 3.5", "kazan"),
    Notion("sp", "ε-semantic privacy", "K&S Definition 2.1; Zhao Definition 1", "ks"),
    Notion("approx-sp", "(ε, δ)-semantic privacy", "K&S Definition 2.3", "ks"),
    Notion("bdp", "ε-Bayesian DP", "Zhao, Section I and eq. (19) (after Yang et al.)", "zhao"),
    Notion("bsp", "ε-Bayesian semantic\nprivacy", "Zhao, Definition 2", "zhao"),
    Notion("mp", "ε-membership privacy", "Zhao, Definition 3 (after Li et al.)", "zhao"),
    Notion("sa-dp", "strong-adversary DP", "TSD, Definition 2", "tsd"),
    Notion("dpi-all", "data-point intervention DP,\nevery population", "TSD, Definition 8", "tsd"),
    Notion("dpi-one", "data-point intervention DP,\none population", "TSD, Definition 7", "tsd"),
)

#: The arrows of the map: every implication the papers state, with its parameter map and condition.
RELATIONS: tuple[Relation, ...] = (
    # Lecture 1
    Relation("dp", "approx-dp", r"$\varepsilon \mapsto (\varepsilon, 0)$", "Lecture 1, §6 (pure DP is the case δ = 0)",
             "lecture"),
    # Kazan et al.
    Relation("dp", "pdp", r"$\varepsilon \leftrightarrow (\varepsilon, 0)$", "Kazan et al., Theorem 2.3", "kazan",
             both_ways=True, claims=("kazan-thm2.3-pure-pdp",)),
    Relation("pdp", "approx-dp", r"$(\varepsilon,\delta) \mapsto (\varepsilon,\delta)$", "Kazan et al., Theorem 2.5",
             "kazan",
             claims=("kazan-thm2.5-pdp-dp",)),
    Relation(
        "approx-dp", "pdp",
        r"$\varepsilon' = \log\frac{\delta' e^{\varepsilon} + \delta}{\delta' - \delta}$",
        "Kazan et al., Theorem 3.9", "kazan", condition="any δ′ ∈ (δ, 1]",
        caveat="any δ′ ∈ (δ, 1]",
        claims=("kazan-thm3.9-holds", "kazan-thm3.9-exceeds-eps"),
    ),
    Relation("zcdp", "approx-dp", r"$\rho \mapsto (\rho + 2\sqrt{\rho \log(1/\delta)},\ \delta)$",
             "Kazan et al., Theorem 2.7", "kazan", condition="any δ > 0", caveat="any δ > 0",
             claims=("kazan-thm2.7-zcdp-dp",)),
    Relation("pdp", "disclosure", r"same $(\varepsilon,\delta)$: bounds w.p. $1-\delta$",
             "Kazan et al., Theorems 3.2, 3.3, 3.5", "kazan", both_ways=True,
             condition="the difference bound's converse (Theorem 3.5(2)) costs (ε, 2δ) or (ε̃, δ)",
             caveat="converse of Thm 3.5: (ε, 2δ)",
             claims=("kazan-thm3.2-forward", "kazan-thm3.2-reverse", "kazan-thm3.3-forward", "kazan-thm3.3-reverse",
                     "kazan-thm3.5-1", "kazan-thm3.5-2-two-delta", "kazan-thm3.5-2-eps-tilde")),
    Relation("dp", "disclosure", r"same $\varepsilon$, w.p. 1", "Kazan et al., Corollaries 3.6–3.8", "kazan",
             both_ways=True),
    Relation("disclosure", "approx-dp", r"same $(\varepsilon,\delta)$", "Kazan et al., Corollary 3.10 (1)", "kazan",
             claims=("kazan-cor3.10-1", "kazan-cor3.11-1")),
    Relation("approx-dp", "disclosure", r"$\varepsilon'$ of Thm 3.9, w.p. $1-\delta'$",
             "Kazan et al., Corollaries 3.10–3.12", "kazan",
             claims=("kazan-cor3.10-2", "kazan-cor3.11-2", "kazan-cor3.12-2")),
    # Kasiviswanathan & Smith
    Relation("dp", "sp", r"$\varepsilon \mapsto e^{\varepsilon} - 1$", "K&S, Theorem 2.2", "ks",
             claims=("ks-thm2.2-forward",)),
    Relation("sp", "dp", r"$\varepsilon/6 \mapsto \varepsilon$", "K&S, Theorem 2.2", "ks",
             condition="ε ≤ 1.35 (i.e. ε/2-SP ⇒ 3ε-DP for ε ≤ 0.45)", caveat="if ε ≤ 1.35",
             claims=("ks-thm2.2-converse",)),
    Relation(
        "approx-dp", "approx-sp",
        r"$(e^{3\varepsilon} - 1 + 2\sqrt{n\delta},\ 4\sqrt{n\delta})$",
        "K&S, Theorem 2.4 (1)", "ks", condition="δ < (1 − e^{−ε})²/n",
        caveat=r"if $\delta < (1 - e^{-\varepsilon})^2/n$",
        claims=("ks-thm2.4-1-condition", "ks-thm2.4-1-leaky-count"),
    ),
    Relation("approx-sp", "approx-dp", r"$(\varepsilon,\delta) \mapsto (3\varepsilon, 2\delta)$",
             "K&S, Theorem 2.4 (2)", "ks", condition="ε ≤ 0.45", caveat="if ε ≤ 0.45",
             claims=("ks-thm2.4-2",)),
    # Zhao
    Relation("dp", "sp", r"$\varepsilon \mapsto e^{2\varepsilon} - 1$", "Zhao, Theorem 2", "zhao",
             claims=("zhao-thm2-forward",)),
    Relation("sp", "dp", r"$\frac{1}{2} - \frac{1}{e^{\varepsilon}+1} \mapsto \varepsilon$", "Zhao, Theorem 2", "zhao",
             claims=("zhao-thm2-converse",)),
    Relation("bdp", "bsp", r"$\varepsilon \mapsto e^{2\varepsilon} - 1$", "Zhao, Theorem 1", "zhao",
             claims=("zhao-thm1-forward",)),
    # The converse of Theorem 1 needs ⊥ to have prior mass: with records in {0, 1, 2} and a prior that never gives
    # record i the value ⊥, Game i is undefined, and randomized response between 1 and 2 has BSP 0 and BDP 2 (ε = 2).
    Relation("bsp", "bdp", r"$\frac{1}{2} - \frac{1}{e^{\varepsilon}+1} \mapsto \varepsilon$", "Zhao, Theorem 1",
             "zhao", condition="⊥ has positive prior mass (omitted in the paper); Game i conditions on Xᵢ = ⊥",
             caveat="Pr[⊥]>0", claims=("zhao-thm1-converse",),
             needs=("zhao-thm1-converse-three-values", "zhao-thm1-converse-replace-reading")),
    Relation("bsp", "sp", "same level", "Zhao, Section II (ii) (K = N∖{i} in Definition 2)", "zhao",
             condition="prior of full support", caveat="full-support prior",
             claims=("zhao-ii-bsp-implies-sp",)),
    Relation("bdp", "mp", "same ε", "Zhao, Theorem 3 (via Lemma 1, Corollary 1)", "zhao",
             condition="family F* of two-point priors (Zhao's D*)", caveat="two-point priors F*",
             claims=("zhao-thm3",)),
    Relation("mp", "bdp", "same ε", "Zhao, Theorem 4", "zhao",
             condition="downward-scalable family", caveat="downward-scalable family",
             claims=("zhao-thm4",)),
    # Yang et al., as cited by TSD §3; checked with finite mechanisms in Zhao's chapter
    # Not an equivalence: DP ⇒ BDP needs independent records, BDP ⇒ DP a prior of full support (with copied
    # records ε-DP local randomized response on two records has BDP leakage 2ε).
    Relation("bdp", "dp", "same ε", "Yang et al., Theorem 2 (cited in TSD, §3)", "tsd",
             condition="prior of full support (a prior on one database makes every mechanism 0-BDP)",
             caveat="only with a full-support prior",
             claims=("zhao-sec1-bdp-implies-dp-full-support",)),
    Relation("dp", "bdp", "same ε", "Yang et al., Theorem 1 (cited in TSD, §3)", "tsd",
             condition="independent records (copied records: DP ε, BDP nε)",
             caveat="only for independent records",
             claims=("zhao-sec1-dp-implies-bdp-independent", "tsd-table1-def4-relation")),
    # Tschantz, Sen & Datta
    Relation("dp", "sa-dp", "same ε", "TSD, Proposition 1", "tsd", both_ways=True,
             claims=("tsd-table1-def2-relation", "tsd-table1-def2-attack")),
    Relation("dp", "dpi-all", "same ε", "TSD, Proposition 5", "tsd", both_ways=True,
             claims=("tsd-table1-def8-relation", "tsd-table1-def8-attack")),
    Relation("dp", "dpi-one", "same ε", "TSD, Proposition 4", "tsd",
             condition="not conversely (TSD's two-record example)", caveat="not conversely",
             claims=("tsd-table1-def7-relation", "tsd-table1-def7-attack", "tsd-prop4-def7-not-dp")),
)

_BY_KEY = {n.key: n for n in NOTIONS}


def notion(key: str) -> Notion:
    """The node with this key."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"key must be one of {sorted(_BY_KEY)} (got key={key!r})") from None


def relations_between(a: str, b: str) -> list[Relation]:
    """Every arrow joining ``a`` and ``b`` in either direction."""
    notion(a), notion(b)
    return [r for r in RELATIONS if {r.source, r.target} == {a, b}]


def chapters() -> list[str]:
    """The chapters the map's notions are defined in, in the order of the sources (:data:`~dpsemantics.claims.PAPERS`,
    the book's reading order): the map's colours, one per chapter."""
    return list(dict.fromkeys(paper_chapter(p) for p in PAPERS if any(n.paper == p for n in NOTIONS)))


def relations_checked_in(chapter: str) -> list[Relation]:
    """The arrows the given chapter checks."""
    known = sorted(set(chapters()) | {r.chapter for r in RELATIONS})
    if chapter not in known:
        raise ValueError(f"chapter must be one of {known} (got chapter={chapter!r})")
    return [r for r in RELATIONS if r.chapter == chapter]


def _registry_statuses(evaluate: bool) -> dict:
    from . import evaluate_all, registry

    if evaluate:
        return {r.claim.id: r.status for r in evaluate_all()}
    return {c.id: c.expected for c in registry()}


def status(rel: Relation, *, evaluate: bool = False, _statuses: dict | None = None) -> str:
    """``"valid"``, ``"refuted"`` or ``"unchecked"`` (:data:`STATUSES`) for an arrow, from the registry:
    refuted when any of its claims is a discrepancy.  By default the registry's declared status is read
    (the claims test checks that it is what the computation gives); ``evaluate=True`` recomputes the claims.
    An id that is not in the registry is an error."""
    statuses = _statuses if _statuses is not None else _registry_statuses(evaluate)
    missing = [c for c in (*rel.claims, *rel.needs) if c not in statuses]
    if missing:
        raise ValueError(f"arrow {rel.source} → {rel.target} names claims not in the registry (got {missing})")
    if not rel.claims:
        return "unchecked"
    return "refuted" if any(statuses[c] == "discrepancy" for c in rel.claims) else "valid"


def statuses(*, evaluate: bool = False) -> list[str]:
    """:func:`status` of every arrow, in the order of :data:`RELATIONS` (one registry read)."""
    table = _registry_statuses(evaluate)
    return [status(r, _statuses=table) for r in RELATIONS]


def table_rows() -> list[dict]:
    """One dict per arrow (numbered as on the figure): source, target, transformation, theorem, condition,
    chapter, the claims that check it, the claims that show its condition is needed and its :func:`status`."""
    rows = []
    marks = statuses()
    for k, r in enumerate(RELATIONS, start=1):
        rows.append(
            {
                "number": k,
                "source": notion(r.source).label.replace("\n", " "),
                "target": notion(r.target).label.replace("\n", " "),
                "arrow": "⇔" if r.both_ways else "⇒",
                "transform": r.transform.replace("\n", " "),
                "theorem": r.theorem,
                "condition": r.condition,
                "caveat": r.caveat,
                "chapter": r.chapter,
                "claims": ", ".join(r.claims),
                "needs": ", ".join(r.needs),
                "status": marks[k - 1],
            }
        )
    return rows
