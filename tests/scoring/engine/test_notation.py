"""Contract, seat and result notation: what is accepted, and the exact messages otherwise."""

import pickle

import pytest

from scoring.engine import (
    Contract,
    Doubling,
    InvalidInput,
    PassedOut,
    Played,
    ScoringError,
    Seat,
    Side,
    Strain,
    make_result,
    parse_contract,
    parse_seat,
)

X, XX, NONE = Doubling.DOUBLED, Doubling.REDOUBLED, Doubling.NONE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4SX", Contract(4, Strain.S, X)),
        ("3 nt xx", Contract(3, Strain.NT, XX)),
        ("1♥", Contract(1, Strain.H, NONE)),
        ("1♥\ufe0f", Contract(1, Strain.H, NONE)),  # the emoji form phones send
        ("7n", Contract(7, Strain.NT, NONE)),
        ("7NT", Contract(7, Strain.NT, NONE)),
        ("2c", Contract(2, Strain.C, NONE)),
        ("5♦x", Contract(5, Strain.D, X)),
        ("6♠XX", Contract(6, Strain.S, XX)),
        ("  2 ♣ ", Contract(2, Strain.C, NONE)),
        ("1 h x", Contract(1, Strain.H, X)),
        ("4Nx", Contract(4, Strain.NT, X)),
    ],
)
def test_parse_contract(text: str, expected: Contract) -> None:
    assert parse_contract(text) == expected


@pytest.mark.parametrize(
    ("contract", "canonical"),
    [
        (Contract(4, Strain.S, X), "4SX"),
        (Contract(3, Strain.NT), "3NT"),
        (Contract(1, Strain.H, XX), "1HXX"),
        (Contract(7, Strain.C), "7C"),
    ],
)
def test_canonical_text(contract: Contract, canonical: str) -> None:
    assert str(contract) == canonical
    assert parse_contract(canonical) == contract


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("8S", "level", "level must be 1 to 7, got 8"),
        ("0NT", "level", "level must be 1 to 7, got 0"),
        ("10C", "level", "level must be 1 to 7, got 10"),
        ("4Q", "strain", "strain must be one of C, D, H, S, NT, got 'Q'"),
        ("4", "strain", "strain must be one of C, D, H, S, NT, got nothing"),
        ("4X", "strain", "strain must be one of C, D, H, S, NT, got nothing"),
        ("3NTT", "strain", "strain must be one of C, D, H, S, NT, got 'NTT'"),
        ("4SXXX", "doubling", "doubling must be X, XX or nothing, got 'XXX'"),
        (
            "S4",
            "contract",
            "contract must start with a level 1 to 7, like '4S' or '3NTX', got 'S4'",
        ),
        (
            "  ",
            "contract",
            "contract is empty: write a level 1 to 7, a strain (C, D, H, S, NT) and X or XX "
            "if doubled, like '4S' or '3NTX'",
        ),
        (42, "contract", "contract must be text like '4S' or '3NTX', got 42"),
    ],
)
def test_parse_contract_errors(text: str, field: str, message: str) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_contract(text)
    assert error.value.field == field
    assert error.value.message == message
    assert str(error.value) == message


def test_contract_checks_its_fields() -> None:
    with pytest.raises(InvalidInput, match=r"^level must be 1 to 7, got 8$"):
        Contract(8, Strain.S)
    with pytest.raises(InvalidInput, match=r"^level must be 1 to 7, got True$"):
        Contract(True, Strain.S)
    with pytest.raises(InvalidInput, match=r"^strain must be one of C, D, H, S, NT, got 'Q'$"):
        Contract(1, "Q")  # type: ignore[arg-type]
    assert Contract(1, "nt", "x") == Contract(1, Strain.NT, X)  # type: ignore[arg-type]


def test_contract_is_immutable_and_hashable() -> None:
    contract = Contract(4, Strain.S)
    with pytest.raises(AttributeError):
        contract.level = 5  # type: ignore[misc]
    assert len({contract, Contract(4, Strain.S), parse_contract("4s")}) == 1
    assert contract.tricks_needed == 10


@pytest.mark.parametrize(
    ("text", "seat"),
    [("N", Seat.N), ("e", Seat.E), (" s ", Seat.S), ("West", Seat.W), ("north", Seat.N)],
)
def test_parse_seat(text: str, seat: Seat) -> None:
    assert parse_seat(text) is seat


def test_parse_seat_errors() -> None:
    with pytest.raises(InvalidInput) as error:
        parse_seat("Q")
    assert (error.value.field, str(error.value)) == (
        "declarer",
        "declarer must be one of N, E, S, W, got 'Q'",
    )
    with pytest.raises(InvalidInput) as error:
        parse_seat("NE", field="first_dealer")
    assert (error.value.field, str(error.value)) == (
        "first_dealer",
        "first_dealer must be one of N, E, S, W, got 'NE'",
    )


