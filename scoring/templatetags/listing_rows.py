"""The body rows of the site's tables (django-tables2, drawn by templates/django_tables2/canasta.html),
drawn in one pass: what a column's cells share is worked out once per table, not once per cell.

django-tables2 draws a cell by looking up its column's attributes, inspecting its render method's
signature and resolving its accessor, and the template then resolves the cell again: a 600-team
table is 6 000 cells of that. Here each column's `<td>` attributes, render method and the
arguments it takes are found once; a cell is its value, its render call and its escaping. The
cells are what django-tables2 draws: the value by the column's accessor, the column's default for
an empty value, the render method with the arguments it names, then localised and escaped as
`{{ cell }}` would be (`|localize` or `|unlocalize` where the column says so). A column whose
cells need what this does not do (attributes computed per cell, a link column, a model field with
choices) has each of its cells drawn by django-tables2 itself (`BoundRow.get_cell`)."""

from __future__ import annotations

import html
import inspect
from functools import lru_cache

from django import template
from django.conf import settings
from django.utils import formats
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django_tables2 import A, Column
from django_tables2.utils import AttributeDict

register = template.Library()

CELL_ARGUMENTS = ("value", "record", "column", "bound_column", "bound_row", "table")
UNREAD = object()


def arguments_taken(function, offered: tuple[str, ...]) -> tuple[str, ...]:
    """Which of the `offered` arguments `function` takes by name (all of them with **kwargs)."""
    return names_taken(getattr(function, "__func__", function), offered)


@lru_cache(maxsize=512)
def names_taken(function, offered: tuple[str, ...]) -> tuple[str, ...]:
    """arguments_taken of a plain function (a method's own function, its `self` never offered):
    a function's signature does not change, so it is read once."""
    parameters = inspect.signature(function).parameters.values()
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return offered
    names = {parameter.name for parameter in parameters}
    return tuple(name for name in offered if name in names)


def any_computed(attrs) -> bool:
    return any(callable(value) or isinstance(value, dict) and any_computed(value) for value in (attrs or {}).values())


class ColumnCells:
    """What one column's cells share: their `<td>` attributes, how a value is read and drawn."""

    def __init__(self, table, bound_column, first_record):
        column = bound_column.column
        self.name = bound_column.name
        self.column = column
        self.bound_column = bound_column
        self.td = bound_column.attrs["td"].as_html()
        self.render = bound_column.render
        self.default = bound_column.default
        self.empty_values = column.empty_values
        self.localize = bound_column.localize
        self.accessor = A(bound_column.accessor)
        self.bits = self.accessor.bits
        self.arguments = arguments_taken(self.render, CELL_ARGUMENTS)
        # Column.render gives the value back as it is: no call for it.
        self.passes_value = getattr(self.render, "__func__", None) is Column.render
        self.grouped = settings.USE_THOUSAND_SEPARATOR
        # A column drawn from its record alone, whose cells are never empty (no empty values): its
        # value is not read (its accessor often names no attribute, the column's own name).
        self.value_unused = not self.empty_values and "value" not in self.arguments and not self.passes_value
        # Where a column's cells need django-tables2's own drawing.
        self.drawn_by_tables2 = (
            bound_column.link is not None
            or any_computed(column.attrs)
            or any_computed(table.attrs.get("td"))
            or any_computed(table.attrs.get("cell"))
            or self.shows_choices(first_record)
        )

    def shows_choices(self, record) -> bool:
        """A model field with choices is shown by its get_FOO_display() (none for other rows)."""
        return bool(getattr(self.accessor.get_field(record), "choices", None))

    def cell(self, row, table) -> str:
        if self.drawn_by_tables2:
            return self.escaped(row.get_cell(self.name))
        record = row.record
        if self.value_unused and self.arguments == ("record",):
            return self.escaped(self.render(record=record))
        value = self.read(record)
        if value is UNREAD:
            try:
                value = self.accessor.resolve(record)
            except Exception:  # as django-tables2: a column that no field backs (its render makes it)
                value = None
        if value in self.empty_values:
            return self.escaped(self.default)
        if self.passes_value:
            return self.escaped(value)
        arguments = self.arguments
        if arguments == ("value",):
            return self.escaped(self.render(value=value))
        if arguments == ("record",):
            return self.escaped(self.render(record=record))
        if arguments == ("value", "record"):
            return self.escaped(self.render(value=value, record=record))
        given = {"value": value, "record": record, "column": self.column, "bound_column": self.bound_column,
                 "bound_row": row, "table": table}  # fmt: skip
        return self.escaped(self.render(**{name: given[name] for name in arguments}))

    def read(self, record):
        """The value by the accessor where each step is a plain attribute of an object that cannot
        be indexed (what Accessor.resolve comes to after its index look-up fails), else UNREAD:
        Accessor.resolve reads it (a dict, a list, a callable on the way)."""
        current = record
        for bit in self.bits:
            if hasattr(type(current), "__getitem__"):
                return UNREAD
            current = getattr(current, bit, UNREAD)
            if current is UNREAD or callable(current):
                return UNREAD
            if current is None:
                return None
        return current

    def escaped(self, cell) -> str:
        """The cell as the template draws it: `{{ cell }}`, `{{ cell|localize }}` or `{{ cell|unlocalize }}`."""
        if isinstance(cell, str):
            return escaped_text(cell)
        if type(cell) is int and not self.grouped:
            return str(cell)  # what localize makes of a whole number without grouping
        if self.localize is None:
            return conditional_escape(formats.localize(template_localtime(cell)))
        return conditional_escape(str(formats.localize(cell, use_l10n=bool(self.localize))))


