"""The table link /t/<code>/: an expired, withdrawn or guessed code opens nothing; guessing is
throttled; a working code reaches its own match's deals and nothing else (no other match, no
secretary's page); it never shows on a public page or document; the blank protocol prints it; the
round at a glance and the photos are for the secretaries, captains and organiser only."""

from __future__ import annotations

import io

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse
from PIL import Image

from scoring import services
from scoring.models import Deal, Match, MatchPhoto, TableDeal
from scoring.services import table
from scoring.views import table as table_views
from tests import factories as f
from tests.support.readers import pdf_text, pdf_words, words_on_side

pytestmark = pytest.mark.django_db

DEAL = {"home_cards": "485", "home_natural": "2", "home_mixed": "1", "out": "home", "away_cards": "-40"}


@pytest.fixture(autouse=True)
def fresh_counters():
    caches["default"].clear()
    yield
    caches["default"].clear()


@pytest.fixture
def setup():
    setup = f.protocol_setup()
    setup["link"] = table.table_link_issue(match=setup["match"], user=setup["secretary"])
    return setup


def post_deal(client, code, client_id="a1", **extra):
    data = {"client_id": client_id, "side": "home", "kind": "deal", "number": "1", **DEAL, **extra}
    return client.post(reverse("scoring:table-propose", args=[code]), data, HTTP_ACCEPT="application/json")


def table_urls(code):
    return [reverse(name, args=[code]) for name in ("scoring:table", "scoring:table-state")]


def test_a_working_code_opens_the_table_without_an_account(setup):
    client = Client()
    response = client.get(reverse("scoring:table", args=[setup["link"].code]))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and response["X-Robots-Tag"].startswith("noindex")
    # No session; the CSRF cookie only, so that a page on another site cannot post in the table's name.
    assert "sessionid" not in response.cookies
    # Typed in any case, with a space: the same table.
    code = setup["link"].code
    assert client.get(f"/t/{code[:3].lower()}%20{code[3:]}/").status_code == 200
    response = post_deal(client, code)
    assert response.status_code == 200 and response.json()["result"] == "waiting"


@pytest.mark.parametrize("how", ["withdrawn", "renewed", "submitted", "void", "guessed"])
def test_an_expired_withdrawn_or_guessed_code_opens_nothing(setup, how):
    match, code = setup["match"], setup["link"].code
    if how in ("withdrawn", "renewed"):
        table.table_link_withdraw(match=match, user=setup["secretary"], renew=how == "renewed")
    elif how == "submitted":
        for number in (1, 2, 3):
            services.deals_record(match=match, user=setup["secretary"], entry=f.winning_deal(number), expected_version=None)
        services.match_submit(match=match, user=setup["secretary"], expected_version=None)
    elif how == "void":
        services.match_void(match=match, user=setup["secretary"], reason="brandlarm", expected_version=None)
    else:
        code = "ACDEFG" if code != "ACDEFG" else "GFEDCA"
    client = Client()
    for url in table_urls(code):
        assert client.get(url).status_code == 404, url
    deals_before = Deal.objects.count()
    assert post_deal(client, code).status_code == 404
    assert client.post(reverse("scoring:table-confirm", args=[code]), {"side": "home"}).status_code == 404
    assert Deal.objects.count() == deals_before and not TableDeal.objects.exists()


def test_guessing_is_throttled_but_a_working_code_keeps_working_on_the_same_address(setup, settings):
    client = Client()
    for attempt in range(table_views.GUESS_LIMIT):
        assert client.get(f"/t/GUESS{attempt:02d}/").status_code == 404
    # The guesser is held up, also on a code that happens to exist (no answer tells it apart)...
    response = client.get("/t/ANOTHER9/")
    assert response.status_code == 429 and "Retry-After" in response
    # ...while the tables sharing the hall's address keep working with their own codes.
    assert client.get(reverse("scoring:table", args=[setup["link"].code])).status_code == 200
    assert post_deal(client, setup["link"].code).status_code == 200
    assert TableDeal.objects.count() == 1
    # A wrong "other team's code" is a guess too.
    assert client.get(reverse("scoring:table", args=[setup["link"].code]), {"with": "WRONG999"}).status_code == 403


