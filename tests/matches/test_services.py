import datetime
import zoneinfo

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from clubs.models import Session, Table
from clubs.services import (
    club_update,
    membership_set,
    season_create,
    session_get_or_create,
    table_create,
)
from matches import services
from matches.models import Deal, Match, MatchStatus
from matches.selectors import match_sheet
from matches.services import (
    MatchConflict,
    deal_correct,
    deal_delete_last,
    deal_record,
    deal_result,
    match_abandon,
    match_create,
    match_finish,
)
from scoring.engine import PassedOut, Played, Rules, make_result, score_match
from tests.clubs.factories import PLAY_DATE, make_club, make_players, seats_of

pytestmark = pytest.mark.django_db

ENTERED = ("sequence", "passed_out", "level", "strain", "doubling", "declarer", "tricks")


def stored(match):
    return list(Deal.objects.filter(match=match).order_by("sequence"))


def assert_matches_engine(match, *, vulnerability=None):
    """The match's stored totals, status and winner are the engine's sheet of its deals."""
    match.refresh_from_db()
    deals = stored(match)
    results = [
        make_result(passed_out=True)
        if d.passed_out
        else make_result(contract=d.contract, declarer=d.declarer, tricks=d.tricks)
        for d in deals
    ]
    sheet = score_match(
        match.kind,
        results,
        first_dealer=match.first_dealer,
        rules=Rules(vulnerability=vulnerability or match.table.session.club.chicago_vulnerability),
        finished=match.finished_early,
    )
    assert len(sheet.rows) == len(deals)
    assert (match.total_ns, match.total_ew) == (sheet.total_ns, sheet.total_ew)
    assert match.status == (MatchStatus.COMPLETE if sheet.complete else MatchStatus.IN_PROGRESS)
    assert match.winner == (sheet.winner.value if sheet.winner else "")
    return sheet


def snapshot(match):
    match.refresh_from_db()
    return (
        [tuple(getattr(d, f) for f in ENTERED) for d in stored(match)],
        (match.status, match.total_ns, match.total_ew, match.winner, match.finished_early),
        Match.history.count(),
        Deal.history.count(),
    )


# --- match_create ---------------------------------------------------------------------------


def test_match_create_files_the_match_under_that_days_session_on_a_new_table(club, players):
    first = match_create(club=club, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE)
    second = match_create(club=club, kind="rubber", seats=seats_of(players), played_on=PLAY_DATE)
    session = Session.objects.get(club=club, date=PLAY_DATE)
    assert session.season.name == "2025"
    assert [first.table.session, second.table.session] == [session, session]
    assert [first.table.number, second.table.number] == [1, 2]
    assert first.table.seats == 4
    assert (first.north, first.east, first.south, first.west) == tuple(players)
    assert first.status == MatchStatus.IN_PROGRESS and first.winner == ""


def test_two_player_match_gets_a_table_of_two(club, players):
    match = match_create(
        club=club,
        kind="two_player",
        seats=seats_of(players[:2]),
        first_dealer="E",
        played_on=PLAY_DATE,
    )
    assert match.table.seats == 2
    assert (match.south, match.west) == (None, None)
    assert match.first_dealer == "E"


def test_played_on_defaults_to_today_in_the_clubs_time_zone(director):
    club = make_club(creator=director, season=False, timezone="Pacific/Kiritimati")
    today = timezone.localdate(timezone=zoneinfo.ZoneInfo("Pacific/Kiritimati"))
    season_create(
        club=club,
        name="now",
        start_date=today - datetime.timedelta(days=1),
        end_date=today + datetime.timedelta(days=1),
    )
    match = match_create(club=club, kind="chicago", seats=seats_of(make_players(club)))
    assert match.table.session.date == today


def test_match_create_uses_a_given_table(club, players):
    session = session_get_or_create(club=club, date=PLAY_DATE)
    table = table_create(session=session, number=7)
    match = match_create(club=club, kind="chicago", seats=seats_of(players), table=table)
    assert match.table == table


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"kind": "bridge"}, "kind"),
        ({"first_dealer": "X"}, "first_dealer"),
        ({"played_on": datetime.date(2030, 1, 1)}, "played_on"),
        ({"played_on": "not a date"}, "played_on"),
    ],
)
def test_match_create_names_the_bad_field(club, players, change, field):
    arguments = {
        "club": club,
        "kind": "chicago",
        "seats": seats_of(players),
        "played_on": PLAY_DATE,
    }
    with pytest.raises(ValidationError) as error:
        match_create(**(arguments | change))
    assert field in error.value.message_dict
    assert not Match.objects.exists()


