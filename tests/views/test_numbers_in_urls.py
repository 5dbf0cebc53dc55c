"""Every whole number in a path or a query string is range-checked: a number beyond any database
column (9223372036854775808, 10**30) answers 404 or 400, never a server error, for a visitor, a
secretary and a site administrator, on every route of the URL configuration."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests import factories as f

HUGE = ("9223372036854775808", "32768")
# Query parameters the pages read as numbers.
QUERY_NUMBERS = ("round", "after", "version", "saved", "page")


def _routes(resolver=None, prefix=""):
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            if route.startswith("admin/"):
                continue  # Django's own admin
            yield from _routes(pattern, route)
        elif isinstance(pattern, URLPattern):
            yield route


def _fill(route: str, number: str) -> str:
    path = re.sub(r"<(?:int|id|number):\w+>", number, route)
    path = re.sub(r"<(?:\w+:)?\w+>", "1", path)
    return "/" + path.lstrip("^").rstrip("$")


ROUTES = sorted(set(_routes()))
NUMBERED = [route for route in ROUTES if re.search(r"<(int|id|number):", route)]


def test_the_url_configuration_has_numbered_routes_and_bounds_them_all():
    assert len(NUMBERED) > 30
    assert not [route for route in ROUTES if "<int:" in route], "use <id:pk> or <number:number>"


@pytest.fixture
def users(db, client, settings):
    client.raise_request_exception = False
    settings.DOCUMENTS_PER_MINUTE = 10_000  # every document route is asked here, many times
    secretary = f.make_user("sekreterare")
    club = f.make_club("Klubben", secretary=secretary)
    f.make_match(competition=f.make_competition(organiser=club), home=f.make_team(club=club))
    return {"visitor": None, "secretary": secretary, "admin": f.make_admin()}


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["visitor", "admin"])
def test_a_huge_number_in_a_path_is_not_found(client, users, who):
    if users[who]:
        client.force_login(users[who])
    failures = []
    for route in NUMBERED:
        for number in HUGE:
            url = _fill(route, number)
            for method in ("get", "post"):
                status = getattr(client, method)(url).status_code
                if status >= 500 or status == 200 and number == HUGE[0]:
                    failures.append((method, url, status))
    assert not failures


@pytest.mark.django_db
@pytest.mark.slow  # every route with every numbered query parameter, as an administrator too: seconds
@pytest.mark.parametrize("who", ["visitor", "admin"])
def test_a_huge_number_in_a_query_string_is_refused_or_ignored(client, users, who):
    from scoring.models import Competition, Match

    if users[who]:
        client.force_login(users[who])
    competition = Competition.objects.get()
    match = Match.objects.get()
    failures = []
    for route in ROUTES:
        url = re.sub(r"<(?:int|id|number):\w+>", "1", route)
        url = _fill(url.replace("competitions/1", f"competitions/{competition.pk}").replace(
            "matches/1", f"matches/{match.pk}"), "1")
        for number in ("9223372036854775808", "-1", "٣"):
            query = "&".join(f"{name}={number}" for name in QUERY_NUMBERS)
            status = client.get(f"{url}?{query}").status_code
            if status >= 500:
                failures.append((url, number, status))
    assert not failures
