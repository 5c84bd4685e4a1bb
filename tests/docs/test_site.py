"""The documentation site (mkdocs.yml, docs/): it builds strictly, the README's links lead to
its pages, and the figures docs/rules.md gives are the engine's."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import Rules, score_contract, score_match
from scoring.engine.notation import PassedOut, Played
from tests.deploy import ROOT

RULES = (ROOT / "docs" / "rules.md").read_text()


def build(site: Path, *, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)]
    if config is not None:
        command += ["--config-file", str(config)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_site_builds_strictly(tmp_path):
    built = build(tmp_path / "site")
    assert built.returncode == 0, built.stderr
    assert (tmp_path / "site" / "rules" / "index.html").exists()
    assert (tmp_path / "site" / "screenshots" / "score-sheet-chicago.png").exists()


def test_a_broken_link_fails_the_build(tmp_path):
    """Strict means strict: a page linking to a page that does not exist stops the build."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n[The rules](rules.md)\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text(f"site_name: Broken\ndocs_dir: {docs}\n")
    built = build(tmp_path / "site", config=config)
    assert built.returncode != 0
    assert "rules.md" in built.stderr


def test_the_readme_links_lead_to_pages():
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    assert "docs/rules.md" in links and "docs/nights.md" in links
    for link in links:
        assert (ROOT / link).is_file(), f"README.md links to {link}, which does not exist"


def test_the_readme_keeps_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert "make run " in readme and "make test " in readme
    assert "## Continuous integration" in readme


# --- docs/rules.md says what the engine does ---------------------------------------------

STRAINS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S", "NT": "NT"}


def section(title: str) -> str:
    match = re.search(rf"^#+ {re.escape(title)}\n(.*?)(?=^#+ )", RULES, re.S | re.M)
    assert match, f"docs/rules.md has no section {title!r}"
    return match.group(1)


def points(cell: str) -> int:
    """A cell's figure: 'nothing' is 0; 'a + b = c' is c; else the sum of the figures outside
    parentheses ('400 (overtrick) + 100 (insult)' is 500)."""
    cell = re.sub(r"\([^)]*\)", "", cell)
    if "=" in cell:
        cell = cell.split("=")[-1]
    return sum(int(n) for n in re.findall(r"\d+", cell))


def check_rows() -> list[list[str]]:
    rows = []
    for line in section("Checks").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 6 and re.match(r"\d", cells[0]):
            rows.append(cells)
    return rows


def test_the_checks_table_has_its_rows():
    assert len(check_rows()) >= 8


@pytest.mark.parametrize("row", check_rows(), ids=lambda row: f"{row[0]} {row[2]}")
def test_each_check_is_the_engines_score(row):
    contract, vulnerable, tricks, below, above, to_whom = row
    level, strain, doubling = re.fullmatch(
        r"(\d)(♣|♦|♥|♠|NT)( doubled| redoubled)?", contract
    ).groups()
    notation = level + STRAINS[strain] + {None: "", " doubled": "X", " redoubled": "XX"}[doubling]
    score = score_contract(notation, vulnerable=vulnerable == "yes", tricks=int(tricks.split()[0]))
    assert score.below == points(below)
    above_items = sum(item.points for item in score.above)
    assert above_items == points(above)
    if to_whom == "declarer":
        assert score.defender_points == 0
    else:
        assert score.declarer_points == 0 and score.defender_points == points(above)


def test_the_worked_chicago_is_the_engines():
    results = [
        Played("2S", "N", 8),
        PassedOut(),
        Played("2H", "S", 9),
        Played("3NT", "E", 8),
        Played("1C", "W", 7),
    ]
    text = " ".join(section("A Chicago").split())
    sheet = score_match("chicago", results, first_dealer="N")
    assert (
        f"North-South {sheet.total_ns} ({sheet.below_ns} below the line, {sheet.above_ns} above), "
        f"East-West {sheet.total_ew} ({sheet.below_ew} below, {sheet.above_ew} above)"
    ) in text
    other = score_match(
        "chicago", results, first_dealer="N", rules=Rules(vulnerability="non_dealer")
    )
    assert f"North-South {other.total_ns}, East-West {other.total_ew}." in text


def test_the_worked_rubber_is_the_engines():
    results = [
        Played("2H", "N", 9),
        Played("4S", "E", 10),
        PassedOut(),
        Played("3NT", "S", 9),
        Played("2SX", "W", 7),
        Played("4H", "N", 11),
    ]
    text = " ".join(section("A rubber").split())
    sheet = score_match("rubber", results, first_dealer="N")
    assert sheet.winner is not None and sheet.winner.value == "NS"
    assert (
        f"{sheet.total_ns} points ({sheet.below_ns} below the line, {sheet.above_ns} above) "
        f"to East-West's {sheet.total_ew}"
    ) in text


def test_the_unfinished_rubber_is_the_engines():
    results = [Played("4S", "E", 10), Played("2D", "N", 9)]
    text = " ".join(section("An unfinished rubber").split())
    sheet = score_match("rubber", results, first_dealer="N", finished=True)
    assert f"East-West {sheet.total_ew}, North-South {sheet.total_ns}" in text


def test_the_worked_draw_bridge_is_the_engines():
    results = [
        Played("3NT", "N", 10),
        Played("2C", "E", 8),
        Played("4S", "E", 9),
        Played("5D", "E", 11),
    ]
    text = " ".join(section("Draw Bridge").split())
    sheet = score_match("two_player", results, first_dealer="E")
    assert not sheet.complete and (sheet.games_ns, sheet.games_ew) == (1, 1)
    assert f"North {sheet.total_ns}, East {sheet.total_ew}." in text
