"""Password guessing is throttled (django-axes) in two ways, both by the client's real address
(scoring.client_address, so a proxy in front does not make every visitor one address):

- a user name from one address: AXES_FAILURE_LIMIT wrong passwords pause that name there (the
  same name from another address, the real user at home, still logs in);
- one address across user names: LOGIN_FAILURES_PER_ADDRESS wrong passwords, whatever the names,
  pause logins from that address. The limit is higher, since a club's secretaries often share one
  network in the playing hall.

Axes compares one failure count with one limit; this handler gives it the larger of the two counts,
the address's scaled to the name's limit, so each pauses at its own limit.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Sum

from axes.handlers.database import AxesDatabaseHandler


def _failures(attempts) -> int:
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


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
