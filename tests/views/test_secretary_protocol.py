"""The protocol page: recording a deal, refusals that keep what was typed, the live check, the
correction of a deal, removing the last deal, and the match lifecycle buttons."""

import re
from datetime import datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import AuditEntry, Deal, Match
from tests import factories as f

pytestmark = pytest.mark.django_db


THIN = "\u202f"


@pytest.fixture
def s(client):
    setup = f.protocol_setup()
    client.force_login(setup["secretary"])
    return setup


def protocol(match):
    return reverse("scoring:match-protocol", args=[match.pk])


def check(match):
    return reverse("scoring:match-protocol-check", args=[match.pk])


def deal_data(version, **values):
    data = {"version": version}
    data.update({key: str(value) for key, value in values.items()})
    return data


FIRST = {"home_cards": 285, "home_natural": 1, "home_mixed": 1, "away_cards": 120, "out": "home"}


def input_value(html, name):
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return value.group(1) if value else None


# -- the page -------------------------------------------------------------------------------------


def test_the_page_shows_the_header_the_sheet_and_an_empty_form(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)

    html = client.get(protocol(match)).content.decode()

    assert "Hemmalaget" in html and "Bortalaget" in html
    assert "Svensk tävlingscanasta" in html
    assert 'id="deal-1"' in html
    assert f"1{THIN}885" in html
    assert "Giv 2" in html
    # Empty, so what is typed is all a field holds: a count's 0 is its placeholder; card points are
    # written always.
    assert input_value(html, "home_cards") is None and input_value(html, "home_natural") is None
    assert re.search(r'<input[^>]*name="home_natural"[^>]*placeholder="0"', html)
    assert input_value(html, "version") == str(match.version)
    # Inputs are described by their problem slots.
    assert 'aria-describedby="problems-home_cards"' in html
    assert 'id="problems-away_cards"' in html


def test_the_live_check_form_is_wired_for_htmx(client, s):
    html = client.get(protocol(s["match"])).content.decode()

    assert f'hx-post="{check(s["match"])}"' in html
    assert 'hx-trigger="input changed delay:300ms"' in html
    assert "<script>" not in html  # no inline script: the CSP forbids it


# -- recording --------------------------------------------------------------------------------------


def test_recording_a_deal_through_the_page(client, s):
    match = s["match"]

    response = client.post(protocol(match), deal_data(match.version, **FIRST))

    assert response.status_code == 302
    assert response["Location"] == protocol(match) + "?saved=1#entry"
    match.refresh_from_db()
    assert match.deal_count == 1
    assert (match.home_total, match.away_total) == (1185, 120)
    deal = match.deals.get()
    assert (deal.home_natural, deal.home_mixed, deal.out, deal.end) == (1, 1, "home", "out")
    page = client.get(response["Location"]).content.decode()
    assert "Giv 1 sparad" in page
    assert "autofocus" in page  # straight on to the next deal


def test_a_rejected_deal_keeps_the_typed_values_and_names_the_field(client, s):
    match = s["match"]

    response = client.post(protocol(match), deal_data(match.version, home_cards=287, away_cards=-40, home_penalty=50))

    assert response.status_code == 200
    html = response.content.decode()
    assert input_value(html, "home_cards") == "287"
    assert input_value(html, "away_cards") == "-40"
    assert input_value(html, "home_penalty") == "50"
    slot = re.search(r'<div id="problems-home_cards"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert "Giv 1, hemmalaget, kortpoäng" in slot
    assert "287" in slot
    assert 'aria-invalid="true"' in html
    assert Deal.objects.count() == 0
    assert Match.objects.get().version == match.version


def test_a_stale_version_is_refused_and_the_input_kept(client, s):
    match = s["match"]
    loaded_version = match.version
    services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=loaded_version)

    response = client.post(protocol(match), deal_data(loaded_version, home_cards=120, away_cards=90))

    assert response.status_code == 409
    html = response.content.decode()
    assert "Någon annan ändrade matchen" in html
    assert input_value(html, "home_cards") == "120"
    assert input_value(html, "away_cards") == "90"
    match.refresh_from_db()
    assert input_value(html, "version") == str(match.version)  # saving again is a deliberate act
    assert match.deal_count == 1
    # The page shows the match as it is now: deal 1 by the other hand, the form for deal 2.
    assert 'id="deal-1"' in html and "Giv 2" in html


