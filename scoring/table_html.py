"""The body of the site's django-tables2 tables, rendered in Python (issue 7: speed at scale).

django-tables2 renders a table cell by cell through its template: for every cell it works out the
column's attributes anew, inspects the signature of the render method, and runs a dozen template
nodes. A 600-team standings table took about a second that way. `FastBodyMixin.tbody_html()`
produces the very same `<tbody>` (byte for byte, whitespace included: tests/performance compare
it with django-tables2's own rendering) with the same cell values, computed by the same code
(django-tables2's accessor and default handling, the tables' render methods), but with each
column's attributes and each function's signature worked out once per table instead of per cell.

Terms: a *static* column is one whose `<td>` attributes do not depend on the row (no callables);
tables with anything else (non-static columns, localize set on a column, pinned rows,
pagination, or no rows at all) are rendered by django-tables2's template as before.

`UrlMaker` reverses a URL once per name and table and puts each row's id into it, instead of
resolving the URL pattern again for every row.
"""

from __future__ import annotations

from django.conf import settings
from django.template.base import render_value_in_context
from django.template.context import Context
from django.urls import reverse
from django.utils.safestring import SafeString
from django_tables2.rows import BoundRow
from django_tables2.utils import AttributeDict, signature

# The template of the site's tables with this body (it extends settings.DJANGO_TABLES2_TEMPLATE).
TEMPLATE_NAME = "scoring/public/_data_table.html"

# The whitespace django-tables2's django_tables2/table.html puts around its body's tags.
_TBODY_OPEN = "\n                <tbody {}>\n                "
_ROW_OPEN = "\n                    \n                    <tr {}>\n                        "
_CELL = "\n                            <td {}>{}</td>\n                        "
_ROW_CLOSE = "\n                    </tr>\n                    \n                "
_TBODY_CLOSE = "\n                </tbody>\n            "

# A number every numbered path accepts (round and deal numbers stop at 32 767, scoring/converters.py);
# if it happens to appear in the fixed part of a URL too, the URL is reversed in full instead.
_SENTINEL = 31_991


class UrlMaker:
    """`urls("scoring:team-detail", 7)` == `reverse("scoring:team-detail", args=[7])`, reversed once
    per name (and leading arguments: `urls("scoring:round-detail", 3, 2)` varies the last one)."""

    def __init__(self):
        self._parts: dict[tuple, tuple[str, str] | None] = {}

    def __call__(self, name: str, *args) -> str:
        *fixed, pk = args
        key = (name, *fixed)
        parts = self._parts.get(key, False)
        if parts is False:
            url = reverse(name, args=[*fixed, _SENTINEL])
            head, found, tail = url.partition(str(_SENTINEL))
            parts = self._parts[key] = (head, tail) if found and str(_SENTINEL) not in tail else None
        if parts is None or type(pk) is not int:
            return reverse(name, args=args)
        return f"{parts[0]}{pk}{parts[1]}"


class _Caller:
    """call_with_appropriate() of django-tables2, with each function's signature read once."""

    def __init__(self):
        self._signatures: dict[int, tuple] = {}
        self._keep: list = []  # the functions, so that an id is not reused while this lives

    def __call__(self, fn, kwargs: dict):
        known = self._signatures.get(id(fn))
        if known is None:
            known = self._signatures[id(fn)] = signature(fn)
            self._keep.append(fn)
        args, kwargs_name = known
        if not kwargs_name:
            kwargs = {key: kwargs[key] for key in kwargs if key in args}
            if any(arg not in kwargs for arg in args):
                return None
        return fn(**kwargs)

    def computed_values(self, values: dict, kwargs: dict) -> dict:
        """django_tables2.utils.computed_values with the signatures read once."""
        result = {}
        for key, value in values.items():
            if callable(value):
                value = self(value, kwargs)
            if isinstance(value, dict):
                value = self.computed_values(value, kwargs)
            result[key] = value
        return result


def _cell_html(cell, context: Context) -> str:
    """`{{ cell }}` in the template: localised and escaped (the two common cases without the
    machinery: a whole number without thousands separators, and HTML already marked safe)."""
    kind = type(cell)
    if kind is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(cell)
    if kind is SafeString:
        return cell
    return render_value_in_context(cell, context)


def _is_static(values) -> bool:
    return not any(callable(value) or isinstance(value, dict) for value in values.values())


class FastBodyMixin:
    """For a django_tables2.Table: its `<tbody>` rendered in Python (see the module's docstring).

    `cell_values` (optional, by column name): a function of the row's record giving the value
    django-tables2's accessor would find for that column, for tables that know their rows (the
    accessor tries a dict key, an attribute and a list index on every step, for every cell). The
    value then goes through the column's empty values, default and render method as usual.
    """

    cell_values: dict = {}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("template_name", TEMPLATE_NAME)
        super().__init__(*args, **kwargs)
        self.urls = UrlMaker()

    def _static_td_attrs(self, bound_column) -> str | None:
        """The column's `<td>` attributes as HTML when they are the same on every row, else None."""
        attrs = dict(self.attrs)
        attrs.update(dict(bound_column.column.attrs))
        td = attrs.get("td", attrs.get("cell", {}))
        if not _is_static(td):
            return None
        td = AttributeDict(td)
        td["class"] = bound_column.get_td_class(td)
        return str(td.as_html())

    def tbody_html(self) -> SafeString | None:
        """The table's `<tbody>` as django-tables2's template makes it, or None when the template
        must make it (the cases the module's docstring lists)."""
        if hasattr(self, "page") or self.pinned_data.get("top") or self.pinned_data.get("bottom"):
            return None
        columns = list(self.columns)
        if any(column.localize is not None for column in columns):
            return None
        td_attrs = [self._static_td_attrs(column) for column in columns]
        if None in td_attrs:
            return None

        call = _Caller()
        context = Context()  # as the template's: autoescape on, localisation as set globally
        row_attrs_spec = self.row_attrs

        def render(bound_column, value=None, *, row):
            render_kwargs = {
                "value": value,
                "record": row.record,
                "column": bound_column.column,
                "bound_column": bound_column,
                "bound_row": row,
                "table": self,
            }
            content = call(bound_column.render, render_kwargs)
            return bound_column.link(content, **render_kwargs) if bound_column.link else content

        getters = [self.cell_values.get(column.name) for column in columns]
        parts = [_TBODY_OPEN.format(AttributeDict(self.attrs.get("tbody", {})).as_html())]
        rows = 0
        for record in self.data:
            rows += 1
            row = BoundRow(record, table=self)  # takes the next row number, as the template's rows do
            attrs = call.computed_values(row_attrs_spec, {"table": self, "record": record})
            css = row.get_even_odd_css_class()
            attrs["class"] = f"{attrs['class']} {css}" if attrs.get("class") else css
            parts.append(_ROW_OPEN.format(AttributeDict(attrs).as_html()))
            for column, td, getter in zip(columns, td_attrs, getters):
                if getter is None:
                    cell = row._get_and_render_with(
                        column,
                        render_func=lambda bound_column, value=None: render(bound_column, value, row=row),
                        default=column.default,
                    )
                else:
                    value = getter(record)
                    cell = column.default if value in column.column.empty_values else render(column, value, row=row)
                parts.append(_CELL.format(td, _cell_html(cell, context)))
            parts.append(_ROW_CLOSE)
        if not rows:
            return None  # the template says the table is empty (or shows nothing)
        parts.append(_TBODY_CLOSE)
        return SafeString("".join(parts))
