"""What the round night's users saw, kept in the Locust process (gevent: one thread, no locks) and
written when Locust quits, for round_night.py to judge (ROUND_NIGHT_RESULTS):

- every answer's time by request type ("<name>", or "<name> 304" for an answer from a validator),
  and every failure;
- the changes the night made and when they were confirmed: a deal stored (its match's new home
  total, `total_changed`) and a proposal made at a table (`proposed`);
- each look at them and whether it kept its promise: a spectator's page may be max-age plus one
  poll interval behind a stored deal, the round at a glance 10 s, the other phone at the table 3 s
  behind a proposal; a look later than that which does not show the change is stale. The first
  look that shows a change gives how long it took to be seen ("seen", by who looks);
- the acts the users' schedules called for by the end of the step (a look, a poll, a page
  opened, a deal saved) and those they finished: a user whose answers come late falls behind his
  schedule, and the share finished is the share of the planned requests answered.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter, defaultdict

from locust import events

RECORD = {
    "times": defaultdict(list),
    "failures": Counter(),
    "looks": Counter(),
    "stale": Counter(),
    "seen": defaultdict(list),
    "unseen": Counter(),
    "saves": Counter(),
    "made": 0,
    "acts_due": 0,
    "acts_done": 0,
}
# By match: (confirmed at, home total after) for every deal stored during the step.
TOTALS: dict[int, list[tuple[float, int]]] = defaultdict(list)
# By proposal id: when its proposer had the answer, its match, and when the other phone first showed it.
PROPOSED: dict[int, dict] = {}
# Every user with a schedule (Scheduled), for the requests it did not get to make.
SCHEDULED: list = []
STOPPED_AT: list[float] = []

SPECTATOR_PROMISE = float(os.environ.get("PUBLIC_MAX_AGE", 5)) + 20  # max-age + the live parts' interval
ROUND_AT_A_GLANCE_PROMISE = 10.0
OTHER_PHONE_PROMISE = 3.0


@events.request.add_listener
def count_answer(name, response_time, response, exception, **kwargs):
    RECORD["made"] += 1
    status = getattr(response, "status_code", None)
    RECORD["times"][f"{name} 304" if status == 304 else name].append(response_time)
    if exception is not None:
        RECORD["failures"][f"{name}: {exception}"[:300]] += 1


@events.test_start.add_listener
def note_start(**kwargs):
    """Tell round_night.py the load has begun: it reads the servers' CPU from now."""
    path = os.environ.get("ROUND_NIGHT_STARTED")
    if path:
        open(path, "w").close()


@events.test_stopping.add_listener
def note_stop(**kwargs):
    STOPPED_AT.append(time.monotonic())


@events.quitting.add_listener
def write_record(environment, **kwargs):
    stopped = STOPPED_AT[0] if STOPPED_AT else time.monotonic()
    for user in SCHEDULED:
        RECORD["acts_due"] += user.acts_due(stopped)
        RECORD["acts_done"] += user.acts_done
    # Changes never seen by a look that was due to show them (the promise had passed): for the figures.
    for proposal in PROPOSED.values():
        if proposal["seen"] is None and proposal["at"] + OTHER_PHONE_PROMISE < stopped:
            RECORD["unseen"]["other phone"] += 1
    path = os.environ.get("ROUND_NIGHT_RESULTS")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(RECORD, out)


def total_changed(match: int, at: float, total: int | None) -> None:
    if total is not None:
        TOTALS[int(match)].append((at, total))


def look_at_totals(who: str, shown: dict[int, int], promise: float, seen_from: dict | None = None) -> None:
    """A look at the home totals `shown` (by match) now: stale when a match shows an older total
    than one confirmed more than `promise` seconds ago. `seen_from` (kept by the looking user:
    match -> changes already seen) gives how long each newly shown change took."""
    now = time.monotonic()
    RECORD["looks"][who] += 1
    stale = False
    for match, total in shown.items():
        changes = TOTALS.get(match, ())
        due = [saved for at, saved in changes if at <= now - promise]
        if due and total < max(due):
            stale = True
        if seen_from is not None:
            first = seen_from.get(match, 0)
            while first < len(changes) and changes[first][1] <= total:
                RECORD["seen"][who].append(round(now - changes[first][0], 3))
                first += 1
            seen_from[match] = first
    if stale:
        RECORD["stale"][who] += 1


def proposed(proposal: int, match: int, side: str, kind: str) -> None:
    PROPOSED[int(proposal)] = {"at": time.monotonic(), "match": int(match), "by": side, "kind": kind, "seen": None}


def look_at_table(match: int, side: str, waiting: list[int]) -> None:
    """The other phone's look at its table's state: every proposal of the table made more than the
    promise ago by the other side and not yet shown on this phone must be shown now."""
    now = time.monotonic()
    RECORD["looks"]["other phone"] += 1
    stale = False
    for pk, proposal in PROPOSED.items():
        if proposal["match"] != match or proposal["seen"] is not None or proposal.get("by") == side:
            continue
        if pk in waiting:
            proposal["seen"] = now
            RECORD["seen"]["other phone"].append(round(now - proposal["at"], 3))
        elif proposal["at"] <= now - OTHER_PHONE_PROMISE and not proposal.get("settled"):
            stale = True
    if stale:
        RECORD["stale"]["other phone"] += 1


class Scheduled:
    """A user who acts every `interval` seconds, counted from his own first moment: Locust's
    constant_pacing counts from when the user was made, and Locust makes users in batches, which
    would then repeat their requests at the same instant all night, a burst no hall makes. A user
    behind his schedule (his answers came late) has not made the requests he meant to. The
    interval may change (change_interval): the acts called for before are kept."""

    interval = 20.0
    done = False
    acts_done = 0
    acts_before = 0  # called for by the schedule before its interval last changed

    def wait_for_first_act(self, interval: float, first_within: float | None = None) -> None:
        """Act every `interval` seconds from a random moment within `first_within` (the interval
        unless said otherwise): each user acts when he acts. All users of a step start at once, so
        from the step's first second the requests come at the night's rate, spread evenly."""
        import random

        import gevent

        self.interval = interval
        delay = random.uniform(0, interval if first_within is None else first_within)
        self.first_act_at = self.next_act_at = self.counted_from = time.monotonic() + delay
        self.acts_done = self.acts_before = 0
        SCHEDULED.append(self)
        gevent.sleep(delay)
        self.next_act_at += interval  # the first act is now

    def until_next(self) -> float:
        """Locust's wait_time, asked after each act."""
        self.acts_done += 1
        delay = max(0.0, self.next_act_at - time.monotonic())
        self.next_act_at += self.interval
        return delay

    def change_interval(self, interval: float) -> None:
        """During an act: from now on every `interval` seconds, the next act one interval from now."""
        now = time.monotonic()
        self.acts_before = self.acts_due(now)
        self.interval = interval
        self.next_act_at = self.counted_from = now + interval

    def acts_due(self, stopped: float) -> int:
        """The acts the schedule called for by `stopped` (all of them done, for a user who left)."""
        if self.done:
            return self.acts_done
        if not hasattr(self, "first_act_at") or stopped < self.counted_from:
            return self.acts_before
        return self.acts_before + int((stopped - self.counted_from) // self.interval) + 1
