"""Uploading a CSV or xlsx protocol on the match page, in two steps: the file is checked and shown
as it would be saved (the deals with their scores and totals, the problems and warnings, the notice
for a match planned for a later day, as typing gives), and it is saved only when the secretary
confirms. Saving replaces the match's deals, all or nothing (services.match_import_deals).

The file is read once, in the first step. What was read (the deals) travels with the confirmation
form, signed (django.core.signing) together with the match and the rules it was checked under:
nothing is kept on the server, the deals cannot be changed on the way, and the save refuses them
when the match changed meanwhile (its version) or the rules it counts under did (docs/rules.md, "Rule-set presets": a match
is scored by its competition's rules). A workbook exported from another match (its facts sheet
names other teams, another round or competition) is shown as such, and saved only when the
secretary says it belongs here all the same.

A file that cannot be read gets the file error's message, naming the deal and the column as the
secretary sees them (upload_error_message); files are limited to 1 MB
(forms.protocol.UPLOAD_LIMIT_BYTES).
"""

from __future__ import annotations

from dataclasses import fields, replace

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core import signing
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _, gettext_lazy
from django.views import View

from scoring import permissions, services
from scoring.engine import DealEntry, SideEntry
from scoring.files.protocol_file import SWEDISH_HEADERS, ProtocolFileError, read_protocol_file
from scoring.engine.rules import PointsRules, RuleSet
from scoring.forms.protocol import ProtocolUploadForm, ReasonField, VersionForm
from scoring.messages import file_error_message, problem_message
from scoring.selectors.protocols import protocol_preview

from .secretary_base import MatchAccessMixin, planned_later_than_today, protocol_sheet

STALE_STATUS = 409
# A match of a closed season: the upload conflicts with its state, as any refusal of a service does
# (scoring.web.middleware.DomainErrorMiddleware).
ARCHIVE_STATUS = 409
SIGNING_SALT = "scoring.protocol-upload"
# A checked file is saved within a working evening, or checked again.
CHECKED_FILE_MAX_AGE = 12 * 60 * 60

_SIDE_FIELDS = tuple(item.name for item in fields(SideEntry))
_DEAL_FIELDS = tuple(item.name for item in fields(DealEntry))


# -- what was read, carried to the save ---------------------------------------------------------


def deals_payload(entries: list[DealEntry]) -> list[list]:
    """The deals as JSON lists (each side as a list of its fields), in the engine's field order."""
    return [
        [
            [getattr(value, name) for name in _SIDE_FIELDS] if isinstance(value, SideEntry) else value
            for value in (getattr(entry, name) for name in _DEAL_FIELDS)
        ]
        for entry in entries
    ]


def deals_from_payload(rows: list[list]) -> list[DealEntry]:
    entries = []
    for row in rows:
        values = dict(zip(_DEAL_FIELDS, row, strict=True))
        for side in ("home", "away"):
            values[side] = SideEntry(**dict(zip(_SIDE_FIELDS, values[side], strict=True)))
        entries.append(DealEntry(**values))
    return entries


def sign_checked_file(match, name: str, entries: list[DealEntry], *, other_match: list) -> str:
    """The signed token of a checked file: its deals as read, the rules it was checked under, and
    how the file differs from the match (other_match_facts)."""
    payload = {
        "match": match.pk,
        "name": name,
        "deals": deals_payload(entries),
        "rules": match.rules.to_dict(),
        "points": match.points_rules.to_dict(),
        "other_match": other_match,
    }
    return signing.dumps(payload, salt=SIGNING_SALT, compress=True)


class UploadSaveForm(VersionForm):
    """The second step: the checked file (signed), the reason, and for a file that names another
    match, the secretary's word that it belongs to this one."""

    checked = forms.CharField(widget=forms.HiddenInput)
    reason = ReasonField(required=False, label=gettext_lazy("Reason (needed when deals are replaced)"))
    this_match = forms.BooleanField(
        required=False, label=gettext_lazy("The file is this match's protocol all the same: save it here.")
    )

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.match = match

    def clean_checked(self):
        try:
            payload = signing.loads(self.cleaned_data["checked"], salt=SIGNING_SALT, max_age=CHECKED_FILE_MAX_AGE)
        except signing.BadSignature:
            raise forms.ValidationError(_("The checked file has expired. Choose the file and check it again.")) from None
        if payload.get("match") != self.match.pk:
            raise forms.ValidationError(_("The checked file belongs to another match. Check it again."))
        try:
            payload["entries"] = deals_from_payload(payload["deals"])
        except (KeyError, TypeError, ValueError):  # checked by a version of the site with other fields
            raise forms.ValidationError(_("The checked file has expired. Choose the file and check it again.")) from None
        return payload

    def clean(self):
        data = super().clean()
        payload = data.get("checked")
        if payload and payload.get("other_match") and not data.get("this_match"):
            self.add_error(
                "this_match",
                _("The file names another match. Tick the box if it is this match's protocol all the same."),
            )
        return data


