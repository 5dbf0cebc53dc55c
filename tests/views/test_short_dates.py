"""Short dates (scoring/templatetags/dates.py): Swedish writes month abbreviations in lower case
("29 nov", "25 okt"), English capitalised ("29 Nov"); Django's "M" capitalises in every language."""

from datetime import date, datetime, timezone

import pytest
from django.template import Context, Template
from django.utils import translation

from scoring.templatetags.dates import month_case, short_date


@pytest.mark.parametrize(
    "language, day, expected",
    [
        ("sv", date(2026, 11, 29), "29 nov"),
        ("sv", date(2026, 10, 25), "25 okt"),
        ("sv", date(2026, 5, 1), "1 maj"),
        ("en", date(2026, 11, 29), "29 Nov"),
        ("en", date(2026, 10, 25), "25 Oct"),
    ],
)
def test_short_month_names_in_the_case_of_the_language(language, day, expected):
    with translation.override(language):
        assert short_date(day) == expected


def test_the_format_is_djangos_with_only_the_month_abbreviation_changed():
    moment = datetime(2026, 11, 29, 19, 5)

    with translation.override("sv"):
        assert short_date(moment, "j M Y H:i") == "29 nov 2026 19:05"
        # An escaped letter stays a letter, as with Django's date filter.
        assert short_date(moment, r"j M \M") == "29 nov M"
    with translation.override("en"):
        assert short_date(moment, "j M Y H:i") == "29 Nov 2026 19:05"


def test_month_case_leaves_other_languages_and_escapes_alone():
    assert month_case("j M H:i", "sv") == "j b H:i"
    assert month_case("j M H:i", "sv-se") == "j b H:i"
    assert month_case(r"j \M M", "sv") == r"j \M b"
    assert month_case("j M H:i", "en") == "j M H:i"
    assert month_case("j M H:i", None) == "j M H:i"


def test_in_a_template_a_time_is_shown_in_the_sites_time_zone(settings):
    """Like Django's date filter, the value is turned to local time first (Europe/Stockholm)."""
    late_in_utc = datetime(2026, 11, 28, 23, 30, tzinfo=timezone.utc)
    template = Template('{% load dates %}{{ moment|short_date:"j M H:i" }}')

    with translation.override("sv"):
        assert template.render(Context({"moment": late_in_utc})) == "29 nov 00:30"


def test_an_empty_value_shows_nothing():
    with translation.override("sv"):
        assert short_date(None) == ""
        assert short_date("") == ""
