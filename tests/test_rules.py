"""The club's rules as one value: a club's scoring options are read off it in one place,
``Club.rules()``, and the ``Rules`` it makes reach the engine from every path that scores.

The code is walked (as tests/test_layers.py walks it): a scoring option named anywhere but in
``Club.rules()`` and the code that defines or edits the club fails, so no path can score with
an option of its own reading. Then ``Club.rules()`` is made to return rules with an option the
engine does not know yet (as a new option of tomorrow would be): every path that scores a
match must bring that very value to the engine, and score as before.
"""

import ast
import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest

import scoring.engine.match as engine_match
from clubs.models import SCORING_OPTIONS, Club
from scoring.engine import DEFAULT_RULES, ChicagoVulnerability, InvalidInput, Played, Rules
from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user, seats_of

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("clubs", "matches", "nights", "scoring", "api", "config", "bench")

# Where a scoring option may be named: the function that reads the options (``Club.rules``)
# and the code that defines a club or sets its options: the model's fields, constraints and
# field lists (outside any function: ``<module>``), the club's creation and its admin list.
ALLOWED = {
    "clubs/models.py": {"<module>", "Club.rules"},
    "clubs/services.py": {"club_create"},
    "clubs/admin.py": {"<module>"},
    "clubs/validators.py": {"par_table_of", "validate_par_table"},  # the par table's check
    "bench/ladder.py": {"generate"},  # the benchmark's clubs, inserted as rows
}


