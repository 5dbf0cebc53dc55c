"""`python manage.py export --competition ID --format xlsx|pdf -o FILE`: a competition's documents.

- xlsx: the whole-competition workbook (a standings sheet, a results sheet per round, the Canasta
  figures and records, every deal);
- pdf: the standings and every round's results in one document.

`-o -` writes to standard output (for a pipe). The texts are in the site's language (Swedish).
A match's protocol is `python manage.py protocol export --match ID --format pdf -o FILE`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.models import Competition
from scoring.selectors import command_line


class Command(BaseCommand):
    help = "Export a competition: the workbook (xlsx), or the standings and all rounds' results (pdf)."

    def add_arguments(self, parser):
        parser.add_argument("--competition", type=int, required=True, help="The competition's id.")
        parser.add_argument("--format", choices=("xlsx", "pdf"), required=True, help="xlsx or pdf.")
        parser.add_argument(
            "-o", "--output", required=True, help="The file to write; - for standard output."
        )

    def handle(self, *args, **options):
        translation.activate(settings.LANGUAGE_CODE)
        try:
            competition = command_line.competition(options["competition"])
        except Competition.DoesNotExist:
            raise CommandError(
                _("There is no competition with id %(id)s.") % {"id": options["competition"]}
            ) from None
        if options["format"] == "xlsx":
            from scoring.exports.xlsx import competition_xlsx

            export = competition_xlsx(competition)
        else:
            from scoring.exports.pdf import competition_pdf

            export = competition_pdf(competition)
        output = options["output"]
        if output == "-":
            sys.stdout.buffer.write(export.content)
            sys.stdout.buffer.flush()
            return
        try:
            Path(output).write_bytes(export.content)
        except OSError as error:
            raise CommandError(
                _("Cannot write %(path)s: %(error)s") % {"path": output, "error": error.strerror or error}
            ) from None
        self.stdout.write(_("Wrote %(path)s.") % {"path": output})
