"""Engine errors as translatable templates: every message the engine raises is a template
marked with ``gettext_noop`` (so ``makemessages`` extracts it) plus display-ready parameters."""

import ast
import pickle
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import scoring.engine
from scoring.engine import (
    DEFAULT_PAR_TABLE,
    Contract,
    InvalidInput,
    MatchComplete,
    NightMatch,
    ParTable,
    Played,
    Round,
    Rules,
    ScoringError,
    Seat,
    Table,
    check_next,
    check_round,
    make_result,
    moving_side,
    par_deal,
    parse_contract,
    parse_seat,
    rank_night,
    round_robin,
    score_chicago,
    score_contract,
    score_match,
    score_rubber,
    winners_move,
)
from scoring.engine.errors import gettext_noop
from scoring.engine.handicap import handicap_of

from .helpers import PASS, deal, deals

ENGINE = Path(scoring.engine.__file__).parent

# One call per raise site (each raises a different template).
PAR_RULES = Rules(par=DEFAULT_PAR_TABLE)
RAISES: list[Callable[[], object]] = [
    lambda: Seat.S.next(2),
    lambda: Seat.N.next(3),
    lambda: parse_contract("4"),
    lambda: parse_contract("4Q"),
    lambda: Contract(1, "C", "Y"),  # type: ignore[arg-type]
    lambda: parse_seat("Q"),
    lambda: parse_seat("Q", field="first_dealer"),
    lambda: parse_seat("Q", field="seats"),
    lambda: parse_contract("9S"),
    lambda: Played(Contract(1, "C"), Seat.N, 14),  # type: ignore[arg-type]
    lambda: parse_contract(42),  # type: ignore[arg-type]
    lambda: parse_contract(" "),
    lambda: parse_contract("S4"),
    lambda: make_result(passed_out="yes"),  # type: ignore[arg-type]
    lambda: make_result(passed_out=True, tricks=7),
    lambda: make_result(),
    lambda: score_chicago(["4S N 10"], first_dealer="N"),  # type: ignore[list-item]
    lambda: score_contract("1C", vulnerable="yes", tricks=7),  # type: ignore[arg-type]
    lambda: score_match("bridge", [], first_dealer="N"),
    lambda: score_match("two_player", [], first_dealer="N", players=4),
    lambda: score_match("rubber", [], first_dealer="N", players=2),
    lambda: score_match("rubber", [], first_dealer="N", players=3),
    lambda: score_match("chicago", [], first_dealer="N", finished=True),
    lambda: check_next("rubber", deals("1NT N 7"), PASS, first_dealer="N", finished=True),
    lambda: check_next("two_player", deals("1NT N 7"), PASS, first_dealer="N", finished=True),
    lambda: Rules(vulnerability="sometimes"),
    lambda: Rules(par="default"),  # type: ignore[arg-type]
    lambda: check_next("chicago", [], deal("4S N 10"), first_dealer="N", rules=PAR_RULES),
    lambda: par_deal(Played("1NT", "N", 7), hcp=41, vulnerable=()),
    lambda: ParTable(not_vulnerable=[0] * 20, vulnerable=[0] * 21),
    lambda: ParTable(not_vulnerable=[0] * 21, vulnerable=[0, 50] + [0] * 19),
    lambda: score_chicago([], first_dealer="N", players=2),
    lambda: score_chicago(deals("1C N 7", "1C E 7", "1C S 7", "1C W 7", "pass"), first_dealer="N"),
    lambda: score_rubber([], first_dealer="N", players=3),
    lambda: score_rubber([], first_dealer="N", finished="yes"),  # type: ignore[arg-type]
    lambda: score_rubber([], first_dealer="W", players=2),
    lambda: score_rubber([*deals("4S N 10", "3NT S 9"), deal("1C E 7")], first_dealer="N"),
    lambda: score_rubber(deals("2S S 8"), first_dealer="N", players=2),
    lambda: round_robin("ABC", 3),
    lambda: round_robin("ABCDA", 3),
    lambda: round_robin("ABCD", 0),
    lambda: round_robin("ABCDEF", 3, remainder="bye"),  # type: ignore[arg-type]
    lambda: round_robin("ABCD", 3, played="AB"),  # type: ignore[arg-type]
    lambda: round_robin("ABCD", 3, played=["AB"]),  # type: ignore[list-item]
    lambda: round_robin("ABCD", 1, played=list(round_robin("ABCD", 2))),
    lambda: check_round(Round((Table(1, *"ABCZ"),)), "ABCD"),
    lambda: check_round(Round((Table(1, "A", "B", "C"),)), "ABCD"),
    lambda: winners_move(Round((Table(1, *"ABCD"),)), {}),
    lambda: moving_side("TIE", below_ns=0, below_ew=0, tie_rule="coin"),  # type: ignore[arg-type]
    lambda: rank_night([], ranking="median"),
    lambda: rank_night([], by="imps"),
    lambda: rank_night([], ranking="average", min_matches=-1),
    lambda: rank_night([NightMatch(1, "A", 10, True)], ranking="sit_out_average", rounds=0),
    lambda: handicap_of(1600, strength=150, cap=300),
    lambda: handicap_of(1600, strength=50, cap=5000),
]


