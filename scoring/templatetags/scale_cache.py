"""`{% render_table_cached table %}`: django-tables2's `{% render_table %}`, cached by content.

Rendering a long table cell by cell is the costliest part of a big competition's page (600
standings rows take seconds on a busy machine, the queries behind them milliseconds). The rendered
HTML is kept under a digest of exactly what it shows: the table's class, caption, options and
columns, the language, and every row's values (a StandingRow's numbers; a Match row's id, change
time, version, status, totals, teams and markers; a queryset is read once for this, and the
rendering then uses the rows read). When a result changes, its row changes, and so
does the key: nothing stale can come back, while a deal entered in a match that is still being
played leaves the standings' key, and their HTML, as they were.
"""

from __future__ import annotations

import dataclasses
import hashlib

from django import template
from django.core.cache import cache
from django.db import models
from django.db.models import QuerySet
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django_tables2 import Table
from django_tables2.templatetags.django_tables2 import RenderTableNode

from scoring.cache import PREFIX, timeout

register = template.Library()

MATCH_ROW_FIELDS = (
    "pk", "updated_at", "version", "status", "end", "deal_count", "home_total", "away_total", "winner",
    "table", "home_team_id", "away_team_id", "round_id", "competition_id",
)


def _row_fingerprint(row) -> object:
    if dataclasses.is_dataclass(row):
        return repr(row)
    if isinstance(row, models.Model):
        values = [type(row).__name__, *(getattr(row, name, None) for name in MATCH_ROW_FIELDS)]
        # Names of the related rows the table shows (teams, competition, round), when loaded.
        for relation in ("home_team", "away_team", "competition", "round"):
            if relation in getattr(row, "_state").fields_cache:
                values.append(str(getattr(row, relation)))
        values += [getattr(row, "preliminary", None), getattr(row, "counts", None)]
        return tuple(values)
    return repr(row)


def table_key(table: Table) -> str | None:
    """The cache key of a table's HTML, or None for data it does not know how to read."""
    data = getattr(table.data, "data", None)
    if isinstance(data, QuerySet):
        # Evaluated here, once: the rendering iterates the same queryset and reuses its rows.
        data = list(data)
    if not isinstance(data, (list, tuple)) or hasattr(table, "paginator"):
        return None
    digest = hashlib.blake2b(digest_size=16)
    options = (
        type(table).__module__, type(table).__qualname__, get_language(), str(getattr(table, "caption", "") or ""),
        getattr(table, "link_target", None), getattr(table, "card_points", None),
        tuple(column.name for column in table.columns), table.template_name,
    )
    digest.update(repr(options).encode())
    for row in data:
        digest.update(repr(_row_fingerprint(row)).encode())
    return f"{PREFIX}:table:{digest.hexdigest()}"


class CachedRenderTableNode(RenderTableNode):
    def render(self, context):
        table = self.table.resolve(context)
        key = table_key(table) if isinstance(table, Table) and not self.template_name else None
        if key is None:
            return super().render(context)
        html = cache.get(key)
        if html is None:
            html = super().render(context)
            cache.set(key, str(html), timeout())
        return mark_safe(html)


@register.tag
def render_table_cached(parser, token):
    """`{% render_table_cached table %}`: as `{% render_table table %}`, cached by the table's content."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("render_table_cached takes one argument: the table")
    return CachedRenderTableNode(parser.compile_filter(bits[1]))
