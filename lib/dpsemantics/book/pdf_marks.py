"""What a PDF page paints, and where: the boxes of its text, its filled or stroked paths and its images, read from
the page's content stream with ``pypdf``'s parser.  :mod:`dpsemantics.book.pdf` reads how far down a printed page
is filled (a figure that did not fit leaves the page before it short), and so does the PDF test
(tests/book/test_pdf.py: no page more than 30 % empty).

A page's content is walked as a PDF viewer draws it: the graphics state (``q``/``Q``, ``cm``, the clipping path,
the fill and stroke colours), the paths (``re``, ``m``, ``l``, ``c``, ``v``, ``y``) and what paints them (``f``,
``S``, ``B``… — ``n`` only ends a path, usually a clip), images and forms (``Do``: an image fills the unit square of
the current matrix, a form is walked with its own ``/Matrix`` and ``/BBox``), and text (each ``Tj``/``TJ`` at the
origin of the text matrix).  A mark is ``(kind, (x0, y0, x1, y1))`` in points from the page's lower left corner,
clipped to the clipping path's bounding box.  Paths painted white are not marks: Chromium paints the page's white
background, and white boxes, as filled rectangles.  A text mark is its baseline's starting point; glyphs reach a
few points below it (descenders), which a page's emptiness, measured to the next centimetres, does not need.
"""

from __future__ import annotations

from pypdf.generic import ContentStream

IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: Fill or stroke colours that paint nothing on white paper: grey, RGB and CMYK white.
WHITE = {(1.0,), (1.0, 1.0, 1.0), (0.0, 0.0, 0.0, 0.0)}
PAINT = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"S", b"s"}
STROKE_ONLY, FILL_ONLY = {b"S", b"s"}, {b"f", b"F", b"f*"}


def _times(a, b):
    """The matrix product ``a × b`` of two PDF matrices ``(a, b, c, d, e, f)`` (``a`` applied first)."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5])


def _point(m, x, y):
    return (x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5])


def _box(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _meet(a, b):
    return b if a is None else (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _colour(operands) -> tuple:
    return tuple(round(float(v), 3) for v in operands if isinstance(v, (int, float)))


def marks(obj, reader, ctm=IDENTITY, clip=None) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every mark (``"text"``, ``"path"`` or ``"image"``, and its box) that a page, or a form it draws, paints."""
    found = []
    contents = obj.get_contents() if hasattr(obj, "get_contents") else obj
    if contents is None:
        return found
    xobjects = (obj.get("/Resources") or {}).get("/XObject") or {}
    stack, path, clipping = [], [], False
    fill = stroke = (0.0,)
    text_matrix = line_matrix = IDENTITY
    leading = 0.0

    def paint(kind, box):
        box = _meet(clip, box)
        if box[0] <= box[2] and box[1] <= box[3]:
            found.append((kind, box))

    for operands, op in ContentStream(contents, reader).operations:
        if op == b"q":
            stack.append((ctm, clip, fill, stroke))
        elif op == b"Q" and stack:
            ctm, clip, fill, stroke = stack.pop()
        elif op == b"cm":
            ctm = _times(tuple(map(float, operands)), ctm)
        elif op in (b"g", b"rg", b"k", b"sc", b"scn"):
            fill = _colour(operands)
        elif op in (b"G", b"RG", b"K", b"SC", b"SCN"):
            stroke = _colour(operands)
        elif op == b"re":
            x, y, w, h = map(float, operands)
            path += [_point(ctm, x, y), _point(ctm, x + w, y + h), _point(ctm, x, y + h), _point(ctm, x + w, y)]
        elif op in (b"m", b"l", b"c", b"v", b"y"):
            v = list(map(float, operands))
            path += [_point(ctm, v[k], v[k + 1]) for k in range(0, len(v) - 1, 2)]
        elif op in (b"W", b"W*"):
            clipping = True
        elif op in PAINT or op == b"n":
            if path:
                box = _box(path)
                filled = op in PAINT and op not in STROKE_ONLY and fill not in WHITE
                stroked = op in PAINT and op not in FILL_ONLY and stroke not in WHITE
                if filled or stroked:
                    paint("path", box)
                if clipping:
                    clip = _meet(clip, box)
            path, clipping = [], False
        elif op == b"Do":
            xobject = xobjects.get(operands[0])
            xobject = xobject.get_object() if xobject is not None else None
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image":
                paint("image", _box([_point(ctm, x, y) for x in (0, 1) for y in (0, 1)]))
            elif xobject.get("/Subtype") == "/Form":
                inner = _times(tuple(map(float, xobject.get("/Matrix", IDENTITY))), ctm)
                b = list(map(float, xobject["/BBox"]))
                bounds = _meet(clip, _box([_point(inner, x, y) for x in (b[0], b[2]) for y in (b[1], b[3])]))
                found += marks(xobject, reader, inner, bounds)
        elif op == b"BT":
            text_matrix = line_matrix = IDENTITY
        elif op == b"TL":
            leading = float(operands[0])
        elif op == b"Tm":
            text_matrix = line_matrix = tuple(map(float, operands))
        elif op in (b"Td", b"TD"):
            tx, ty = map(float, operands)
            leading = -ty if op == b"TD" else leading
            text_matrix = line_matrix = _times((1, 0, 0, 1, tx, ty), line_matrix)
        elif op == b"T*":
            text_matrix = line_matrix = _times((1, 0, 0, 1, 0, -leading), line_matrix)
        elif op in (b"Tj", b"TJ", b"'", b'"'):
            if op in (b"'", b'"'):
                text_matrix = line_matrix = _times((1, 0, 0, 1, 0, -leading), line_matrix)
            x, y = _point(_times(text_matrix, ctm), 0, 0)
            paint("text", (x, y, x, y))
    return found


def lowest_mark(page, reader, bottom: float, top: float) -> float | None:
    """The height (points from the page's foot) of the lowest mark in the band ``bottom < y < top`` (the text
    area, without the running head above it and the page number below it); None when the band holds nothing."""
    heights = [max(box[1], bottom) for _, box in marks(page, reader) if box[3] > bottom + 1 and box[1] < top - 1]
    return min(heights, default=None)