def sources() -> Iterator[tuple[str, ast.Module]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _names_an_option(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in SCORING_OPTIONS
    if isinstance(node, ast.keyword):
        return node.arg is not None and node.arg.split("__")[0] in SCORING_OPTIONS
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(option in node.value for option in SCORING_OPTIONS)
    if isinstance(node, ast.arg):
        return node.arg in SCORING_OPTIONS
    return False


def mentions(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """(the enclosing function's qualified name, or ``<module>``; the line) of each place that
    names a scoring option: an attribute, a keyword or parameter, or a string (a ``values()``
    lookup, raw SQL). Docstrings are prose, not reads."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }

    def visit(node: ast.AST, scope: list[str], in_function: bool) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                yield from visit(child, [*scope, child.name], True)
                continue
            if isinstance(child, ast.ClassDef):
                yield from visit(child, [*scope, child.name], in_function)
                continue
            if _names_an_option(child) and id(child) not in docstrings:
                where = ".".join(scope) if in_function else "<module>"
                yield where, getattr(child, "lineno", getattr(node, "lineno", 0))
            yield from visit(child, scope, in_function)

    yield from visit(tree, [], False)


def test_the_walk_finds_a_read_of_an_option() -> None:
    sample = ast.parse(
        "def f(club, c):\n"
        "    v = club.chicago_vulnerability\n"
        "    Club.objects.values('chicago_vulnerability')\n"
        "    c.execute('SELECT c.chicago_vulnerability FROM clubs_club c')\n"
        "    Club.objects.filter(chicago_vulnerability__in=['dealer'])\n"
        "class Club:\n"
        "    def rules(self):\n"
        "        '''Reads chicago_vulnerability (prose).'''\n"
        "        return self.chicago_vulnerability\n"
    )
    assert [line for _where, line in mentions(sample)] == [2, 3, 4, 5, 9]
    assert {where for where, _line in mentions(sample)} == {"f", "Club.rules"}


def test_only_club_rules_reads_a_scoring_option_off_a_club() -> None:
    found = [
        f"{path}:{line} ({where})"
        for path, tree in sources()
        for where, line in mentions(tree)
        if where not in ALLOWED.get(path, set())
    ]
    assert found == [], (
        "A scoring option is read outside Club.rules(): take the club's rules (club.rules(), "
        "or select SCORING_OPTIONS and build them with Club.rules()) instead:\n" + "\n".join(found)
    )
    read = {
        node.attr
        for path, tree in sources()
        if path == "clubs/models.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "rules"
        for node in ast.walk(node)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    }
    # What a query selects to build the rules without the whole club is all they read.
    assert read == set(SCORING_OPTIONS)


def test_club_rules_are_the_clubs_options() -> None:
    assert Club().rules() == DEFAULT_RULES
    rules = Club(chicago_vulnerability="non_dealer").rules()
    assert rules == Rules(vulnerability=ChicagoVulnerability.NON_DEALER)
    with pytest.raises(InvalidInput) as error:
        Club(chicago_vulnerability="sometimes").rules()
    assert error.value.field == "vulnerability"


# --- A new option reaches every score ---------------------------------------------------------


class Tomorrow(Rules):
    """The club's rules with an option the engine does not know yet (as par scoring was)."""

    def __init__(self, *, tomorrow: str, **options: object) -> None:
        Rules.__init__(self, **options)  # type: ignore[arg-type]
        object.__setattr__(self, "tomorrow", tomorrow)


@pytest.fixture
def received(monkeypatch: pytest.MonkeyPatch) -> list[Rules]:
    """Every club's rules carry the new option; the rules each Chicago and rubber the engine
    scores arrive with are recorded."""
    rules_of = Club.rules
    monkeypatch.setattr(
        Club,
        "rules",
        lambda club: Tomorrow(tomorrow="tomorrow", vulnerability=rules_of(club).vulnerability),
    )
    arrived: list[Rules] = []
    for name in ("score_chicago", "score_rubber"):
        scorer = getattr(engine_match, name)

        def recorded(*args: object, _scorer=scorer, **options: object) -> object:
            arrived.append(options["rules"])  # type: ignore[arg-type]
            return _scorer(*args, **options)

        monkeypatch.setattr(engine_match, name, recorded)
    return arrived


def _all_tomorrows(arrived: list[Rules], club: Club) -> None:
    assert arrived, "nothing was scored"
    assert all(type(rules) is Tomorrow for rules in arrived), arrived
    assert {(rules.tomorrow, rules.vulnerability) for rules in arrived} == {  # type: ignore[attr-defined]
        ("tomorrow", ChicagoVulnerability.NON_DEALER)
    }


@pytest.fixture
def world(db):
    """A club with the non-default option, a complete Chicago and a rubber under way."""
    from matches.services import deal_record, match_create

    director = make_user("rules-boss")
    club = make_club(creator=director, chicago_vulnerability="non_dealer")
    players = make_players(club, 4)
    chicago = match_create(
        club=club, kind="chicago", seats=seats_of(players), played_on=PLAY_DATE, actor=director
    )
    for contract, declarer, tricks in (("2H", "N", 8), ("1S", "W", 6), ("2D", "S", 8)):
        deal_record(match=chicago, result=Played(contract, declarer, tricks))
    rubber = match_create(
        club=club, kind="rubber", seats=seats_of(players), played_on=PLAY_DATE, actor=director
    )
    deal_record(match=rubber, result=Played("4S", "N", 10))
    return club, director, players, chicago, rubber


def test_a_deal_recorded_and_corrected(world, received) -> None:
    from matches.services import deal_correct, deal_record

    club, _director, _players, chicago, rubber = world
    deal_record(match=chicago, result=Played("1NT", "E", 7))
    deal_correct(match=chicago, sequence=1, result=Played("3H", "N", 9))
    deal_record(match=rubber, result=Played("2C", "E", 8))
    _all_tomorrows(received, club)
    chicago.refresh_from_db()
    assert chicago.status == "complete"


def test_a_sheet_read(world, received) -> None:
    from matches.selectors import match_sheet, sheet_of

    club, _director, _players, chicago, rubber = world
    sheets = [match_sheet(match=match) for match in (chicago, rubber)]
    _all_tomorrows(received, club)
    results = [row.result for row in sheets[0].rows]
    # Scored as the club's option scores, whatever else the rules carry.
    assert sheets[0] == sheet_of(
        match=chicago, results=results, rules=Rules(vulnerability="non_dealer")
    )
    assert sheets[0] != sheet_of(match=chicago, results=results, rules=DEFAULT_RULES)


def test_the_statistics(world, received, settings) -> None:
    from matches.services import deal_record
    from scoring.selectors import player_statistics

    settings.API_READ_CACHE = False
    club, _director, players, chicago, _rubber = world
    deal_record(match=chicago, result=Played("1NT", "E", 7))
    received.clear()
    statistics = player_statistics(club=club, player_id=players[0].pk)
    _all_tomorrows(received, club)
    assert statistics.total.matches == 1


def test_the_history_import(world, received) -> None:
    from matches.history_import import season_history_import

    club, director, _players, _chicago, _rubber = world
    data = (
        "date,table,kind,north,east,south,west,contract,declarer,tricks\n"
        "2025-03-14,7,chicago,Anna,Bob,Carla,Dan,4S,N,10\n"
        "2025-03-14,7,chicago,Anna,Bob,Carla,Dan,3NT,E,9\n"
        "2025-03-14,8,rubber,Eve,Finn,Gus,Hal,4H,N,10\n"
    )
    season = club.seasons.get()
    report = season_history_import(season=season, data=data, actor=director, dry_run=True)
    assert report.errors == []
    _all_tomorrows(received, club)
    received.clear()
    report = season_history_import(season=season, data=data, actor=director)
    assert len(report.match_ids) == 2
    _all_tomorrows(received, club)


def test_the_exports(world, received) -> None:
    from clubs.exports import csv_chunks
    from matches.selectors import season_deals_export
    from nights.pbn import PBN

    club, _director, _players, chicago, _rubber = world
    season = club.seasons.get()
    export = season_deals_export(season=season)
    assert b"".join(csv_chunks(export.headers, export.rows))
    _all_tomorrows(received, club)
    received.clear()
    for _name, chunks in (PBN().season(season), PBN().match(chicago)):
        assert b"".join(chunks)
    _all_tomorrows(received, club)


def test_the_demo(db, received) -> None:
    from matches.demo import demo_load

    club = demo_load(director=make_user("demo-boss"), today=datetime.date(2025, 6, 1))
    assert club is not None
    assert received
    assert all(type(rules) is Tomorrow for rules in received)


def test_a_deal_entered_at_the_table(db, received) -> None:
    from django.core.cache import cache

    from nights.services import table_entry_submit
    from nights.table_selectors import current_match, night_board
    from tests.nights.tables import code_of, started_night

    cache.clear()  # no wrong codes counted by an earlier test
    club = make_club(chicago_vulnerability="non_dealer")
    night = started_night(club)
    code = code_of(night)
    match = current_match(code=code)
    table_entry_submit(
        code=code,
        sequence=1,
        entered_by=match.seats["N"].pk,
        result=Played("4S", "N", 10),
    )
    received.clear()
    board = night_board(night=night)
    assert board[0].waiting.row is not None  # the waiting deal's preview, scored
    _all_tomorrows(received, club)
    cache.clear()
