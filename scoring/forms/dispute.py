"""The other side's objection to a protocol: what is wrong, in their words, for the secretary."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from .protocol import ReasonField, VersionForm


class DisputeForm(VersionForm):
    reason = ReasonField(
        label=_("What is wrong with the protocol?"),
        help_text=_("For example: deal 4, our card points were 120, not 210. The secretary reads this."),
        error_messages={"required": _("Say what is wrong, so the secretary can correct it.")},
    )
