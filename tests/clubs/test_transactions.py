"""clubs.transactions: a transaction the database ended to break a deadlock (or could not
serialize) runs again, a few times, and only when nothing of it can have stayed."""

import psycopg.errors
import pytest
from django.db import IntegrityError, OperationalError, transaction

from clubs import transactions
from clubs.transactions import ATTEMPTS, retried, retryable


def ended_by_database(cause: Exception) -> OperationalError:
    """The error Django raises for the driver's ``cause`` (it chains it)."""
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


def deadlock() -> OperationalError:
    return ended_by_database(psycopg.errors.DeadlockDetected("deadlock detected"))


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    monkeypatch.setattr(transactions, "_pause", lambda attempt: None)


def test_deadlocks_and_serialization_failures_are_retryable_outages_are_not():
    assert retryable(deadlock())
    assert retryable(ended_by_database(psycopg.errors.SerializationFailure("could not")))
    assert retryable(psycopg.errors.DeadlockDetected("deadlock detected"))
    try:
        raise RuntimeError("while saving") from deadlock()
    except RuntimeError as error:
        assert retryable(error)
    assert not retryable(OperationalError("connection refused"))
    assert not retryable(ended_by_database(psycopg.errors.AdminShutdown("shutting down")))
    assert not retryable(IntegrityError("duplicate key"))
    assert not retryable(None)


def failing(times: int, error_factory=deadlock):
    calls = []

    @retried
    @transaction.atomic
    def write(value):
        calls.append(value)
        if len(calls) <= times:
            raise error_factory()
        return value

    return write, calls


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_runs_the_transaction_again():
    write, calls = failing(ATTEMPTS - 1)
    assert write("deal") == "deal"
    assert calls == ["deal"] * ATTEMPTS


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_that_remains_is_raised_after_the_last_attempt(caplog):
    write, calls = failing(ATTEMPTS)
    with pytest.raises(OperationalError) as raised:
        write("deal")
    assert retryable(raised.value) and len(calls) == ATTEMPTS == 3
    assert "giving up" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_other_errors_are_not_retried():
    write, calls = failing(1, lambda: OperationalError("connection refused"))
    with pytest.raises(OperationalError):
        write("deal")
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_the_caller_retries():
    """A deadlock lost the caller's whole transaction: running only the inner part again
    would write it without what came before."""
    write, calls = failing(1)
    with pytest.raises(OperationalError), transaction.atomic():
        write("deal")
    assert len(calls) == 1
    write, calls = failing(1)
    caller_calls = []

    @retried
    @transaction.atomic
    def caller():
        caller_calls.append("caller")
        return write("deal")

    assert caller() == "deal"
    assert caller_calls == ["caller", "caller"] and calls == ["deal", "deal"]
