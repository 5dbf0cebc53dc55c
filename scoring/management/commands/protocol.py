"""`python manage.py protocol check|import|export`: protocol files from the command line.

`check FILE [FILE …] [--rules KEY] [--points KEY] [--json]` reads protocol files (CSV or xlsx,
docs/protocol-file.md; a folder stands for the protocol files in it and its subfolders) and checks them with the
engine without touching the database. One file gets the whole report; several get one summary line
each and the totals (`--json`: one object per line, then one with the totals), so a federation
secretary checks a season's protocols in one command. Exit status: 0 no error, 1 a file has errors,
2 a file cannot be read.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.engine import POINTS_PRESETS, PRESETS, get_points_rules, get_rules, replay
from scoring.engine.match import MatchState
from scoring.files.protocol_file import ProtocolFileError, read_protocol
from scoring.messages import file_error_message, kept_problem_message, problem_message


def json_number(value: float) -> float | int:
    """1.0 → 1, 0.5 → 0.5: match points as a reader expects them."""
    return int(value) if float(value).is_integer() else value


PROTOCOL_SUFFIXES = (".csv", ".xlsx", ".xlsm")


def _problem_dicts(problems, number: int, language: str) -> list[dict[str, Any]]:
    # A loop rather than a comprehension: a report asks this for every deal with a problem, most
    # often of one problem, and a comprehension costs a call of its own.
    found = []
    for problem in problems:
        found.append(
            {
                "code": problem.code,
                "side": problem.side,
                "field": problem.field,
                "message": kept_problem_message(problem, number, language),
            }
        )
    return found


def check_report(state: MatchState, rules_key: str) -> dict[str, Any]:
    """The JSON object of docs/protocol-file.md, "`protocol check --json`"."""
    language = translation.get_language()
    deals = [
        {
            "deal": (number := replayed.entry.number),
            "home": {"score": replayed.home_score, "total": replayed.home_total, "min_before": replayed.home_min_before},
            "away": {"score": replayed.away_score, "total": replayed.away_total, "min_before": replayed.away_min_before},
            "errors": _problem_dicts(replayed.errors, number, language) if replayed.errors else [],
            "warnings": _problem_dicts(replayed.warnings, number, language) if replayed.warnings else [],
        }
        for replayed in state.deals
    ]
    outcome = state.outcome
    return {
        "rules": rules_key,
        "deals": deals,
        "result": {
            "finished": state.finished,
            "end": state.end,
            "home_total": state.home_total,
            "away_total": state.away_total,
            "winner": state.winner,
            "home_points": json_number(outcome.home_points) if outcome else None,
            "away_points": json_number(outcome.away_points) if outcome else None,
        },
        "errors": state.errors,
    }


def protocol_paths(names: list[str]) -> list[Path]:
    """The files named, a folder standing for its protocol files (subfolders too, sorted)."""
    paths: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            paths.extend(
                sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in PROTOCOL_SUFFIXES)
            )
        else:
            paths.append(path)
    return paths


def read_deals(path: Path):
    """The deals of a protocol file; ProtocolFileError if it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError:
        raise ProtocolFileError("missing-file", params={"path": str(path)}) from None
    return read_protocol(data, path.name)


def result_words(state: MatchState) -> str:
    if not state.finished:
        return _("not finished")
    if state.winner == "draw":
        verdict = _("draw")
    elif state.winner == "home":
        verdict = _("home team wins")
    else:
        verdict = _("away team wins")
    how = _("target") if state.end == "target" else _("clock")
    return f"{state.home_total}–{state.away_total}, {verdict} ({how})"


