"""manage.py compile_catalogs: the catalogs compiled in Python, on a machine without gettext."""

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
LOCALES = ("el", "pl", "es", "nl")
# The clubs page of an empty database, in each language.
NO_CLUB_YET = {
    "el": "Κανένας σύλλογος για εμφάνιση ακόμη.",  # noqa: RUF001 - Greek letters
    "pl": "Nie ma jeszcze klubów do pokazania.",
    "es": "Todavía no hay clubs que mostrar.",
    "nl": "Nog geen club om te tonen.",
}


@pytest.fixture
def locale_copy(tmp_path: Path) -> Path:
    """The project's catalogs, the .po files only, in a folder of their own."""
    folder = tmp_path / "locale"
    for locale in LOCALES:
        target = folder / locale / "LC_MESSAGES"
        target.mkdir(parents=True)
        shutil.copy(ROOT / "locale" / locale / "LC_MESSAGES" / "django.po", target)
    return folder


def compiled(folder: Path, locale: str) -> gettext.GNUTranslations:
    with (folder / locale / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        return gettext.GNUTranslations(mo)


def test_the_compiled_catalogs_give_the_po_translations(locale_copy):
    call_command("compile_catalogs", str(locale_copy), verbosity=0)
    for locale in LOCALES:
        po = polib.pofile(str(locale_copy / locale / "LC_MESSAGES" / "django.po"))
        mo = compiled(locale_copy, locale)
        entries = po.translated_entries()
        assert len(entries) > 100, locale
        for entry in entries:
            context = entry.msgctxt
            if entry.msgid_plural:
                for form, text in entry.msgstr_plural.items():
                    n = next(n for n in range(200) if mo.plural(n) == form)
                    args = (entry.msgid, entry.msgid_plural, n)
                    got = mo.npgettext(context, *args) if context else mo.ngettext(*args)
                    assert got == text, (locale, entry.msgid, n)
            else:
                got = mo.pgettext(context, entry.msgid) if context else mo.gettext(entry.msgid)
                assert got == entry.msgstr, (locale, entry.msgid)


def test_fuzzy_entries_are_left_out_as_msgfmt_leaves_them(tmp_path):
    po_path = tmp_path / "xx" / "LC_MESSAGES" / "django.po"
    po_path.parent.mkdir(parents=True)
    po = polib.POFile()
    po.metadata = {"Content-Type": "text/plain; charset=UTF-8"}
    po.append(polib.POEntry(msgid="Clubs", msgstr="Kluby"))
    po.append(polib.POEntry(msgid="Log in", msgstr="Zaloguj", flags=["fuzzy"]))
    po.save(str(po_path))
    call_command("compile_catalogs", str(tmp_path), verbosity=0)
    mo = compiled(tmp_path, "xx")
    assert (mo.gettext("Clubs"), mo.gettext("Log in")) == ("Kluby", "Log in")


@pytest.mark.django_db
def test_pages_speak_the_compiled_catalogs(locale_copy, settings, client):
    call_command("compile_catalogs", str(locale_copy), verbosity=0)
    settings.LOCALE_PATHS = [locale_copy]  # only these catalogs (the change empties the caches)
    for locale, text in NO_CLUB_YET.items():
        page = client.get("/", HTTP_ACCEPT_LANGUAGE=locale)
        assert page.status_code == 200
        assert text in page.content.decode(), locale


def test_compiles_on_a_machine_without_gettext(locale_copy, tmp_path):
    """A PATH with no msgfmt (nor anything else): Python alone compiles the catalogs."""
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty), "DJANGO_SETTINGS_MODULE": "config.test_settings"}
    assert shutil.which("msgfmt", path=env["PATH"]) is None
    result = subprocess.run(
        [sys.executable, "manage.py", "compile_catalogs", str(locale_copy)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Compiled 4 catalogs (4 changed)." in result.stdout
    assert compiled(locale_copy, "el").gettext("Clubs") == "Σύλλογοι"
