"""`protocol import` and `protocol export`: the subcommands of `manage.py protocol` that use the database.

import FILE --match ID [--user NAME] [--reason TEXT]
    Replaces the match's deals with the file's, all or nothing (services.match_import_deals).
    Exit 0 saved, 1 the file has errors (nothing saved, the problems printed), 2 unreadable.
export --match ID [--format csv|xlsx|pdf] [-o FILE]
    The interchange format of docs/protocol-file.md (CSV or xlsx, re-importable) or the official PDF protocol.
"""

from __future__ import annotations

import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from scoring import services
from scoring.files.protocol_file import ProtocolFileError, read_protocol, write_csv, write_xlsx
from scoring.messages import file_error_message, problem_message
from scoring.models import Match
from scoring.selectors import command_line
from scoring.selectors.protocols import match_state
from scoring.services.audit import COMMAND_LINE


def _match(match_id: int) -> Match:
    try:
        return command_line.match(match_id)
    except Match.DoesNotExist:
        raise CommandError(_("There is no match %(id)s.") % {"id": match_id}) from None


def handle(command, options) -> int:
    if options["action"] == "import":
        return handle_import(command, options)
    return handle_export(command, options)


def handle_import(command, options) -> int:
    match = _match(options["match"])
    user = COMMAND_LINE
    if options.get("user"):
        try:
            user = command_line.user_named(options["user"])
        except get_user_model().DoesNotExist:
            raise CommandError(_("There is no user %(name)s.") % {"name": options["user"]}) from None
    path = Path(options["file"])
    try:
        try:
            data = path.read_bytes()
        except OSError:
            raise ProtocolFileError("missing-file", params={"path": str(path)}) from None
        entries = read_protocol(data, path.name)
    except ProtocolFileError as error:
        command.stderr.write(f"{path}: {file_error_message(error)}")
        return 2
    try:
        match = services.match_import_deals(
            match=match,
            user=user,
            entries=entries,
            expected_version=None,
            reason=options.get("reason") or _("Imported from %(file)s") % {"file": path.name},
        )
    except services.DealProblemsError as error:
        command.stderr.write(str(error.message))
        for number, problem in error.problems:
            command.stderr.write(f"  ✗ {problem_message(problem, number)}")
        return 1
    except services.DomainError as error:
        command.stderr.write(str(error.message))
        return 1
    except Exception as error:  # PermissionDenied for a --user without rights
        from django.core.exceptions import PermissionDenied

        if isinstance(error, PermissionDenied):
            command.stderr.write(str(error) or _("You may not change this match."))
            return 1
        raise
    command.stdout.write(
        _("Imported %(count)s deals into match %(id)s: %(home)s – %(away)s (%(status)s).")
        % {
            "count": match.deal_count,
            "id": match.pk,
            "home": match.home_total,
            "away": match.away_total,
            "status": match.get_status_display(),
        }
    )
    # The protocol's notes, as every page and `protocol check` list them (selectors.protocols;
    # imported here: `protocol check` imports this module for its arguments, and never needs it).
    from scoring.selectors.protocols import match_protocol

    for note in match_protocol(match).notes:
        command.stdout.write(f"  ! {_('Warning')}: {note.message}")
    return 0


def handle_export(command, options) -> int:
    match = _match(options["match"])
    fmt = options["format"]
    output = options.get("output")
    if fmt == "pdf":
        from scoring.exports.pdf import match_protocol_pdf

        _filename, _type, content = match_protocol_pdf(match)
    else:
        state = match_state(match)
        content = write_csv(state).encode("utf-8") if fmt == "csv" else write_xlsx(state)
    if output:
        Path(output).write_bytes(content)
        command.stdout.write(_("Wrote %(path)s.") % {"path": output})
    elif fmt == "csv":
        sys.stdout.write(content.decode("utf-8"))
    else:
        raise CommandError(_("Give a file to write with -o for the %(format)s format.") % {"format": fmt})
    return 0
