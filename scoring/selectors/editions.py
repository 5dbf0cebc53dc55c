"""What a public page is drawn from, as its view names it (`drawn_from`; scoring.web.public_cache):
whether anyone may see it and the editions scoring.services.locking moves, or None when it is not
there. A club's, competition's or championship's `edition` counts the changes its pages show; it is
not a form's concurrency number (a match's `version`, which a stale form is refused against). Every
page names clubs, teams or players: each reads the clubs' editions, which any rename moves."""

from __future__ import annotations

from django.db import connection

from scoring.models import Match

# Plain SQL: a live part's 304 is one read, and building an ORM query took most of its time (make bench).
CLUBS = "(SELECT COUNT(*) n, SUM(edition) s, MAX(id) m FROM scoring_club) clubs"


def read(sql: str, *params) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def competition(pk, of="%s", **kwargs):
    """A competition's pages and documents: its edition, open to all when it is public."""
    row = read(f"SELECT c.is_public, c.edition, clubs.* FROM scoring_competition c, {CLUBS} WHERE c.id = {of}", pk)
    return row and (bool(row[0]), row[1:])


def championship(pk, **kwargs):
    """A championship's pages and documents: its edition and its heats' (their tables), open to all
    when it is public."""
    row = read(
        "SELECT ch.is_public, ch.edition, heats.*, clubs.* FROM scoring_championship ch, (SELECT COUNT(*), "
        "SUM(c.edition) FROM scoring_competition c JOIN scoring_championshipheat h ON h.competition_id = c.id "
        "JOIN scoring_championshipstage s ON s.id = h.stage_id WHERE s.championship_id = %s) heats, "
        f"{CLUBS} WHERE ch.id = %s", pk, pk,
    )  # fmt: skip
    return row and (bool(row[0]), row[1:])


def championships(**kwargs):
    """The list of championships: their count, editions and largest id."""
    return True, read(f"SELECT * FROM (SELECT COUNT(*), SUM(edition), MAX(id) FROM scoring_championship) ch, {CLUBS}")


def stage(pk, **kwargs):
    """A stage's documents: its championship's."""
    row = read("SELECT championship_id FROM scoring_championshipstage WHERE id = %s", pk)
    return row and championship(row[0])


def match(pk, **kwargs):
    """A match's pages show its competition's names and rules: its competition's edition."""
    return competition(pk, of="(SELECT competition_id FROM scoring_match WHERE id = %s)")


def everything(**kwargs):
    """The pages of several competitions and clubs (the lists, a team's, a player's, a club's, the
    rankings and the rating, which read every competition), and the rules drawn by the code."""
    return True, read(f"SELECT * FROM (SELECT COUNT(*), SUM(edition), MAX(id) FROM scoring_competition) c, {CLUBS}")


def the_code(**kwargs):
    """Pages drawn from the code alone (the rules pages): the code's own version in every ETag is all."""
    return True, ()


# What a match's protocol documents print beside the match and its deals (scoring.exports.documents).
PRINTED = """competition__name competition__season competition__organiser__name competition__rules_key
    competition__rules_overrides competition__points_key competition__points_overrides
    competition__requires_confirmation round__number round__date
    confirmed_by__first_name confirmed_by__last_name confirmed_by__username""".split()
SIDE = """team__name team__club__name team__player_one__name team__player_two__name substitute__name
    team__captain__first_name team__captain__last_name team__captain__username""".split()
PRINTED += [f"{side}_{field}" for side in ("home", "away") for field in SIDE]


def match_documents(pk, **kwargs):
    """A match's documents: its own version, which every service that changes it moves (not its
    competition's, which a deal at any table moves), and what they print as it is now."""
    row = Match.objects.filter(pk=pk).values_list("competition__is_public", "version", *PRINTED).first()
    return row and (row[0], row[1:])
