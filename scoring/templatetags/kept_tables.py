"""The key of a kept table's row, for the site's table template (django_tables2/canasta.html)."""

from django import template

from scoring.tables import KeptTable

register = template.Library()


@register.filter
def kept_row_key(table, row) -> str:
    """`KeptTable.row_cache_key` of `row`; "" for a table that is not kept, whose rows are drawn
    every time."""
    if isinstance(table, KeptTable):
        return table.row_cache_key(row)
    return ""
