"""A federation's round night as it is played, for Locust (run by round_night.py, `make load`).

The step's live matches are night_plan.step_plan's; per match, either a table or a paper protocol:
- the table's two phones (table_users.TablePhone): the page open, its state asked for with its
  validator, a deal about every 4 minutes typed on one phone and agreed on the other, the clock's
  end and both confirmations when the match's time is up;
- one match in ten is kept on paper: its secretary (signed in before the round, round_night.py
  made the session) enters its deals at the same pace on the protocol page (the page, the save with
  its CSRF token and the version the page showed, the page again as the browser follows the redirect);
- the organiser keeps the round at a glance open for each competition: its live part asked for at
  the page's own interval;
- spectators, as people watch a round night (1 000 per 300 live matches): each opens a page of the
  step's live matches and keeps it open, its live part asked for every 20 s with the validator it
  holds (If-None-Match), as htmx does (templates/scoring/public/_match_live.html); a team page has no
  live part. About every 60 s the spectator opens another page, chosen as people choose
  (PAGE_WEIGHTS);
- one protocol PDF a second of a played match, and the minimal view once a second (the site's
  cheapest answer, printed beside the others).

In the quiet step (ROUND_NIGHT_QUIET) there is one of each, asking at a brisk pace so that every
request type has enough answers for a p95 of its own when nothing else runs (round_night.py,
QUIET_SAMPLES): the spectator goes round the pages of the quiet matches (QUIET_PAGES: those played
and two nobody plays then), at each either opening it or asking for its live part with the
validator it showed, as the night's polls do (a round longer than the pages' max-age, so that nginx
asks the app servers: the played matches' parts changed, 200, the others' not, 304); each organiser
opens the round at a glance again every QUIET_REOPEN asks. The national competition's pages of a
SIZED kind are request types of their own (night_plan.request_name).

What everybody sees is checked against the changes the night made (night_record): a look that
shows less than its promise allows is stale. Every user acts at a moment of his own (Scheduled).

The users are Locust's FastHttpUser (geventhttpclient), which takes a fraction of the plain
HttpUser's CPU per request: the load generator runs on the same cores as the servers.
"""

from __future__ import annotations

import itertools
import random
import re
import time
from urllib.parse import urlsplit

from locust import FastHttpUser, task
from requests.cookies import create_cookie

from night_plan import number, request_name
from night_record import ROUND_AT_A_GLANCE_PROMISE, SPECTATOR_PROMISE, Scheduled, look_at_totals, total_changed, RECORD
from table_users import DEAL_EVERY, PLAN, QUIET, DATA, TablePhone  # noqa: F401 (a user class of the night)

