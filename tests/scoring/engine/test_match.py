"""score_match dispatch, its errors, and the engine's independence from Django."""

import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import (
    ChicagoVulnerability,
    InvalidInput,
    Kind,
    MatchComplete,
    Rules,
    Seat,
    check_next,
    score_chicago,
    score_match,
    score_rubber,
)

from .helpers import deal, deals

ROOT = Path(__file__).resolve().parents[3]
RESULTS = deals("2S N 8", "pass", "2H S 9", "3NT E 8", "1C W 7")


def test_the_engine_loads_no_django_and_nothing_outside_the_standard_library() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import scoring.engine\n"
        "loaded = {name.split('.')[0] for name in set(sys.modules) - before}\n"
        "foreign = sorted(loaded - set(sys.stdlib_module_names) - {'scoring'})\n"
        "print(foreign)\n"
        "sys.exit(1 if foreign or 'django' in sys.modules else 0)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "[]"


@pytest.mark.parametrize("kind", [Kind.CHICAGO, "chicago", " Chicago "])
def test_dispatch_chicago(kind: Kind | str) -> None:
    sheet = score_match(kind, RESULTS, first_dealer="n")
    assert sheet == score_chicago(RESULTS, first_dealer=Seat.N)
    assert (sheet.total_ns, sheet.total_ew) == (500, 120)


def test_dispatch_chicago_option() -> None:
    sheet = score_match(
        "chicago", RESULTS, first_dealer=Seat.N, rules=Rules(vulnerability="non_dealer")
    )
    assert sheet == score_chicago(
        RESULTS, first_dealer=Seat.N, rules=Rules(vulnerability=ChicagoVulnerability.NON_DEALER)
    )


def test_dispatch_rubber_and_two_player() -> None:
    results = deals("1C N 7", "4H E 10")
    assert score_match("rubber", results, first_dealer="W") == score_rubber(
        results, first_dealer=Seat.W
    )
    assert score_match("two-player", results, first_dealer="N", finished=True) == score_rubber(
        results, first_dealer=Seat.N, players=2, finished=True
    )
    assert score_match(Kind.TWO_PLAYER, results, first_dealer="N", players=2).kind is (
        Kind.TWO_PLAYER
    )


@pytest.mark.parametrize(
    ("call", "field", "message"),
    [
        (
            lambda: score_match("bridge", [], first_dealer="N"),
            "kind",
            "kind must be one of chicago, rubber, two_player, got 'bridge'",
        ),
        (
            lambda: score_match("chicago", [], first_dealer="N", finished=True),
            "kind",
            "only a rubber can be finished early; a Chicago match is always four deals",
        ),
        (
            lambda: score_match("rubber", [], first_dealer="N", players=2),
            "kind",
            "a rubber match is played by 4 players, got 2 (a table of two plays two_player)",
        ),
        (
            lambda: score_match("two_player", [], first_dealer="N", players=4),
            "kind",
            "a two_player match is played by 2 players, got 4",
        ),
        (
            lambda: score_match("rubber", [], first_dealer="NW"),
            "first_dealer",
            "first_dealer must be one of N, E, S, W, got 'NW'",
        ),
        (
            lambda: score_match("two_player", [], first_dealer="S"),
            "first_dealer",
            "At a table of two, North or East deals first.",
        ),
    ],
)
def test_score_match_errors(call: object, field: str, message: str) -> None:
    with pytest.raises(InvalidInput) as error:
        call()  # type: ignore[operator]
    assert (error.value.field, str(error.value)) == (field, message)


def test_check_next() -> None:
    sheet = check_next("chicago", RESULTS[:4], RESULTS[4], first_dealer="N")
    assert sheet == score_chicago(RESULTS, first_dealer=Seat.N)
    with pytest.raises(MatchComplete):
        check_next("chicago", RESULTS, deal("1C N 7"), first_dealer="N")
    with pytest.raises(InvalidInput, match="only a rubber can be finished early"):
        check_next("chicago", [], deal("1C N 7"), first_dealer="N", finished=True)