def test_seats_and_sides() -> None:
    assert [seat.side for seat in Seat] == [Side.NS, Side.EW, Side.NS, Side.EW]
    assert [seat.next() for seat in Seat] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert Seat.N.next(2) is Seat.E
    assert Seat.E.next(2) is Seat.N
    with pytest.raises(InvalidInput, match="only seats N and E, got S"):
        Seat.S.next(2)
    with pytest.raises(InvalidInput, match="players must be 4 or 2, got 3"):
        Seat.N.next(3)
    assert Side.NS.other is Side.EW
    assert Side.EW.other is Side.NS
    assert str(Side.NS) == "NS"
    assert str(Doubling.NONE) == ""


def test_make_result_played() -> None:
    result = make_result(contract="4s x", declarer="w", tricks=9)
    assert result == Played(Contract(4, Strain.S, X), Seat.W, 9)
    assert isinstance(result, Played)
    assert (result.overtricks, result.made, result.result_text) == (-1, False, "-1")
    assert str(result) == "4SX by W -1"
    assert make_result(contract=Contract(3, Strain.NT), declarer=Seat.N, tricks=9) == Played(
        Contract(3, Strain.NT), Seat.N, 9
    )


@pytest.mark.parametrize(
    ("contract", "tricks", "text"),
    [("3NT", 9, "="), ("3NT", 10, "+1"), ("3NT", 13, "+4"), ("3NT", 7, "-2"), ("7C", 0, "-13")],
)
def test_result_text(contract: str, tricks: int, text: str) -> None:
    assert Played(parse_contract(contract), Seat.N, tricks).result_text == text


def test_make_result_passed_out() -> None:
    assert make_result(passed_out=True) == PassedOut()
    assert str(PassedOut()) == "passed out"


FOUR_S_BY_N = {"contract": "4S", "declarer": "N"}
NEEDS = "a played deal needs a contract, a declarer and tricks"


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        (
            {"passed_out": True, "contract": "4S"},
            "passed_out",
            "a passed-out deal has no contract, declarer, tricks or high-card points; got contract",
        ),
        (
            {"passed_out": True, "declarer": "N", "tricks": 7},
            "passed_out",
            "a passed-out deal has no contract, declarer, tricks or high-card points; "
            "got declarer, tricks",
        ),
        (
            {"declarer": "N", "tricks": 7},
            "contract",
            f"{NEEDS}; contract is missing",
        ),
        (
            {"contract": "4S", "tricks": 7},
            "declarer",
            f"{NEEDS}; declarer is missing",
        ),
        (
            {"contract": "4S", "declarer": "N"},
            "tricks",
            f"{NEEDS}; tricks is missing",
        ),
        ({}, "contract", f"{NEEDS}; contract is missing"),
        ({**FOUR_S_BY_N, "tricks": 14}, "tricks", "tricks must be 0 to 13, got 14"),
        ({**FOUR_S_BY_N, "tricks": -1}, "tricks", "tricks must be 0 to 13, got -1"),
        ({**FOUR_S_BY_N, "tricks": "9"}, "tricks", "tricks must be 0 to 13, got '9'"),
        ({**FOUR_S_BY_N, "tricks": True}, "tricks", "tricks must be 0 to 13, got True"),
        (
            {**FOUR_S_BY_N, "declarer": "X", "tricks": 9},
            "declarer",
            "declarer must be one of N, E, S, W, got 'X'",
        ),
        ({**FOUR_S_BY_N, "contract": "9S", "tricks": 9}, "level", "level must be 1 to 7, got 9"),
        ({"passed_out": "yes"}, "passed_out", "passed_out must be True or False, got 'yes'"),
    ],
)
def test_make_result_errors(kwargs: dict[str, object], field: str, message: str) -> None:
    with pytest.raises(InvalidInput) as error:
        make_result(**kwargs)  # type: ignore[arg-type]
    assert (error.value.field, error.value.message, str(error.value)) == (field, message, message)


def test_played_checks_its_fields() -> None:
    with pytest.raises(InvalidInput, match=r"^tricks must be 0 to 13, got 14$"):
        Played(Contract(1, Strain.C), Seat.N, 14)
    assert Played("1c", "n", 7) == Played(Contract(1, Strain.C), Seat.N, 7)  # type: ignore[arg-type]


def test_errors_are_value_errors_and_pickle() -> None:
    error = InvalidInput("level", "level must be 1 to 7, got 8")
    assert isinstance(error, ScoringError)
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.field, copy.message, str(copy)) == (error.field, error.message, str(error))
