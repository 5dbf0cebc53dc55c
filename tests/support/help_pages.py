"""The pages the help pages speak of (scoring.views.help), each in the state the help describes,
made through the services as the demo's matches are: what tests/views/test_help_pages.py opens to
find each button a help page names, and tests/browser/test_help_pictures.py photographs.

`help_night()` returns the people and a dict of page keys (the `data-on` of the help pages'
controls) to (who looks at it, its address in Swedish): None for a public page or a table code's."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from scoring import services
from scoring.services import table
from tests import factories as f


def help_night() -> dict:
    setup = f.protocol_setup()
    secretary, away_captain = setup["secretary"], setup["away_captain"]
    competition = setup["match"].competition
    competition.rules_key = "sv-tavling"
    competition.save()
    # Table 1: under way, one deal in, the next to be entered.
    under_way = setup["match"]
    link = table.table_link_issue(match=under_way, user=secretary)
    under_way = services.deals_record(match=under_way, user=secretary, expected_version=None,
                                      entry=f.deal(1, home_cards=120, home_natural=1, out="home", away_cards=-35))  # fmt: skip
    # Table 5: at the table, the first deal sent by the home team and waiting for the away team.
    waiting = f.make_match(competition=competition, home=f.make_team("Jokrarna", club=setup["home"].club),
                           away=f.make_team("Damerna", club=setup["away"].club), table=5)  # fmt: skip
    waiting_link = table.table_link_issue(match=waiting, user=secretary)
    table.table_deal_propose(link=waiting_link, codes=[waiting_link.code], client_id="help", side="home", number=1,
                             entry=f.deal(1, home_cards=60, away_cards=210, away_natural=1, away_mixed=1, out="away"))  # fmt: skip
    # Table 2: played to the end at the table, waiting for both teams' confirmations.
    ended = f.make_match(competition=competition, home=f.make_team("Kungarna", club=setup["home"].club),
                         away=f.make_team("Knektarna", club=setup["away"].club), table=2)  # fmt: skip
    ended_link = table.table_link_issue(match=ended, user=secretary)
    ended = f.play_match(ended, secretary)
    # Table 3: played and submitted by the secretary, waiting for the away captain.
    submitted = f.make_match(competition=competition, home=setup["home"], away=setup["away"], table=3)
    submitted = f.play_match(submitted, secretary)
    submitted = services.match_submit(match=submitted, user=secretary, expected_version=submitted.version)
    # Table 4: played, not yet submitted.
    played = f.make_match(competition=competition, home=f.make_team("Essen", club=setup["home"].club),
                          away=f.make_team("Tvåorna", club=setup["away"].club), table=4)  # fmt: skip
    played = f.play_match(played, secretary)

    with translation.override("sv"):
        pages = {
            "protocol": (secretary, reverse("scoring:match-protocol", args=[under_way.pk])),
            "protocol-ended": (secretary, reverse("scoring:match-protocol", args=[played.pk])),
            "correct": (secretary, reverse("scoring:deal-correct", args=[under_way.pk, 1])),
            "captain": (away_captain, reverse("scoring:match-protocol", args=[submitted.pk])),
            "confirm": (away_captain, reverse("scoring:match-confirm", args=[submitted.pk])),
            "dispute": (away_captain, reverse("scoring:match-dispute", args=[submitted.pk])),
            "table": (None, reverse("scoring:table", args=[link.code])),
            "table-waiting": (None, reverse("scoring:table", args=[waiting_link.away_code])),
            "table-ended": (None, reverse("scoring:table", args=[ended_link.away_code])),
            "round": (secretary, reverse("scoring:round-tables", args=[competition.pk, under_way.round.number])),
            "cards": (secretary, reverse("scoring:round-table-cards", args=[competition.pk, under_way.round.number])),
        }
    return {**setup, "pages": pages}