def test_a_non_number_is_refused_with_a_message(client, s):
    match = s["match"]

    response = client.post(protocol(match), deal_data(match.version, home_cards="tolv"))

    assert response.status_code == 200
    html = response.content.decode()
    slot = re.search(r'<div id="problems-home_cards"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert "heltal" in slot
    assert Deal.objects.count() == 0


def test_the_deal_that_reaches_5000_ends_the_match_and_the_form_goes(client, s):
    match = s["match"]
    for number in (1, 2):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    data = deal_data(match.version, home_cards=485, home_natural=2, home_mixed=1, away_cards=-40, out="home")

    response = client.post(protocol(match), data)

    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "Matchen är slut: 5000 uppnått" in html
    assert 'name="home_cards"' not in html
    assert reverse("scoring:match-submit", args=[match.pk]) in html
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_a_deal_after_the_end_is_refused(client, s):
    match = s["match"]
    for number in (1, 2, 3):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)

    response = client.post(protocol(match), deal_data(match.version, home_cards=50, away_cards=0))

    assert response.status_code == 409
    assert "slut" in response.content.decode()
    assert match.deals.count() == 3


def test_the_minute_dealt_and_written_columns_are_saved(client, s):
    started = timezone.make_aware(datetime(2026, 10, 14, 18, 30))
    match = services.match_start(match=s["match"], user=s["secretary"], started_at=started)
    data = deal_data(match.version, **FIRST, dealt="10", home_score=1185, home_total=1185, away_min=50)

    response = client.post(protocol(match), data)

    assert response.status_code == 302
    deal = Match.objects.get().deals.get()
    assert deal.home_score_written == 1185 and deal.away_min_written == 50
    assert deal.dealt_at == started + timedelta(minutes=10)


def test_a_deal_dealt_after_the_main_time_is_refused_by_its_minute(client, s):
    started = timezone.make_aware(datetime(2026, 10, 14, 18, 30))
    match = services.match_start(match=s["match"], user=s["secretary"], started_at=started)

    response = client.post(protocol(match), deal_data(match.version, **FIRST, dealt="55"))

    html = response.content.decode()
    assert response.status_code == 200
    slot = re.search(r'<div id="problems-dealt"[^>]*>(.*?)</div>', html, re.S).group(1)
    assert "55" in slot and "50" in slot
    assert Deal.objects.count() == 0


def test_a_written_total_that_differs_is_saved_as_written_with_one_note(client, s):
    """docs/rules.md, "Revision 3" (rule 35 b): an addition slip is noted, not refused."""
    match = s["match"]
    page = client.get(protocol(match)).content.decode()
    # The written columns stand in each side's fields in the paper's order, never folded away.
    assert 'class="deal-written"' not in page
    assert page.index('name="home_min"') < page.index('name="home_cards"') < page.index('name="home_score"') < page.index('name="home_total"')

    response = client.post(protocol(match), deal_data(match.version, **FIRST, home_total=1180))

    assert response.status_code == 302
    deal = Deal.objects.get(match=match)
    assert (deal.home_total_written, deal.home_total) == (1180, 1185)
    html = client.get(protocol(match)).content.decode()
    note = f"Giv 1, hemmalaget, summa: 0 och givpoängen 1{THIN}185 blir 1{THIN}185, inte 1{THIN}180 som det står."
    assert html.count(note) == 1, re.findall(r"Giv 1[^<]*", html)


# -- the live check -------------------------------------------------------------------------------


