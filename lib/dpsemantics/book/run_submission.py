"""Run one submitted notebook and write its answers as plain data: the only place student code runs in grading.

    python -m dpsemantics.book.run_submission NOTEBOOK SPEC OUT

``SPEC`` (JSON, written by :mod:`dpsemantics.book.grader`) names the answer variables of every question and,
for a formula answer, the points at which to evaluate it; it holds no reference value.  The notebook's code
cells run in one IPython namespace (errors do not stop the run; ``%pip``/``!pip`` lines are skipped, the
grading environment already has the package; a cell that only calls ``grader.check`` is skipped), then every
answer is converted to plain data — a number, a list of numbers, or an error string — and written to ``OUT``
as JSON.  Nothing here decides a score: :mod:`dpsemantics.book.grader` reads ``OUT`` in a process that never
runs student code and compares it with the reference values fixed when the assignment was generated.  A
student's code may therefore write anything into ``OUT``; that is no more than assigning other answers.

A formula answer is evaluated last, with the package blocked (:func:`_block_package`): the exercise asks for
the theorem's formula, so a function that calls into ``dpsemantics`` raises and scores 0 on every point.

The helpers this module needs after the student's code has run (``float``, ``isinstance``, ``open``, ``json``)
are bound before it runs, and the builtins are restored after it, so that patching them in a cell does not stop
the answers from being written.
"""

from __future__ import annotations

import builtins
import gc
import json
import math
import os
import re
import sys
import types

_float, _isinstance, _open, _callable, _len, _list = float, isinstance, open, callable, len, list
_dumps, _isfinite, _str, _repr, _type = json.dumps, math.isfinite, str, repr, type
_get_objects, _function, _getattr = gc.get_objects, types.FunctionType, getattr
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # .../dpsemantics/
_BUILTINS = dict(builtins.__dict__)  # restored after the student's code, before the answers are read
_PIP = re.compile(r"^([ \t]*)[%!][ \t]*pip\b.*$", re.MULTILINE)
_CHECK_ONLY = re.compile(r"^\s*(grader\.check\([^()]*\)\s*)+$")


def _number(x):
    """A finite float from an int, a float, a NumPy scalar or a one-element array or list; else an error string."""
    try:
        import numpy as np

        arr = np.asarray(x, dtype=_float)
        if arr.size != 1:
            return f"expected one number, got {arr.size} values"
        value = _float(arr.reshape(-1)[0])
    except Exception as err:  # noqa: BLE001 - a student's answer may raise anything: it is then not a number
        return f"not a number ({_type(err).__name__})"
    if _isinstance(x, bool) or not _isfinite(value):
        return "not a finite number"
    return value


def _matrix(x):
    """A list of lists of finite floats, or an error string."""
    try:
        import numpy as np

        arr = np.asarray(x, dtype=_float)
        if arr.ndim != 2 or not np.all(np.isfinite(arr)):
            return "expected a finite 2-D table of numbers"
        return [[_float(v) for v in row] for row in arr.tolist()]
    except Exception as err:  # noqa: BLE001
        return f"not a table of numbers ({_type(err).__name__})"


def _answer(ns: dict, var: str, item: dict):
    if var not in ns:
        return f"the variable {var} is not defined"
    x = ns[var]
    if x is Ellipsis:
        return "not answered (still ...)"
    kind = item.get("kind", "number")
    if kind == "number":
        return _number(x)
    if kind == "formula":
        if not _callable(x):
            return "expected a function"
        out = []
        for args in item["points"]:
            try:
                out.append(_number(x(*args)))
            except Exception as err:  # noqa: BLE001
                out.append(f"raised {_type(err).__name__}")
        return out
    if kind == "mechanism":
        try:
            return {"matrix": _matrix(x.matrix), "databases": _matrix(x.databases)}
        except Exception as err:  # noqa: BLE001
            return f"not a finite mechanism ({_type(err).__name__})"
    if kind == "table":
        return _matrix(x)
    return f"unknown answer kind {kind!r}"


