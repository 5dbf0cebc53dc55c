"""A federation's round night for Locust (run by round_night.py, `make load`).

Users, as many of each as the environment says (round_night.py sets them for each step):
- a secretary per live match (LIVE): signed in before the round began (round_night.py made the
  session), opens the match's protocol page at a moment of his own, then saves one deal every 20
  seconds through the protocol form, with its CSRF token and the version the page showed, and is
  taken back to the protocol page, as a browser does (a real deal takes about 4 minutes: this is 12
  times faster);
- spectators (SPECTATORS), as people watch a round night: each opens a page of the step's live
  matches and keeps it open. An open page asks for its live part at the site's interval (20 s),
  sending the validator it holds (If-None-Match), as htmx does (templates/scoring/public/
  _match_live.html); a team page has no live part and asks for nothing. About every 60 s the
  spectator opens another page. Pages are chosen as people choose them: a round's live page and the
  standings far more often than a match, a match more often than a team (PAGE_WEIGHTS);
- one PDF download a second (an official protocol of a played match);
- the baseline: a minimal Django view (load_urls.py), four times a second.

What spectators see is checked: every look (a page opened, or a live part asked for, answered 200
or 304) shows the home totals of the live matches on it; a look that shows an older total than a
save confirmed more than max-age plus one poll interval before it is a stale look
(round_night_stale_looks, target 0).

Every user starts at a random moment of his interval (start_at_own_moment, every): all of a step's
users are started at once, so the requests come at the night's rate from the step's first second,
spread as independent people spread them, not in bursts of the users Locust started together.

Request names are the page types (and "<type> live" for the live parts), so Locust's statistics
give one p95 per type. A save counts as confirmed when the answer is the redirect back to the
protocol page; round_night.py counts the deals stored afterwards and compares.

The users are Locust's FastHttpUser (geventhttpclient), which Locust documents as taking a fraction
of the plain HttpUser's CPU per request: the load generator runs on the same two cores as the
server, and what it takes is not left to the pages being measured.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
from urllib.parse import urlsplit

import gevent
from locust import FastHttpUser, constant_pacing, events, task
from requests.cookies import create_cookie

DATA = json.loads(open(os.environ["ROUND_NIGHT_DATA"], encoding="utf-8").read())
LIVE_ACCOUNTS = DATA["accounts"][: int(os.environ.get("LIVE", len(DATA["accounts"])))]
ACCOUNTS = itertools.cycle(LIVE_ACCOUNTS)
# What the spectators of a step watch: the pages of its live matches. The pages of matches not
# being played do not change, and would make a small step's looks cheaper than the night's.
PAGES = {
    "live round": sorted({account["round"] for account in LIVE_ACCOUNTS}),
    "standings": sorted({f"/competitions/{account['competition']}/" for account in LIVE_ACCOUNTS}),
    "match": [f"/matches/{account['match']}/" for account in LIVE_ACCOUNTS],
    "team": [f"/teams/{account[side]}/" for account in LIVE_ACCOUNTS for side in ("home", "away")],
}
# How often people choose each kind of page: the round being played and the standings are what a
# hall and its followers watch; one match, less; one team's page, seldom.
PAGE_WEIGHTS = {"live round": 45, "standings": 35, "match": 15, "team": 5}
# Saves posted, and those answered with the redirect that confirms them (round_night.py counts the
# deals stored afterwards: at least every confirmed one, at most every posted one); the looks and
# the stale ones among them.
CONFIRMED = {"saves": 0, "posted": 0, "looks": 0, "stale_looks": 0}
SAVE_EVERY = 20
POLL_EVERY = 20  # the site's live parts (scoring.views.public.DEFAULT_LIVE_POLL_SECONDS)
OPEN_EVERY = 60
MAX_AGE = int(os.environ.get("PUBLIC_MAX_AGE", "5"))
# The totals confirmed per match: (when, the home total the protocol page showed after the save).
SAVED: dict[int, list[tuple[float, int]]] = {}
VERSION = re.compile(r'name="version" value="(\d+)"')
HOME_TOTAL = re.compile(r'id="total-home">([^<]*)<')
SCOREBOARD_HOME = re.compile(r'class="scoreboard__total" data-side="home">([^<]*)<')
RESULT_HOME = re.compile(r'href="/matches/(\d+)/" class="results__score"><span class="results__total">([^<]*)<')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
DEAL = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
DEAL.update(home_cards="60", away_cards="-20", end="stock")


@events.quitting.add_listener
def write_confirmed(environment, **kwargs):
    path = os.environ.get("ROUND_NIGHT_CONFIRMED")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(CONFIRMED, out)


def number(text: str) -> int | None:
    """A total as the site writes it (5 120, −40) as a number."""
    digits = re.sub(r"[^0-9-]", "", text.replace("\u2212", "-"))
    return int(digits) if digits not in ("", "-") else None


def shown_totals(url: str, text: str) -> dict[int, int]:
    """The home totals a page or live part shows, by match."""
    shown = {int(match): total for match, raw in RESULT_HOME.findall(text) if (total := number(raw)) is not None}
    board = SCOREBOARD_HOME.search(text)
    if board and url.startswith("/matches/") and (total := number(board.group(1))) is not None:
        shown[int(url.split("/")[2])] = total
    return shown


def count_look(shown: dict[int, int]) -> None:
    """A look at `shown` now: stale when a match on it shows an older total than one confirmed
    more than max-age plus a poll interval ago (the longest a kept page and an open page's next
    poll may take to show it)."""
    CONFIRMED["looks"] += 1
    due_by = time.monotonic() - MAX_AGE - POLL_EVERY
    for match, total in shown.items():
        due = [saved for at, saved in SAVED.get(match, ()) if at <= due_by]
        if due and total < max(due):
            CONFIRMED["stale_looks"] += 1
            return


def every(seconds: float):
    """A user's wait_time: one task every `seconds`, counted from his own first task (see
    start_at_own_moment). Locust's constant_pacing counts from the moment the user was made, and
    Locust makes a step's users in batches, one a second: each batch would then repeat its
    requests at the same instant all night, a burst that no hall of players and spectators makes."""

    def wait_time(user) -> float:
        delay = max(0.0, user.next_task_at - time.monotonic())
        user.next_task_at += seconds
        return delay

    return wait_time


def start_at_own_moment(user, seconds: float) -> None:
    """Wait a random part of the interval before the first task: each user looks when he looks.
    All users of a step start at once (round_night.py), so from the step's first second the
    requests come at the rate of the night, spread evenly."""
    gevent.sleep(random.uniform(0, seconds))
    user.next_task_at = time.monotonic() + seconds  # the first task runs now


class Secretary(FastHttpUser):
    fixed_count = int(os.environ.get("LIVE", "1"))
    wait_time = every(SAVE_EVERY)

    def on_start(self):
        account = next(ACCOUNTS)
        self.match = account["match"]
        host = urlsplit(self.host).hostname
        session = account["session"]
        self.client.cookiejar.set_cookie(create_cookie(session["name"], session["value"], domain=host))
        start_at_own_moment(self, SAVE_EVERY)
        self.open_protocol()

    def open_protocol(self):
        """The protocol page, and from it the version and CSRF token the next save sends. A page
        without its entry form (a secretary signed out: a session the servers do not accept) is an
        error of the step, and he saves nothing until the page has its form again."""
        self.version = self.token = None
        with self.client.get(f"/matches/{self.match}/protocol/", name="protocol page", allow_redirects=False,
                             catch_response=True) as response:
            version, token = VERSION.search(response.text or ""), TOKEN.search(response.text or "")
            if response.status_code != 200 or version is None or token is None:
                response.failure(f"protocol page answered {response.status_code} without the entry form")
                return
            self.version, self.token = version.group(1), token.group(1)
            return HOME_TOTAL.search(response.text)

    @task
    def save_a_deal(self):
        if self.version is None:
            self.open_protocol()
            return
        data = {**DEAL, "version": self.version, "csrfmiddlewaretoken": self.token}
        CONFIRMED["posted"] += 1
        with self.client.post(f"/matches/{self.match}/protocol/", data, name="deal save", allow_redirects=False,
                              catch_response=True) as response:
            if response.status_code != 302:
                response.failure(f"deal save answered {response.status_code}")
                return
            CONFIRMED["saves"] += 1
            confirmed_at = time.monotonic()
        # The browser follows the redirect: the protocol page with the new version and total.
        home = self.open_protocol()
        if home is not None and (total := number(home.group(1))) is not None:
            SAVED.setdefault(int(self.match), []).append((confirmed_at, total))


class Spectator(FastHttpUser):
    fixed_count = int(os.environ.get("SPECTATORS", "1"))
    wait_time = every(POLL_EVERY)

    def on_start(self):
        start_at_own_moment(self, POLL_EVERY)
        self.open_page()

    def open_page(self):
        self.kind = random.choices(list(PAGE_WEIGHTS), weights=list(PAGE_WEIGHTS.values()))[0]
        self.url = random.choice(PAGES[self.kind])
        self.opened_at, self.etag, self.shown = time.monotonic(), None, {}
        with self.client.get(self.url, name=self.kind, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{self.kind} answered {response.status_code}")
                return
            self.etag = response.headers.get("ETag")
            self.shown = shown_totals(self.url, response.text or "")
        count_look(self.shown)

    @task
    def poll(self):
        if time.monotonic() - self.opened_at >= OPEN_EVERY - 1:
            self.open_page()
            return
        if self.kind == "team":
            return  # a team's page has no live part: it asks for nothing until another is opened
        headers = {"If-None-Match": self.etag} if self.etag else {}
        with self.client.get(self.url + "live/", name=f"{self.kind} live", headers=headers,
                             catch_response=True) as response:
            if response.status_code == 200:
                self.etag = response.headers.get("ETag")
                self.shown = shown_totals(self.url, response.text or "")
            elif response.status_code == 304:
                response.success()  # nothing changed: the part stays as it is
            else:
                response.failure(f"{self.kind} live answered {response.status_code}")
                return
        count_look(self.shown)


class PdfReader(FastHttpUser):
    fixed_count = 1
    wait_time = constant_pacing(1)

    @task
    def download(self):
        self.client.get(random.choice(DATA["pdfs"]), name="protocol pdf")


class Baseline(FastHttpUser):
    fixed_count = 1
    wait_time = constant_pacing(0.25)

    @task
    def minimal(self):
        self.client.get("/bench/minimal/", name="baseline")