def test_the_live_check_returns_totals_minimums_and_writes_nothing(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    audit_before = AuditEntry.objects.count()

    response = client.post(
        check(match),
        {"home_cards": "300", "home_natural": "2", "away_cards": "50", "out": "home"},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html  # a partial
    assert re.search(r'id="preview-home-score">1\u202f400<', html)
    assert re.search(r'id="preview-home-total">3\u202f285<', html)
    assert re.search(r'id="preview-away-total">10<', html)  # −40 + 50
    assert re.search(r'id="preview-home-min">120<', html)
    assert re.search(r'id="preview-away-min">50<', html)
    match.refresh_from_db()
    assert match.deal_count == 1 and match.version == 2
    assert Deal.objects.count() == 1
    assert AuditEntry.objects.count() == audit_before


def test_the_live_check_places_each_problem_by_its_field(client, s):
    match = s["match"]

    response = client.post(
        check(match), {"home_cards": "287", "away_cards": "0", "away_red3": "5"}, HTTP_HX_REQUEST="true"
    )

    html = response.content.decode()
    home = re.search(r'<div id="problems-home_cards" class="field-problems" hx-swap-oob="true">(.*?)</div>', html, re.S)
    red3 = re.search(r'<div id="problems-away_red3" class="field-problems" hx-swap-oob="true">(.*?)</div>', html, re.S)
    away = re.search(r'<div id="problems-away_cards" class="field-problems" hx-swap-oob="true">(.*?)</div>', html, re.S)
    assert "287" in home.group(1) and "5" in home.group(1)
    assert "röda treor" in red3.group(1)
    assert away.group(1) == ""  # cleared when fine
    assert "2 problem" in html
    assert Deal.objects.count() == 0


def test_the_live_check_shows_that_a_deal_would_end_the_match(client, s):
    match = s["match"]
    for number in (1, 2):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)

    response = client.post(
        check(match),
        {"home_cards": "485", "home_natural": "2", "home_mixed": "1", "away_cards": "-40", "out": "home"},
        HTTP_HX_REQUEST="true",
    )

    assert "avslutar matchen" in response.content.decode()


def test_the_check_button_without_javascript_renders_the_whole_page(client, s):
    match = s["match"]

    response = client.post(check(match), deal_data(match.version, home_cards=287, away_cards=0))

    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html
    assert input_value(html, "home_cards") == "287"
    assert "inte delbart med 5" in html
    assert Deal.objects.count() == 0


# -- correcting and removing ------------------------------------------------------------------------


def test_the_correction_page_is_prefilled_and_needs_a_reason(client, s):
    match = s["match"]
    match = services.deals_record(match=match, user=s["secretary"], entry=f.deal(1, home_cards=120, away_cards=90, end="stock"), expected_version=1)
    url = reverse("scoring:deal-correct", args=[match.pk, 1])

    page = client.get(url).content.decode()
    assert input_value(page, "home_cards") == "120"
    assert input_value(page, "away_cards") == "90"

    refused = client.post(url, deal_data(match.version, home_cards=125, away_cards=90, end="stock"))
    assert refused.status_code == 200
    assert input_value(refused.content.decode(), "home_cards") == "125"
    assert match.deals.get().home_cards == 120


def test_a_correction_with_a_reason_recomputes_and_is_logged(client, s):
    match = s["match"]
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(2, "away"), expected_version=match.version)
    url = reverse("scoring:deal-correct", args=[match.pk, 1])

    response = client.post(
        url, deal_data(match.version, home_cards=100, away_cards=50, end="stock", reason="Skrivfel, pappret säger 100")
    )

    assert response.status_code == 302
    assert response["Location"].endswith("#deal-1")
    assert list(match.deals.values_list("home_total", "away_total")) == [(100, 50), (60, 1935)]
    entry = AuditEntry.objects.get(action="deal_correct")
    assert entry.reason == "Skrivfel, pappret säger 100" and entry.user == s["secretary"]
    log = client.get(protocol(match)).content.decode()
    assert "Skrivfel, pappret säger 100" in log


def test_the_log_of_a_corrected_deal_shows_its_old_and_new_values(client, s):
    match = s["match"]
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    url = reverse("scoring:deal-correct", args=[match.pk, 1])
    client.post(url, deal_data(match.version, home_cards=465, home_natural=2, home_mixed=1, away_cards=-40,
                               out="home", reason="Pappret säger 465"))  # fmt: skip

    html = client.get(protocol(match)).content.decode()
    changes = re.search(r'<ul class="audit-changes">(.*?)</ul>', html, re.S)
    assert changes, "no list of changes in the log"
    lines = [re.sub(r"<[^>]+>", "", line).strip() for line in re.findall(r"<li>(.*?)</li>", changes.group(1))]
    # Only what changed: the card points typed and the deal score they make.
    assert lines == ["Hemmalagets kortpoäng: 485 → 465", f"Hemmalagets givpoäng: 1{THIN}885 → 1{THIN}865"]