def test_the_code_reaches_no_other_match_or_page(setup):
    match, code = setup["match"], setup["link"].code
    other = f.make_match(home=setup["home"], away=setup["away"], competition=match.competition, round_number=2)
    other_link = table.table_link_issue(match=other, user=setup["secretary"])
    foreign = table.table_deal_propose(link=other_link, codes=[other_link.code_for("home")], client_id="x", side="home", number=1, entry=f.winning_deal(1))
    client = Client()
    # Answering the other match's proposal through this match's link: there is no such proposal here.
    response = client.post(reverse("scoring:table-answer", args=[setup["link"].away_code]), {"proposal": foreign.pk, "side": "away", "agree": "yes"},
                           HTTP_ACCEPT="application/json")  # fmt: skip
    assert response.status_code == 422
    foreign.refresh_from_db()
    assert foreign.status == "waiting" and not Deal.objects.filter(match=other).exists()
    # A deal sent through the link lands on its own match only.
    post_deal(client, code, both="yes", other_code=setup["link"].away_code)
    assert list(Deal.objects.values_list("match_id", flat=True)) == [match.pk]
    # The table's visit gives no right on the site's own pages.
    for url in (reverse("scoring:match-protocol", args=[match.pk]), reverse("scoring:my-matches"),
                reverse("scoring:match-table-link", args=[match.pk]), reverse("scoring:match-photos", args=[match.pk])):  # fmt: skip
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


