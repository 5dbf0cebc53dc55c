"""The phones at the tables of a round night, for Locust (imported by locustfile.py).

Two phones per table, one per team, each with its own team's code (`/t/<code>/`), its own CSRF
cookie and the token its page holds, as the table's page (static/scoring/js/table.js) uses them:

- the page stays open: it asks for the state (`/t/<code>/state/`) at the interval the state it
  shows names (data-poll-seconds: more often while the other team types or a proposal waits) with
  that state's validator (If-None-Match), and keeps what it shows on a 304. It was opened before the step (round_night.warm_up, then the memory file from
  step to step); now and then a phone opens the page again (RELOAD_EVERY), at a moment of the step;
- about every 4 minutes a deal (spread over the tables, as players play): one phone types it (the
  live check posted as the page posts it while typing, CHECKS_PER_DEAL times), proposes it, and
  asks for its state again, as the page does after a post; the other phone shows it at its next
  look, agrees after reading it, and asks for its state again. The proposing team alternates;
- the clock's end: each step ends the matches whose time is up (a share of the tables, one match
  lasting MATCH_SECONDS). No hall clock runs (round_night.py), so the page offers no "the time ran
  out between deals" (it comes with the hall clock's main signal): the last deal is typed as ended
  by the clock (end = clock), proposed on one phone and agreed on the other, which ends the match,
  then each phone confirms the protocol with its own side. With both confirmations the match is
  confirmed (the competitions let them stand for the captain's), its link closes, and the phones
  leave; a spare match takes its place in the next step.

Request names: "table page", "table state" (and "table state 304"), "table check", "table deal",
"table agree", "table confirm" (the first team's) and "table confirm, result" (the second's, which
confirms the match and writes its result). What the other phone shows, and when, is counted in
night_record.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import time
import uuid
from urllib.parse import urlsplit

import gevent
import gevent.lock
from locust import FastHttpUser, events, task
from requests.cookies import create_cookie

from night_plan import read_state, step_plan
from night_record import PROPOSED, RECORD, Scheduled, look_at_table, proposed, total_changed

DATA = json.loads(open(os.environ["ROUND_NIGHT_DATA"], encoding="utf-8").read())
MEMORY_PATH = os.environ.get("ROUND_NIGHT_MEMORY", "")
MEMORY = json.loads(open(MEMORY_PATH, encoding="utf-8").read()) if MEMORY_PATH else {"phones": {}, "ended": []}
QUIET = bool(os.environ.get("ROUND_NIGHT_QUIET"))
STEP_SECONDS = float(os.environ.get("STEP_SECONDS", 40))
PLAN = step_plan(DATA, MEMORY, int(os.environ.get("LIVE", 1)), QUIET)
# A deal takes about four minutes at a table; a match about fifty.
DEAL_EVERY = 4.0 if QUIET else 240.0
MATCH_SECONDS = float(os.environ.get("MATCH_SECONDS", 3000))
# A phone whose screen locked and came back, or a player who reloads: the page is opened again.
RELOAD_EVERY = 600.0
# The live check is posted 350 ms after the typing pauses (page.html, hx-trigger): a deal's
# numbers are typed in a few bursts.
CHECKS_PER_DEAL = 3
TYPING_PAUSE = 0.3 if QUIET else 2.5
READING = 0.5 if QUIET else 4.0
# In the quiet step a phone asks every second and opens its page again every QUIET_RELOAD
# seconds, for enough answers to have a p95 of its own.
QUIET_POLL = 1.0
QUIET_RELOAD = 4.0
# Another interval than the page's own (round_night.py --table-poll): what it would cost.
TABLE_POLL = float(os.environ.get("TABLE_POLL") or 0)
JSON = {"Accept": "application/json"}
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
COUNTS = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
DEAL = {**COUNTS, "home_cards": "60", "away_cards": "-20", "end": "stock", "home_melded": "", "away_melded": ""}
SLOTS = itertools.cycle([(entry, side) for entry in PLAN["tables"] for side in ("home", "away")])


@events.quitting.add_listener
def keep_memory(environment, **kwargs):
    """What each phone shows, and which matches were confirmed at their tables, for the next step."""
    if MEMORY_PATH:
        with open(MEMORY_PATH, "w", encoding="utf-8") as out:
            json.dump(MEMORY, out)


class Table:
    """What the two phones of a table share: the players' plan for the step (when the next deal is
    dealt, whether the match ends in it) and what is under way."""

    def __init__(self, entry: dict):
        now = time.monotonic()
        self.match = entry["match"]
        self.next_deal_at = now + (2 if QUIET else random.uniform(0, DEAL_EVERY))
        ends = QUIET or random.random() < STEP_SECONDS / MATCH_SECONDS
        self.ends_at = now + (STEP_SECONDS - 15 if QUIET else random.uniform(0, STEP_SECONDS)) if ends else None
        self.busy = False  # a phone is typing or proposing
        self.confirming: set[str] = set()
        self.confirmed: set[str] = set()
        self.confirming_one = gevent.lock.Semaphore()
        self.closed = False


TABLES: dict[int, Table] = {}


class TablePhone(Scheduled, FastHttpUser):
    fixed_count = PLAN["counts"]["TablePhone"]

    def wait_time(self) -> float:
        return self.until_next()

    def on_start(self):
        entry, self.side = next(SLOTS)
        self.match = entry["match"]
        self.table = TABLES.setdefault(self.match, Table(entry))
        self.code = entry[f"{self.side}_code"]
        self.key = f"{self.match}:{self.side}"
        kept = MEMORY["phones"][self.key]
        self.token, self.state = kept["token"], kept["state"]
        host = urlsplit(self.host).hostname
        self.client.cookiejar.set_cookie(create_cookie("csrftoken", kept["csrf"], domain=host))
        self.answering: set[int] = set()
        # A reload comes when it comes: at a moment of the step, not with every phone's first ask
        # at the step's start (the quiet step's at its first act, for its p95).
        reloads = QUIET or random.random() < STEP_SECONDS / RELOAD_EVERY
        self.reload_at = time.monotonic() + (0 if QUIET else random.uniform(0, STEP_SECONDS - 5)) if reloads else None
        self.wait_for_first_act(QUIET_POLL if QUIET else TABLE_POLL or self.state.get("poll") or kept["poll"])

    @task
    def look(self):
        if self.done:
            return
        if self.reload_at is not None and time.monotonic() >= self.reload_at:
            self.reload_at = time.monotonic() + QUIET_RELOAD if QUIET else None
            self.open_page()
        else:
            self.ask_state()
        self.follow_interval()
        self.act()

    def follow_interval(self):
        """As table.js: the next ask after the seconds the state shown names, counted from the look
        that showed them (the quiet step and --table-poll keep their own interval)."""
        seconds = self.state.get("poll")
        if not QUIET and not TABLE_POLL and seconds and seconds != self.interval:
            self.change_interval(seconds)

    # -- what the page asks for ----------------------------------------------------------------------

    def open_page(self):
        with self.client.get(f"/t/{self.code}/", name="table page", catch_response=True) as response:
            if self.gone(response):
                return
            if response.status_code != 200:
                response.failure(f"table page answered {response.status_code}")
                return
            text = response.text or ""
        token = TOKEN.search(text)  # the page's forms hold a token of their own
        if token:
            self.token = MEMORY["phones"][self.key]["token"] = token.group(1)
        self.saw(read_state(text))

    def ask_state(self):
        headers = {"If-None-Match": f'"{self.state["tag"]}"'} if self.state.get("tag") else {}
        with self.client.get(f"/t/{self.code}/state/", name="table state", headers=headers, catch_response=True) as response:
            if self.gone(response):
                return
            if response.status_code == 304:
                response.success()
                self.saw(None)
                return
            if response.status_code != 200:
                response.failure(f"table state answered {response.status_code}")
                return
            self.saw(read_state(response.text or ""))

    def gone(self, response) -> bool:
        """The match was confirmed at the table: its link closes (404), and the players leave."""
        if response.status_code == 404 and (self.table.closed or self.state.get("status") == "finished"):
            response.success()
            self.table.closed = True
            self.done = True
            return True
        return False

    def saw(self, state: dict | None):
        if state is not None:
            self.state = MEMORY["phones"][self.key]["state"] = state
        look_at_table(self.match, self.side, self.state.get("waiting", []))

    def post(self, path: str, fields: dict, name: str) -> dict | None:
        """A post as table.js sends it: the form's fields, the CSRF token in its header, JSON asked for."""
        headers = {**JSON, "X-CSRFToken": self.token}
        with self.client.post(f"/t/{self.code}/{path}/", fields, headers=headers, name=name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{name} answered {response.status_code}: {(response.text or '')[:200]}")
                return None
            try:
                answer = response.json()
            except ValueError:
                response.failure(f"{name} answered without JSON")
                return None
            if answer.get("result") in ("conflict", "rejected", "refused"):
                response.failure(f"{name}: {answer.get('result')} {answer.get('message', '')}"[:200])
                return None
            return answer

    # -- what the players do -------------------------------------------------------------------------

    def act(self):
        """After a look: answer what waits for this side, confirm an ended match, or, on the turn of
        this phone's team, type the next deal or say the time ran out."""
        if self.done:
            return
        state, table, now = self.state, self.table, time.monotonic()
        for pk in state.get("waiting", []):
            if self.side in state.get("may_answer", []) and pk not in self.answering:
                self.answering.add(pk)
                gevent.spawn(self.agree, pk)
            return
        if state.get("status") == "finished":
            if self.side in state.get("may_confirm", []) and self.side not in table.confirming:
                table.confirming.add(self.side)
                gevent.spawn(self.confirm)
            return
        if table.busy or not state.get("accepts") or state.get("deals", 0) % 2 != (self.side == "away"):
            return
        if table.ends_at is not None and now >= table.ends_at:
            table.busy = True
            gevent.spawn(self.deal, last=True)
        elif now >= table.next_deal_at:
            table.busy = True
            table.next_deal_at += DEAL_EVERY
            gevent.spawn(self.deal)

    def deal(self, last: bool = False):
        """The next deal typed, checked as typed, and proposed; `last`: ended by the clock."""
        try:
            fields = {**DEAL, "csrfmiddlewaretoken": self.token, "client_id": uuid.uuid4().hex, "kind": "deal",
                      "number": str(self.state["next"]), "correct_number": "", "side": self.side,
                      **({"end": "clock"} if last else {})}  # fmt: skip
            # The live check as the numbers are typed: first one team's, then both, then the ending.
            typed = [name for name in fields if name.startswith("home_")], [name for name in fields if name.startswith("away_")]
            for check in range(CHECKS_PER_DEAL):
                gevent.sleep(TYPING_PAUSE)
                left_out = {*typed[1], "end"} if check == 0 else ({"end"} if check < CHECKS_PER_DEAL - 1 else set())
                sent = {name: ("" if name in left_out else value) for name, value in fields.items()}
                self.client.post(f"/t/{self.code}/check/", {**sent, "checking": "1"}, name="table check",
                                 headers={"HX-Request": "true"})  # fmt: skip
            gevent.sleep(TYPING_PAUSE)
            posted = {name: value for name, value in fields.items() if name != "csrfmiddlewaretoken"}
            answer = self.post("deals", posted, "table deal")
            if answer is not None:
                proposed(answer["proposal"], self.match, self.side, "deal")
                RECORD["saves"]["proposed"] += 1
                MEMORY.setdefault("deals proposed", []).append(answer["proposal"])
                if last:
                    self.table.ends_at = None
            self.ask_state()
        finally:
            self.table.busy = False

    def agree(self, pk: int):
        gevent.sleep(READING)
        answer = self.post("answer", {"proposal": str(pk), "agree": "yes", "side": self.side}, "table agree")
        agreed_at = time.monotonic()
        self.ask_state()
        if answer is not None and answer.get("result") == "agreed":
            # A deal, not the time running out (proposed in this step or, kept in the memory, an earlier one).
            if PROPOSED.get(pk, {}).get("kind") == "deal" or pk in MEMORY.get("deals proposed", ()):
                RECORD["saves"]["agreed"] += 1
            total_changed(self.match, agreed_at, self.state.get("total_home"))

    def confirm(self):
        gevent.sleep(READING)
        # One team after the other: the second confirmation confirms the match, and with it its
        # result goes into the standings, the places and the ratings, a write of its own kind.
        with self.table.confirming_one:
            name = "table confirm, result" if self.table.confirmed else "table confirm"
            if self.post("confirm", {"side": self.side}, name) is None:
                return
            self.table.confirmed.add(self.side)
        if len(self.table.confirmed) == 2 and self.match not in MEMORY["ended"]:
            MEMORY["ended"].append(self.match)  # the match is confirmed: the next step plays a spare
        self.ask_state()
