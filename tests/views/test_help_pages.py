"""The help pages (scoring.views.help) name only buttons and links the site has: each control a help
page names (`data-on`, `data-name`, scoring.templatetags.help_tags) is found, by its visible name
or its accessible name, on the page it is said to be on, in Swedish and in English; each picture a
help page shows is in static/scoring/help/ and each picture there is shown; the pages the help
explains link to it; anyone may read it."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring.views.help import HELP_PAGES
from tests.support.help_pages import help_night

pytestmark = pytest.mark.django_db

PICTURES = Path(__file__).resolve().parents[2] / "static" / "scoring" / "help"
LANGUAGES = ("sv", "en")
# Which help page each explained page links to.
HELP_OF = {"protocol": "secretary", "captain": "secretary", "confirm": "captain", "dispute": "captain",
           "table": "table", "table-waiting": "table", "round": "organiser"}  # fmt: skip
CONTROL_TAGS = {"a", "button", "summary", "label"}


class Controls(HTMLParser):
    """The names of a page's buttons, links, summaries and labels: their text and aria-label."""

    def __init__(self):
        super().__init__()
        self.open: list[list[str]] = []
        self.names: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("aria-label"):
            self.names.add(" ".join(attrs["aria-label"].split()))
        if tag == "input" and attrs.get("type") == "submit" and attrs.get("value"):
            self.names.add(attrs["value"])
        if tag in CONTROL_TAGS:
            self.open.append([])

    def handle_endtag(self, tag):
        if tag in CONTROL_TAGS and self.open:
            self.names.add(" ".join("".join(self.open.pop()).split()))

    def handle_data(self, data):
        for text in self.open:
            text.append(data)


class Marks(HTMLParser):
    """What a help page names: (page, name pattern) of each control, and each picture."""

    def __init__(self):
        super().__init__()
        self.controls: set[tuple[str, str]] = set()
        self.pictures: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-on" in attrs:
            self.controls.add((attrs["data-on"], attrs["data-name"]))
        if "data-picture" in attrs:
            self.pictures.add(attrs["data-picture"])


def address(path: str, language: str) -> str:
    return path if language == settings.LANGUAGE_CODE else f"/{language}{path}"


def help_marks(client, language: str) -> Marks:
    marks = Marks()
    for page in HELP_PAGES:
        with translation.override("sv"):
            path = reverse("scoring:help", args=[page])
        response = client.get(address(path, language))
        assert response.status_code == 200, page
        marks.feed(response.content.decode())
    return marks


def pattern(name: str) -> re.Pattern:
    """A name with its blanks (a team's name, a deal's number) as "anything"."""
    return re.compile(".+?".join(re.escape(part) for part in re.split(r"%\(\w+\)s", name)))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_control_a_help_page_names_is_on_its_page(client, language):
    marks = help_marks(client, language)
    assert len(marks.controls) >= 15
    night = help_night()
    names: dict[str, set[str]] = {}
    for page, name in sorted(marks.controls):
        assert page in night["pages"], f"{page}: a help page names a page the test does not know"
        if page not in names:
            user, path = night["pages"][page]
            client.logout()
            if user is not None:
                client.force_login(user)
            response = client.get(address(path, language))
            assert response.status_code == 200, page
            parser = Controls()
            parser.feed(response.content.decode())
            names[page] = parser.names
        assert any(pattern(name).fullmatch(found) for found in names[page]), (
            f"{language}: the help names “{name}” on the page {page!r}, which has no such button or link"
        )


def test_a_control_that_is_gone_is_noticed():
    """The check can fail: a name the page does not carry matches none of its controls."""
    parser = Controls()
    parser.feed('<button>Spara giv 2</button><a href="#" aria-label="Rätta giv 1">1</a>')
    assert pattern("Spara giv %(number)s").fullmatch("Spara giv 2")
    assert any(pattern("Rätta giv %(number)s").fullmatch(name) for name in parser.names)
    assert not any(pattern("Skicka protokollet").fullmatch(name) for name in parser.names)


def test_every_picture_a_help_page_shows_is_there_and_every_picture_there_is_shown(client):
    shown = help_marks(client, "sv").pictures
    assert shown, "the help pages show no pictures"
    there = {path.stem for path in PICTURES.glob("*.png")}
    assert shown - there == set(), "pictures named by a help page but missing: make help-pictures"
    assert there - shown == set(), "pictures no help page shows any longer: delete them"


def test_the_pages_the_help_explains_link_to_it(client):
    night = help_night()
    for page, help_page in HELP_OF.items():
        user, path = night["pages"][page]
        client.logout()
        if user is not None:
            client.force_login(user)
        body = client.get(path).content.decode()
        assert f'href="{reverse("scoring:help", args=[help_page])}"' in body, page
    assert f'href="{reverse("scoring:help-index")}"' in client.get(reverse("scoring:home")).content.decode()


def test_anyone_may_read_the_help_and_an_unknown_page_is_not_there(client):
    assert client.get(reverse("scoring:help-index")).status_code == 200
    for page in HELP_PAGES:
        response = client.get(reverse("scoring:help", args=[page]))
        assert response.status_code == 200 and "Hjälp" in response.content.decode(), page
    assert client.get(reverse("scoring:help", args=["nobody"])).status_code == 404
