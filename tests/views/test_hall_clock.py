"""The hall clock: who may start it, the service's audit entry, what the page sends the browser,
and its lines readable where it is shown (the hall's screen, the round at a glance)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tinycss2
from django.urls import reverse
from django.utils import timezone

from scoring.models import AuditEntry, Round
from scoring.services import DomainError, round_clock_start
from tests.factories import make_club, make_competition, make_match, make_team, make_user

pytestmark = pytest.mark.django_db


def start_url(competition, number=1):
    return reverse("scoring:round-clock-start", args=[competition.pk, number])


def test_anonymous_visitor_is_sent_to_log_in(client, league):
    response = client.post(start_url(league["competition"]))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert Round.objects.get(competition=league["competition"], number=1).clock_started_at is None


def test_a_user_without_a_role_may_not_start_it(client, league):
    client.force_login(make_user())

    assert client.post(start_url(league["competition"])).status_code == 403
    assert Round.objects.get(competition=league["competition"], number=1).clock_started_at is None


def test_organisers_secretary_starts_it_and_it_is_audited(client, league):
    client.force_login(league["secretary"])
    before = timezone.now()

    response = client.post(start_url(league["competition"]))

    assert response.status_code == 302
    round_ = Round.objects.get(competition=league["competition"], number=1)
    assert round_.clock_started_at >= before
    entry = AuditEntry.objects.get(action="round_clock_start")
    assert (entry.user, entry.object_type, entry.object_id) == (league["secretary"], "round", str(round_.pk))
    assert entry.before == {"clock_started_at": None}


def test_the_home_clubs_secretary_of_a_match_in_the_round_may_start_it():
    organiser = make_club()
    home_secretary = make_user()
    home = make_team(club=make_club(secretary=home_secretary))
    match = make_match(competition=make_competition(organiser=organiser), home=home)

    round_ = round_clock_start(round=match.round, user=home_secretary)

    assert round_.clock_started_at is not None


def test_a_running_clock_restarts_only_when_asked(client, league):
    round_ = league["competition"].rounds.get(number=1)
    first = round_clock_start(round=round_, user=league["secretary"]).clock_started_at
    with pytest.raises(DomainError):
        round_clock_start(round=round_, user=league["secretary"])
    client.force_login(league["secretary"])

    client.post(start_url(league["competition"]), {"restart": "1"})

    round_.refresh_from_db()
    assert round_.clock_started_at > first
    assert AuditEntry.objects.filter(action="round_clock_restart").count() == 1


def test_no_clock_for_a_competition_played_without_one(client):
    competition = make_competition(rules_key="internationell-1951")
    match = make_match(competition=competition)

    assert client.get(reverse("scoring:round-clock", args=[competition.pk, 1])).status_code == 404
    with pytest.raises(DomainError):
        round_clock_start(round=match.round, user=make_user(is_superuser=True))


def test_the_page_sends_the_server_times_and_the_signals(client, league):
    competition = league["competition"]
    round_ = round_clock_start(round=competition.rounds.get(number=1), user=league["secretary"])
    url = reverse("scoring:round-clock", args=[competition.pk, 1])

    html = client.get(url).content.decode()

    started_ms = int(round_.clock_started_at.timestamp() * 1000)
    assert f'data-started-at="{started_ms}"' in html
    assert 'data-server-now="' in html
    assert 'data-main-minutes="50" data-final-minutes="60"' in html
    assert "Tid kvar till 50-minuterssignalen" in html
    assert "Slå på ljudet" in html
    assert "scoring/js/hall-clock.js" in html
    # Only a secretary sees the button, and the links to the round at a glance and its table cards.
    tables = reverse("scoring:round-tables", args=[competition.pk, 1])
    cards = reverse("scoring:round-table-cards", args=[competition.pk, 1])
    assert start_url(competition) not in html and tables not in html and cards not in html
    client.force_login(league["secretary"])
    html = client.get(url).content.decode()
    assert start_url(competition) in html and tables in html and cards in html


def test_before_the_start_the_page_waits_for_it(client, league):
    html = client.get(reverse("scoring:round-clock", args=[league["competition"].pk, 1])).content.decode()

    assert 'data-started-at=""' in html
    assert "Klockan har inte startats" in html
    assert 'hx-trigger="every 5s"' in html


# -- contrast: the clock's small lines, by the stylesheets' own values -----------------------------

CSS = Path(__file__).resolve().parents[2] / "static" / "scoring" / "css"
# WCAG's minimum for text of normal size, as axe-core's color-contrast rule checks it.
AA_TEXT = 4.5


def declarations(*sheets: str) -> list[tuple[list[str], dict[str, str]]]:
    """Every top-level rule of the stylesheets in order: its selectors and its declarations."""
    rules = []
    for sheet in sheets:
        text = (CSS / sheet).read_text(encoding="utf-8")
        for rule in tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True):
            if rule.type != "qualified-rule":
                continue  # @media and the like: the clock's colours are stated outside them
            selectors = [" ".join(part.split()) for part in tinycss2.serialize(rule.prelude).split(",")]
            values = {
                item.lower_name: tinycss2.serialize(item.value).strip()
                for item in tinycss2.parse_declaration_list(rule.content, skip_comments=True, skip_whitespace=True)
                if item.type == "declaration"
            }
            rules.append((selectors, values))
    return rules


def declared(rules, selector: str, prop: str) -> str | None:
    """The value the last rule naming exactly `selector` gives `prop`."""
    found = None
    for selectors, values in rules:
        if selector in selectors and prop in values:
            found = values[prop]
    return found


def resolve(rules, value: str, scopes: list[str]) -> str:
    """A colour with its var(--name) looked up in the scopes, the nearest first."""
    while (match := re.fullmatch(r"var\((--[\w-]+)\)", value)) is not None:
        value = next(v for scope in scopes if (v := declared(rules, scope, match.group(1))) is not None)
    assert re.fullmatch(r"#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}", value), value
    return value


def luminance(colour: str) -> float:
    digits = colour[1:] if len(colour) == 7 else "".join(c * 2 for c in colour[1:])
    channels = []
    for i in (0, 2, 4):
        c = int(digits[i:i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# The clock's own text colours (the rest inherits the page's): "Signal at …", "Started at …", a
# signal passed (its panel dashed), and the status once the main signal has passed.
CLOCK_TEXT = [
    (".hall-clock__at", "color"),
    (".hall-clock__started", "color"),
    (".hall-clock__panel--done", "color"),
    ("body.hall--after-main .hall-clock__status", "color"),
]


def test_the_round_at_a_glance_shows_the_clocks_lines_readable_on_the_sites_paper(client, league):
    """axe-core's color-contrast rule failed the round at a glance: the clock's "Signal at" and
    "Started at" lines were the hall screen's light grey on the site's near-white paper."""
    competition = league["competition"]
    round_clock_start(round=competition.rounds.get(number=1), user=league["secretary"])
    client.force_login(league["secretary"])
    html = client.get(reverse("scoring:round-tables", args=[competition.pk, 1])).content.decode()
    for name in ("hall-clock__at", "hall-clock__started"):
        assert f'class="{name}"' in html
    assert "scoring/css/site.css" in html and "scoring/css/public.css" in html and '<body class="hall' not in html

    rules = declarations("site.css", "public.css")
    scopes = [".hall-clock", ":root"]
    for background in ("--paper", "--surface"):
        paper = resolve(rules, f"var({background})", [":root"])
        for selector, prop in CLOCK_TEXT:
            colour = resolve(rules, declared(rules, selector, prop), scopes)
            assert contrast(colour, paper) >= AA_TEXT, (selector, colour, background, contrast(colour, paper))


def test_the_hall_screen_keeps_its_light_lines_on_black():
    rules = declarations("site.css", "public.css")
    black = resolve(rules, declared(rules, "body.hall", "background"), [])
    scopes = ["body.hall .hall-clock", ".hall-clock", ":root"]
    for selector, prop in CLOCK_TEXT:
        colour = resolve(rules, declared(rules, selector, prop), scopes)
        assert contrast(colour, black) >= AA_TEXT, (selector, colour, contrast(colour, black))
