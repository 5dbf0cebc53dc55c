"""Password guessing is throttled (django-axes) in two ways, both by the client's real address
(scoring.web.client_address, so a proxy in front does not make every visitor one address):

- a user name from one address: AXES_FAILURE_LIMIT wrong passwords pause that name there (the
  same name from another address, the real user at home, still logs in);
- one address across user names: LOGIN_FAILURES_PER_ADDRESS wrong passwords, whatever the names,
  pause logins from that address. The limit is higher, since a club's secretaries often share one
  network in the playing hall.

Axes compares one failure count with one limit; this handler gives it the larger of the two counts,
the address's scaled to the name's limit, so each pauses at its own limit.

Changing one's password asks for the old one: that is a guess too, counted and paused the same
way (ThrottledPasswordChangeView).

A user name is counted by its first 255 characters (throttled_username), which is what Axes's
rows hold: a longer name, which no account can have, is a wrong guess like any other and not a
server error.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.views import PasswordChangeView
from django.core.exceptions import ValidationError
from django.db.models import Sum

from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt


def _failures(attempts) -> int:
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


def throttled_username(request, credentials=None) -> str | None:
    """settings.AXES_USERNAME_CALLABLE: the name Axes counts failures under, as it would read it
    (from the credentials authenticate() was given, else the posted form), cut to what its rows
    hold. Uncut, a name of 256 characters or more fails to be written on PostgreSQL and the login
    answers 500 where a wrong password answers the login page. Names of accounts are far shorter
    (the user model's 150), so a cut name is never an account's."""
    field = settings.AXES_USERNAME_FORM_FIELD
    if credentials:
        username = credentials.get(field)
    else:
        username = getattr(request, "POST", {}).get(field)
    if username is None:
        return None
    return str(username)[: AccessAttempt._meta.get_field("username").max_length]


class LoginThrottleHandler(AxesDatabaseHandler):
    """settings.AXES_LOCKOUT_PARAMETERS is [name and address, address], in that order."""

    def get_failures(self, request, credentials=None) -> int:
        per_name, per_address = self.get_user_attempts(request, credentials)
        scaled = _failures(per_address) * settings.AXES_FAILURE_LIMIT // settings.LOGIN_FAILURES_PER_ADDRESS
        return max(_failures(per_name), scaled)

    def reset_user_attempts(self, request, credentials=None) -> int:
        """A right password clears that name's failures from this address, not the failures of
        other names: logging in to one's own account must not reset an address's guessing."""
        per_name = self.filter_user_attempts(request, credentials)[0]
        count, _ = per_name.delete()
        return count


# -- changing one's password: the old password is guessed as a login would be ---------------------


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's password change form, whose old password is checked through authenticate(): a
    wrong one counts as a failed login (by name and address, as above) and a paused name or
    address is paused here too (Axes answers with its lockout page, 429). Otherwise a stolen
    session could guess the password without limit."""

    def __init__(self, user, *args, request=None, **kwargs):
        self.request = request
        super().__init__(user, *args, **kwargs)

    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        if authenticate(self.request, username=self.user.get_username(), password=old_password) is None:
            raise ValidationError(self.error_messages["password_incorrect"], code="password_incorrect")
        return old_password


class ThrottledPasswordChangeView(PasswordChangeView):
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}
