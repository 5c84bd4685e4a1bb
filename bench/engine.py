"""Speed of the scoring engine (printed figures, not a timed test).

Run from the repository root:

    pip install endplay      # only for the side-by-side figure; never a runtime dependency
    python bench/engine.py [--contracts 200000] [--matches 50000] [--repeat 5]

Prints contracts scored per second by ``score_contract`` and, on the same random contracts,
by endplay's ``Contract.score`` (duplicate scoring, which adds the game or partscore bonus
to each contract; the script checks that both agree once that bonus is accounted for), and
complete Chicago matches (four played deals) scored per second by ``score_chicago``.
"""

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import (
    Contract,
    Doubling,
    Played,
    Seat,
    Strain,
    score_chicago,
    score_contract,
)

Case = tuple[Contract, Seat, int, bool]  # contract, declarer, tricks, declarer vulnerable


def random_cases(rng: random.Random, count: int) -> list[Case]:
    strains, doublings, seats = list(Strain), list(Doubling), list(Seat)
    return [
        (
            Contract(rng.randint(1, 7), rng.choice(strains), rng.choice(doublings)),
            rng.choice(seats),
            rng.randint(0, 13),
            rng.random() < 0.5,
        )
        for _ in range(count)
    ]


def best_rate(run: Callable[[], object], items: int, repeat: int) -> float:
    """Items per second of the fastest of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return items / best


def bench_engine_contracts(cases: list[Case], repeat: int) -> float:
    def run() -> None:
        for contract, _declarer, tricks, vulnerable in cases:
            score_contract(contract, vulnerable=vulnerable, tricks=tricks)

    return best_rate(run, len(cases), repeat)


def bench_endplay_contracts(cases: list[Case], repeat: int) -> float | None:
    try:
        from endplay.types import Contract as EContract
        from endplay.types import Denom, Penalty, Player, Vul
    except ImportError:
        return None
    denoms = {
        Strain.C: Denom.clubs,
        Strain.D: Denom.diamonds,
        Strain.H: Denom.hearts,
        Strain.S: Denom.spades,
        Strain.NT: Denom.nt,
    }
    penalties = {
        Doubling.NONE: Penalty.passed,
        Doubling.DOUBLED: Penalty.doubled,
        Doubling.REDOUBLED: Penalty.redoubled,
    }
    players = {Seat.N: Player.north, Seat.E: Player.east, Seat.S: Player.south, Seat.W: Player.west}
    prepared = []
    for contract, declarer, tricks, vulnerable in cases:
        econtract = EContract(
            level=contract.level,
            denom=denoms[contract.strain],
            declarer=players[declarer],
            penalty=penalties[contract.doubling],
            result=tricks - contract.level - 6,
        )
        vul = (Vul.ns if declarer.side == "NS" else Vul.ew) if vulnerable else Vul.none
        prepared.append((econtract, vul))
        check_against_endplay(contract, tricks, vulnerable, econtract.score(vul))

    def run() -> None:
        for econtract, vul in prepared:
            econtract.score(vul)

    return best_rate(run, len(prepared), repeat)


def check_against_endplay(contract: Contract, tricks: int, vulnerable: bool, theirs: int) -> None:
    """endplay scores duplicate: add its game (300/500) or partscore (50) bonus to ours."""
    ours = score_contract(contract, vulnerable=vulnerable, tricks=tricks)
    expected = ours.declarer_points - ours.defender_points
    if ours.below:
        expected += (500 if vulnerable else 300) if ours.below >= 100 else 50
    if expected != theirs:
        raise SystemExit(f"disagreement on {contract} {tricks} tricks: {expected} vs {theirs}")


def bench_chicago(rng: random.Random, count: int, repeat: int) -> float:
    seats = list(Seat)
    matches = [
        (rng.choice(seats), [Played(c, d, t) for c, d, t, _ in random_cases(rng, 4)])
        for _ in range(count)
    ]

    def run() -> None:
        for first_dealer, results in matches:
            score_chicago(results, first_dealer=first_dealer)

    return best_rate(run, count, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contracts", type=int, default=200_000)
    parser.add_argument("--matches", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(f"python {platform.python_version()} ({platform.python_implementation()}), ", end="")
    print(f"{os.cpu_count()} cpus, {platform.machine()}, {time.strftime('%Y-%m-%d')}")
    cases = random_cases(rng, args.contracts)
    ours = bench_engine_contracts(cases, args.repeat)
    print(f"engine  score_contract      {ours:>12,.0f} contracts/s")
    theirs = bench_endplay_contracts(cases, args.repeat)
    if theirs is None:
        print("endplay Contract.score      not installed (pip install endplay)")
    else:
        print(f"endplay Contract.score      {theirs:>12,.0f} contracts/s (same contracts)")
        print(f"engine / endplay            {ours / theirs:>12.1f}x")
    chicago = bench_chicago(rng, args.matches, args.repeat)
    print(f"engine  score_chicago       {chicago:>12,.0f} complete matches/s (4 played deals)")


if __name__ == "__main__":
    main()
