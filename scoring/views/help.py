"""“Hjälp” (Help): one short page for each kind of user, with pictures of the pages it speaks of.

The pages: the secretary (a protocol deal by deal, a protocol file, a correction), the captain
(confirming, disputing), the players at the table (from the QR code to both confirmations, and
without a connection) and the organiser (a round night, a championship's qualified list). Each is
a template of templates/scoring/help/ drawn from the code alone, public like the rules pages.

Each button or link a page tells the reader to press is written with the `help_control` tag
(scoring.templatetags.help_tags), which marks it with the page it is on and its visible name;
tests/views/test_help_pages.py opens those pages and finds each one, in Swedish and in English.
The pictures are taken by tests/browser/test_help_pictures.py (docs/operations.md, "Help pages
and their pictures").
"""

from __future__ import annotations

from django.http import Http404
from django.views.generic import TemplateView

from scoring.selectors import editions

from .public import PublicPageMixin

# The help pages, in the order the index lists them; the slug is the page's address and template.
HELP_PAGES = ("secretary", "captain", "table", "organiser")


class HelpIndexView(PublicPageMixin, TemplateView):
    """The help pages, one for each kind of user."""

    drawn_from = editions.the_code
    template_name = "scoring/help/index.html"


class HelpPageView(PublicPageMixin, TemplateView):
    """One help page, by its slug (HELP_PAGES)."""

    drawn_from = editions.the_code

    def get_template_names(self):
        if self.kwargs["page"] not in HELP_PAGES:
            raise Http404
        return [f"scoring/help/{self.kwargs['page']}.html"]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["help_page"] = self.kwargs["page"]
        context["help_pages"] = HELP_PAGES
        return context
