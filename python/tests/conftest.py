"""Shared fixtures: the public corpus (IOCO_CORPUS, else shared/corpus beside the repository)
and the `ioco` binary (IOCO_BIN) for comparisons with the command line. What a machine lacks
is skipped and recorded in test-skips.txt, as the Rust tests' skips (crate ioco-testkit);
IOCO_NO_SKIP=1 makes a skip a failure."""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def skip_recorded(request, reason):
    test = f"python/tests::{request.node.nodeid}"
    if os.environ.get("IOCO_NO_SKIP", "") not in ("", "0"):
        pytest.fail(f"{test} cannot run (IOCO_NO_SKIP is set, so this is a failure): {reason}")
    log = os.environ.get("IOCO_SKIP_LOG") or str(REPO / "target" / "test-skips.txt")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"{test}\t{reason}\n")
    pytest.skip(reason)


@pytest.fixture
def corpus(request) -> pathlib.Path:
    root = os.environ.get("IOCO_CORPUS") or str(REPO.parent / "shared" / "corpus")
    p = pathlib.Path(root)
    if not (p / "mealy-aalpy").is_dir():
        skip_recorded(request, "the public corpus is missing (set IOCO_CORPUS)")
    return p


@pytest.fixture
def ioco_bin(request):
    """Runs the `ioco` binary: ioco_bin(*args) -> CompletedProcess."""
    exe = os.environ.get("IOCO_BIN") or str(REPO / "target" / "debug" / "ioco")
    if not os.access(exe, os.X_OK):
        skip_recorded(request, "the ioco binary is not built (cargo build -p ioco-cli, or IOCO_BIN)")

    def run(*args, check=True):
        r = subprocess.run([exe, *map(str, args)], capture_output=True, text=True, timeout=300)
        if check and r.returncode not in (0, 1):
            raise AssertionError(f"ioco {' '.join(map(str, args))}: {r.returncode}\n{r.stderr}")
        return r

    return run


def mealy_files(corpus: pathlib.Path):
    """Every DOT file of the corpus that ioco reads as a Mealy machine."""
    import ioco

    out = []
    for d in ("mealy-aalpy", "hybrid-ads"):
        for f in sorted((corpus / d).rglob("*.dot")):
            if isinstance(ioco.load(f), ioco.Mealy):
                out.append(f)
    return out
