"""`python manage.py demo`: fill the database with a realistic example season (scoring.devdata.demo).

Safe to run again: what is there already is found, not duplicated. `--reset` replays the demo
competitions from scratch. `--scale federation` makes the federation-scale data instead
(scoring.devdata.federation: thousands of matches, for benchmarks).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring.devdata.demo import build_demo


class Command(BaseCommand):
    help = "Fill the database with demo data: clubs, players, a league series, a club tournament, logins."

    def add_arguments(self, parser):
        parser.add_argument("--reset", action="store_true", help="Delete the demo competitions and play them again.")
        parser.add_argument("--scale", choices=("season", "federation"), default="season",
                            help="season (default): the demo season; federation: benchmark-sized data.")
        parser.add_argument("--fraction", type=float, default=1.0,
                            help="With --scale federation: a smaller federation of the same shape (0–1].")
        parser.add_argument("--public-passwords", action="store_true",
                            help="Run with debug off too, although the demo logins' passwords are in the README.")

    def handle(self, *args, **options):
        # The demo logins (an administrator among them) have passwords anyone can read in the
        # README: on a site with debug off, that is a production site, they need a deliberate yes.
        if not settings.DEBUG and not options["public_passwords"]:
            raise CommandError(
                "Debug is off, so this looks like a production site: the demo creates logins whose "
                "passwords are public (admin/admin). Run it with --public-passwords if that is what you want."
            )
        if options["scale"] == "federation":
            from scoring.devdata.federation import build_federation

            report = build_federation(fraction=options["fraction"], progress=self.stdout.write)
            self.stdout.write(report.summary())
            return
        started = time.perf_counter()
        report = build_demo(reset=options["reset"])
        seconds = time.perf_counter() - started
        if report.created:
            self.stdout.write(
                f"Demo data: {report.clubs} clubs, {report.players} players, {report.teams} teams, "
                f"{report.matches} matches with {report.deals} deals played ({seconds:.1f} s)."
            )
        else:
            self.stdout.write("Demo data is there already; nothing was added (use --reset to replay it).")
        for competition in report.competitions:
            self.stdout.write(f"  {competition} (id {competition.pk})")
        for match, home_code, away_code in report.table_links:
            self.stdout.write(
                f"  At the table: {match.home_team} – {match.away_team}: /t/{home_code}/ (the home team's code), "
                f"/t/{away_code}/ (the away team's)"
            )
        self.stdout.write("")
        self.stdout.write("Logins:")
        width = max(len(username) for username, _, _ in report.logins)
        for username, password, role in report.logins:
            self.stdout.write(f"  {username.ljust(width)}  {password.ljust(8)}  {role}")