def test_players_must_be_distinct_members_active_and_fit_the_kind(club, players, director):
    other_club = make_club(creator=director)
    stranger = make_players(other_club, 1)[0]
    cases = [
        ({"N": players[0], "E": players[1], "S": players[0], "W": players[3]}, "seats"),  # twice
        ({"N": players[0], "E": players[1], "S": players[2], "W": stranger}, "seats.W"),
        ({"N": players[0], "E": players[1], "S": players[2]}, "seats.W"),  # West missing
        ({"N": players[0], "E": players[1], "S": players[2], "W": 10**9}, "seats.W"),  # no one
        ({**seats_of(players), "X": players[3]}, "seats"),
        ({**seats_of(players[:3]), "W": "Dora"}, "seats.W"),
    ]
    for seats, field in cases:
        with pytest.raises(ValidationError) as error:
            match_create(club=club, kind="chicago", seats=seats, played_on=PLAY_DATE)
        assert list(error.value.message_dict) == [field]
    with pytest.raises(ValidationError) as error:  # a two-player match has no South
        match_create(club=club, kind="two_player", seats=seats_of(players[:3]), played_on=PLAY_DATE)
    assert "N and E" in error.value.message_dict["seats.S"][0]
    with pytest.raises(ValidationError) as error:  # a player of another club, by id
        match_create(club=club, kind="chicago", seats=seats_of(players[:3]) | {"W": stranger.pk})
    assert error.value.message_dict == {
        "seats.W": [f"There is no player {stranger.pk} in {club.name}."]
    }
    with pytest.raises(ValidationError) as error:  # the engine's rule, in words for a person
        match_create(club=club, kind="two_player", seats=seats_of(players[:2]), first_dealer="W")
    assert error.value.message_dict == {
        "first_dealer": ["At a table of two, North or East deals first."]
    }
    membership_set(club=club, player=players[3], active=False, actor=None)
    with pytest.raises(ValidationError) as error:
        match_create(club=club, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE)
    assert "inactive" in error.value.message_dict["seats.W"][0]
    ids = {seat: player.pk for seat, player in seats_of(players[:3]).items()}
    match = match_create(club=club, kind="two_player", seats=ids | {"S": None}, played_on=PLAY_DATE)
    assert match.seats == {"N": players[0], "E": players[1]}  # players given by id
    assert Match.objects.count() == 1


def test_tables_must_fit_the_kind_and_belong_to_the_club(club, players, director):
    session = session_get_or_create(club=club, date=PLAY_DATE)
    two = table_create(session=session, seats=2)
    four = table_create(session=session, seats=4)
    with pytest.raises(ValidationError) as error:  # Chicago is never played by two
        match_create(club=club, kind="chicago", seats=seats_of(players), table=two)
    assert "kind" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        match_create(club=club, kind="two_player", seats=seats_of(players[:2]), table=four)
    assert "kind" in error.value.message_dict
    with pytest.raises(ValidationError) as error:  # first dealer at a table of two
        match_create(
            club=club, kind="two_player", seats=seats_of(players[:2]), table=two, first_dealer="S"
        )
    assert "first_dealer" in error.value.message_dict
    other = make_club(creator=director)
    their_table = table_create(session=session_get_or_create(club=other, date=PLAY_DATE))
    with pytest.raises(ValidationError) as error:
        match_create(club=club, kind="chicago", seats=seats_of(players), table=their_table)
    assert "table" in error.value.message_dict
    assert not Match.objects.exists()


def test_a_failed_match_create_leaves_no_session_or_table(club, players, monkeypatch):
    def fail(match):
        raise RuntimeError("boom after the writes")

    monkeypatch.setattr(services, "_season_changed", fail)
    with pytest.raises(RuntimeError):
        match_create(club=club, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE)
    assert not Session.objects.exists()
    assert not Table.objects.exists()
    assert not Match.objects.exists()


# --- deal_record -----------------------------------------------------------------------------


def test_recording_a_chicago_stores_the_engines_figures(chicago, director):
    deal = deal_record(match=chicago, result=Played("4S", "N", 10), actor=director)
    assert (deal.deal.sequence, deal.row.number, deal.row.dealer) == (1, 1, "N")
    assert (deal.row.ns, deal.row.ew) == (420, 0)  # 120 + a non-vulnerable game, 300
    chicago.refresh_from_db()
    assert chicago.total_ns == 420
    passed = deal_record(match=chicago, result=PassedOut())
    assert (passed.deal.sequence, passed.row.number, passed.row.dealer) == (2, None, "E")
    deal_record(match=chicago, result=Played("3NTX", "E", 7), actor=director)
    deal_record(match=chicago, result=Played("2H", "S", 9))
    deal_record(match=chicago, result=Played("6CXX", "W", 12))
    sheet = assert_matches_engine(chicago)
    assert sheet.complete and chicago.status == MatchStatus.COMPLETE
    assert chicago.winner in ("NS", "EW", "tie")
    assert [row.number for row in match_sheet(match=chicago).rows] == [1, None, 2, 3, 4]


