"""The benchmarks' own pitfalls, checked without running them (bench/README.md)."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_no_benchmark_has_the_name_of_a_standard_module():
    """``python bench/X.py`` puts bench/ first on the module path: a bench/statistics.py stood
    in for Python's own ``statistics`` (endplay, which imports it, then looked missing to
    bench/engine.py, and ``statistics.median`` died)."""
    shadowing = sorted(
        path.name for path in BENCH.glob("*.py") if path.stem in sys.stdlib_module_names
    )
    assert shadowing == []


def test_a_script_run_from_bench_reads_the_standard_statistics():
    found = subprocess.run(
        [sys.executable, "-c", "import statistics; print(statistics.median([3, 1, 2]))"],
        cwd=BENCH,
        env={"PYTHONPATH": str(BENCH)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert found.stdout.strip() == "2"
