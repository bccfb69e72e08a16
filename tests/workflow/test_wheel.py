"""The package as a user installs it: a wheel built from the checkout, installed into fresh
virtual environments in folders outside the checkout, once with the core dependencies only
(the library, its command line's loss and plot, a Display) and once with the ``workflow``
extra (the dataset tools, which read the registries and schemas shipped in the package)."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO

MIRROR = REPO.parent / "shared" / "datasets"

pytestmark = pytest.mark.slow

# run inside the core environment, outside the checkout
CORE_USE = """
import importlib.util, sys
import numpy as np
import threshold_choice
from threshold_choice import CostCurveDisplay, expected_losses
assert "site-packages" in threshold_choice.__file__, threshold_choice.__file__
absent = [m for m in ("snakemake", "yaml", "jsonschema", "pyarrow", "openml", "requests")
          if importlib.util.find_spec(m) is not None]
assert not absent, absent
rng = np.random.default_rng(0)
y = (rng.random(300) < 0.4).astype(int)
s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1)
frame = expected_losses(y, s, methods=["score-driven", "rate-driven"], gammas=[float("inf"), 2])
display = CostCurveDisplay.from_predictions(y, s, methods=["score-driven"])
display.figure_.savefig("curves.png")
print(frame["expected_loss"].round(6).tolist())
"""


def _run(args: list[str], cwd: Path, timeout: float = 1500) -> subprocess.CompletedProcess:
    # the environment's own interpreter writes bytecode as it imports (the packages are
    # installed without: _environment), so that each run does not compile them again
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PYTHONDONTWRITEBYTECODE")}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _ok(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, (proc.args, proc.stdout[-2000:], proc.stderr[-3000:])
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # built in a copy of the tracked files, so that the checkout gets no build/ folder
    source = out / "source"
    files = _ok(_run(["git", "-C", str(REPO), "ls-files", "-z"], cwd=out)).split("\0")
    for name in filter(None, files):
        src, dst = REPO / name, source / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        elif src.is_file():
            dst.write_bytes(src.read_bytes())
    _ok(_run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out),
              str(source)], cwd=out))
    (path,) = out.glob("threshold_choice-*.whl")
    return path


def _environment(where: Path, requirement: str) -> Path:
    if importlib.util.find_spec("ensurepip") is None:  # e.g. Debian's python3 without -venv
        pytest.skip("this Python cannot create a virtual environment with pip (no ensurepip)")
    venv.create(where / "env", with_pip=True, clear=True)
    python = where / "env" / "bin" / "python"
    # --no-compile: no bytecode for the whole environment's packages up front (a minute of
    # CPU); what the tests import is compiled as it is first imported (_run)
    _ok(_run([str(python), "-m", "pip", "install", "-q", "--no-compile", requirement],
             cwd=where))
    return python


def test_the_wheel_ships_the_ibk_kernel_source_and_class(wheel):
    """The authors' Weka's IBk is predicted by a Java class loaded from the package's folder
    (models/weka_ibk.py): a wheel without it would fall over at the first prediction."""
    import zipfile

    from threshold_choice.models.weka_ibk import CLASSES, SOURCE

    package = Path(__import__("threshold_choice").__file__).parent
    wanted = {f"threshold_choice/{p.relative_to(package).as_posix()}": p.read_bytes()
              for p in (SOURCE, *CLASSES.rglob("*.class"))}
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name: archive.read(name) for name in archive.namelist() if name in wanted}
    assert shipped == wanted


def test_the_core_install_runs_the_library_the_cli_and_a_display(wheel, tmp_path):
    python = _environment(tmp_path, str(wheel))
    work = tmp_path / "elsewhere"
    work.mkdir()
    losses = _ok(_run([str(python), "-c", CORE_USE], cwd=work))
    assert len(ast.literal_eval(losses)) == 4  # 2 methods x 2 gammas
    assert (work / "curves.png").stat().st_size > 10_000
    (work / "scores.csv").write_text("label,score\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n1,0.3\n")
    cli = tmp_path / "env" / "bin" / "threshold-choice"
    out = _ok(_run([str(cli), "loss", "--test", "scores.csv", "--gamma", "inf"], cwd=work))
    assert out.startswith("method,gamma,expected_loss\n")
    _ok(_run([str(cli), "plot", "cost-curves", "--test", "scores.csv", "--out", "p/c.png"],
             cwd=work))
    assert (work / "p" / "c.png").is_file() and (work / "p" / "c.csv").is_file()
    # a command of the reproduction says in one line which extra it needs
    proc = _run([str(cli), "datasets", "prepare", "--name", "haberman", "--out", "d"], cwd=work)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert "pip install 'threshold-choice[workflow]'" in proc.stderr


@pytest.mark.skipif(not MIRROR.is_dir(), reason="needs the datasets mirror ../shared/datasets")
def test_the_workflow_extra_prepares_and_splits_a_dataset_from_the_shipped_registry(
    wheel, tmp_path
):
    python = _environment(tmp_path, f"{wheel}[workflow]")
    work = tmp_path / "elsewhere"
    work.mkdir()
    cli = tmp_path / "env" / "bin" / "threshold-choice"
    _ok(_run([str(cli), "datasets", "prepare", "--name", "haberman", "--mirror", str(MIRROR),
              "--out", "prepared"], cwd=work))
    assert (work / "prepared" / "haberman.parquet").is_file()
    splits = _ok(_run([str(cli), "splits", "--dataset", "haberman", "--mirror", str(MIRROR),
                       "--iterations", "1"], cwd=work))
    assert splits.startswith("dataset,iteration,part,position,row\n")
    assert len(splits.splitlines()) == 1 + 306  # haberman's 306 rows, train and test
    # the registry, its schema and the published tables come from the installed package
    where = _ok(_run([str(python), "-c", "from threshold_choice._repository import CONFIG_DIR;"
                      "print(CONFIG_DIR)"], cwd=work)).strip()
    assert "site-packages" in where
    assert (Path(where) / "published" / "published_table7_by_model.csv").is_file()
