"""The round night's own reckoning (`make load`), without a server: what a phone reads from its
table's state, which matches a step plays, and when a look is stale. Prints no figure."""

from __future__ import annotations

import time

import night_plan
import night_record
import round_night

STATE = """<div id="table-state-data" data-next-number="4" data-deal-count="3" data-accepts="1" data-final-passed=""
 data-rendered-ms="1" data-tag="abc123" data-poll-seconds="2.5">
<td id="total-home">1\u00a0120</td>
<section class="table-waiting" data-proposal="77" aria-labelledby="waiting-77">
<form method="post" action="/t/X/answer/" class="table-answer">
<button type="submit" name="side" value="away" data-agree="yes" class="button">Away agrees</button></form>
</section></div>"""


def test_a_phone_reads_its_state():
    state = night_plan.read_state(STATE)
    assert state["tag"] == "abc123" and state["next"] == 4 and state["deals"] == 3 and state["accepts"]
    assert state["waiting"] == [77] and state["may_answer"] == ["away"] and state["may_confirm"] == []
    assert state["total_home"] == 1120 and state["status"] == "" and state["poll"] == 2.5



def test_a_step_plays_the_first_matches_not_confirmed():
    matches = [{"match": pk, "kind": "paper" if pk % 10 == 9 else "table", "competition": pk // 10,
                "round": f"/r/{pk // 10}/", "home": 2 * pk, "away": 2 * pk + 1} for pk in range(30)]  # fmt: skip
    data = {"matches": matches, "quiet": {"table": matches[0], "paper": matches[9]}}
    plan = night_plan.step_plan(data, {"ended": [0, 1]}, 10, quiet=False)
    assert [entry["match"] for entry in plan["matches"]] == list(range(2, 12))
    assert plan["counts"]["TablePhone"] == 2 * 9 and plan["counts"]["PaperSecretary"] == 1
    assert plan["counts"]["Spectator"] == round(10 * 1000 / 300) and plan["counts"]["Organiser"] == 2
    quiet = night_plan.step_plan(data, {}, 1, quiet=True)
    assert quiet["counts"]["TablePhone"] == 2 and quiet["counts"]["Spectator"] == 1


def test_a_look_is_stale_only_past_its_promise():
    night_record.TOTALS.clear()
    now = time.monotonic()
    night_record.TOTALS[5] = [(now - 12, 180), (now - 2, 240)]
    stale_before = night_record.RECORD["stale"]["round at a glance"]
    seen_from: dict[int, int] = {}
    night_record.look_at_totals("round at a glance", {5: 180}, 10, seen_from)  # the newer one is 2 s old
    assert night_record.RECORD["stale"]["round at a glance"] == stale_before
    assert seen_from == {5: 1}
    night_record.look_at_totals("round at a glance", {5: 120}, 10, {})  # the 12 s old one is missing
    assert night_record.RECORD["stale"]["round at a glance"] == stale_before + 1


def test_p95_and_ceilings():
    assert round_night.p95(list(range(1, 101))) == 95
    assert round_night.p95([]) is None
    assert round_night.ceiling("table state 304") == round_night.LIVE_MS
    assert round_night.ceiling("team") == round_night.PAGE_MS
    assert round_night.ceiling("table agree") == round_night.POST_MS
    assert round_night.ceiling("protocol pdf") is None


def test_a_quiet_reference_is_of_enough_answers():
    times = {
        "table deal": [10.0] * 18 + [12.0, 13.0],
        "table agree": [8.0] * 20,
        "table confirm": [30.0],  # the first team confirms once a match
        "table confirm, result": [80.0],  # the second confirms the match: its result is written
        "round at a glance": [20.0, 22.0],  # too few, and no group: its own
        "protocol pdf": [float(n) for n in range(1, 101)],
    }
    references = round_night.quiet_references(times)
    pooled = round_night.p95([value for kind in round_night.TABLE_WRITES for value in times[kind]])
    assert references["table confirm"] == (pooled, 41, "the table's writes")
    assert references["table confirm, result"] == (80.0, 1, "table confirm, result")
    assert references["table deal"] == (12.0, 20, "table deal")
    assert references["round at a glance"] == (22.0, 2, "round at a glance")
    assert references["protocol pdf"] == (95.0, 100, "protocol pdf")


def test_the_national_competitions_pages_are_request_types_of_their_own():
    large = {30}
    assert night_plan.request_name("standings", "/competitions/30/", large) == "standings (national)"
    assert night_plan.request_name("live round", "/competitions/30/rounds/4/", large) == "live round (national)"
    assert night_plan.request_name("standings", "/competitions/3/", large) == "standings"
    assert night_plan.request_name("match", "/matches/30/", large) == "match"
    assert round_night.ceiling("round at a glance (national) live 304") == round_night.LIVE_MS
    assert round_night.ceiling("standings (national)") == round_night.PAGE_MS


def test_the_quiet_step_plays_in_leagues_and_watches_two_matches_nobody_plays():
    matches = [{"match": pk, "kind": "paper" if pk % 10 == 9 else "table", "competition": pk // 10,
                "round": f"/competitions/{pk // 10}/rounds/1/", "home": 2 * pk, "away": 2 * pk + 1,
                "large": pk >= 40} for pk in range(60)]  # fmt: skip
    quiet = round_night.quiet_matches(matches)
    assert quiet["table"]["match"] == 38 and quiet["paper"]["match"] == 29
    assert [entry["competition"] for entry in quiet["idle"]] == [1, 0]
    plan = night_plan.step_plan({"quiet": quiet}, {}, 1, quiet=True)
    assert plan["counts"]["TablePhone"] == 2 and plan["counts"]["PaperSecretary"] == 1
    assert plan["pages"]["standings"] == [f"/competitions/{pk}/" for pk in range(4)]
    assert plan["competitions"] == [2, 3]
