"""Fixtures for the exports tests: a played and confirmed match, a round with several matches, and
readers that look at a document as a user's program would (poppler's pdftotext and pdfinfo)."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.services import match_confirm, match_submit
from tests import factories as f


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def played(db):
    """A match played to 5000 (tests.factories.EXPORT_SAMPLE_DEALS), submitted and confirmed."""
    setup = f.protocol_setup()
    match = f.play_match(setup["match"], setup["secretary"])
    match = match_submit(match=match, user=setup["secretary"], expected_version=None)
    match = match_confirm(match=match, user=setup["away_captain"], expected_version=None)
    competition = match.competition
    competition.name = "Skåneserien"
    competition.save()
    return {**setup, "match": match, "competition": competition, "round": match.round}


@pytest.fixture
def full_round(played):
    """The played match's round with two more matches, not yet played, at tables 2 and 3."""
    competition = played["competition"]
    extra = []
    for table, (home, away) in enumerate((("Östra lagen", "Ängelholm"), ("Åkarp", "Lund")), start=2):
        extra.append(
            f.make_match(
                competition=competition, table=table, home=f.make_team(home), away=f.make_team(away)
            )
        )
    return {**played, "matches": [played["match"], *extra]}
