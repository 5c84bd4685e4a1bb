"""The bridge terms of the catalogs: every translation of a string about one thing (a doubled
contract, the strain, the rating, a contract down, a slam, a finished match...) uses that
language's word for it, the same word throughout the catalog, and never a word a reader of
the language found wrong.

The words are the glossary's: those of the rules pages each language's pages come from, and
for the terms those pages do not use, the national federations' (the translations of the
Laws of Duplicate Bridge: Hellenic Bridge Federation, Nederlandse Bridge Bond; Spanish
"denominación" for a strain). Greek writes slam as the Hellenic federation's Laws do, σλεμ.
"""

import re
from dataclasses import dataclass

import pytest

from tests.web.test_catalogs import LOCALES, catalog


@dataclass(frozen=True)
class Term:
    name: str
    source: str  # a regular expression a msgid (or its plural) matches
    wanted: dict[str, str]  # per language: every translation matches it
    wrong: dict[str, str]  # per language: no translation matches it


TERMS = [
    Term(
        "doubled",
        r"(?i)\b(un|re)?doubled\b",
        wanted={
            "el": r"(?i)κ[οό]ντρ",
            "pl": r"(?i)kontr",
            "es": r"(?i)\b(re)?doblad[oa]s?\b|\bsin doblar\b",
            "nl": r"(?i)\b(on)?ge(re)?doubleerd\b",
        },
        wrong={"el": r"ρεκοντρ", "es": r"(?i)\bdoblo\b", "nl": r"(?i)\bdoublet\b"},
    ),
    Term(
        "strain",
        r"(?i)\bstrain\b",
        wanted={
            "el": r"(?i)είδος",
            "pl": r"(?i)miano",
            "es": r"(?i)denominación",
            "nl": r"(?i)speelsoort",
        },
        # A suit is one strain; no trump is another, not a suit.
        wrong={
            "el": r"(?i)χρώμα(?! ή χωρίς ατού)",
            "pl": r"(?i)\bkolor\b(?! albo bez atu)",
            "es": r"(?i)\bpalo\b(?! o sin triunfo)",
            "nl": r"(?i)\bkleur\b(?! of sans atout)",
        },
    ),
    Term(
        "rating",
        r"(?i)\brating\b",
        wanted={"el": r"(?i)αξιολόγηση", "pl": r"Elo", "es": r"Elo", "nl": r"Elo"},
        # Greek βαθμολογία is the scoring of a deal; English left in place elsewhere.
        wrong={"el": r"(?i)βαθμολογία", "es": r"(?i)rating", "nl": r"(?i)rating"},
    ),
    Term(
        "down",
        r"\bdown\b|\bundertricks?\b",
        wanted={"el": r"μέσα", "pl": r"wpad", "es": r"multa", "nl": r"\bdown"},
        wrong={"nl": r"(?i)onderslag"},
    ),
    Term(
        "slam",
        r"\bslam\b",
        wanted={"el": r"σλεμ", "pl": r"szlem", "es": r"\bslam\b", "nl": r"\bslem\b"},
        wrong={"el": r"σλαμ"},
    ),
    Term(
        "finished or complete",
        r"\b(complete|done)\b|\bfinished\b(?! must be)",  # not the API's field name
        wanted={
            "el": r"ολοκληρ|τελ[εέ][ιί][ωώ]|τερματ|έληξε",
            "pl": r"zakończ|ukończ",
            "es": r"termina|terminó|acaba",
            "nl": r"voltooid|beëindigd|afgelopen",
        },
        wrong={"nl": r"(?i)\bklaar\b"},
    ),
    Term(
        "net points",
        r"(?i)\bnet points\b",
        wanted={
            "el": r"(?i)καθαρ",
            "pl": r"(?i)netto",
            "es": r"(?i)\bnetos?\b",
            "nl": r"(?i)saldo",
        },
        wrong={"nl": r"(?i)nettopunt"},
    ),
    Term(
        "average",
        r"(?i)\baverage\b",
        wanted={
            "el": r"(?i)μέσ",
            "pl": r"(?i)średni",
            "es": r"(?i)\bmedia\b",
            "nl": r"(?i)gemiddel",
        },
        wrong={"es": r"(?i)promedio"},
    ),
    # The words of a club evening (issue 29's readers): Spanish says "velada" for a club
    # night, "encuentro" for a match and "bando" for a side (at a table of two a side is one
    # player: "pareja" is kept for the pairs of the winners-move movement).
    Term(
        "club night",
        r"(?i)\bnights?\b(?!\)s)",
        wanted={"es": r"(?i)velada"},
        wrong={"es": r"(?i)\bnoches?\b"},
    ),
    Term(
        "match",
        r"(?<!\()(?<!either )\bmatch(es)?\b",  # not %(match)s, nor the verb
        wanted={"el": r"(?i)αγών|αγων", "pl": r"(?i)mecz", "es": r"(?i)encuentro"},
        wrong={"es": r"(?i)\bpartidos?\b", "nl": r"(?i)\bpartij(en)?\b"},
    ),
    Term(
        "side",
        r"(?is)^(?!.*\bpairs?\b).*\b(side|sides)\b",
        wanted={},
        wrong={"es": r"(?i)\bparejas?\b"},
    ),
    Term(
        "set aside by the director",
        r"(?i)\bset (it )?aside\b",
        # Not the opponents' rejection (odrzucić), shown just above it on the board.
        wanted={"pl": r"(?i)odł[oó]ż|odłoż"},
        wrong={"pl": r"(?i)odrzu"},
    ),
    Term(
        "hashed",
        r"\bhashed\b",
        # An API key is stored as its hash, not encrypted: it cannot be read back.
        wanted={"el": r"κατακερματισ", "pl": r"skrót", "es": r"\bhash\b", "nl": r"\bhash\b"},
        wrong={"el": r"κρυπτογραφ", "es": r"(?i)cifrad|encriptad", "nl": r"(?i)versleutel"},
    ),
    Term(
        "spades",
        r"\bspades\b",
        wanted={"el": r"πίκες", "pl": r"piki", "es": r"picas", "nl": r"schoppen"},
        wrong={"el": r"μπαστούνια"},
    ),
]


