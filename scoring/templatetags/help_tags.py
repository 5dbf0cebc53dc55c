"""The help pages' words for the site's controls and their pictures (scoring.views.help).

`{% help_control "protocol" "Check without saving" %}` shows the name of a button or link as the
reader sees it on that page, translated, and marks it with the page it is on (`data-on`) and the
name as a pattern (`data-name`, with `%(team)s` or `%(number)s` where the page puts a
team's name or a deal's number), so that a test can open the page and
find it there (tests/views/test_help_pages.py). `{% help_picture "table-enter" alt %}` shows one
picture of static/scoring/help/, named so that a test can check it exists.
"""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def help_control(page: str, name: str, **values) -> str:
    """`values` fill a name's blanks as the reader will see them (`team=`, `number=`)."""
    pattern = gettext(name)
    shown = pattern % values if values else pattern
    return format_html('<b class="help-control" data-on="{}" data-name="{}">{}</b>', page, pattern, shown)


@register.simple_tag
def help_picture(name: str, alt: str) -> str:
    # The picture links to itself: on a phone a desktop page's picture is small, and a tap opens
    # it whole, to be enlarged with two fingers.
    address = static(f"scoring/help/{name}.png")
    return format_html(
        '<a class="help-picture-link" href="{}"><img class="help-picture" src="{}" alt="{}" data-picture="{}" loading="lazy"></a>',
        address, address, alt, name,
    )