def escaped_text(text: str) -> str:
    """conditional_escape of a string: safe text as it is, other text escaped as django.utils.html.escape
    does (html.escape), without the lazy-argument check each call of those makes."""
    return text.__html__() if hasattr(text, "__html__") else html.escape(text)


class RowAttributes:
    """A row's attributes as django-tables2 computes them (the table's row_attrs, each callable
    called with the arguments it names, then "even" or "odd" added to its class), the names each
    callable takes found once."""

    def __init__(self, table):
        self.table = table
        self.attrs = []
        for name, value in table.row_attrs.items():
            if callable(value):
                wanted = set(arguments_taken(value, ("table", "record")))
                self.attrs.append((name, value, wanted))
            else:
                self.attrs.append((name, value, None))

    def html(self, row) -> str:
        """As AttributeDict(...).as_html() draws them, in their order: each attribute that is not
        None, escaped, the row's parity added to its class."""
        record = row.record
        pairs = []
        css_at = None
        for name, value, wanted in self.attrs:
            if wanted is not None:
                value = value(**{key: self.table if key == "table" else record for key in wanted})
            if name == "class":
                css_at = len(pairs)
            pairs.append((name, value))
        parity = row.get_even_odd_css_class()
        if css_at is None:
            pairs.append(("class", parity))
        else:
            css = pairs[css_at][1]
            pairs[css_at] = ("class", f"{css} {parity}" if css else parity)
        return " ".join([
            f'{escaped_text(name)}="{conditional_escape(value) if type(value) is not str else html.escape(value)}"'
            for name, value in pairs
            if value is not None and name not in AttributeDict.blacklist
        ])  # fmt: skip


@register.simple_tag
def listing_rows(table):
    """The `<tr>` rows of `table`'s body (its page of rows when paginated), or its empty text."""
    rows = list(table.paginated_rows)
    if not rows:
        if not table.empty_text:
            return ""
        return format_html('<tr><td colspan="{}">{}</td></tr>', len(table.columns), table.empty_text)
    columns = [ColumnCells(table, bound_column, rows[0].record) for bound_column in table.columns]
    row_attributes = RowAttributes(table)
    if any(isinstance(value, dict) for _name, value, _wanted in row_attributes.attrs):
        row_attributes = None  # nested attributes: django-tables2's own computation
    lines = []
    for row in rows:
        cells = "".join([f"<td {column.td}>{column.cell(row, table)}</td>" for column in columns])
        attrs = row_attributes.html(row) if row_attributes else row.attrs.as_html()
        lines.append(f"<tr {attrs}>{cells}</tr>")
    return mark_safe("\n".join(lines))  # noqa: S308 (every cell escaped above, the attributes by as_html)
