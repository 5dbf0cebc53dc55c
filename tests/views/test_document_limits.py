"""Expensive documents: a made PDF or workbook is kept until the data it shows changes, and a
visitor who is not signed in may ask for only so many documents a minute (by the client's real
address), after which a friendly page in the site's language says to wait."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.exports import pdf, xlsx
from scoring.models import Competition, Team
from scoring.views import exports
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(monkeypatch):
    """Counts the documents actually made."""
    calls = []
    real_pdf, real_xlsx = pdf.standings_pdf, xlsx.standings_xlsx

    def standings_pdf(*args, **kwargs):
        calls.append("pdf")
        return real_pdf(*args, **kwargs)

    def standings_xlsx(*args, **kwargs):
        calls.append("xlsx")
        return real_xlsx(*args, **kwargs)

    monkeypatch.setattr(pdf, "standings_pdf", standings_pdf)
    monkeypatch.setattr(xlsx, "standings_xlsx", standings_xlsx)
    return calls


def test_a_document_is_made_once_until_its_data_changes(client, made):
    setup = f.protocol_setup()
    match = setup["match"]
    url = reverse("scoring:standings-xlsx", args=[match.competition_id])
    first = client.get(url)
    second = client.get(url)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content
    assert made == ["xlsx"]

    # A deal recorded: the standings may have changed, the document is made again.
    f.play_match(match, setup["secretary"], entries=f.EXPORT_SAMPLE_DEALS[:1])
    client.get(url)
    assert made == ["xlsx", "xlsx"]
    # A team renamed (through its service, which moves the competition's version): its name is in
    # the document.
    team = Team.objects.get(pk=setup["home"].pk)
    team.name = "Nya namnet"
    services.team_save(user=f.make_admin(), team=team)
    assert b"Nya namnet" not in first.content
    client.get(url)
    assert made == ["xlsx", "xlsx", "xlsx"]
    # Another round's standings are another document.
    client.get(url + "?round=1")
    assert made == ["xlsx", "xlsx", "xlsx", "xlsx"]


@pytest.fixture
def rendered(monkeypatch):
    """Counts the PDFs WeasyPrint makes (every PDF document is made by pdf.html_to_pdf)."""
    calls = []
    real = pdf.html_to_pdf

    def html_to_pdf(html):
        calls.append(html)
        return real(html)

    monkeypatch.setattr(pdf, "html_to_pdf", html_to_pdf)
    return calls


def test_a_matchs_protocol_is_kept_until_what_it_shows_changes(client, rendered):
    setup = f.protocol_setup()
    match, secretary = setup["match"], setup["secretary"]
    f.play_match(match, secretary, entries=f.EXPORT_SAMPLE_DEALS[:2])
    # Another table of the same round night, kept by the same secretary.
    other = f.make_match(competition=match.competition, home=f.make_team(club=setup["home"].club), table=2)
    url = reverse("scoring:match-protocol-pdf", args=[match.pk])
    workbook_url = reverse("scoring:match-protocol-xlsx", args=[match.pk])
    first, workbook = client.get(url), client.get(workbook_url)
    assert first.status_code == workbook.status_code == 200
    assert len(rendered) == 1

    # A deal at the other table moves the competition's version, not what this protocol shows:
    # the visitor's copy is still good, and the stored one is handed out.
    f.play_match(other, secretary, entries=f.EXPORT_SAMPLE_DEALS[:1])
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get(workbook_url, HTTP_IF_NONE_MATCH=workbook["ETag"]).status_code == 304
    assert client.get(url).content == first.content
    assert len(rendered) == 1

    # A deal in the match itself.
    f.play_match(match, secretary, entries=f.EXPORT_SAMPLE_DEALS[2:3])
    after_deal = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after_deal.status_code == 200 and after_deal["ETag"] != first["ETag"]
    assert client.get(workbook_url, HTTP_IF_NONE_MATCH=workbook["ETag"]).status_code == 200
    assert len(rendered) == 2

    # The competition renamed: its name heads the protocol.
    competition = Competition.objects.get(pk=match.competition_id)
    competition.name = "Nya serien"
    services.competition_save(user=secretary, competition=competition)
    renamed = client.get(url, HTTP_IF_NONE_MATCH=after_deal["ETag"])
    assert renamed.status_code == 200 and renamed["ETag"] != after_deal["ETag"]
    assert len(rendered) == 3 and "Nya serien" in rendered[-1]


@pytest.fixture
def one_minute(monkeypatch):
    """The requests of a test fall in one counting minute, however slow the machine (a minute's
    turn between two requests would start a new allowance)."""
    monkeypatch.setattr(exports, "rate_window", lambda: 1)


def test_a_visitor_asking_again_and_again_gets_a_friendly_page_in_swedish(client, settings, one_minute):
    settings.DOCUMENTS_PER_MINUTE = 3
    match = f.protocol_setup()["match"]
    url = reverse("scoring:standings-pdf", args=[match.competition_id])
    for _ in range(3):
        assert client.get(url, REMOTE_ADDR="198.51.100.66").status_code == 200
    refused = client.get(url, REMOTE_ADDR="198.51.100.66")
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    page = refused.content.decode()
    assert '<html lang="sv">' in page
    assert "Vänta en stund" in page
    # Another visitor, and a signed-in secretary at the same address, still get their documents.
    assert client.get(url, REMOTE_ADDR="203.0.113.7").status_code == 200
    client.force_login(f.make_user())
    assert client.get(url, REMOTE_ADDR="198.51.100.66").status_code == 200


def test_behind_a_proxy_each_visitor_has_their_own_allowance(client, settings, one_minute):
    settings.DOCUMENTS_PER_MINUTE = 2
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    match = f.protocol_setup()["match"]
    url = reverse("scoring:match-protocol-xlsx", args=[match.pk])

    def ask(visitor):
        return client.get(url, REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR=visitor).status_code

    assert [ask("198.51.100.66") for _ in range(3)] == [200, 200, 429]
    assert ask("203.0.113.7") == 200


def test_a_parameter_the_document_does_not_read_makes_no_new_document(client, made):
    setup = f.protocol_setup()
    url = reverse("scoring:standings-xlsx", args=[setup["match"].competition_id])
    for n in range(5):
        assert client.get(f"{url}?x={n}&round=", REMOTE_ADDR=f"198.51.100.{n}").status_code == 200
    assert made == ["xlsx"]
    # A round the competition does not have is no document at all, whatever number is typed.
    assert client.get(url + "?round=abc").status_code == 404
    assert client.get(url + "?round=99").status_code == 404
    assert made == ["xlsx"]
    # Who asks does not make another copy either: a signed-in person gets the same stored one.
    client.force_login(f.make_user())
    assert client.get(url).status_code == 200
    assert made == ["xlsx"]


def test_a_signed_in_person_has_a_document_limit_too(client, settings, one_minute):
    settings.DOCUMENTS_PER_MINUTE_SIGNED_IN = 2
    match = f.protocol_setup()["match"]
    url = reverse("scoring:standings-pdf", args=[match.competition_id])
    client.force_login(f.make_user())
    assert [client.get(url).status_code for _ in range(3)] == [200, 200, 429]
    # Someone else signed in still gets theirs.
    client.force_login(f.make_user())
    assert client.get(url).status_code == 200
