"""What a club model answers itself."""

import datetime

from django.utils import timezone

from clubs.models import Club

NOW = datetime.datetime(2025, 3, 14, 23, 30, tzinfo=datetime.UTC)


def test_today_is_the_clubs_date_not_the_servers(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    assert Club(timezone="Europe/Athens").today() == datetime.date(2025, 3, 15)
    assert Club(timezone="America/New_York").today() == datetime.date(2025, 3, 14)
    assert Club(timezone="Nowhere/City").today() == datetime.date(2025, 3, 14)  # as UTC
