"""A federation's round night for Locust (run by round_night.py, `make load`).

Users, as many of each as the environment says (round_night.py sets them for each step):
- a secretary per live match (LIVE): signed in before the round began (round_night.py made the
  session), opens the match's protocol page, then saves one deal
  every 20 seconds through the protocol form, with its CSRF token and the version the page showed,
  as a browser does (a real deal takes about 4 minutes: this is 12 times faster);
- spectators (SPECTATORS): each loads a live round, standings, match or team page every 10 s;
- one PDF download a second (an official protocol of a played match);
- the baseline: a minimal Django view (load_urls.py), four times a second.

Request names are the page types, so Locust's statistics give one p95 per type. A save counts as
confirmed when the answer is the redirect back to the protocol page; round_night.py counts the
deals stored afterwards and compares.

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
from urllib.parse import urlsplit

import gevent
from locust import FastHttpUser, constant_pacing, events, task
from requests.cookies import create_cookie

DATA = json.loads(open(os.environ["ROUND_NIGHT_DATA"], encoding="utf-8").read())
ACCOUNTS = itertools.cycle(DATA["accounts"][: int(os.environ.get("LIVE", len(DATA["accounts"])))])
CONFIRMED = {"saves": 0}
SAVE_EVERY = 20
LOOK_EVERY = 10
VERSION = re.compile(r'name="version" value="(\d+)"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
DEAL = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
DEAL.update(home_cards="60", away_cards="-20", end="stock")


@events.quitting.add_listener
def write_confirmed(environment, **kwargs):
    path = os.environ.get("ROUND_NIGHT_CONFIRMED")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(CONFIRMED, out)


def start_at_own_moment(seconds: float) -> None:
    """Wait a random part of a user's interval before his first task. Locust starts the users of
    a step in batches, one a second; left alone, each batch would then repeat its requests at the
    same instant every interval, a burst that no hall of players and spectators makes (each looks
    when he looks)."""
    gevent.sleep(random.uniform(0, seconds))


class Secretary(FastHttpUser):
    fixed_count = int(os.environ.get("LIVE", "1"))
    wait_time = constant_pacing(SAVE_EVERY)

    def on_start(self):
        account = next(ACCOUNTS)
        self.match = account["match"]
        host = urlsplit(self.host).hostname
        session = account["session"]
        self.client.cookiejar.set_cookie(create_cookie(session["name"], session["value"], domain=host))
        self.read_protocol(self.client.get(f"/matches/{self.match}/protocol/", name="protocol page"))
        start_at_own_moment(SAVE_EVERY)

    def read_protocol(self, response):
        self.version = VERSION.search(response.text).group(1)
        self.token = TOKEN.search(response.text).group(1)

    @task
    def save_a_deal(self):
        data = {**DEAL, "version": self.version, "csrfmiddlewaretoken": self.token}
        with self.client.post(f"/matches/{self.match}/protocol/", data, name="deal save", allow_redirects=False,
                              catch_response=True) as response:
            if response.status_code != 302:
                response.failure(f"deal save answered {response.status_code}")
                return
            CONFIRMED["saves"] += 1
        # The browser follows the redirect: the protocol page with the new version.
        self.read_protocol(self.client.get(f"/matches/{self.match}/protocol/", name="protocol page"))


class Spectator(FastHttpUser):
    fixed_count = int(os.environ.get("SPECTATORS", "1"))
    wait_time = constant_pacing(LOOK_EVERY)

    def on_start(self):
        start_at_own_moment(LOOK_EVERY)

    @task
    def look(self):
        kind = random.choice(("live round", "standings", "match", "team"))
        self.client.get(random.choice(DATA["pages"][kind]), name=kind)


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