def translations(locale: str, source: str):
    """(msgid, translation) for every form of every entry whose msgid matches ``source``."""
    for entry in catalog(locale):
        if entry.obsolete:
            continue
        if not any(re.search(source, s) for s in (entry.msgid, entry.msgid_plural) if s):
            continue
        forms = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for form in forms:
            yield entry.msgid, form


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("term", TERMS, ids=lambda term: term.name)
def test_each_term_is_translated_with_the_languages_word(term, locale):
    found = list(translations(locale, term.source))
    assert found, f"no string about {term.name}"
    for msgid, text in found:
        if locale in term.wanted:
            assert re.search(term.wanted[locale], text), (locale, term.name, msgid, text)
        if locale in term.wrong:
            assert not re.search(term.wrong[locale], text), (locale, term.name, msgid, text)


def test_no_word_in_the_greek_catalog_mixes_greek_and_latin_letters():
    greek, latin = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]"), re.compile(r"[A-Za-z]")
    for msgid, text in translations("el", r""):
        for word in re.findall(r"\w+", text):
            assert not (greek.search(word) and latin.search(word)), (msgid, word)


@pytest.mark.parametrize(
    "context, msgid",
    [
        ("abbreviation of no trump", "NT"),
        ("doubled", "X"),
        ("redoubled", "XX"),
        ("seat letter of North", "N"),
        ("seat letter of East", "E"),
        ("seat letter of South", "S"),
        ("seat letter of West", "W"),
        ("short for North-South", "N-S"),
        ("short for East-West", "E-W"),
    ],
)
def test_greek_contract_notation_is_written_in_greek_letters(context, msgid):
    """The doubled mark beside the Greek abbreviation of no trump is the Greek capital chi,
    not a Latin X: every letter of the notation a Greek sheet shows (no trump, doubled,
    redoubled, the seats and the sides) is a Greek capital."""
    (text,) = [e.msgstr for e in catalog("el") if e.msgctxt == context and e.msgid == msgid]
    assert re.fullmatch(r"[\u0391-\u03a9-]+", text), (context, msgid, text)


def test_greek_button_to_finish_a_rubber_names_the_action():
    """A button reads as what it does: Λήξη (ending), like Καταχώριση, Διαγραφή and
    Εγκατάλειψη, not Τέλος (the end)."""
    found = [
        text
        for msgid, text in translations("el", r"^(Finish|End) ")
        if msgid.startswith(("Finish the rubber", "End an unfinished rubber"))
    ]
    assert len(found) == 2
    assert all(text.startswith("Λήξη ") for text in found), found


WRONG_ANYWHERE = {
    # A club night is a velada, never a noche ("Esta noche está cerrada" reads "tonight is
    # closed"); a match an encuentro; the seats N, E, S o W (W is "uve doble": no "u").
    "es": r"(?i)\bnoches?\b|\bpartidos?\b|\bS u W\b",
    # A match is a wedstrijd throughout, the import's messages too.
    "nl": r"(?i)\bpartij(en)?\b",
    # Neither a player nor the reader is assumed a man: no "nie ma go" of a player, no
    # masculine-only past forms (wpisywałeś, widziałeś); impersonal forms instead.
    "pl": r"(?i)\bnie ma go\b|\w+łeś\b|\w+łbyś\b",
    # A club's name is not assumed masculine (or feminine): the article goes with the noun,
    # "the club %(club)s" (σύλλογος), never straight before the name.
    "el": r"(?i)\b(\u03bf|η|το|του|της|τον|την) %\(club\)s",
}


@pytest.mark.parametrize("locale", LOCALES)
def test_no_translation_uses_a_word_its_readers_found_wrong(locale):
    wrong = [
        (msgid, text)
        for msgid, text in translations(locale, r"")
        if re.search(WRONG_ANYWHERE[locale], text)
    ]
    assert not wrong, (locale, wrong[:5])
