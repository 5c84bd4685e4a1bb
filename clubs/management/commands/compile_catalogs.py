"""Compile the translation catalogs (.po to .mo) in Python, so that no GNU gettext is needed.

`make run` and `make test` run it; only `make messages` (which extracts strings) needs gettext.
"""

import os
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser


def catalog_compile(po_path: Path) -> bool:
    """Write ``po_path``'s .mo beside it, as msgfmt would (the translated entries, fuzzy ones
    left out). Returns whether the .mo changed; an unchanged one is not rewritten."""
    mo_path = po_path.with_suffix(".mo")
    binary = polib.pofile(str(po_path)).to_binary()
    if mo_path.exists() and mo_path.read_bytes() == binary:
        return False
    partial = mo_path.with_suffix(".mo.tmp")
    partial.write_bytes(binary)
    os.replace(partial, mo_path)  # a server reading the catalog never sees half a file
    return True


class Command(BaseCommand):
    help = "Compile every .po catalog under LOCALE_PATHS (or the folders given) into its .mo."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "folders", nargs="*", type=Path, help="locale folders (default: LOCALE_PATHS)"
        )

    def handle(self, *args: str, folders: list[Path], **options: object) -> None:
        po_paths = sorted(
            po_path
            for folder in folders or settings.LOCALE_PATHS
            for po_path in Path(folder).glob("*/LC_MESSAGES/*.po")
        )
        changed = [po_path for po_path in po_paths if catalog_compile(po_path)]
        self.stdout.write(f"Compiled {len(po_paths)} catalogs ({len(changed)} changed).")
