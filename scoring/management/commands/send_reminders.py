"""`python manage.py send_reminders [--dry-run]`: the reminder e-mails now due, each sent once.

Run from cron, for example every morning (docs/operations.md). A protocol waiting for confirmation,
or a match whose day has passed without a protocol, gets one reminder after the number of days its
competition sets (services.reminders); a second run sends nothing new. `--dry-run` lists what is
overdue and sends nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone, translation
from django.utils.translation import gettext as _, ngettext

from scoring import services
from scoring.selectors.chores import overdue_matches


class Command(BaseCommand):
    help = "Send the reminder e-mails now due about overdue protocols (each once)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="List what is overdue; send nothing.")

    def handle(self, *args, **options):
        translation.activate(settings.LANGUAGE_CODE)
        if options["dry_run"]:
            for item in overdue_matches(timezone.now()):
                when = (_("reminded %(when)s") % {"when": f"{timezone.localtime(item.reminded_at):%Y-%m-%d %H:%M}"}
                        if item.reminded_at else _("to be reminded"))  # fmt: skip
                self.stdout.write(f"{item.match.competition} · {item.match} · {item.kind} · {when}")
            return
        sent = services.reminders_send()
        self.stdout.write(ngettext("%(count)s reminder sent.", "%(count)s reminders sent.", len(sent)) % {"count": len(sent)})
