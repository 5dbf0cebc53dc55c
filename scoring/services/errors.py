"""Domain errors raised by the services: one translated message each, safe to show to users."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring.engine import Problem


class DomainError(Exception):
    """A refusal the user can act on. `message` is translated text."""

    default_message = _("The change could not be saved.")

    def __init__(self, message=None):
        self.message = message if message is not None else self.default_message
        super().__init__(str(self.message))


class StaleMatchError(DomainError):
    default_message = _(
        "Someone else changed this match after you opened it. Your input is kept below: "
        "check the protocol as it is now and save again."
    )


class MatchStateError(DomainError):
    default_message = _("This cannot be done with the match in its present state.")


class DealProblemsError(DomainError):
    """The engine found errors: nothing was saved. `problems` pairs deal numbers with problems."""

    default_message = _("The deal was not saved: correct the marked fields.")

    def __init__(self, problems: list[tuple[int, Problem]], message=None):
        self.problems = problems
        super().__init__(message)
