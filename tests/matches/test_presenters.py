"""How bridge reads on the pages: the words and the sheet layouts of matches/presenters.py."""

import re
from types import SimpleNamespace

from django.utils import translation

from matches import presenters
from scoring.engine import Contract, ItemKind, Side, make_result, score_match


def test_vulnerability_in_words():
    with translation.override("en"):
        assert presenters.vulnerable_text(()) == "None"
        assert presenters.vulnerable_text((Side.NS,)) == "N-S"
        assert presenters.vulnerable_text((Side.EW,)) == "E-W"
        assert presenters.vulnerable_text((Side.NS, Side.EW)) == "Both"
        assert presenters.vulnerable_text((True, False)) == "N-S"


def seen(html):
    """What the eye reads: the words for screen readers (visually hidden) left out."""
    return re.sub(r"<[^>]+>", "", re.sub(r'<span class="visually-hidden">[^<]*</span>', "", html))


def test_contract_and_result_notation():
    with translation.override("en"):
        doubled = presenters.contract_html(Contract(4, "S", "X"))
        hearts = presenters.contract_html(Contract(2, "H"))
        assert ">NT<" in presenters.contract_html(Contract(3, "NT", "XX"))
    assert seen(doubled) == "4♠\u202fX"
    assert '<span class="suit-h"><span aria-hidden="true">♥</span>' in hearts
    assert seen(hearts) == "2♥"
    assert presenters.result_text(make_result(contract="4S", declarer="N", tricks=10)) == "="
    assert presenters.result_text(make_result(contract="4S", declarer="N", tricks=11)) == "+1"
    assert presenters.result_text(make_result(contract="4S", declarer="N", tricks=8)) == "\u22122"
    assert presenters.result_text(make_result(passed_out=True)) == ""


def test_screen_readers_hear_words_not_symbols():
    """The symbols are hidden from screen readers, which read words in their place."""
    with translation.override("en"):
        html = presenters.contract_html(Contract(4, "S", "XX"))
        no_trump = presenters.contract_html(Contract(3, "NT", "X"))
        dash = presenters.not_counted()
    with translation.override("el"):
        greek = presenters.contract_html(Contract(6, "D", "X"))

    def heard(html):
        hidden = re.sub(r'<span aria-hidden="true">.*?</span>', "", html)
        return " ".join(re.sub(r"<[^>]+>", "", hidden).split())

    assert heard(html) == "4 spades redoubled"
    assert heard(no_trump) == "3 no trump doubled"
    assert heard(dash) == "not counted" and seen(dash) == "\u2013"
    assert heard(greek) == "6 καρά με κοντρ"


def test_greek_contract_is_written_in_greek_letters_only():
    """A doubled 3NT is written in Greek letters only: the doubled mark is the Greek capital
    chi, like the first letter of the Greek abbreviation of no trump, not a Latin X beside it."""
    with translation.override("el"):
        doubled = presenters.contract_html(Contract(3, "NT", "X"))
        redoubled = presenters.contract_html(Contract(4, "S", "XX"))
        # A sheet row: the contract, its declarer (East, Greek capital alpha) and the result.
        row = presenters.row_contract_html(
            SimpleNamespace(result=make_result(contract="3NTX", declarer="E", tricks=8))
        )

    text = seen
    assert text(doubled) == "3\u03a7\u0391\u202f\u03a7"  # chi alpha, chi
    assert text(redoubled) == "4♠\u202f\u03a7\u03a7"
    assert text(row) == "3\u03a7\u0391\u202f\u03a7 \u0391 \u22121"
    for html in (doubled, redoubled, row):
        assert not re.search(r"[A-Za-z]", text(html)), html


def test_signed_net_points():
    assert presenters.signed(380) == "+380"
    assert presenters.signed(-50) == "\u221250"
    assert presenters.signed(0) == "0"
    assert presenters.signed(None) == ""


def test_chicago_rows_mark_game_and_partscore_bonuses():
    results = [
        make_result(contract="2S", declarer="N", tricks=8),
        make_result(passed_out=True),
        make_result(contract="2H", declarer="S", tricks=9),
        make_result(contract="3NT", declarer="E", tricks=8),
        make_result(contract="1C", declarer="W", tricks=7),
    ]
    sheet = score_match("chicago", results, first_dealer="N")
    with translation.override("en"):
        rows = presenters.sheet_rows(sheet)
    assert [row.number for row in rows] == [1, None, 2, 3, 4]
    assert rows[1].passed_out and rows[1].dealer == "E" and rows[2].dealer == "E"
    assert rows[2].marks_ns == ["game bonus 300"] and rows[2].game_by == "N-S"
    assert rows[4].marks_ew == ["partscore bonus 100"]
    assert [row.vulnerable for row in rows] == ["None", "E-W", "E-W", "N-S", "Both"]
    assert (rows[0].partscore_ns, rows[2].partscore_ns) == (60, 0)


def test_rubber_layout_writes_bonuses_above_and_trick_points_below_by_game():
    results = [
        make_result(contract="2S", declarer="N", tricks=9),  # 60 below, 30 above
        make_result(contract="2H", declarer="E", tricks=7),  # one down: 50 to NS above
        make_result(contract="2NT", declarer="S", tricks=8),  # 70 below: game (130)
        make_result(contract="4H", declarer="W", tricks=10),  # 120 below: game EW
        make_result(contract="3NT", declarer="N", tricks=9),  # 100 below: game, rubber 500
    ]
    sheet = score_match("rubber", results, first_dealer="N")
    with translation.override("en"):
        layout = presenters.rubber_layout(sheet)
    assert [[line.points if line else None for line in pair] for pair in layout.above] == [
        [500, None],
        [50, None],
        [30, None],
    ]
    assert layout.above[0][0].label == "rubber bonus"
    assert [g["won_by"] for g in layout.games] == ["N-S", "E-W", "N-S"]
    first_game = [
        (ns.points if ns else None, ew.points if ew else None) for ns, ew in layout.games[0]["rows"]
    ]
    assert first_game == [(60, None), (70, None)]
    assert layout.below_ns == 60 + 70 + 100 and layout.below_ew == 120
    assert sheet.total_ns == layout.above_ns + layout.below_ns
    assert any(item.kind is ItemKind.RUBBER_BONUS for item in sheet.rows[-1].items)
