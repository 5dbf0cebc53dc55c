"""Formatting of ratings for the pages: a whole number with a thin space (1 532), "–" for none."""

from __future__ import annotations

from django import template

from scoring.formatting import rating_text

register = template.Library()


@register.filter
def rating(value) -> str:
    return rating_text(value)


@register.filter
def attr_rating(point) -> str:
    """The rating of a RatingPoint."""
    return rating_text(getattr(point, "rating", None))
