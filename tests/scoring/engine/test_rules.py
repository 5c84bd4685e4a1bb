"""The club's rules as one value: its options checked once, the defaults the rules' own."""

import dataclasses
import pickle

import pytest

from scoring.engine import (
    DEFAULT_RULES,
    ChicagoVulnerability,
    InvalidInput,
    Rules,
    Seat,
    score_chicago,
    score_match,
)

from .helpers import deals


def test_the_default_is_the_dealers_side_vulnerable() -> None:
    assert Rules() == DEFAULT_RULES
    assert DEFAULT_RULES.vulnerability is ChicagoVulnerability.DEALER


@pytest.mark.parametrize(
    ("given", "option"),
    [
        ("dealer", ChicagoVulnerability.DEALER),
        (" Non-Dealer ", ChicagoVulnerability.NON_DEALER),
        (ChicagoVulnerability.NON_DEALER, ChicagoVulnerability.NON_DEALER),
    ],
)
def test_an_option_is_read_once_into_its_type(given: str, option: ChicagoVulnerability) -> None:
    rules = Rules(vulnerability=given)
    assert rules.vulnerability is option
    assert rules == Rules(vulnerability=option)
    assert hash(rules) == hash(Rules(vulnerability=option))


@pytest.mark.parametrize("bad", ["sometimes", "", None, 2])
def test_a_bad_option_is_refused_naming_its_field(bad: object) -> None:
    with pytest.raises(InvalidInput) as error:
        Rules(vulnerability=bad)  # type: ignore[arg-type]
    assert error.value.field == "vulnerability"
    assert repr(bad) in str(error.value)


def test_rules_are_a_frozen_value() -> None:
    rules = Rules(vulnerability="non_dealer")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.vulnerability = ChicagoVulnerability.DEALER  # type: ignore[misc]
    assert dataclasses.replace(rules, vulnerability="dealer") == DEFAULT_RULES
    assert pickle.loads(pickle.dumps(rules)) == rules
    with pytest.raises(TypeError):
        Rules("non_dealer")  # type: ignore[misc]  # options are named


def test_the_rules_change_the_score_only_through_their_options() -> None:
    results = deals("2H N 8", "1S W 6", "2D S 8", "1NT E 7")
    dealer = score_match("chicago", results, first_dealer=Seat.N, rules=DEFAULT_RULES)
    other = score_match(
        "chicago", results, first_dealer=Seat.N, rules=Rules(vulnerability="non_dealer")
    )
    assert dealer == score_chicago(results, first_dealer=Seat.N)
    assert (dealer.total_ns, other.total_ns) == (700, 450)
    rubber = deals("1C N 7", "4H E 10")
    assert score_match(
        "rubber", rubber, first_dealer="W", rules=Rules(vulnerability="non_dealer")
    ) == score_match("rubber", rubber, first_dealer="W")
