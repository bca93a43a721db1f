"""Shared fixtures: the repository's root, the `slst` command, the shipped and shared corpora."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"


def slst_bin() -> Path:
    """The `slst` command: $SLST_BIN, else a build in target/ (the test command's own debug
    build, or a release build)."""
    given = os.environ.get("SLST_BIN")
    if given:
        path = Path(given)
        if not path.is_file():
            raise FileNotFoundError(f"SLST_BIN={given} is not a file")
        return path
    for build in ("debug", "release"):
        path = ROOT / "target" / build / "slst"
        if path.is_file():
            return path
    pytest.skip("no slst command: build it (cargo build) or set SLST_BIN")


def run_slst(*args: str) -> str:
    out = subprocess.run(
        [str(slst_bin()), *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return out.stdout


def cli_compare(a: str, b: str, *flags: str) -> dict:
    return json.loads(run_slst("compare", a, b, "--json", *flags))


@pytest.fixture(scope="session")
def reuters_jsonl(tmp_path_factory) -> Path:
    """Reuters-21578 as JSON lines (title, blank line, body, as slst reads the SGML), from the
    shared corpora; skipped when they are not beside the repository."""
    sgml = sorted((SHARED / "reuters21578").glob("reut2-*.sgm"))
    if not sgml:
        if os.environ.get("SLST_REQUIRE_CORPORA"):
            raise FileNotFoundError(f"SLST_REQUIRE_CORPORA is set but {SHARED}/reuters21578 is not there")
        pytest.skip("Reuters-21578 is not in ../shared/corpora")
    out = tmp_path_factory.mktemp("reuters") / "reuters21578.jsonl"
    subprocess.run(
        ["python3", str(ROOT / "scripts/peers/reuters_to_jsonl.py"), str(out), *map(str, sgml)],
        check=True,
        capture_output=True,
    )
    return out