def test_the_code_is_never_on_a_public_page_or_document(setup):
    match, link = setup["match"], setup["link"]
    client = Client()
    pages = [
        reverse("scoring:match-detail", args=[match.pk]),
        reverse("scoring:round-detail", args=[match.competition.pk, 1]),
        reverse("scoring:competition-detail", args=[match.competition.pk]),
        reverse("scoring:match-protocol-pdf", args=[match.pk]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        for code in (link.code, link.away_code):
            assert code.encode() not in response.content, url


def test_the_blank_protocol_prints_each_teams_code_on_its_side_with_what_it_opens(setup):
    match, link = setup["match"], setup["link"]
    client = Client()
    client.force_login(setup["secretary"])
    response = client.get(reverse("scoring:round-protocols-pdf", args=[match.competition.pk, 1]))
    assert response.status_code == 200
    words = pdf_words(response.content)
    home, away = words_on_side(words, "home"), words_on_side(words, "away")
    assert f"Hemmalagets kod – öppnar bordets sida för hemmalaget {link.code}" in home
    assert f"Bortalagets kod – öppnar bordets sida för bortalaget {link.away_code}" in away
    assert f"/t/{link.code}/" in home and f"/t/{link.away_code}/" in away
    assert link.away_code not in home and link.code not in away
    # The other QR code says what it opens too: the match's public page.
    assert "Matchens sida, för alla: öppnar matchen och dess protokoll när det förts in" in " ".join(w[0] for w in words)


def test_the_blank_protocol_of_another_clubs_match_does_not_show_its_link(setup):
    """A secretary printing the round's protocols gets the links of the matches they keep only."""
    other_secretary = f.make_user("annan-sekreterare")
    club = f.make_club("Annan klubb", secretary=other_secretary)
    home = f.make_team("Annat lag", club=club)
    f.make_match(home=home, away=setup["away"], competition=setup["match"].competition, table=2)
    client = Client()
    client.force_login(other_secretary)
    response = client.get(reverse("scoring:round-protocols-pdf", args=[setup["match"].competition.pk, 1]))
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert setup["link"].code not in text and setup["link"].away_code not in text


def test_the_home_secretary_renews_the_link_and_the_old_code_stops(setup):
    client = Client()
    client.force_login(setup["secretary"])
    url = reverse("scoring:match-table-link", args=[setup["match"].pk])
    html = client.get(url).content.decode()
    assert f'id="table-code">{setup["link"].code}<' in html and f'id="table-code-away">{setup["link"].away_code}<' in html
    assert "Hemmalagets kod – öppnar bordets sida för hemmalaget" in html
    assert "Bortalagets kod – öppnar bordets sida för bortalaget" in html
    assert client.post(url, {"action": "renew"}).status_code == 302
    for old in (setup["link"].code, setup["link"].away_code):
        assert Client().get(reverse("scoring:table", args=[old])).status_code == 404
    new = setup["match"].table_links.get(withdrawn_at__isnull=True)
    html = client.get(url).content.decode()
    assert new.code in html and new.away_code in html


def test_the_round_at_a_glance_shows_every_table_live(setup):
    match, link = setup["match"], setup["link"]
    second = f.make_match(competition=match.competition, table=2)
    table.table_deal_propose(link=link, codes=[link.code, link.away_code], client_id="1", side="home", number=1, entry=f.winning_deal(1), agreed_by_both=True)
    waiting = table.table_deal_propose(link=link, codes=[link.code_for("home")], client_id="2", side="home", number=2, entry=f.winning_deal(2))
    table.table_deal_answer(link=link, codes=[link.code_for("away")], proposal_id=waiting.pk, side="away", agree=False, reason="kortpoängen stämmer inte")
    table.table_deal_propose(link=link, codes=[link.code_for("away")], client_id="3", side="away", number=2, entry=f.winning_deal(2))
    client = Client()
    client.force_login(setup["secretary"])
    response = client.get(reverse("scoring:round-tables-live", args=[match.competition.pk, 1]))
    assert response.status_code == 200
    html = response.content.decode()
    row = html.split(f'id="round-table-{match.pk}"')[1].split("</tr>")[0]
    assert 'data-role="deals">1<' in row and 'data-role="waiting">1<' in row
    rejected = row.split('data-role="rejected">')[1].split("</td>")[0]
    assert ">1</a>" in rejected and "round-tables__alert" in row
    # The rejected deal, with the reason, on the match's table-link page.
    assert "kortpoängen stämmer inte" in client.get(reverse("scoring:match-table-link", args=[match.pk])).content.decode()
    assert "1\u202f885" in row
    assert f'id="round-table-{second.pk}"' in html
    # Both teams' codes, named by side, for the organiser's secretary.
    codes = row.split('data-role="codes">')[1].split("</td>")[0]
    assert f"Hemmalag: <code>{link.code}</code>" in codes and f"Bortalag: <code>{link.away_code}</code>" in codes
    page = client.get(reverse("scoring:round-tables", args=[match.competition.pk, 1]))
    assert page.status_code == 200 and b"/tables/live/" in page.content
    assert Client().get(reverse("scoring:round-tables", args=[match.competition.pk, 1])).status_code == 302
    outsider = Client()
    outsider.force_login(f.make_user("utomstående"))
    assert outsider.get(reverse("scoring:round-tables", args=[match.competition.pk, 1])).status_code == 403


def jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (20, 10), "white").save(out, "JPEG")
    return out.getvalue()


def test_a_photo_from_the_table_is_shown_to_the_captains_and_secretaries_only(setup):
    from django.core.files.uploadedfile import SimpleUploadedFile

    match = setup["match"]
    response = Client().post(reverse("scoring:table-photo", args=[setup["link"].code]),
                             {"photo": SimpleUploadedFile("p.jpg", jpeg(), "image/jpeg")})  # fmt: skip
    assert response.status_code == 303
    photo = MatchPhoto.objects.get()
    url = reverse("scoring:match-photo", args=[match.pk, photo.pk])
    for user in (setup["secretary"], setup["home_captain"], setup["away_captain"]):
        client = Client()
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
        assert "private" in response["Cache-Control"]
    outsider = Client()
    outsider.force_login(f.make_user("nyfiken"))
    assert outsider.get(url).status_code == 403
    assert Client().get(url).status_code == 302
    text = Client().post(reverse("scoring:table-photo", args=[setup["link"].code]),
                         {"photo": SimpleUploadedFile("p.jpg", b"not an image", "image/jpeg")})  # fmt: skip
    assert text.status_code == 422 and MatchPhoto.objects.count() == 1
    assert Match.objects.get().status == "scheduled"


def test_without_javascript_the_forms_post_and_the_page_comes_back(setup):
    client, code = Client(), setup["link"].code
    refused = client.post(reverse("scoring:table-propose", args=[code]),
                          {"client_id": "n1", "side": "home", "kind": "deal", "number": "1", **DEAL, "home_cards": "123"})  # fmt: skip
    assert refused.status_code == 422
    assert 'id="problems-home_cards"' in refused.content.decode() and "123" in refused.content.decode()
    sent = client.post(reverse("scoring:table-propose", args=[code]),
                       {"client_id": "n2", "side": "home", "kind": "deal", "number": "1", **DEAL})  # fmt: skip
    assert sent.status_code == 303 and sent["Location"] == reverse("scoring:table", args=[code])
    proposal = TableDeal.objects.get()
    agreed = client.post(reverse("scoring:table-answer", args=[setup["link"].away_code]), {"proposal": proposal.pk, "side": "away", "agree": "yes"})
    assert agreed.status_code == 303 and Deal.objects.count() == 1


def test_a_deal_the_secretary_entered_meanwhile_is_shown_as_a_conflict(setup):
    client, code, match = Client(), setup["link"].code, setup["match"]
    proposal = post_deal(client, code).json()["proposal"]
    services.deals_record(match=match, user=setup["secretary"], entry=f.deal(1, home_cards=50, away_cards=30, end="stock"),
                          expected_version=None)  # fmt: skip
    answer = client.post(reverse("scoring:table-answer", args=[setup["link"].away_code]), {"proposal": proposal, "side": "away", "agree": "yes"},
                         HTTP_ACCEPT="application/json")  # fmt: skip
    assert answer.json()["result"] == "conflict"
    state = client.get(reverse("scoring:table-state", args=[code])).content.decode()
    assert 'data-role="conflict"' in state and "table-resend" in state
    assert list(Deal.objects.values_list("home_cards", flat=True)) == [50]


def test_a_secretary_keeping_one_match_sees_only_its_codes_at_a_glance(setup):
    """The codes of a table show to those who see them on its table-link page: a club's secretary
    keeping one match of the round sees that match's codes, and no other table's."""
    match, link = setup["match"], setup["link"]
    keeper = f.make_user("annan-sekreterare")
    other = f.make_match(home=f.make_team("Annat lag", club=f.make_club("Annan klubb", secretary=keeper)),
                         away=setup["away"], competition=match.competition, table=2)  # fmt: skip
    own = table.table_link_issue(match=other, user=keeper)
    client = Client()
    client.force_login(keeper)

    html = client.get(reverse("scoring:round-tables", args=[match.competition.pk, 1])).content.decode()

    assert own.code in html and own.away_code in html
    assert link.code not in html and link.away_code not in html


def test_the_table_cards_give_each_team_its_code_on_its_own_half(setup):
    match, link = setup["match"], setup["link"]
    client = Client()
    client.force_login(setup["secretary"])

    response = client.get(reverse("scoring:round-table-cards", args=[match.competition.pk, 1]))

    assert response.status_code == 200
    html = response.content.decode()
    halves = {
        side: html.split(f'data-side="{side}">')[1].split('<div class="table-card__side"')[0] for side in ("home", "away")
    }
    for side, team, heading, code, words in (
        ("home", "Hemmalaget", "Hemmalag", link.code, "Hemmalagets kod – öppnar bordets sida för hemmalaget"),
        ("away", "Bortalaget", "Bortalag", link.away_code, "Bortalagets kod – öppnar bordets sida för bortalaget"),
    ):
        half = halves[side]
        assert f'<span class="table-card__side-label">{heading}</span> {team}</h3>' in half
        assert f'alt="QR-kod: {words}"' in half and 'src="data:image/svg+xml' in half
        assert f">{code}<" in half and f"/t/{code}/" in half and f"<p class=\"table-card__label\">{words}</p>" in half
        assert ("Koden är ert lags signatur: bara ert lag använder den. "
                "Delar ni en telefon, lägg till det andra lagets kod på den telefonen.") in half
    assert link.away_code not in halves["home"] and link.code not in halves["away"]


def test_the_round_at_a_glance_and_the_cards_are_linked_for_those_who_may_open_them(setup):
    """From the competition's manage page and the round's page, for the organiser's secretaries and
    the round's protocol keepers (as the pages themselves let in); the public sees no link."""
    competition = setup["match"].competition
    tables = reverse("scoring:round-tables", args=[competition.pk, 1])
    cards = reverse("scoring:round-table-cards", args=[competition.pk, 1])
    round_page = reverse("scoring:round-detail", args=[competition.pk, 1])
    secretary = Client()
    secretary.force_login(setup["secretary"])
    for url in (reverse("scoring:manage-competition", args=[competition.pk]), round_page):
        html = secretary.get(url).content.decode()
        assert f'href="{tables}"' in html and f'href="{cards}"' in html, url
    html = Client().get(round_page).content.decode()
    assert tables not in html and cards not in html
    captain = Client()
    captain.force_login(setup["away_captain"])
    html = captain.get(round_page).content.decode()
    assert tables not in html and cards not in html
    assert captain.get(tables).status_code == 403
