"""Shared places (``shared_ranks``): a table, and properties over random orders."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import shared_ranks


def test_equal_keys_share_a_place_and_the_next_key_skips_the_shared_ones():
    assert shared_ranks([]) == []
    assert shared_ranks(["a"]) == [1]
    assert shared_ranks([9, 7, 7, 5, 5, 5, 1]) == [1, 2, 2, 4, 4, 4, 7]
    # Only neighbours are compared: the rows come in order.
    assert shared_ranks([3, 2, 3]) == [1, 2, 3]


@given(st.lists(st.integers(-3, 3)).map(lambda keys: sorted(keys, reverse=True)))
def test_a_rank_is_one_more_than_the_rows_with_a_better_key(keys):
    ranks = shared_ranks(keys)
    assert ranks == [sum(other > key for other in keys) + 1 for key in keys]
