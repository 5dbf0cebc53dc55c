"""Entry at the table on a round night, for Locust: one table user per live match (LIVE), to be
imported by the round night's locustfile (`from table_users import TableUser`).

A table user is the phones at one table. Before the round it gets the match's table link as the
home secretary does (the account's session opens the match's table-link page, and makes the link
if there is none); from then on it acts without an account, through /t/<code>/ only:

- about every 4 minutes (TABLE_DEAL_EVERY seconds) the home team posts a deal and the away team
  agrees to it from its own phone (two posts: the proposal, then the answer);
- now and then (TABLE_LOOK_EVERY seconds) it asks for the table's state, which lists the deals
  waiting for it (a table's page asks for it while it is open).

Request names: "table deal", "table agree", "table state". A deal counts as stored when the answer
says "agreed"; TABLE_STORED counts them (written to ROUND_NIGHT_TABLE_STORED when Locust quits), for
the round night to compare with the deals stored. Where a secretary saves deals of the same match
meanwhile, the table's deal is answered "conflict" (the protocol moved on), as at a real table.
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
from locust import FastHttpUser, events, task
from requests.cookies import create_cookie

DATA = json.loads(open(os.environ["ROUND_NIGHT_DATA"], encoding="utf-8").read())
TABLE_ACCOUNTS = itertools.cycle(DATA["accounts"][: int(os.environ.get("LIVE", len(DATA["accounts"])))])
DEAL_EVERY = float(os.environ.get("TABLE_DEAL_EVERY", 240))
LOOK_EVERY = float(os.environ.get("TABLE_LOOK_EVERY", 30))
TABLE_STORED = {"posted": 0, "agreed": 0}
CODE = re.compile(r'id="table-code">([A-Z0-9]+)<')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
NEXT = re.compile(r'data-next-number="(\d+)"')
WAITING = re.compile(r'data-proposal="(\d+)"')
DEAL = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("natural", "mixed", "red3", "penalty")}
DEAL.update(home_cards="60", away_cards="-20", end="stock")
JSON = {"Accept": "application/json"}


@events.quitting.add_listener
def write_table_stored(environment, **kwargs):
    """The deals the tables posted and saw agreed, for the round night to count (ROUND_NIGHT_TABLE_STORED)."""
    path = os.environ.get("ROUND_NIGHT_TABLE_STORED")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(TABLE_STORED, out)


class TableUser(FastHttpUser):
    fixed_count = int(os.environ.get("LIVE", "1"))

    def wait_time(self) -> float:
        delay = max(0.0, self.next_look_at - time.monotonic())
        self.next_look_at += LOOK_EVERY
        return delay

    def on_start(self):
        account = next(TABLE_ACCOUNTS)
        self.match = account["match"]
        self.code = self.table_code(account)
        self.client.cookiejar.clear()  # from here on, no account: the code is the right
        # Each table starts at a moment of its own, as the players sit down.
        gevent.sleep(random.uniform(0, LOOK_EVERY))
        self.next_look_at = time.monotonic() + LOOK_EVERY
        self.next_deal_at = time.monotonic() + random.uniform(0, DEAL_EVERY)

    def table_code(self, account) -> str | None:
        host = urlsplit(self.host).hostname
        session = account["session"]
        self.client.cookiejar.set_cookie(create_cookie(session["name"], session["value"], domain=host))
        url = f"/matches/{self.match}/table-link/"
        page = self.client.get(url, name="table link page").text or ""
        if CODE.search(page) is None and TOKEN.search(page):
            page = self.client.post(url, {"action": "issue", "csrfmiddlewaretoken": TOKEN.search(page).group(1)},
                                    name="table link page").text or ""  # fmt: skip
        found = CODE.search(page)
        return found.group(1) if found else None

    @task
    def at_the_table(self):
        if self.code is None:
            return
        with self.client.get(f"/t/{self.code}/state/", name="table state", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"table state answered {response.status_code}")
                return
            state = response.text or ""
        if time.monotonic() >= self.next_deal_at:
            self.next_deal_at += DEAL_EVERY
            self.deal(state)

    def deal(self, state: str) -> None:
        waiting = WAITING.search(state)
        if waiting is None:
            number = NEXT.search(state)
            data = {**DEAL, "client_id": uuid.uuid4().hex, "side": "home", "kind": "deal",
                    "number": number.group(1) if number else "1"}  # fmt: skip
            TABLE_STORED["posted"] += 1
            with self.client.post(f"/t/{self.code}/deals/", data, headers=JSON, name="table deal", catch_response=True) as response:
                if response.status_code != 200:
                    response.failure(f"table deal answered {response.status_code}")
                    return
                proposal = response.json().get("proposal")
        else:
            proposal = waiting.group(1)
        answer = {"proposal": proposal, "side": "away", "agree": "yes"}
        with self.client.post(f"/t/{self.code}/answer/", answer, headers=JSON, name="table agree", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"table agree answered {response.status_code}")
                return
            if response.json().get("result") == "agreed":
                TABLE_STORED["agreed"] += 1
