"""Published releases, with the sentences that state their numbers (``gallery.json``, shipped with the package).

Each entry names its mechanism and parameters, privacy unit, neighbouring relation, what is outside the
accounting (invariants), and for every number the sentence that states it, where, its URL and who confirmed it
at the source.  :func:`release` gives an entry as a release the report reads (``--release NAME``).
Parameters may be written as exact rationals ``"a/b"``, as the Census Bureau's certificates print them.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib import resources

from .fields import ReleaseError

__all__ = ["entries", "names", "release", "number"]


def entries() -> dict:
    """All gallery entries by name (the parsed ``gallery.json``)."""
    text = resources.files(__package__).joinpath("gallery.json").read_text(encoding="utf-8")
    return json.loads(text)["releases"]


def names() -> list[str]:
    return sorted(entries())


def number(value):
    """A gallery number: a JSON number as is, ``"a/b"`` as the float nearest the exact rational."""
    if isinstance(value, str):
        return float(Fraction(value))
    return value


def release(name: str) -> dict:
    """The release fields of gallery entry ``name`` (numbers resolved), with its title and sources."""
    found = entries()
    if name not in found:
        raise ReleaseError("release", f"no published release named {name!r} (the gallery has "
                                      f"{', '.join(sorted(found))}; --list shows them)")
    entry = found[name]
    # exact rationals "a/b" stay as written: the release's checks turn them into floats on the safe side
    fields = dict(entry["release"])
    fields.pop("stated", None)
    source = {"gallery": name, "mechanism_note": entry.get("mechanism_note"), "sources": entry["sources"],
              "stated": entry["release"].get("stated", []), "finer": entry.get("finer"),
              "published": {key: number(value) for key, value in entry.get("published", {}).items()}}
    return {**fields, "name": name, "title": entry["title"], "source": source}
