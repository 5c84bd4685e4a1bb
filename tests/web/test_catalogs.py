"""The four catalogs are complete: every string marked anywhere in the project is in each of
them, translated, not fuzzy, with the language's plural forms.

A string someone marks for translation and nobody translates fails here, with the fix:
``make messages``, then translate the new entries in ``locale/*/LC_MESSAGES/django.po``.
"""

import os
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.commands import makemessages
from django.utils import translation

BASE_DIR = Path(settings.BASE_DIR)
LOCALES = ("el", "pl", "es", "nl")
# The same list as MESSAGES_IGNORE in the Makefile's `messages` target.
IGNORE = ["bench", "tests", "build", "docs", "var", "staticfiles", "node_modules", "docker"]
PLURAL_FORMS = {
    "el": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "pl": (
        "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
    ),
}
FIX = "run `make messages` and translate the new or changed entries in {path}"


def catalog_path(locale: str) -> Path:
    return BASE_DIR / "locale" / locale / "LC_MESSAGES" / "django.po"


def catalog(locale: str) -> polib.POFile:
    path = catalog_path(locale)
    assert path.exists(), f"no catalog for {locale}: {FIX.format(path=path)}"
    return polib.pofile(str(path))


def key(entry: polib.POEntry) -> tuple[str | None, str]:
    return (entry.msgctxt, entry.msgid)


class _TemplateOnly(makemessages.Command):
    """makemessages writing its .pot into a directory of our own instead of locale/."""

    out_dir = ""

    def find_files(self, root):
        files = super().find_files(root)
        self.locale_paths = [self.out_dir]
        return [self.translatable_file_class(f.dirpath, f.file, self.out_dir) for f in files]


@pytest.fixture(scope="module")
def extracted(tmp_path_factory) -> polib.POFile:
    """What `make messages` would extract from the project now."""
    out = tmp_path_factory.mktemp("messages")
    command = _TemplateOnly()
    command.out_dir = str(out)
    previous = Path.cwd()
    try:
        os.chdir(BASE_DIR)
        call_command(
            command, locale=["el"], keep_pot=True, ignore_patterns=list(IGNORE), verbosity=0
        )
    finally:
        os.chdir(previous)
    return polib.pofile(str(out / "django.pot"))


@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_has_every_marked_string(extracted, locale):
    have = {key(e) for e in catalog(locale) if not e.obsolete}
    missing = [e for e in extracted if key(e) not in have]
    assert not missing, (
        f"{len(missing)} marked string(s) missing from the {locale} catalog, e.g. "
        + "; ".join(repr(e.msgid) for e in missing[:5])
        + f": {FIX.format(path=catalog_path(locale))}"
    )


@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_is_fully_translated(locale):
    po = catalog(locale)
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    # polib counts a plural entry as translated when any one form is: every form must be.
    partial = [
        e.msgid
        for e in po
        if not e.obsolete and e.msgid_plural and not all(e.msgstr_plural.values())
    ]
    assert not untranslated, f"untranslated in {locale}: {untranslated[:5]}; " + FIX.format(
        path=catalog_path(locale)
    )
    assert not fuzzy, f"fuzzy in {locale} (check, then drop the flag): {fuzzy[:5]}"
    assert not partial, f"plural forms missing in {locale}: {partial[:5]}"


@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_plural_forms(locale):
    po = catalog(locale)
    header = re.sub(r"\s+", " ", po.metadata.get("Plural-Forms", "")).strip()
    assert header == PLURAL_FORMS[locale]
    forms = int(re.search(r"nplurals=(\d)", header).group(1))
    for entry in po:
        if entry.msgid_plural and not entry.obsolete:
            assert sorted(entry.msgstr_plural) == list(range(forms)), entry.msgid


@pytest.mark.parametrize("locale", LOCALES)
def test_placeholders_survive_translation(locale):
    """A translation keeps every %(name)s and {{ name }} of its source, or Django raises."""
    placeholder = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdrf]|\{\{ ?\w+ ?\}\}|\{\w+\}")
    for entry in catalog(locale):
        if entry.obsolete:
            continue
        sources = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        wanted = set().union(*(placeholder.findall(s) for s in sources))
        targets = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for target in targets:
            found = set(placeholder.findall(target))
            # A singular form may leave out the count ("one match"); nothing may be invented.
            assert found <= wanted, (locale, entry.msgid, target)
            if not entry.msgid_plural:
                assert found == wanted, (locale, entry.msgid, target)


def test_polish_and_greek_plurals_at_run_time():
    """The compiled catalogs (`make compilemessages`) choose the right form for each count."""
    from django.utils.translation import ngettext

    def matches(n: int) -> str:
        return ngettext("%(matches)s match", "%(matches)s matches", n) % {"matches": n}

    with translation.override("pl"):
        assert [matches(n) for n in (1, 2, 5, 22, 25, 112)] == [
            "1 mecz",
            "2 mecze",
            "5 meczów",
            "22 mecze",
            "25 meczów",
            "112 meczów",
        ]
    with translation.override("el"):
        assert [matches(n) for n in (1, 2)] == ["1 αγώνας", "2 αγώνες"]


PRIZES = (
    "Net points over the complete matches; equal net points share a place. The top place wins "
    "a prize.",
    "Net points over the complete matches; equal net points share a place. The top "
    "%(prizes)s places win a prize.",
)
LOCKOUT = (
    "Too many wrong codes. Try again in %(minutes)d minute, or ask the director.",
    "Too many wrong codes. Try again in %(minutes)d minutes, or ask the director.",
)


@pytest.mark.parametrize("locale", ["en", *LOCALES])
def test_one_prize_and_the_lockouts_minutes_take_plural_forms(locale):
    """One prize is "the top place", not "the top 1 place"; the table code lockout's minutes
    take each language's plural forms."""
    from django.utils.translation import ngettext

    with translation.override(locale):
        one = ngettext(*PRIZES, 1) % {"prizes": 1}
        three = ngettext(*PRIZES, 3) % {"prizes": 3}
        assert "1" not in one and "3" in three and one != three
        minutes = {n: ngettext(*LOCKOUT, n) % {"minutes": n} for n in (1, 2, 15)}
        assert minutes[1] != minutes[15]
    if locale == "pl":  # minutę, minuty, minut
        assert [m.split()[8] for m in minutes.values()] == ["minutę", "minuty", "minut"]