def test_the_clubs_chicago_vulnerability_option_is_used(director):
    results = []
    for option in ("dealer", "non_dealer"):
        club = make_club(creator=director, chicago_vulnerability=option)
        match = match_create(
            club=club, kind="chicago", seats=seats_of(make_players(club)), played_on=PLAY_DATE
        )
        deal_record(match=match, result=Played("1C", "N", 7))
        deal = deal_record(match=match, result=Played("3NT", "E", 5))  # dealer E
        assert_matches_engine(match)
        results.append((deal.row.vulnerable, deal.row.ns))
    assert results[0][0] == ("EW",)  # the dealer's side
    assert results[1][0] == ("NS",)  # the other side
    assert results[0][1] != results[1][1]  # four down costs more when vulnerable


def test_a_fifth_counted_chicago_deal_is_a_conflict(chicago):
    for declarer in "NESW":
        deal_record(match=chicago, result=Played("1NT", declarer, 7))
    before = snapshot(chicago)
    with pytest.raises(MatchConflict) as conflict:
        deal_record(match=chicago, result=Played("1NT", "N", 7))
    assert "4" in str(conflict.value)
    with pytest.raises(MatchConflict):
        deal_record(match=chicago, result=PassedOut())
    assert snapshot(chicago) == before


def test_a_deal_after_the_rubber_ended_is_a_conflict(rubber):
    deal_record(match=rubber, result=Played("4S", "N", 10))
    deal_record(match=rubber, result=Played("3NT", "S", 9))
    rubber.refresh_from_db()
    assert (rubber.status, rubber.winner) == (MatchStatus.COMPLETE, "NS")
    assert_matches_engine(rubber)
    with pytest.raises(MatchConflict):
        deal_record(match=rubber, result=Played("1C", "E", 7))
    assert Deal.objects.filter(match=rubber).count() == 2


def test_a_service_takes_a_match_or_its_id(chicago):
    deal_record(match=chicago.pk, result=Played("1C", "N", 7))
    assert Deal.objects.filter(match=chicago).count() == 1
    missing = Match.objects.order_by("-pk").first().pk + 1
    with pytest.raises(ValidationError) as error:
        deal_record(match=missing, result=PassedOut())
    assert "match" in error.value.message_dict


def test_two_player_deals_are_declared_by_north_or_east(club, players):
    match = match_create(
        club=club, kind="two_player", seats=seats_of(players[:2]), played_on=PLAY_DATE
    )
    with pytest.raises(ValidationError) as error:
        deal_record(match=match, result=Played("2S", "S", 8))
    assert "declarer" in error.value.message_dict
    deal_record(match=match, result=Played("4H", "E", 10))
    deal = deal_record(match=match, result=Played("2S", "N", 8))
    assert deal.row.dealer == "E"  # N and E deal in turn
    assert_matches_engine(match)


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"contract": "4S", "declarer": "N", "tricks": 14}, "tricks"),
        ({"contract": "8S", "declarer": "N", "tricks": 10}, "level"),
        ({"contract": "4Q", "declarer": "N", "tricks": 10}, "strain"),
        ({"contract": "4S", "declarer": "Z", "tricks": 10}, "declarer"),
        ({"contract": "4S", "tricks": 10}, "declarer"),
        ({"passed_out": True, "contract": "4S"}, "passed_out"),
        ({"contract": "", "declarer": "N", "tricks": 10}, "contract"),
    ],
)
def test_bad_deal_input_names_the_field_and_writes_nothing(chicago, entry, field):
    before = snapshot(chicago)
    with pytest.raises(ValidationError) as error:
        deal_record(match=chicago, result=deal_result(**entry))
    assert field in error.value.message_dict
    assert snapshot(chicago) == before


def test_expected_sequence_must_be_the_next_one(chicago):
    deal_record(match=chicago, result=Played("2D", "W", 8), expected_sequence=1)
    with pytest.raises(MatchConflict) as conflict:
        deal_record(
            match=chicago,
            result=Played("2D", "W", 8),
            expected_sequence=1,
        )
    assert "2" in str(conflict.value)
    deal_record(match=chicago, result=Played("2D", "W", 8), expected_sequence=2)
    assert Deal.objects.filter(match=chicago).count() == 2


