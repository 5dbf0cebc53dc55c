"""The language switch is a pair of links: the language is in the address (i18n_patterns; Swedish
at the bare addresses, English under /en/), so a page is the same for everyone who opens it."""

from django import template
from django.urls import translate_url

register = template.Library()


@register.simple_tag(takes_context=True)
def language_url(context, code: str) -> str:
    """The address of the page being shown, in the language `code` (its query kept)."""
    return translate_url(context["request"].get_full_path(), code)
