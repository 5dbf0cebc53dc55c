"""The site's django-tables2 template (settings.DJANGO_TABLES2_TEMPLATE)."""

import django_tables2 as tables
from django.template import Context, Template
from django.test import RequestFactory


class ScoreTable(tables.Table):
    caption = "Omgång 1"
    team = tables.Column(verbose_name="Lag")
    points = tables.Column(verbose_name="Poäng", attrs={"th": {"class": "num"}, "td": {"class": "num"}})


def render(table, request):
    return Template("{% load django_tables2 %}{% render_table table %}").render(
        Context({"table": table, "request": request})
    )


def test_table_scrolls_in_a_labelled_region_with_caption():
    request = RequestFactory().get("/")
    table = ScoreTable([{"team": "Ess", "points": 5120}, {"team": "Kung", "points": 4870}])
    tables.RequestConfig(request).configure(table)

    html = render(table, request)

    assert 'class="table-scroll" role="region" tabindex="0" aria-label="Omgång 1"' in html
    assert "<caption>Omgång 1</caption>" in html
    assert '<td class="num">5120</td>' in html
    assert 'aria-sort' not in html


def test_sorted_column_says_its_order_and_pages_are_a_nav():
    request = RequestFactory().get("/", {"sort": "-points"})
    rows = [{"team": f"Lag {n}", "points": n * 5} for n in range(30)]
    table = ScoreTable(rows)
    tables.RequestConfig(request, paginate={"per_page": 10}).configure(table)

    html = render(table, request)

    assert 'aria-sort="descending"' in html
    assert '<nav class="pagination"' in html
    assert 'aria-current="page">1</a>' in html