# --- deal_correct ----------------------------------------------------------------------------


def test_a_correction_rescores_every_later_deal(chicago, director):
    deal_record(match=chicago, result=Played("2S", "N", 8))  # 60 below
    deal_record(match=chicago, result=Played("2H", "S", 8))  # 60 more: game
    deal_record(match=chicago, result=Played("1NT", "N", 7))  # 40 partscore

    def figures():
        rows = match_sheet(match=chicago).rows
        return [(r.number, r.ns, r.ew, r.partscore_ns, r.partscore_ew) for r in rows]

    before = figures()
    corrected = deal_correct(match=chicago, sequence=1, result=PassedOut(), actor=director)
    assert corrected.deal.passed_out and corrected.row.number is None
    after = figures()
    assert after[1] != before[1] and after[2] != before[2]  # later deals changed too
    assert_matches_engine(chicago)
    assert [number for number, *_ in after] == [None, 1, 2]


def test_a_correction_can_complete_or_reopen_a_match(chicago):
    for declarer in "NES":
        deal_record(match=chicago, result=Played("1NT", declarer, 7))
    deal_record(match=chicago, result=PassedOut())
    chicago.refresh_from_db()
    assert chicago.status == MatchStatus.IN_PROGRESS
    deal_correct(match=chicago, sequence=4, result=Played("3C", "W", 9))
    chicago.refresh_from_db()
    assert chicago.status == MatchStatus.COMPLETE and chicago.winner
    deal_correct(match=chicago, sequence=4, result=PassedOut())
    chicago.refresh_from_db()
    assert (chicago.status, chicago.winner) == (MatchStatus.IN_PROGRESS, "")
    assert_matches_engine(chicago)


def test_a_correction_that_makes_later_deals_impossible_changes_nothing(rubber):
    deal_record(match=rubber, result=Played("4S", "N", 10))  # NS game
    deal_record(match=rubber, result=Played("1C", "E", 7))
    deal_record(match=rubber, result=Played("4H", "S", 10))  # NS rubber
    before = snapshot(rubber)
    with pytest.raises(MatchConflict):  # the rubber would end on deal 2
        deal_correct(match=rubber, sequence=2, result=Played("3NT", "N", 9))
    assert snapshot(rubber) == before


def test_a_correction_of_the_last_deal_is_refused_once_it_is_not_the_last(chicago):
    deal_record(match=chicago, result=Played("2S", "N", 8))
    deal_record(match=chicago, result=Played("4H", "E", 10))
    before = snapshot(chicago)
    with pytest.raises(MatchConflict) as conflict:
        deal_correct(match=chicago, sequence=1, result=PassedOut(), last_only=True)
    assert "the last is 2" in str(conflict.value)
    assert snapshot(chicago) == before
    corrected = deal_correct(match=chicago, sequence=2, result=PassedOut(), last_only=True)
    assert corrected.deal.passed_out


def test_correcting_a_deal_that_does_not_exist(chicago):
    deal_record(match=chicago, result=PassedOut())
    for sequence in (0, 2, "1"):
        with pytest.raises(ValidationError) as error:
            deal_correct(match=chicago, sequence=sequence, result=PassedOut())
        assert "sequence" in error.value.message_dict


# --- deal_delete_last ------------------------------------------------------------------------


def test_delete_last_rescores_the_match(chicago):
    for declarer in "NESW":
        deal_record(match=chicago, result=Played("2NT", declarer, 8))
    chicago.refresh_from_db()
    assert chicago.status == MatchStatus.COMPLETE
    with pytest.raises(MatchConflict):  # not the last deal any more
        deal_delete_last(match=chicago, sequence=3)
    deal_delete_last(match=chicago, sequence=4)
    chicago.refresh_from_db()
    assert (chicago.status, chicago.winner) == (MatchStatus.IN_PROGRESS, "")
    assert Deal.objects.filter(match=chicago).count() == 3
    assert_matches_engine(chicago)
    for _ in range(3):
        deal_delete_last(match=chicago)
    chicago.refresh_from_db()
    assert (chicago.total_ns, chicago.total_ew) == (0, 0)
    with pytest.raises(MatchConflict):
        deal_delete_last(match=chicago)


# --- match_finish and match_abandon --------------------------------------------------------