# -- the file compared with the match -----------------------------------------------------------

# What an exported protocol's facts sheet says (exports.xlsx: "Competition", "Round", "Home team",
# "Away team", in the language it was exported in), compared with the match it is uploaded to.
_FACTS = (("competition", "Competition"), ("round", "Round"), ("home_team", "Home team"), ("away_team", "Away team"))


def _fact_labels() -> dict[str, str]:
    labels = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for key, label in _FACTS:
                labels[_(label).casefold()] = key
    return labels


def _same(written, actual) -> bool:
    if isinstance(actual, int):
        return str(written).strip() == str(actual)
    return str(written).strip().casefold() == str(actual).strip().casefold()


def other_match_facts(match, facts) -> list[tuple[str, str, str]]:
    """(what, as the file says, as this match is) for each fact of the file that differs from the
    match: the competition, the round and the teams ("competition", "round", "home_team",
    "away_team"). A fact the file leaves empty is not compared."""
    labels = _fact_labels()
    actual = {
        "competition": str(match.competition),
        "round": match.round.number if match.round_id else "",
        "home_team": match.home_team.name,
        "away_team": match.away_team.name,
    }
    differences = []
    for label, written in facts:
        key = labels.get(str(label).strip().casefold())
        if key is None or written is None or str(written).strip() == "":
            continue
        if not _same(written, actual[key]) and key not in {difference[0] for difference in differences}:
            differences.append((key, str(written)[:100], str(actual[key])))
    return differences


def shown_facts(differences) -> list[tuple[str, str, str]]:
    """The differences with each fact named in the reader's language."""
    labels = dict(_FACTS)
    return [(_(labels[key]), written, actual) for key, written, actual in differences]


# -- the messages -------------------------------------------------------------------------------


def column_heading(column: str) -> str:
    """A column as the site's workbook heads it in the reader's language (Hemma kortpoäng in
    Swedish, the interchange name otherwise), as exports.xlsx writes it."""
    if (translation.get_language() or "").startswith("sv"):
        return SWEDISH_HEADERS.get(column, column)
    return column


def upload_error_message(error: ProtocolFileError) -> str:
    """A file error as the upload page says it: the deal (giv) and the column heading the
    secretary sees ("Giv 3, Hemma kortpoäng: …") where a deal's value cannot be read; otherwise the
    line, and the column as headed (file_error_message; a header's column as the file writes it)."""
    text = file_error_message(replace(error, line=None, column=None))
    if error.deal is None:
        if error.column and (error.line or 0) > 1:  # below the header: the column as headed there
            return _("Line %(line)s, %(column)s: %(text)s") % {
                "line": error.line, "column": column_heading(error.column), "text": text,
            }  # fmt: skip
        return file_error_message(error)
    if error.column:
        return _("Deal %(deal)s, %(column)s: %(text)s") % {
            "deal": error.deal, "column": column_heading(error.column), "text": text,
        }  # fmt: skip
    return _("Deal %(deal)s: %(text)s") % {"deal": error.deal, "text": text}


# -- the pages ----------------------------------------------------------------------------------


