"""How long a club night's movements take to plan: a 60-player round-robin of 60 rounds, and
the rounds to come planned again after the players change (printed figures, not a timed test).

Run from the repository root:

    .venv/bin/python bench/movements.py [--repeat 9]

Each figure is the CPU time of one call (``time.process_time``), the median of ``--repeat``
calls after one to warm up, and its ratio to the floor measured in the same run: seating one
round of 60 players in order (``first_round``), the least a plan's round costs. The calls:

- ``plan``: ``round_robin`` of 60 players, 60 rounds (60 has no whist tournament: every round
  is planned from the ones before);
- ``replan``: the same night after 10 rounds, one player replaced by a newcomer: the 50 rounds
  to come (``played=`` the first 10);
- ``replan late``: after 50 rounds, one player leaving: the 10 rounds to come, 59 players;
- for comparison, 58 players with a table of two and 59 with one sitting out, 60 rounds.

Target (issue 29): ``plan`` and ``replan`` each under 100 ms.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import first_round, round_robin

TARGET_SECONDS = 0.1


def cpu_seconds(call: Callable[[], object], repeat: int) -> float:
    """The median CPU time of ``repeat`` calls, after one to warm up."""
    call()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return sorted(times)[len(times) // 2]  # bench/statistics.py hides the module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()

    players = [f"P{i}" for i in range(60)]
    night = round_robin(players, 60)
    replaced = [p for p in players if p != "P7"] + ["P60"]
    leaving = [p for p in players if p != "P30"]
    floor_calls = 100

    def floor() -> None:
        for _ in range(floor_calls):
            first_round(players)

    cases: list[tuple[str, Callable[[], object], bool]] = [
        ("plan: 60 players, 60 rounds", lambda: round_robin(players, 60), True),
        (
            "replan: 50 rounds after 10, one replaced",
            lambda: round_robin(replaced, 60, played=night[:10]),
            True,
        ),
        (
            "replan late: 10 rounds after 50, one left",
            lambda: round_robin(leaving, 60, played=night[:50]),
            False,
        ),
        (
            "58 players, table of two, 60 rounds",
            lambda: round_robin(players[:58], 60, "two_player"),
            False,
        ),
        ("59 players, one sits out, 60 rounds", lambda: round_robin(players[:59], 60), False),
    ]
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; "
        f"median CPU time of {args.repeat} calls"
    )
    base = cpu_seconds(floor, args.repeat) / floor_calls
    print(f"{'floor: first_round of 60 players':44} {base * 1e6:9.1f} us")
    missed = []
    for name, call, target in cases:
        seconds = cpu_seconds(call, args.repeat)
        mark = ""
        if target:
            mark = "  (target under 100 ms: " + ("met)" if seconds < TARGET_SECONDS else "MISSED)")
            if seconds >= TARGET_SECONDS:
                missed.append(name)
        print(f"{name:44} {seconds * 1e3:9.1f} ms {seconds / base:9.0f}x the floor{mark}")
    print("targets: " + ("met" if not missed else "missed: " + "; ".join(missed)))


if __name__ == "__main__":
    main()