def test_finishing_an_unfinished_rubber_scores_it_by_the_laws(rubber):
    deal_record(match=rubber, result=Played("4S", "N", 10))  # NS game: 120
    deal_record(match=rubber, result=Played("2H", "E", 8))  # EW partscore: 60
    finished = match_finish(match=rubber)
    assert finished.status == MatchStatus.COMPLETE and finished.finished_early
    sheet = assert_matches_engine(rubber)
    assert sheet.finished_early
    # 300 for NS's game, 100 for EW's partscore in the unfinished game.
    assert (rubber.total_ns, rubber.total_ew) == (120 + 300, 60 + 100)
    assert rubber.winner == "NS"
    with pytest.raises(MatchConflict):
        deal_record(match=rubber, result=Played("1C", "N", 7))
    with pytest.raises(MatchConflict):
        match_finish(match=rubber)
    assert match_sheet(match=rubber).total_ns == rubber.total_ns


def test_corrections_and_deletions_keep_a_finished_rubber_finished(rubber):
    deal_record(match=rubber, result=Played("4S", "N", 10))
    deal_record(match=rubber, result=Played("2H", "E", 8))
    match_finish(match=rubber)
    deal_correct(match=rubber, sequence=2, result=Played("2H", "E", 6))  # now down
    assert_matches_engine(rubber)
    assert rubber.finished_early and rubber.status == MatchStatus.COMPLETE
    deal_delete_last(match=rubber)
    assert_matches_engine(rubber)
    assert rubber.finished_early


def test_a_chicago_cannot_be_finished_early(chicago):
    with pytest.raises(ValidationError) as error:
        match_finish(match=chicago)
    assert "kind" in error.value.message_dict


def test_an_abandoned_match_accepts_no_change(chicago):
    deal_record(match=chicago, result=Played("1S", "N", 7))
    abandoned = match_abandon(match=chicago)
    assert (abandoned.status, abandoned.winner) == (MatchStatus.ABANDONED, "")
    before = snapshot(chicago)
    for attempt in (
        lambda: deal_record(match=chicago, result=PassedOut()),
        lambda: deal_correct(match=chicago, sequence=1, result=PassedOut()),
        lambda: deal_delete_last(match=chicago),
        lambda: match_abandon(match=chicago),
    ):
        with pytest.raises(MatchConflict):
            attempt()
    assert snapshot(chicago) == before


def test_a_complete_match_cannot_be_abandoned(rubber):
    deal_record(match=rubber, result=Played("7NT", "N", 13))
    deal_record(match=rubber, result=Played("7NT", "S", 13))
    with pytest.raises(MatchConflict):
        match_abandon(match=rubber)


# --- the club's option and the ladders -----------------------------------------------------


def test_changing_the_vulnerability_option_rescores_the_clubs_chicagos(club, chicago):
    deal_record(match=chicago, result=Played("1C", "N", 7))
    deal_record(match=chicago, result=Played("3NT", "E", 5))
    chicago.refresh_from_db()
    before = chicago.total_ns
    club_update(club=club, chicago_vulnerability="non_dealer")
    assert_matches_engine(chicago, vulnerability="non_dealer")
    assert chicago.total_ns != before


def test_the_ladders_hear_of_a_match_only_while_it_counts(chicago, rubber, monkeypatch):
    """Once per service call that changes a complete match (completed, corrected, its last
    deal deleted, finished early), and never for a match in progress: the ladder counts
    complete matches only (issue 32: 120 deals made 126 recalculations)."""
    calls = []
    monkeypatch.setattr(services, "_seasons_changed", lambda ids: calls.append(set(ids)))
    season = {chicago.table.session.season_id}
    for declarer in "NESW":
        deal_record(match=chicago, result=Played("1C", declarer, 7))
    assert calls == [season]  # the fourth deal completed it
    deal_correct(match=chicago, sequence=1, result=Played("1C", "N", 8))
    deal_delete_last(match=chicago)  # complete until then: it leaves the ladder
    assert calls == [season] * 3
    deal_correct(match=chicago, sequence=1, result=Played("1C", "N", 9))
    deal_delete_last(match=chicago)
    match_abandon(match=chicago)
    deal_record(match=rubber, result=Played("1C", "N", 7))
    assert calls == [season] * 3
    match_finish(match=rubber)
    assert calls == [season] * 4


def test_batched_season_changes_tell_the_ladders_once(chicago, rubber, monkeypatch):
    calls = []
    monkeypatch.setattr(
        "scoring.tasks.standings_refresh_on_commit",
        lambda *, season_id: calls.append(season_id),
    )
    with services.season_changes_batched():
        with services.season_changes_batched():  # nested blocks report at the outer end
            for declarer in "NESW":
                deal_record(match=chicago, result=Played("1C", declarer, 7))
        deal_record(match=rubber, result=Played("1C", "N", 7))
        match_finish(match=rubber)
        assert calls == []
    assert calls == [chicago.table.session.season_id]