def _blocked(*args, **kwargs):
    raise RuntimeError("a formula answer is graded without the dpsemantics package")


def _raiser(free: int):
    """A code object that raises like :func:`_blocked`, with ``free`` free variables (a function's ``__code__``
    can only be replaced by one with as many free variables as its closure has cells)."""
    if free == 0:
        return _blocked.__code__
    names = [f"_v{i}" for i in range(free)]
    src = ("def outer():\n" + "".join(f"    {v} = None\n" for v in names) + "    def f(*a, **k):\n"
           f"        ({', '.join(names)},)\n"
           "        raise RuntimeError('a formula answer is graded without the dpsemantics package')\n"
           "    return f\n")
    scope = {}
    exec(src, scope)  # noqa: S102 - a fixed template
    return scope["outer"]().__code__


def _in_package(f) -> bool:
    """Whether a function object is the package's: by its module's name, its globals' name or its code's file."""
    names = (_getattr(f, "__module__", None), f.__globals__.get("__name__"))
    named = any(_isinstance(n, _str) and (n == "dpsemantics" or n.startswith("dpsemantics.")) for n in names)
    return named or _str(f.__code__.co_filename).startswith(_PACKAGE_DIR)


def _block_package() -> int:
    """Make the package unusable for the rest of the run: every function of the package (module functions,
    methods, properties' getters, and the same function objects wherever a notebook keeps them: its own names,
    ``functools.partial``, ``np.vectorize``, copies made with ``types.FunctionType``) gets a body that raises,
    and importing ``dpsemantics`` again fails.  This module's own helpers are kept.  Returns how many functions
    were blocked.  It stops calls, not copying: a notebook that pastes the package's source into its cells, or
    tabulates the package's values before grading, is for the instructor to read."""
    own = {id(f) for f in globals().values() if _isinstance(f, _function)}
    count = 0
    for obj in _get_objects():
        if not _isinstance(obj, _function) or id(obj) in own or not _in_package(obj):
            continue
        try:
            obj.__code__ = _raiser(_len(obj.__code__.co_freevars))
            obj.__defaults__ = obj.__kwdefaults__ = None
            count += 1
        except (ValueError, TypeError, AttributeError):
            pass
    for name in _list(sys.modules):
        if name == "dpsemantics" or name.startswith("dpsemantics."):
            sys.modules[name] = None  # a new import raises ImportError
    return count


def main(argv=None) -> int:
    notebook, spec_path, out_path = (sys.argv[1:] if argv is None else argv)
    with _open(spec_path) as f:
        spec = json.load(f)
    with _open(notebook) as f:
        nb = json.load(f)
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    errors = []
    for index, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if _isinstance(source, _list) else _str(source)
        if _CHECK_ONLY.match(source):
            continue
        result = shell.run_cell(_PIP.sub(r"\1pass", source), store_history=False, silent=True)
        error = result.error_before_exec or result.error_in_exec
        if error is not None:
            errors.append(f"cell {index + 1}: {_type(error).__name__}")
    ns = shell.user_ns
    builtins.__dict__.update(_BUILTINS)
    answers = {}
    items = [i for i in spec["answers"] if i.get("kind") != "formula"]
    formulas = [i for i in spec["answers"] if i.get("kind") == "formula"]
    for item in items + formulas:  # the numbers and constructions first, then the formulas without the package
        if formulas and item is formulas[0]:
            _block_package()
        try:
            answers[item["var"]] = _answer(ns, item["var"], item)
        except BaseException as err:  # noqa: BLE001 - even a SystemExit raised by an answer is only a wrong answer
            answers[item["var"]] = f"could not be read ({_type(err).__name__})"
    text = _dumps({"answers": answers, "errors": errors[:20]})  # before the file exists: no half-written answers
    with _open(out_path, "w") as f:
        f.write(text)
    builtins.print("answers written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