def _raised(call: Callable[[], object]) -> ScoringError:
    with pytest.raises(ScoringError) as error:
        call()
    return error.value


def _marked_templates() -> set[str]:
    """Every string literal the engine passes to ``gettext_noop`` (what xgettext extracts)."""
    marked = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
                and path.name != "errors.py"
            ):
                (argument,) = node.args
                assert isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                marked.add(argument.value)
    return marked


def test_every_raised_message_is_a_marked_template_and_every_marked_one_is_raised() -> None:
    raised = [_raised(call) for call in RAISES]
    templates = [error.template for error in raised]
    assert len(set(templates)) == len(RAISES)  # one distinct template per raise site
    assert set(templates) == _marked_templates()


@pytest.mark.parametrize("call", RAISES)
def test_message_is_the_template_filled_with_display_ready_params(
    call: Callable[[], object],
) -> None:
    error = _raised(call)
    # Named placeholders only, so a translation may reorder them.
    assert re.sub(r"%\([a-z_]+\)s", "", error.template).count("%") == 0
    assert all(type(value) in (str, int) for value in error.params.values())
    assert error.message == error.template % error.params == str(error)
    assert error.args == (error.message,)


def test_template_and_params_of_an_invalid_input() -> None:
    error = _raised(lambda: parse_contract("9S"))
    assert isinstance(error, InvalidInput)
    assert (error.field, error.template, error.params) == (
        "level",
        "level must be 1 to 7, got %(value)s",
        {"value": "9"},
    )
    rubber_over = _raised(
        lambda: score_rubber([*deals("4S N 10", "3NT S 9"), PASS], first_dealer="N")
    )
    assert isinstance(rubber_over, MatchComplete)
    assert rubber_over.params == {"deal": 2, "side": "NS"}


@pytest.mark.parametrize("call", RAISES)
def test_errors_pickle_with_template_and_params(call: Callable[[], object]) -> None:
    error = _raised(call)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert (copy.template, copy.params, copy.message, str(copy), copy.args) == (
        error.template,
        error.params,
        error.message,
        str(error),
        error.args,
    )
    assert getattr(copy, "field", None) == getattr(error, "field", None)


def test_a_template_without_params_is_the_message_as_is() -> None:
    error = InvalidInput("level", "100% wrong")
    assert (error.message, error.params) == ("100% wrong", {})
    assert str(pickle.loads(pickle.dumps(error))) == "100% wrong"
    assert str(MatchComplete("done")) == "done"


def test_gettext_noop_returns_its_argument() -> None:
    text = "level must be 1 to 7, got %(value)s"
    assert gettext_noop(text) is text
