"""``manage.py import_history <season> <file> [--dry-run]``."""

import pytest
from django.core.management import CommandError, call_command

from matches.models import Match
from tests.clubs.factories import make_club
from tests.matches.test_history_import import GOOD, one_bad

pytestmark = pytest.mark.django_db


def test_a_dry_run_then_the_import(tmp_path, capsys):
    season = make_club().seasons.get()
    file = tmp_path / "season.csv"
    file.write_text(GOOD)
    call_command("import_history", season.pk, str(file), "--dry-run")
    assert "9 deals read; would write 3 matches, 9 deals" in capsys.readouterr().out
    assert not Match.objects.exists()
    call_command("import_history", season.pk, str(file))
    assert "wrote 3 matches" in capsys.readouterr().out
    assert Match.objects.count() == 3


def test_a_bad_file_is_refused_naming_its_line(tmp_path, capsys):
    season = make_club().seasons.get()
    file = tmp_path / "season.csv"
    file.write_text(one_bad(3, "2025-03-14,1,chicago,Anna,Bob,Carla,Dan,pass,,9"))
    with pytest.raises(CommandError, match="Nothing was written"):
        call_command("import_history", season.pk, str(file))
    assert "line 3, tricks: error:" in capsys.readouterr().out
    assert not Match.objects.exists()
    with pytest.raises(CommandError, match="no season"):
        call_command("import_history", 999_999, str(file))


def test_the_command_takes_more_deals_than_the_page(tmp_path, capsys):
    season = make_club().seasons.get()
    file = tmp_path / "season.csv"
    file.write_text(GOOD)
    with pytest.raises(CommandError):
        call_command("import_history", season.pk, str(file), "--dry-run", "--max-deals", "5")
    assert "line 7, file: error:" in capsys.readouterr().out
