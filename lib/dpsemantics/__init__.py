"""dpsemantics: the computations behind *The Semantics of Differential Privacy — executable papers*.

One module per concept (see the book's DESIGN and each module's docstring):
``indistinguishability``, ``mechanisms``, ``conversions``, ``composition``, ``disclosure``, ``semantic``,
``notions``, ``causal``, ``claims``, ``plotting``.  Every public function names the paper and the
theorem or equation it implements, and rejects bad input with a ``ValueError`` naming the parameter.
"""

__version__ = "0.1.0"
