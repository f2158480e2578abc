"""pyproject.toml and environment.yml must pin the same versions."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _pins(lines):
    pins = {}
    for line in lines:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-\[\]]+)\s*==\s*([^\s;]+)\s*", line)
        if m:
            pins[m.group(1).lower()] = m.group(2)
    return pins


def pyproject_pins():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    lines = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        lines += extra
    return _pins(lines)


def environment_pins():
    lines = []
    for raw in (ROOT / "environment.yml").read_text().splitlines():
        m = re.match(r"\s*-\s+(.*)$", raw)
        if m:
            lines.append(m.group(1))
    return _pins(lines)


def test_every_requirement_is_pinned_exactly():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = data["project"]
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    assert reqs, "pyproject.toml lists no requirements"
    loose = [r for r in reqs if "==" not in r]
    assert not loose, f"unpinned requirements: {loose}"


def test_environment_yml_matches_pyproject():
    py, env = pyproject_pins(), environment_pins()
    assert py, "no pins found in pyproject.toml"
    only_py, only_env = set(py.items()) - set(env.items()), set(env.items()) - set(py.items())
    assert py == env, f"pins differ: only in pyproject {only_py}, only in environment.yml {only_env}"