# How often people choose each kind of page: the round being played and the standings are what a
# hall and its followers watch; one match, less; one team's page, seldom.
PAGE_WEIGHTS = {"live round": 45, "standings": 35, "match": 15, "team": 5}
POLL_EVERY = 0.4 if QUIET else 20.0  # the public live parts (scoring.views.public.DEFAULT_LIVE_POLL_SECONDS)
OPEN_EVERY = 60.0
QUIET_REOPEN = 3
LARGE = set(DATA.get("large", ()))
# The quiet spectator's round: every page, but only two teams' (a team page has no live part).
QUIET_PAGES = [(kind, url) for kind in PAGE_WEIGHTS for url in PLAN["pages"][kind][: 2 if kind == "team" else None]]
VERSION = re.compile(r'name="version" value="(\d+)"')
HOME_TOTAL = re.compile(r'id="total-home">([^<]*)<')
SCOREBOARD_HOME = re.compile(r'class="scoreboard__total" data-side="home">([^<]*)<')
RESULT_HOME = re.compile(r'href="/matches/(\d+)/" class="results__score"><span class="results__total">([^<]*)<')
ROUND_ROW = re.compile(r'id="round-table-(\d+)".*?data-role="totals">([^<]*?) \u2013', re.S)
ROUND_POLL = re.compile(r'/tables/live/" hx-trigger="every (\d+)s"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
DEAL = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
DEAL.update(home_cards="60", away_cards="-20", end="stock")
PAPERS = itertools.cycle(PLAN["papers"] or [None])
ORGANISERS = itertools.cycle(PLAN["competitions"] or [None])


def signed_in(user, session: dict) -> None:
    host = urlsplit(user.host).hostname
    user.client.cookiejar.set_cookie(create_cookie(session["name"], session["value"], domain=host))


def shown_totals(url: str, text: str) -> dict[int, int]:
    """The home totals a public page or live part shows, by match."""
    shown = {int(match): total for match, raw in RESULT_HOME.findall(text) if (total := number(raw)) is not None}
    board = SCOREBOARD_HOME.search(text)
    if board and url.startswith("/matches/") and (total := number(board.group(1))) is not None:
        shown[int(url.split("/")[2])] = total
    return shown


class PaperSecretary(Scheduled, FastHttpUser):
    fixed_count = PLAN["counts"]["PaperSecretary"]

    def wait_time(self) -> float:
        return self.until_next()

    def on_start(self):
        self.entry = next(PAPERS)
        self.match = self.entry["match"]
        signed_in(self, self.entry["session"])
        self.wait_for_first_act(DEAL_EVERY)

    def open_protocol(self):
        """The protocol page, and from it the version and CSRF token the save sends. A page without
        its entry form (a session the servers do not accept) is an error of the step."""
        with self.client.get(f"/matches/{self.match}/protocol/", name="protocol page", allow_redirects=False,
                             catch_response=True) as response:  # fmt: skip
            text = response.text or ""
            version, token = VERSION.search(text), TOKEN.search(text)
            if response.status_code != 200 or version is None or token is None:
                response.failure(f"protocol page answered {response.status_code} without the entry form")
                return None
            return version.group(1), token.group(1), HOME_TOTAL.search(text)

    @task
    def save_a_deal(self):
        opened = self.open_protocol()
        if opened is None:
            return
        version, token, _total = opened
        RECORD["saves"]["posted"] += 1
        with self.client.post(f"/matches/{self.match}/protocol/", {**DEAL, "version": version, "csrfmiddlewaretoken": token},
                              name="deal save", allow_redirects=False, catch_response=True) as response:  # fmt: skip
            if response.status_code != 302:
                response.failure(f"deal save answered {response.status_code}")
                return
            RECORD["saves"]["confirmed"] += 1
            confirmed_at = time.monotonic()
        # The browser follows the redirect: the protocol page with the new total.
        opened = self.open_protocol()
        if opened is not None and opened[2] is not None:
            total_changed(self.match, confirmed_at, number(opened[2].group(1)))


class Organiser(Scheduled, FastHttpUser):
    fixed_count = PLAN["counts"]["Organiser"]

    def wait_time(self) -> float:
        return self.until_next()

    def on_start(self):
        competition = next(ORGANISERS)
        organiser = DATA["organisers"][str(competition)]
        signed_in(self, organiser["session"])
        self.url = organiser["round"] + "tables/"
        self.name = request_name("round at a glance", self.url, LARGE)
        self.seen_from: dict[int, int] = {}
        self.etag = self.last = None
        # The page's own interval is learnt when it is opened, at the organiser's first moment.
        self.wait_for_first_act(1.5 if QUIET else 10.0)

    def open_page(self):
        with self.client.get(self.url, name=self.name, catch_response=True) as response:
            text = response.text or ""
            if response.status_code != 200:
                response.failure(f"{self.name} answered {response.status_code}")
                return
        poll = ROUND_POLL.search(text)
        if poll and not QUIET:
            self.next_act_at += float(poll.group(1)) - self.interval
            self.interval = float(poll.group(1))
        self.last = text
        self.look(text)

    def look(self, text: str):
        shown = {int(match): total for match, raw in ROUND_ROW.findall(text) if (total := number(raw)) is not None}
        look_at_totals("round at a glance", shown, ROUND_AT_A_GLANCE_PROMISE, self.seen_from)

    @task
    def poll(self):
        if self.last is None or (QUIET and self.acts_done % QUIET_REOPEN == 0):
            self.open_page()
            return
        headers = {"If-None-Match": self.etag} if self.etag else {}
        with self.client.get(self.url + "live/", name=f"{self.name} live", headers=headers,
                             catch_response=True) as response:  # fmt: skip
            if response.status_code == 304:
                response.success()
                self.look(self.last)
                return
            if response.status_code != 200:
                response.failure(f"{self.name} live answered {response.status_code}")
                return
            self.etag = response.headers.get("ETag")
            self.last = response.text or ""
        self.look(self.last)


class Spectator(Scheduled, FastHttpUser):
    fixed_count = PLAN["counts"]["Spectator"]

    def wait_time(self) -> float:
        return self.until_next()

    def on_start(self):
        self.pages = itertools.cycle(QUIET_PAGES) if QUIET else None
        self.validators: dict[str, tuple] = {}  # the quiet round's: by page, its validator and totals
        self.opened_at = float("-inf")  # the page is opened at the spectator's first moment
        self.wait_for_first_act(POLL_EVERY)

    def watch(self, kind: str, url: str):
        self.kind, self.url, self.name = kind, url, request_name(kind, url, LARGE)

    def open_page(self, kind: str | None = None, url: str | None = None):
        if kind is None:
            kind = random.choices(list(PAGE_WEIGHTS), weights=list(PAGE_WEIGHTS.values()))[0]
            url = random.choice(PLAN["pages"][kind])
        self.watch(kind, url)
        self.opened_at, self.etag, self.shown = time.monotonic(), None, {}
        with self.client.get(self.url, name=self.name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{self.name} answered {response.status_code}")
                return
            self.etag = response.headers.get("ETag")
            self.shown = shown_totals(self.url, response.text or "")
        look_at_totals("spectator", self.shown, SPECTATOR_PROMISE)

    @task
    def poll(self):
        if self.pages is not None:
            self.quiet_round()
            return
        if time.monotonic() - self.opened_at >= OPEN_EVERY - 1:
            self.open_page()
            return
        self.poll_live_part()

    def quiet_round(self):
        """The quiet step's next page: opened, or its live part asked for with what it showed."""
        kind, url = next(self.pages)
        kept = self.validators.pop(url, None)
        if kept is None or kind == "team":
            self.open_page(kind, url)
            self.validators[url] = (self.etag, self.shown)
            return
        self.watch(kind, url)
        self.etag, self.shown = kept
        self.poll_live_part()

    def poll_live_part(self):
        if self.kind == "team":
            return  # a team's page has no live part: it asks for nothing until another is opened
        headers = {"If-None-Match": self.etag} if self.etag else {}
        with self.client.get(self.url + "live/", name=f"{self.name} live", headers=headers,
                             catch_response=True) as response:  # fmt: skip
            if response.status_code == 200:
                self.etag = response.headers.get("ETag")
                self.shown = shown_totals(self.url, response.text or "")
            elif response.status_code == 304:
                response.success()  # nothing changed: the part stays as it is
            else:
                response.failure(f"{self.name} live answered {response.status_code}")
                return
        look_at_totals("spectator", self.shown, SPECTATOR_PROMISE)


class PdfReader(Scheduled, FastHttpUser):
    fixed_count = 1

    def wait_time(self) -> float:
        return self.until_next()

    def on_start(self):
        self.wait_for_first_act(1.0)

    @task
    def download(self):
        self.client.get(random.choice(DATA["pdfs"]), name="protocol pdf")


class MinimalView(Scheduled, FastHttpUser):
    fixed_count = 1

    def wait_time(self) -> float:
        return self.until_next()

    def on_start(self):
        self.wait_for_first_act(1.0)

    @task
    def minimal(self):
        self.client.get("/bench/minimal/", name="minimal view")
