"""What a step of the round night plays (round_night.py, locustfile.py): which matches are live,
how many users of each kind, which pages the spectators choose from, and what a table phone reads
from its state (the same reading for the driver's warm-up and for the phones).

Plain Python, no Locust: round_night.py imports it to tell Locust how many users to start.
"""

from __future__ import annotations

import re

# Per 300 live matches, 1 000 spectators (a hall and its followers at home).
SPECTATORS_PER_300 = 1000

WAITING = re.compile(r'class="table-waiting" data-proposal="(\d+)"')
ANSWER_SIDE = re.compile(r'name="side" value="(home|away)" data-agree="yes"')
CONFIRM_FORM = re.compile(r'class="table-confirm">(.*?)</form>', re.S)
SIDE_BUTTON = re.compile(r'name="side" value="(home|away)"')
STATE_DATA = {
    "next": re.compile(r'data-next-number="(\d+)"'),
    "deals": re.compile(r'data-deal-count="(\d+)"'),
    "accepts": re.compile(r'data-accepts="(1?)"'),
    "tag": re.compile(r'data-tag="([^"]*)"'),
    "poll": re.compile(r'data-poll-seconds="([\d.]*)"'),
}
TOTAL_HOME = re.compile(r'id="total-home">([^<]*)<')
# The match has ended (by the target or the clock): the state says so above both confirmations.
ENDED = 'class="table-end"'


# The pages whose cost grows with their competition's size: the national competition's (hundreds of
# teams, a round of hundreds of tables) are request types of their own, with references of their own.
SIZED = ("live round", "standings", "round at a glance")
COMPETITION_IN_URL = re.compile(r"^/competitions/(\d+)/")


def request_name(kind: str, url: str, large: set[int]) -> str:
    """The request type of a page of `kind` at `url`: "<kind> (national)" for a SIZED page of a
    competition in `large`."""
    found = COMPETITION_IN_URL.match(url)
    if kind in SIZED and found and int(found.group(1)) in large:
        return f"{kind} (national)"
    return kind


def number(text: str) -> int | None:
    """A total as the site writes it (5 120, −40) as a number."""
    digits = re.sub(r"[^0-9-]", "", text.replace("\u2212", "-"))
    return int(digits) if digits not in ("", "-") else None


def read_state(text: str) -> dict:
    """What a table phone's page shows, from the state part (or the whole page, which includes it):
    the validator, the next deal's number, the deals, whether a deal may be entered, the match's
    status, when the page asks again, the proposals waiting, which side this phone may answer or
    confirm for, and the home total."""
    state = {}
    for key, pattern in STATE_DATA.items():
        found = pattern.search(text)
        state[key] = found.group(1) if found else ""
    total = TOTAL_HOME.search(text)
    confirm = CONFIRM_FORM.search(text)
    return {
        **state,
        "next": int(state["next"] or 0),
        "deals": int(state["deals"] or 0),
        "accepts": state["accepts"] == "1",
        "poll": float(state["poll"] or 0),
        "status": "finished" if ENDED in text else "",
        "waiting": [int(pk) for pk in WAITING.findall(text)],
        "may_answer": sorted(set(ANSWER_SIDE.findall(text))),
        "may_confirm": sorted(set(SIDE_BUTTON.findall(confirm.group(1)))) if confirm else [],
        "total_home": number(total.group(1)) if total else None,
    }


def step_plan(data: dict, memory: dict, live: int, quiet: bool) -> dict:
    """The step's matches (the first `live` not yet confirmed at their tables; the quiet step's own
    two, and the two whose pages its spectator also looks at), split into tables and paper, the
    competitions they are in, the spectators' pages, and the number of users of each class."""
    shown = []  # the quiet step's spectator also looks at matches nobody plays then
    if quiet:
        matches = [data["quiet"]["table"], data["quiet"]["paper"]]
        shown = data["quiet"].get("idle", [])
    else:
        ended = set(memory.get("ended", ()))
        matches = [entry for entry in data["matches"] if entry["match"] not in ended][:live]
    tables = [entry for entry in matches if entry["kind"] == "table"]
    papers = [entry for entry in matches if entry["kind"] == "paper"]
    competitions = sorted({entry["competition"] for entry in matches})
    spectators = 1 if quiet else max(1, round(len(matches) * SPECTATORS_PER_300 / 300))
    watched = matches + shown
    pages = {
        "live round": sorted({entry["round"] for entry in watched}),
        "standings": sorted({f"/competitions/{entry['competition']}/" for entry in watched}),
        "match": [f"/matches/{entry['match']}/" for entry in watched],
        "team": [f"/teams/{entry[side]}/" for entry in watched for side in ("home", "away")],
    }
    counts = {"TablePhone": 2 * len(tables), "PaperSecretary": len(papers), "Organiser": len(competitions),
              "Spectator": spectators, "PdfReader": 1, "MinimalView": 1}  # fmt: skip
    return {"matches": matches, "tables": tables, "papers": papers, "competitions": competitions, "pages": pages,
            "counts": counts}  # fmt: skip