class UploadPageMixin(MatchAccessMixin):
    access = "enter"
    template_name = "scoring/secretary/upload.html"

    def page(self, form, *, error=None, file_errors=(), checked=None, status=200):
        """`checked`: (file name, entries, save form, other-match facts) of a file read without
        error, shown as it would be saved."""
        match = self.match
        context = {
            "match": match,
            "form": form,
            "error": error,
            "file_errors": file_errors,
            "may_upload": permissions.match_actions(self.request.user, match, protocol_sheet(match).state).upload,
            "closed": services.archive_refusal([match.competition]),
            "planned_later": planned_later_than_today(match) if not match.deal_count else None,
        }
        if checked is not None:
            name, entries, save_form, other_match = checked
            sheet = protocol_preview(match, entries)
            grouped: dict[int, list[str]] = {}
            for replayed in sheet.state.deals:
                for problem in replayed.errors:
                    grouped.setdefault(replayed.number, []).append(problem_message(problem, replayed.number))
            if grouped:
                context["error"] = _("The file has errors. Nothing was saved; correct the file and check it again.")
            context.update(
                checked_name=name,
                sheet=sheet,
                deal_problems=sorted(grouped.items()),
                save_form=None if grouped else save_form,
                other_match=shown_facts(other_match),
                actions=None,
            )
        return render(self.request, self.template_name, context, status=status)

    def make_form(self, data=None, files=None):
        return ProtocolUploadForm(
            data, files, initial={"version": self.match.version}, replaces_deals=bool(self.match.deal_count)
        )

    def refused_as_archive(self):
        """The page with the refusal when the match is an archive of a closed season, before any
        file is read: neither a preview nor a save is offered for what cannot be saved. None
        otherwise."""
        refusal = services.archive_refusal([self.match.competition])
        if refusal is None:
            return None
        return self.page(self.make_form(), error=refusal, status=ARCHIVE_STATUS)

    def fresh_form(self, data):
        """The choose-a-file form again after a refusal: the reason kept, no complaint about a file
        that was in fact chosen."""
        return ProtocolUploadForm(
            initial={"version": self.match.version, "reason": data.get("reason", "")},
            replaces_deals=bool(self.match.deal_count),
        )


class ProtocolUploadView(UploadPageMixin, View):
    """GET: choose a file. POST: read and check it, show it as it would be saved; nothing is written."""

    def get(self, request, pk):
        return self.page(self.make_form())

    def post(self, request, pk):
        refused = self.refused_as_archive()
        if refused is not None:
            return refused
        match = self.match
        form = self.make_form(request.POST, request.FILES)
        if not form.is_valid():
            return self.page(form, error=_("The file was not checked."))
        upload = form.cleaned_data["file"]
        try:
            read = read_protocol_file(upload.read(), upload.name)
        except ProtocolFileError as problem:
            return self.page(
                self.fresh_form(request.POST),
                error=_("The file could not be read. Nothing was saved."),
                file_errors=[upload_error_message(problem)],
            )
        other_match = other_match_facts(match, read.facts)
        save_form = UploadSaveForm(
            initial={
                "version": form.cleaned_data["version"],
                "reason": form.cleaned_data.get("reason") or "",
                "checked": sign_checked_file(match, upload.name, read.deals, other_match=other_match),
            },
            match=match,
        )
        return self.page(self.fresh_form(request.POST), checked=(upload.name, read.deals, save_form, other_match))


class ProtocolUploadSaveView(UploadPageMixin, View):
    """POST: save the deals read in the first step (services.match_import_deals); the file is not
    read again."""

    def post(self, request, pk):
        refused = self.refused_as_archive()
        if refused is not None:
            return refused
        match = self.match
        save_form = UploadSaveForm(request.POST, match=match)
        if not save_form.is_valid():
            payload = save_form.cleaned_data.get("checked")
            if payload and "this_match" in save_form.errors:
                # Only the confirmation is missing: the same file shown again, with the question.
                return self.page(
                    self.fresh_form(request.POST),
                    error=_("Nothing was saved."),
                    file_errors=save_form.errors["this_match"],
                    checked=(payload["name"], payload["entries"], save_form, payload["other_match"]),
                )
            errors = [message for field in save_form for message in field.errors]
            return self.page(self.fresh_form(request.POST), error=_("Nothing was saved."), file_errors=errors)
        payload = save_form.cleaned_data["checked"]
        reason = save_form.cleaned_data.get("reason") or ""
        if match.deal_count and not reason.strip():
            return self.page(
                self.fresh_form(request.POST),
                error=_("The match already has deals; the file replaces them all. Write a reason for the log."),
            )
        entries = payload["entries"]
        try:
            services.match_import_deals(
                match=match,
                user=request.user,
                entries=entries,
                expected_version=save_form.cleaned_data["version"],
                reason=reason,
                checked_under=(RuleSet.from_dict(payload["rules"]), PointsRules.from_dict(payload["points"])),
            )
        except services.DealProblemsError as refusal:
            return self.page(self.fresh_form(request.POST), error=refusal.message)
        except (services.StaleMatchError, services.MatchStateError) as refusal:
            self.reload_match()
            return self.page(self.fresh_form(request.POST), error=refusal.message, status=STALE_STATUS)
        messages.success(
            request, _("The protocol file was imported: %(count)s deals.") % {"count": len(entries)}
        )
        return HttpResponseRedirect(reverse("scoring:match-protocol", args=[match.pk]))
