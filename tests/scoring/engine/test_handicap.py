"""Handicaps from the rating (``scoring.engine.handicap``): the worked example of docs/rules.md,
a table, properties of the formula, and the property the handicaps are for: players whose
results are what their ratings expect end level after handicap, on generated nights under
every ranking rule."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import InvalidInput
from scoring.engine.handicap import (
    HANDICAP_CAP_MAX,
    HANDICAP_MARGIN,
    RATING_START,
    expected_net,
    handicap_of,
)
from scoring.engine.night import NIGHT_RANKINGS, RANK_SIT_OUT_AVERAGE, NightMatch, rank_night

ratings = st.floats(1000, 2000, allow_nan=False)


def test_the_worked_example():
    # docs/rules.md, "Handicaps": a player rated 1580 expects +114.6 a match against an
    # average field (E = 0.5573), so 115 at 100 %, 57 at 50 %; a cap of 40 stops it at 40.
    assert expected_net(1580) == pytest.approx(114.6, abs=0.05)
    assert handicap_of(1580, strength=100, cap=300) == 115
    assert handicap_of(1580, strength=50, cap=300) == 57
    assert handicap_of(1580, strength=50, cap=40) == 40
    assert handicap_of(1420, strength=50, cap=300) == -57


@pytest.mark.parametrize(
    ("rating", "strength", "cap", "handicap"),
    [
        (RATING_START, 100, 300, 0),
        (1500.3, 100, 300, 0),
        (1600, 100, 300, 143),
        (1400, 100, 300, -143),
        (1600, 0, 300, 0),
        (1600, 100, 0, 0),
        (2300, 100, 1000, 818),
        (3500, 100, 1000, 994),
        (1650, 100, 150, 150),
    ],
)
def test_a_table_of_handicaps(rating, strength, cap, handicap):
    assert handicap_of(rating, strength=strength, cap=cap) == handicap


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"strength": 101, "cap": 300}, "strength"),
        ({"strength": -1, "cap": 300}, "strength"),
        ({"strength": True, "cap": 300}, "strength"),
        ({"strength": 50.0, "cap": 300}, "strength"),
        ({"strength": 50, "cap": HANDICAP_CAP_MAX + 1}, "cap"),
        ({"strength": 50, "cap": -5}, "cap"),
    ],
)
def test_a_bad_strength_or_cap_names_its_field(options, field):
    with pytest.raises(InvalidInput) as refused:
        handicap_of(1600, **options)
    assert refused.value.field == field


@given(ratings, ratings, st.integers(0, 100), st.integers(0, HANDICAP_CAP_MAX))
def test_stronger_never_gets_less_and_the_cap_holds(low, high, strength, cap):
    low, high = sorted((low, high))
    assert handicap_of(low, strength=strength, cap=cap) <= handicap_of(
        high, strength=strength, cap=cap
    )
    assert abs(handicap_of(high, strength=strength, cap=cap)) <= cap


@given(st.floats(0, 1000, allow_nan=False), st.integers(0, 100))
def test_above_and_below_the_average_are_mirrored(distance, strength):
    above = handicap_of(RATING_START + distance, strength=strength, cap=HANDICAP_CAP_MAX)
    below = handicap_of(RATING_START - distance, strength=strength, cap=HANDICAP_CAP_MAX)
    assert above == -below >= 0
    assert abs(expected_net(RATING_START + distance)) < HANDICAP_MARGIN


@given(ratings)
def test_half_strength_is_half_the_full_handicap(rating):
    full = expected_net(rating)
    half = handicap_of(rating, strength=50, cap=HANDICAP_CAP_MAX)
    assert math.isclose(half, full / 2, abs_tol=0.5 + 1e-9)


@st.composite
def nights(draw):
    """Players with ratings, each playing 1 to 5 complete matches whose net is what their
    rating expects of them (their full handicap), some an unfinished one too."""
    count = draw(st.integers(2, 12))
    players = [
        (pk, draw(ratings), draw(st.integers(1, 5)), draw(st.booleans()))
        for pk in range(1, count + 1)
    ]
    return players


@given(nights(), st.sampled_from(NIGHT_RANKINGS))
def test_results_as_the_ratings_expect_end_level_after_handicap(night, ranking):
    handicaps, parts = {}, []
    for pk, rating, matches, unfinished in night:
        handicap = handicaps[pk] = handicap_of(rating, strength=100, cap=HANDICAP_CAP_MAX)
        parts += [NightMatch(pk, f"P{pk}", handicap, True, round) for round in range(matches)]
        if unfinished:
            parts.append(NightMatch(pk, f"P{pk}", 9999, False, matches))
    handicapped = [
        NightMatch(p.player_id, p.name, p.net - handicaps[p.player_id], p.complete, p.round)
        for p in parts
    ]
    rounds = max(matches for _pk, _rating, matches, _u in night) + 1
    extra = {"rounds": rounds} if ranking == RANK_SIT_OUT_AVERAGE else {}
    lines = rank_night(handicapped, ranking=ranking, **extra)
    assert {line.rank for line in lines} == {1}  # level, whatever their ratings
    assert {line.net for line in lines} == {0}
    if ranking != "total" and len(set(handicaps.values())) > 1:
        # At scratch the same results are not level: each player's average is their handicap.
        scratch = rank_night(parts, ranking=ranking, **extra)
        assert len({line.rank for line in scratch}) > 1