def test_a_correction_that_breaks_the_rules_is_refused_with_the_values_kept(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    url = reverse("scoring:deal-correct", args=[match.pk, 1])

    response = client.post(url, deal_data(match.version, home_cards=283, away_cards=0, out="home", home_natural=1, reason="fel"))

    html = response.content.decode()
    assert response.status_code == 200
    assert input_value(html, "home_cards") == "283"
    assert "delbart med 5" in html
    assert match.deals.get().home_cards == 485


def test_removing_the_last_deal_needs_a_reason(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    url = reverse("scoring:deal-delete-last", args=[match.pk])

    refused = client.post(url, {"version": match.version, "reason": ""})
    done = client.post(url, {"version": match.version, "reason": "Dubbelinmatad"})

    assert refused.status_code == 200
    assert done.status_code == 302
    assert match.deals.count() == 0
    assert AuditEntry.objects.get(action="deal_delete").reason == "Dubbelinmatad"


# -- lifecycle ----------------------------------------------------------------------------------------


def finished(s):
    match = s["match"]
    for number in (1, 2, 3):
        match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(number), expected_version=match.version)
    return match


def test_submit_then_the_away_captain_confirms(client, s):
    match = finished(s)

    response = client.post(reverse("scoring:match-submit", args=[match.pk]), {"version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED

    client.force_login(s["away_captain"])
    page = client.get(protocol(match)).content.decode()
    assert reverse("scoring:match-confirm", args=[match.pk]) in page
    response = client.post(reverse("scoring:match-confirm", args=[match.pk]), {"version": match.version})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.confirmed_by == s["away_captain"]


def test_a_stale_lifecycle_action_is_refused_with_409(client, s):
    match = finished(s)
    old = match.version
    services.match_submit(match=match, user=s["secretary"], expected_version=old)

    response = client.post(reverse("scoring:match-reopen", args=[match.pk]), {"version": old, "reason": "Fel lag"})

    assert response.status_code == 409
    html = response.content.decode()
    assert "Fel lag" in html
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED


def test_walk_over_postpone_void_and_reopen(client, s):
    match = s["match"]
    client.post(reverse("scoring:match-postpone", args=[match.pk]), {"version": match.version, "reason": "Sjukdom"})
    match.refresh_from_db()
    assert match.status == Match.Status.POSTPONED

    client.post(reverse("scoring:match-forfeit", args=[match.pk]), {"version": match.version, "winner": "away", "reason": "Kom inte"})
    match.refresh_from_db()
    assert (match.status, match.end, match.winner) == (Match.Status.FINISHED, Match.End.FORFEIT, "away")

    client.post(reverse("scoring:match-reopen", args=[match.pk]), {"version": match.version, "reason": "Fel"})
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED

    refused = client.post(reverse("scoring:match-void", args=[match.pk]), {"version": match.version, "reason": ""})
    assert refused.status_code == 200
    client.post(reverse("scoring:match-void", args=[match.pk]), {"version": match.version, "reason": "Inställd"})
    match.refresh_from_db()
    assert match.status == Match.Status.VOID


def test_lost_after_warnings(client, s):
    match = s["match"]

    client.post(reverse("scoring:match-forfeit", args=[match.pk]), {"version": match.version, "winner": "home", "warnings": "yes"})

    match.refresh_from_db()
    assert (match.end, match.winner) == (Match.End.WARNINGS, "home")


def test_the_forfeit_form_asks_for_the_winner(client, s):
    match = s["match"]

    response = client.post(reverse("scoring:match-forfeit", args=[match.pk]), {"version": match.version})

    assert response.status_code == 200
    assert "Välj vilket lag som vinner" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_the_clock_can_end_a_timed_match_between_deals(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    page = client.get(protocol(match)).content.decode()
    assert reverse("scoring:match-clock", args=[match.pk]) in page  # sv-tavling is timed

    response = client.post(reverse("scoring:match-clock", args=[match.pk]), {"version": match.version})

    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.end) == (Match.Status.FINISHED, "clock")
    assert "Matchen är slut" in client.get(protocol(match)).content.decode()


def test_no_clock_button_without_a_clock(client, s):
    match = s["match"]
    match.competition.rules_key = "internationell-1951"
    match.competition.save()
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(1), expected_version=1)

    page = client.get(protocol(match)).content.decode()

    assert reverse("scoring:match-clock", args=[match.pk]) not in page
    assert 'value="clock"' not in page  # no "the clock" ending either


def test_the_live_check_of_a_correction_shows_the_deal_and_the_new_final_totals(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    match = services.deals_record(match=match, user=s["secretary"], entry=f.winning_deal(2, "away"), expected_version=match.version)
    data = {"correct_number": "1", "home_cards": "100", "away_cards": "50", "end": "stock", "version": str(match.version)}

    partial = client.post(check(match), data, HTTP_HX_REQUEST="true").content.decode()
    page = client.post(check(match), data)

    assert "Giv 1 som rättad" in partial
    assert re.search(r'id="preview-home-total">100<', partial)
    assert f"Efter alla givar: 60 – 1{THIN}935" in partial
    assert page.status_code == 200
    assert "Rätta giv 1" in page.content.decode()
    assert input_value(page.content.decode(), "home_cards") == "100"
    assert list(match.deals.values_list("home_cards", flat=True)) == [485, -40]


# -- typing slips: what is not a number, an empty deal, a correction without its reason ----------


def slot(html, name):
    return re.search(rf'<div id="problems-{name}"[^>]*>(.*?)</div>', html, re.S).group(1)


def test_what_is_not_a_number_is_named_by_deal_side_and_field(client, s):
    match = s["match"]
    # "?" is what the page sends for a number field whose text the browser cannot read ("12e").
    data = deal_data(match.version, **FIRST)
    data["away_cards"] = "?"
    html = client.post(protocol(match), data).content.decode()
    assert "Giv 1, bortalaget, kortpoäng: skriv ett heltal" in slot(html, "away_cards")
    assert input_value(html, "home_cards") == "285"
    assert Deal.objects.count() == 0

    live = client.post(check(match), data, HTTP_HX_REQUEST="true").content.decode()
    assert "Giv 1, bortalaget, kortpoäng: skriv ett heltal" in slot(live, "away_cards")


def test_a_number_far_too_large_is_named_by_deal_side_and_field(client, s):
    match = s["match"]
    html = client.post(protocol(match), deal_data(match.version, home_penalty=99999999)).content.decode()
    assert "Giv 1, hemmalaget, straff: talet är alldeles för stort" in slot(html, "home_penalty")


def test_a_deal_with_nothing_filled_in_is_not_saved_unless_it_ended_by_the_stock(client, s):
    match = s["match"]
    empty = {f"{side}_{name}": "0" for side in ("home", "away") for name in ("cards", "natural", "mixed", "red3", "penalty")}
    response = client.post(protocol(match), {"version": match.version, **empty})
    assert response.status_code == 200
    assert "Giv 1: inget är ifyllt för den här given" in response.content.decode()
    assert Deal.objects.count() == 0

    response = client.post(protocol(match), {"version": match.version, **empty, "end": "stock"})
    assert response.status_code == 302
    assert Deal.objects.get().end == "stock"
    # Its correction page keeps that choice, so the 0–0 deal can be saved again as it is.
    page = client.get(reverse("scoring:deal-correct", args=[match.pk, 1])).content.decode()
    assert re.search(r'<input[^>]*name="end"[^>]*value="stock"[^>]*checked', page)


def test_a_correction_opens_with_the_end_automatic_so_who_went_out_can_change(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.deal(1, home_cards=120, away_cards=90), expected_version=1)
    assert match.deals.get().end == "stock"
    url = reverse("scoring:deal-correct", args=[match.pk, 1])
    page = client.get(url).content.decode()
    assert re.search(r'<input[^>]*name="end"[^>]*value=""[^>]*checked', page)

    data = deal_data(match.version, home_cards=120, home_natural=1, away_cards=90, out="home", reason="Hemma gick ut")
    assert client.post(url, data).status_code == 302
    assert match.deals.get().end == "out"


def test_a_correction_without_a_reason_shows_the_deal_s_problems_too(client, s):
    match = services.deals_record(match=s["match"], user=s["secretary"], entry=f.winning_deal(1), expected_version=1)
    url = reverse("scoring:deal-correct", args=[match.pk, 1])
    html = client.post(url, deal_data(match.version, home_cards=287, away_cards=0, away_natural=-2, end="stock")).content.decode()
    assert "Giv 1, hemmalaget, kortpoäng: 287 är inte delbart med 5" in slot(html, "home_cards")
    assert "negativ" in slot(html, "away_natural")
    assert "orsak" in slot(html, "reason").lower()


def test_red_threes_say_they_count_nothing_where_the_rules_do_not_count_them(client, s):
    match = s["match"]
    assert match.competition.rules_key == "sv-tavling"
    hint = "De räknas inte enligt dessa regler och behöver inte skrivas."
    assert client.get(protocol(match)).content.decode().count(hint) == 2  # one per side
    match.competition.rules_key = "sv-hem"
    match.competition.save()
    assert hint not in client.get(protocol(match)).content.decode()


def test_the_red_three_hint_and_its_warning_say_the_same(client, s):
    """The hint under the field and the warning when red threes are written agree: they count
    nothing and need not be written (docs/rules.md, "Warnings": red-threes-not-counted); neither asks for them."""
    match = s["match"]
    page = client.get(protocol(match)).content.decode()
    html = client.post(
        check(match), {"version": match.version, "home_cards": "120", "home_red3": "1", "away_cards": "0"},
        HTTP_HX_REQUEST="true",
    ).content.decode()
    warning = "fast de inte räknas och inte behöver skrivas enligt dessa regler"
    assert warning in html
    for text in (page, html):
        assert "skriv dem ändå" not in text
        assert "för protokollet" not in text


def test_a_match_planned_for_a_later_day_says_so_before_its_first_deal(client, s):
    match = s["match"]
    match.scheduled_start = timezone.now() + timedelta(days=7)
    match.save()
    assert "Den här matchen är planerad till" in client.get(protocol(match)).content.decode()
    match.scheduled_start = timezone.now()
    match.save()
    assert "planerad till" not in client.get(protocol(match)).content.decode()


def test_for_an_away_team_without_a_captain_its_club_s_secretary_confirms(client, s):
    match = finished(s)
    services.match_submit(match=match, user=s["secretary"], expected_version=match.version)
    away = s["away"]
    away.captain = None
    away.save()
    away_secretary = f.make_user("bortasekreterare")
    away.club.secretaries.add(away_secretary)
    stranger = f.make_user("annan-sekreterare")
    f.make_club("Tredje klubben", secretary=stranger)

    client.force_login(stranger)
    assert client.post(reverse("scoring:match-confirm", args=[match.pk]), {"version": match.version + 1}).status_code == 403
    client.force_login(away_secretary)
    assert match.pk in [row["match"].pk for row in client.get(reverse("scoring:my-matches")).context["groups"]["to_confirm"]]
    page = client.get(protocol(match)).content.decode()
    assert reverse("scoring:match-confirm", args=[match.pk]) in page
    match.refresh_from_db()
    assert client.post(reverse("scoring:match-confirm", args=[match.pk]), {"version": match.version}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.confirmed_by == away_secretary


def test_a_disputed_protocol_s_badge_says_disputed_until_it_is_submitted_again(client, s):
    match = finished(s)
    match = services.match_submit(match=match, user=s["secretary"], expected_version=match.version)
    match = services.match_dispute(match=match, user=s["away_captain"], reason="Giv 2 är fel", expected_version=match.version)

    def badges(path):
        html = client.get(path).content.decode()
        return [re.sub(r"\s+", " ", text).strip() for text in re.findall(r'<span class="status status--[^"]*">(.*?)</span>', html, re.S)]

    assert badges(protocol(match)) == ["Ifrågasatt"]
    assert "Ifrågasatt" in badges(reverse("scoring:my-matches"))
    assert "Avslutad" not in badges(reverse("scoring:my-matches"))
    public = client.get(reverse("scoring:match-detail", args=[match.pk])).content.decode()
    assert "Ifrågasatt, åter hos hemmalagets sekreterare" in public

    match = services.match_submit(match=match, user=s["secretary"], expected_version=match.version)
    assert badges(protocol(match)) == ["Väntar på bekräftelse"]