class Command(BaseCommand):
    help = "Check, import or export a match protocol file (CSV or xlsx)."
    # The system checks import the URL confs, so every view and, through the documents' views,
    # WeasyPrint: most of the start of a `check`, which reads no setting they check and touches no
    # database (docs/speed.md, "Today's figures": `protocol check` starts fast). Import and export
    # run them in handle(), as any command does.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--skip-checks", action="store_true", help="Skip system checks (import and export).")
        subcommands = parser.add_subparsers(dest="action", required=True)
        check = subcommands.add_parser("check", help="Check a protocol file without saving it.")
        check.add_argument("files", nargs="+", metavar="FILE", help="Protocol files, or folders of them.")
        check.add_argument("--rules", default="sv-tavling", choices=sorted(PRESETS))
        check.add_argument("--points", default="sv-serie", choices=sorted(POINTS_PRESETS))
        check.add_argument("--json", action="store_true", help="Print JSON: one object per file, one per line.")
        check.add_argument(
            "--language", choices=[code for code, _name in settings.LANGUAGES], default=settings.LANGUAGE_CODE,
            help="The language of the messages.",
        )
        self.add_match_subcommands(subcommands)

    def add_match_subcommands(self, subcommands) -> None:
        """Import and export need the database (scoring.management.protocol_db, imported only when
        one of them runs: `protocol check` starts without the services, docs/speed.md)."""
        importer = subcommands.add_parser("import", help="Import a protocol file into a match (all or nothing).")
        importer.add_argument("file")
        importer.add_argument("--match", type=int, required=True)
        importer.add_argument("--user", help="Act as this user (default: the command line, as an administrator).")
        importer.add_argument("--reason", default="", help="Why the deals are replaced (audit log).")
        exporter = subcommands.add_parser("export", help="Export a match protocol.")
        exporter.add_argument("--match", type=int, required=True)
        exporter.add_argument("--format", choices=("csv", "xlsx", "pdf"), default="csv")
        exporter.add_argument("-o", "--output", help="File to write (default: standard output for csv).")

    def handle(self, *args, **options):
        action = options["action"]
        translation.activate(options.get("language") or settings.LANGUAGE_CODE)
        if action == "check":
            return self.handle_check(options)
        if not options.get("skip_checks"):
            self.check()
        from scoring.management import protocol_db

        code = protocol_db.handle(self, options)
        if code:
            sys.exit(code)
        return None

    def handle_check(self, options) -> None:
        rules = get_rules(options["rules"])
        points = get_points_rules(options["points"])
        names = options["files"]
        if len(names) == 1 and not Path(names[0]).is_dir():
            return self.check_one(Path(names[0]), rules, points, options)
        return self.check_many(protocol_paths(names), rules, points, options)

    def check_one(self, path: Path, rules, points, options) -> None:
        try:
            deals = read_deals(path)
        except ProtocolFileError as error:
            self.stderr.write(f"{path}: {file_error_message(error)}")
            sys.exit(2)
        state = replay(rules, deals, points=points)
        if options["json"]:
            report = check_report(state, options["rules"])
            self.stdout.write(json.dumps(report, ensure_ascii=False))
        else:
            self.stdout.write(self.render_text(state, rules.name))
        if state.errors:
            sys.exit(1)

    def check_many(self, paths: list[Path], rules, points, options) -> None:
        """One summary line (or JSON object) per file, then the totals."""
        totals = {"files": len(paths), "deals": 0, "errors": 0, "warnings": 0, "files_with_errors": 0, "unreadable": 0}
        write = self.stdout.write
        for path in paths:
            try:
                deals = read_deals(path)
            except ProtocolFileError as error:
                totals["unreadable"] += 1
                message = file_error_message(error)
                if options["json"]:
                    unreadable = {"code": error.code, "line": error.line, "column": error.column, "message": message}
                    write(json.dumps({"file": str(path), "unreadable": unreadable}, ensure_ascii=False))
                else:
                    write(f"{path}: {_('cannot be read')}: {message}")
                continue
            state = replay(rules, deals, points=points)
            totals["deals"] += len(state.deals)
            totals["errors"] += state.errors
            totals["warnings"] += state.warnings
            totals["files_with_errors"] += bool(state.errors)
            if options["json"]:
                write(json.dumps({"file": str(path), **check_report(state, options["rules"])}, ensure_ascii=False))
            else:
                write(
                    _("%(file)s: %(deals)s deals, %(errors)s errors, %(warnings)s warnings; %(result)s")
                    % {
                        "file": path,
                        "deals": len(state.deals),
                        "errors": state.errors,
                        "warnings": state.warnings,
                        "result": result_words(state),
                    }
                )
        if options["json"]:
            write(json.dumps({"totals": totals}))
        else:
            write(
                _("%(files)s files, %(deals)s deals: %(errors)s errors in %(files_with_errors)s files, "
                  "%(warnings)s warnings, %(unreadable)s files cannot be read.")
                % totals
            )
        if totals["unreadable"]:
            sys.exit(2)
        if totals["errors"]:
            sys.exit(1)

    def render_text(self, state: MatchState, rules_name: str) -> str:
        """A paper-protocol layout: deal, then per side score, total and minimum before."""
        lines = [
            _("Protocol checked by the rules “%(rules)s”") % {"rules": rules_name},
            "",
            f"{_('Deal'):>4}  │ {_('Home team'):^28} │ {_('Away team'):^28}",
            f"{'':>4}  │ {_('Min'):>6} {_('Score'):>9} {_('Total'):>10} │ "
            f"{_('Min'):>6} {_('Score'):>9} {_('Total'):>10}",
            "─" * 6 + "┼" + "─" * 30 + "┼" + "─" * 30,
        ]
        for replayed in state.deals:
            lines.append(
                f"{replayed.number:>4}  │ {replayed.home_min_before:>6} {replayed.home_score:>9} "
                f"{replayed.home_total:>10} │ {replayed.away_min_before:>6} {replayed.away_score:>9} "
                f"{replayed.away_total:>10}"
            )
            for problem in replayed.errors:
                lines.append(f"      ✗ {_('Error')}: {problem_message(problem, replayed.number)}")
            for problem in replayed.warnings:
                lines.append(f"      ! {_('Warning')}: {problem_message(problem, replayed.number)}")
        lines.append("")
        if state.finished:
            if state.winner == "draw":
                verdict = _("Draw")
            elif state.winner == "home":
                verdict = _("The home team wins")
            else:
                verdict = _("The away team wins")
            how = _("the target was reached") if state.end == "target" else _("the clock ran out")
            lines.append(
                _("Result: %(home)s – %(away)s. %(verdict)s; the match ended after deal %(deal)s (%(how)s).")
                % {
                    "home": state.home_total,
                    "away": state.away_total,
                    "verdict": verdict,
                    "deal": state.end_deal,
                    "how": how,
                }
            )
            if state.outcome:
                lines.append(
                    _("Match points: home %(home)s, away %(away)s.")
                    % {
                        "home": json_number(state.outcome.home_points),
                        "away": json_number(state.outcome.away_points),
                    }
                )
        else:
            lines.append(
                _("Not finished: %(home)s – %(away)s after %(count)s deals. Opening minimum next deal: home %(home_min)s, away %(away_min)s.")
                % {
                    "home": state.home_total,
                    "away": state.away_total,
                    "count": len(state.deals),
                    "home_min": state.home_min_next,
                    "away_min": state.away_min_next,
                }
            )
        if state.errors:
            lines.append(_("%(count)s errors found.") % {"count": state.errors})
        else:
            lines.append(_("No errors found."))
        if state.warnings:
            lines.append(_("%(count)s warnings.") % {"count": state.warnings})
        return "\n".join(lines)


__all__ = ["Command", "check_report", "CommandError"]
