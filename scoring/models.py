"""The data: clubs, players, teams (lag), competitions, rounds, matches (partier), deals (givar), audit log.

Numbers shown to users are computed by the engine (scoring.engine) and written here by the services
(scoring.services) only: a Deal stores what the protocol says plus the engine's computed score,
running total and opening minimum; a Match stores its totals, result and points denormalised, so
standings are SQL aggregates over matches, never a loop over deals. A match keeps a JSON snapshot of
the rule set it is played under, taken when its first deal is recorded.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _, pgettext_lazy

from scoring.engine import DEFAULT_POINTS_KEY, DEFAULT_RULES_KEY, POINTS_PRESETS, PRESETS
from scoring.engine.rules import PointsRules, RuleSet, get_points_rules, get_rules
from scoring.validators import birth_year_in_the_past, no_control_characters

RULES_CHOICES = [(key, preset.name) for key, preset in PRESETS.items()]
POINTS_CHOICES = [(key, preset.name) for key, preset in POINTS_PRESETS.items()]


class Side(models.TextChoices):
    HOME = "home", pgettext_lazy("side", "Home team")
    AWAY = "away", pgettext_lazy("side", "Away team")


class DealEnd(models.TextChoices):
    OUT = "out", _("Going out")
    STOCK = "stock", _("Stock ran out")
    CLOCK = "clock", _("The clock")


class Club(models.Model):
    name = models.CharField(_("name"), max_length=120, unique=True, validators=[no_control_characters])
    city = models.CharField(_("city"), max_length=80, blank=True, validators=[no_control_characters])
    website = models.URLField(_("website"), blank=True)
    secretaries = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("secretaries"),
        related_name="secretary_of",
        blank=True,
    )
    # Moved with its players and teams (scoring.services.locking); every public page's ETag reads it.
    # An edition, not a form's version: no form carries it (scoring.selectors.editions).
    edition = models.PositiveBigIntegerField(_("edition"), default=1, editable=False)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[no_control_characters])
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="players"
    )
    member_number = models.CharField(_("member number"), max_length=30, blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    # A player or team with results is archived instead of deleted: its matches keep their names.
    archived = models.BooleanField(_("archived"), default=False)
    # What the club's member list holds beside the name and number (docs/member-file.md): seen by
    # the club's secretaries only, never on a public page, a document or another club's page.
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"), null=True, blank=True, validators=[birth_year_in_the_past]
    )
    email = models.EmailField(_("e-mail"), blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "member_number"],
                condition=~Q(member_number=""),
                name="player_member_number_unique_in_club",
            )
        ]

    def __str__(self) -> str:
        return self.name


class MemberListDraft(models.Model):
    """A club's member list read from a file and waiting to be saved or discarded (one per club;
    docs/member-file.md). It holds the rows as read; the preview compares them with the club's
    players whenever it is shown, and the save writes them all or nothing."""

    club = models.OneToOneField(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="member_list_draft"
    )
    file_name = models.CharField(_("file name"), max_length=200, blank=True)
    # The fields the file gives, with each column's heading and place: [[field, heading, column], …].
    columns = models.JSONField(_("columns"))
    # The rows as read: [[line, name, member number, birth year, e-mail], …].
    rows = models.JSONField(_("rows"))
    read_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("read by"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip
    read_at = models.DateTimeField(_("read"), auto_now_add=True)

    class Meta:
        verbose_name = _("member list waiting to be saved")
        verbose_name_plural = _("member lists waiting to be saved")

    def __str__(self) -> str:
        return f"{self.club}: {self.file_name}"


class Team(models.Model):
    """A pair (lag) of two players of a club."""

    name = models.CharField(_("name"), max_length=120, validators=[no_control_characters])
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="teams"
    )
    player_one = models.ForeignKey(
        Player, verbose_name=_("player 1"), on_delete=models.PROTECT, related_name="+"
    )
    player_two = models.ForeignKey(
        Player, verbose_name=_("player 2"), on_delete=models.PROTECT, related_name="+"
    )
    captain = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("captain"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="captain_of",
    )
    # A partnership drawn for one round of an individual competition, not a fixed pair: it is
    # left out of the pairs' ranking lists, and its matches count for its players one by one.
    rotating = models.BooleanField(_("rotating partnership"), default=False)
    archived = models.BooleanField(_("archived"), default=False)
    # Players of the club who may stand in for the pair (a series may allow a team of 2 to 4
    # players, Competition.team_players_max); counted with the pair by the enrolment checks
    # (scoring.services.enrolment).
    reserves = models.ManyToManyField(
        Player, verbose_name=_("reserves"), related_name="reserve_for", blank=True,
        help_text=_("Players of the club who may play for the team besides its pair."),
    )

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_one=F("player_two")), name="team_two_different_players"
            ),
            # "Essen" and "essen" are one team to the people reading the tables.
            models.UniqueConstraint("club", Lower("name"), name="team_name_unique_in_club_any_case"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> tuple[Player, Player]:
        return (self.player_one, self.player_two)


class ClubStandingsOrder(models.TextChoices):
    """Which figures rank the clubs of a club table, in order (the Swedish series rank "on wins and
    card points": match points, then card points for)."""

    POINTS_CARDS = "points-cards", _("Match points, then card points")
    POINTS_DIFFERENCE = "points-difference", _("Match points, then card-point difference")
    CARDS = "cards", _("Card points only")


class Competition(models.Model):
    class Kind(models.TextChoices):
        LEAGUE = "league", _("League series")
        TOURNAMENT = "tournament", _("Tournament")
        # Players sign up alone and are drawn into new partnerships each round
        # (scoring.services.individual).
        INDIVIDUAL = "individual", _("Individual (partners rotate)")

    name = models.CharField(_("name"), max_length=150, validators=[no_control_characters])
    season = models.CharField(_("season"), max_length=20, help_text=_("For example 2026/27."),
                              validators=[no_control_characters])
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.LEAGUE)
    organiser = models.ForeignKey(
        Club,
        verbose_name=_("organising club"),
        on_delete=models.PROTECT,
        related_name="organised_competitions",
    )
    teams = models.ManyToManyField(
        Team, verbose_name=_("teams"), related_name="competitions", blank=True
    )
    rules_key = models.CharField(
        _("rule set"), max_length=40, choices=RULES_CHOICES, default=DEFAULT_RULES_KEY
    )
    rules_overrides = models.JSONField(
        _("rule set overrides"), default=dict, blank=True, help_text=_("Values that differ from the preset.")
    )
    points_key = models.CharField(
        _("scoring of matches"), max_length=40, choices=POINTS_CHOICES, default=DEFAULT_POINTS_KEY
    )
    points_overrides = models.JSONField(
        _("scoring overrides"),
        default=dict,
        blank=True,
        help_text=_("Match points, forfeit award or tie-break order that differ from the preset."),
    )
    requires_confirmation = models.BooleanField(
        _("results need the other captain's confirmation"), default=True
    )
    # Entry at the table (scoring.services.table): when both sides confirm the whole protocol at
    # the table, that confirmation may stand for the captain's.
    table_confirmation = models.BooleanField(
        _("both sides' confirmation at the table replaces the captain's"), default=False
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # An inter-club series may rank the clubs too, on the sum of their pairs' results
    # (scoring.selectors.club_standings).
    has_club_standings = models.BooleanField(
        _("club table"), default=False, help_text=_("Rank the clubs too, on the sum of their pairs' results.")
    )
    club_standings_order = models.CharField(
        _("club table ranks on"), max_length=30, choices=ClubStandingsOrder.choices, default=ClubStandingsOrder.POINTS_CARDS
    )
    # Set by the season services when the competition's season is closed (scoring.services.seasons):
    # the competition is then a read-only archive and every service refuses to change it. Stored on
    # the competition so that saving a deal needs no extra query to know.
    archived = models.BooleanField(_("archived"), default=False, editable=False)
    # Moved by every service that changes what its pages show (scoring.services.locking): their ETags.
    edition = models.PositiveBigIntegerField(_("edition"), default=1, editable=False)
    entrants = models.ManyToManyField(
        Player, verbose_name=_("players signed up"), related_name="individual_competitions", blank=True,
        help_text=_("In an individual competition: the players drawn into partnerships each round."),
    )
    # The season's chores (scoring.services.moves, reminders, enrolment): whether a match moved by
    # agreement also needs the organiser's approval; after how many days an overdue protocol gets a
    # reminder (none when empty); how many players a team has, and whether a player may play for
    # two teams of the competition.
    moves_need_approval = models.BooleanField(
        _("a match moved by agreement needs the organiser's approval"), default=False
    )
    reminder_days = models.PositiveSmallIntegerField(
        _("days before a reminder"), null=True, blank=True,
        help_text=_("A protocol waiting for confirmation, or a match played without a protocol, gets one "
                    "reminder by e-mail after this many days. Empty: no reminders."),
    )
    team_players_min = models.PositiveSmallIntegerField(_("fewest players in a team"), default=2)
    team_players_max = models.PositiveSmallIntegerField(
        _("most players in a team"), null=True, blank=True,
        help_text=_("The pair and its reserves. Empty: any number."),
    )
    one_team_per_player = models.BooleanField(_("a player plays for one team only"), default=False)

    class Meta:
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        ordering = ["-season", "name"]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"

    @property
    def rules(self) -> RuleSet:
        return get_rules(self.rules_key, self.rules_overrides)

    @property
    def points_rules(self) -> PointsRules:
        return get_points_rules(self.points_key, self.points_overrides)


class Round(models.Model):
    competition = models.ForeignKey(
        Competition, verbose_name=_("competition"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"), null=True, blank=True)
    clock_started_at = models.DateTimeField(_("hall clock started"), null=True, blank=True)
    # Individual competitions: the seed round one was drawn from (so the draw can be made again),
    # and who sat out (more players than a multiple of four).
    pairing_seed = models.BigIntegerField(_("seed of the draw"), null=True, blank=True)
    sitting_out = models.ManyToManyField(Player, verbose_name=_("sitting out"), related_name="+", blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return _("Round %(number)s") % {"number": self.number}


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")
        SUBMITTED = "submitted", _("Awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        POSTPONED = "postponed", _("Postponed")
        VOID = "void", _("Void")

    class End(models.TextChoices):
        TARGET = "target", _("5000 reached")
        CLOCK = "clock", _("The clock")
        FORFEIT = "forfeit", _("Walk over")
        WARNINGS = "warnings", _("Lost after repeated warnings")
        ABANDONED = "abandoned", _("Abandoned")

    # The match's life (docs/rules.md, "The end of a match"), stated once: each group is the
    # statuses in which something may happen to a match, and the services, permissions, selectors,
    # pages and the admin ask a group rather than list statuses themselves
    # (tests/project/test_match_life.py).
    # Nothing played yet: it may start, be postponed (again) or change its teams.
    NOT_STARTED_STATUSES = (Status.SCHEDULED, Status.POSTPONED)
    # Played tonight as scheduled, or being played: the final signal may end it, and its page
    # shows the next opening minimum.
    PLAYING_STATUSES = (Status.SCHEDULED, Status.IN_PROGRESS)
    # The next deal may be recorded.
    DEAL_STATUSES = (Status.SCHEDULED, Status.IN_PROGRESS, Status.POSTPONED)
    # A recorded deal may be corrected.
    CORRECTABLE_STATUSES = (Status.IN_PROGRESS, Status.FINISHED)
    # The protocol is still its keeper's, not submitted, confirmed or void: a protocol file may
    # replace its deals, a walk over may be recorded, its table link stays open.
    OPEN_STATUSES = (Status.SCHEDULED, Status.IN_PROGRESS, Status.FINISHED, Status.POSTPONED)
    # The other side may confirm the protocol, or dispute it.
    CONFIRMABLE_STATUSES = (Status.FINISHED, Status.SUBMITTED)
    # Played out: a result stands, confirmed or not (whether it counts in a table is the
    # competition's, selectors.counting).
    PLAYED_STATUSES = (Status.FINISHED, Status.SUBMITTED, Status.CONFIRMED)
    # Over: played out, or abandoned (void).
    ENDED_STATUSES = (*PLAYED_STATUSES, Status.VOID)
    # The result is final, nothing waits for a confirmation: confirmed, or void.
    FINAL_STATUSES = (Status.CONFIRMED, Status.VOID)
    # A secretary may reopen it: over, or postponed.
    REOPENABLE_STATUSES = (*ENDED_STATUSES, Status.POSTPONED)

    competition = models.ForeignKey(
        Competition, verbose_name=_("competition"), on_delete=models.CASCADE, related_name="matches"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=_("round"),
        on_delete=models.CASCADE,
        related_name="matches",
        null=True,
        blank=True,
    )
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    home_team = models.ForeignKey(
        Team, verbose_name=_("home team"), on_delete=models.PROTECT, related_name="home_matches"
    )
    away_team = models.ForeignKey(
        Team, verbose_name=_("away team"), on_delete=models.PROTECT, related_name="away_matches"
    )
    home_substitute = models.ForeignKey(
        Player,
        verbose_name=_("home substitute"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    away_substitute = models.ForeignKey(
        Player,
        verbose_name=_("away substitute"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    # Where it is played when not at the home club's usual hall (a match moved by agreement may
    # move there, scoring.services.moves); empty: the home club's.
    hall = models.CharField(_("hall"), max_length=150, blank=True, validators=[no_control_characters])
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED, db_index=True
    )
    end = models.CharField(_("how the match ended"), max_length=20, choices=End.choices, blank=True)
    clock_expired = models.BooleanField(_("the clock ran out between deals"), default=False)
    rules_snapshot = models.JSONField(_("rule set played under"), null=True, blank=True)
    points_snapshot = models.JSONField(_("points rules played under"), null=True, blank=True)
    # Denormalised by the services from the engine's replay.
    deal_count = models.PositiveSmallIntegerField(_("deals"), default=0)
    home_total = models.IntegerField(_("home total"), default=0)
    away_total = models.IntegerField(_("away total"), default=0)
    winner = models.CharField(
        _("winner"),
        max_length=5,
        choices=[("home", _("Home team")), ("away", _("Away team")), ("draw", _("Draw"))],
        blank=True,
    )
    home_points = models.DecimalField(_("home match points"), max_digits=4, decimal_places=1, null=True, blank=True)
    away_points = models.DecimalField(_("away match points"), max_digits=4, decimal_places=1, null=True, blank=True)
    home_for = models.IntegerField(_("home card points for"), null=True, blank=True)
    home_against = models.IntegerField(_("home card points against"), null=True, blank=True)
    away_for = models.IntegerField(_("away card points for"), null=True, blank=True)
    away_against = models.IntegerField(_("away card points against"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    submitted_at = models.DateTimeField(_("submitted"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    # The other side's objection to the submitted protocol, shown to the secretary until the
    # protocol is submitted again (the audit log keeps every dispute).
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("disputed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    disputed_at = models.DateTimeField(_("disputed"), null=True, blank=True)
    dispute_reason = models.TextField(_("why the protocol is disputed"), blank=True)
    version = models.PositiveIntegerField(_("version"), default=1)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round__number", "table", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(home_team=F("away_team")), name="match_two_different_teams"
            ),
            models.CheckConstraint(
                condition=Q(winner__in=["", "home", "away", "draw"]), name="match_winner_valid"
            ),
        ]
        indexes = [
            models.Index(fields=["competition", "status"], name="match_comp_status"),
            # A secretary's matches of some statuses, changed last first (selectors.secretary).
            models.Index(fields=["status", "updated_at"], name="match_status_updated"),
        ]

    def __str__(self) -> str:
        return f"{self.home_team} – {self.away_team}"

    @property
    def rules(self) -> RuleSet:
        """The rule set the match is played under: its snapshot, or the competition's today."""
        if self.rules_snapshot:
            return RuleSet.from_dict(self.rules_snapshot)
        return self.competition.rules

    @property
    def points_rules(self) -> PointsRules:
        """How the match counts (match points, card points, forfeit award): its snapshot, taken
        with the rule set's, or the competition's today. Changing a competition's points rules
        therefore never rescores a match already played, even when it is reopened or corrected."""
        if self.points_snapshot:
            return PointsRules.from_dict(self.points_snapshot)
        return self.competition.points_rules

    @property
    def accepts_deals(self) -> bool:
        return self.status in self.PLAYING_STATUSES

    def team(self, side: str) -> Team:
        return self.home_team if side == Side.HOME else self.away_team


class Deal(models.Model):
    """One deal (giv) of a match: what the protocol says, and what the engine computed."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="deals"
    )
    number = models.PositiveSmallIntegerField(_("deal"))
    home_cards = models.IntegerField(_("home card points"))
    home_natural = models.PositiveSmallIntegerField(_("home natural canastas"), default=0)
    home_mixed = models.PositiveSmallIntegerField(_("home mixed canastas"), default=0)
    home_red3 = models.PositiveSmallIntegerField(_("home red threes"), default=0)
    home_penalty = models.PositiveIntegerField(_("home penalties"), default=0)
    home_melded = models.BooleanField(_("home melded"), null=True, blank=True)
    away_cards = models.IntegerField(_("away card points"))
    away_natural = models.PositiveSmallIntegerField(_("away natural canastas"), default=0)
    away_mixed = models.PositiveSmallIntegerField(_("away mixed canastas"), default=0)
    away_red3 = models.PositiveSmallIntegerField(_("away red threes"), default=0)
    away_penalty = models.PositiveIntegerField(_("away penalties"), default=0)
    away_melded = models.BooleanField(_("away melded"), null=True, blank=True)
    out = models.CharField(_("went out"), max_length=4, choices=Side.choices, blank=True)
    concealed = models.BooleanField(_("concealed going out"), default=False)
    end = models.CharField(_("how the deal ended"), max_length=5, choices=DealEnd.choices)
    dealt_at = models.DateTimeField(_("time dealt"), null=True, blank=True)
    # As written on the paper protocol (optional, checked).
    home_min_written = models.IntegerField(_("home minimum as written"), null=True, blank=True)
    away_min_written = models.IntegerField(_("away minimum as written"), null=True, blank=True)
    home_score_written = models.IntegerField(_("home deal score as written"), null=True, blank=True)
    away_score_written = models.IntegerField(_("away deal score as written"), null=True, blank=True)
    home_total_written = models.IntegerField(_("home total as written"), null=True, blank=True)
    away_total_written = models.IntegerField(_("away total as written"), null=True, blank=True)
    # Computed by the engine, written by the services.
    home_score = models.IntegerField(_("home deal score"), default=0)
    away_score = models.IntegerField(_("away deal score"), default=0)
    home_total = models.IntegerField(_("home running total"), default=0)
    away_total = models.IntegerField(_("away running total"), default=0)
    home_min_before = models.PositiveSmallIntegerField(_("home opening minimum"), default=50)
    away_min_before = models.PositiveSmallIntegerField(_("away opening minimum"), default=50)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="deal_number_unique_in_match"),
            models.CheckConstraint(condition=Q(number__gte=1), name="deal_number_positive"),
            models.CheckConstraint(condition=Q(out__in=["", "home", "away"]), name="deal_out_valid"),
            models.CheckConstraint(
                condition=Q(end__in=["out", "stock", "clock"]), name="deal_end_valid"
            ),
            models.CheckConstraint(
                condition=Q(home_red3__lte=4) & Q(away_red3__lte=4), name="deal_red_threes_max_4"
            ),
        ]

    def __str__(self) -> str:
        return _("Deal %(number)s") % {"number": self.number}


class AuditEntry(models.Model):
    """Every change to a match or its deals: who, when, what, before and after, and why."""

    match = models.ForeignKey(
        Match,
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="audit_entries",
        null=True,
        blank=True,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=40)
    object_type = models.CharField(_("object type"), max_length=40, blank=True)
    object_id = models.CharField(_("object id"), max_length=40, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"


class Bye(models.Model):
    """A team without an opponent in a round (odd number of teams): no match, a note of its own.

    It scores as the competition's points rules say (`PointsRules.bye`: "none" = nothing, not
    counted as played; "win" = a won match without card points, once its round has a counted
    result). Written by the schedule services only.
    """

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="byes"
    )
    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="byes"
    )

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        ordering = ["round", "team__name"]
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="bye_unique_in_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.team}"


class Season(models.Model):
    """A season ("2026/27") of the competitions that name it. An administrator closes it when it is
    over (scoring.services.seasons): its competitions become read-only archives."""

    name = models.CharField(_("name"), max_length=20, unique=True, help_text=_("For example 2026/27."),
                            validators=[no_control_characters])
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class TeamStanding(models.Model):
    """One team's line in a competition's table (tabell), as the results that count make it now:
    played, won, drawn, lost, match points, card points for and against.

    Kept by the services (scoring/services/standings.py) in the same transaction that changes a
    result, a competition's settings, its teams or its byes, so a standings page reads these rows
    instead of adding up the matches (Tabbycat keeps such rows too). What counts: docs/rules.md, "Which results count"
    (selectors.counting); a table after an earlier round is worked out from the matches.
    """

    competition = models.ForeignKey(
        Competition, verbose_name=_("competition"), on_delete=models.CASCADE, related_name="standings"
    )
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="standings")
    played = models.PositiveIntegerField(_("played"), default=0)
    won = models.PositiveIntegerField(_("won"), default=0)
    drawn = models.PositiveIntegerField(_("drawn"), default=0)
    lost = models.PositiveIntegerField(_("lost"), default=0)
    points = models.DecimalField(_("match points"), max_digits=7, decimal_places=1, default=0)
    card_points_for = models.IntegerField(_("card points for"), default=0)
    card_points_against = models.IntegerField(_("card points against"), default=0)

    class Meta:
        verbose_name = _("standings row")
        verbose_name_plural = _("standings rows")
        constraints = [
            models.UniqueConstraint(fields=["competition", "team"], name="standing_one_row_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} – {self.team}"


class RoundPlace(models.Model):
    """A team's place in its competition's table after a round with a counted result: the
    competition page's places chart (selectors.history.places_by_round) reads these rows instead of
    ranking the table again after every round.

    Kept by the services with the standings rows (scoring/services/standings.py), in the same
    transaction, for the competitions whose chart is drawn (team competitions of up to
    selectors.history.PLACES_MAX_TEAMS teams)."""

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="places")
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField(_("place"))

    class Meta:
        verbose_name = _("place after a round")
        verbose_name_plural = _("places after a round")
        constraints = [
            models.UniqueConstraint(fields=["round", "team"], name="round_place_one_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – {self.team}: {self.place}"


class FigureSums(models.Model):
    """The sums the Canasta figures are made of (selectors.figures.Figures), over the side-deals of
    a competition's final results played in one round and month: both sides of every deal (`team`
    None), and each pair's own sides (a row per pair).

    Kept by the services (scoring/services/figures.py) in the same transaction that changes which
    of the competition's results are final, a final result's deals, or the round or day it was
    played on, so that a player's, pair's or club's figures, the federation's beside them, and a
    competition's round by round add up a few stored rows instead of every deal. Whether the
    competition is public, its season, and a pair's players and club are read with them."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, null=True, on_delete=models.CASCADE, related_name="+")
    month = models.DateField(null=True)
    team = models.ForeignKey(Team, null=True, on_delete=models.CASCADE, related_name="+")
    matches = models.PositiveIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)
    natural = models.PositiveIntegerField(default=0)
    mixed = models.PositiveIntegerField(default=0)
    went_out = models.PositiveIntegerField(default=0)
    concealed = models.PositiveIntegerField(default=0)
    red_threes = models.PositiveIntegerField(default=0)
    red_three_deals = models.PositiveIntegerField(default=0)
    score = models.BigIntegerField(default=0)
    score_squares = models.BigIntegerField(default=0)
    clock_ends = models.PositiveIntegerField(default=0)
    target_ends = models.PositiveIntegerField(default=0)
    target_minutes = models.FloatField(default=0)
    timed_targets = models.PositiveIntegerField(default=0)
    band0 = models.PositiveIntegerField(default=0)
    band1 = models.PositiveIntegerField(default=0)
    band2 = models.PositiveIntegerField(default=0)
    band3 = models.PositiveIntegerField(default=0)
    band4 = models.PositiveIntegerField(default=0)
    band5 = models.PositiveIntegerField(default=0)
    band6 = models.PositiveIntegerField(default=0)
    band7 = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.competition_id}, {self.round_id}, {self.month}: {self.deals}"


class PlayerRating(models.Model):
    """A player's Canasta rating before and after one rated match (scoring.engine.rating), with the
    match's place in the order the rating replays them (`seq`, from 0) and the player's rated
    matches up to and with it (`played`, which sets his K).

    Kept by the services (scoring/services/rating.py) in the same transaction that makes a match
    count for the rating or stop counting, or changes its result or its place in the order: the
    rankings and a player's rating chart read these rows instead of replaying the history."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings")
    seq = models.PositiveIntegerField(_("place in the rating's order"))
    before = models.FloatField(_("rating before"))
    after = models.FloatField(_("rating after"))
    played = models.PositiveIntegerField(_("rated matches"))

    class Meta:
        verbose_name = _("rating after a match")
        verbose_name_plural = _("ratings after a match")
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="rating_one_row_per_player_and_match"),
        ]
        indexes = [
            models.Index(fields=["player", "seq"], name="rating_player_seq"),
            models.Index(fields=["seq"], name="rating_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.match_id}: {self.after:.0f}"


class ClubRequest(models.Model):
    """What an invitation and a sign-up request have in common: one club asks, a secretary of the
    other club answers (accepts or declines), and who did which when is kept. Until it is
    accepted, nothing of it is public and nobody plays because of it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("invited by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    invited_at = models.DateTimeField(_("invited"), auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("answered by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-invited_at"]


class Invitation(ClubRequest):
    """A competition's invitation to a team of another club. The team takes part (is one of the
    competition's teams) only once its club's secretary accepts: until then nothing about it is
    public and it plays no match, so no club can publish results for another club's team.
    Written by the invitation services only."""

    competition = models.ForeignKey(
        Competition, verbose_name=_("competition"), on_delete=models.CASCADE, related_name="invitations"
    )
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="invitations")

    class Meta(ClubRequest.Meta):
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["competition", "team"], name="invitation_unique_per_team"),
        ]

    def __str__(self) -> str:
        return f"{self.competition}: {self.team}"


class SignupInvitation(ClubRequest):
    """An individual competition's (a club night's) request to sign up a player of another club.
    The player is signed up (one of the competition's entrants) only once a secretary of the
    player's club accepts: until then the player is in no pairing, table or page of it, as a team
    of another club is not before its Invitation is accepted. Written by the invitation services
    only."""

    competition = models.ForeignKey(
        Competition, verbose_name=_("competition"), on_delete=models.CASCADE, related_name="signup_invitations"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="signup_invitations"
    )

    class Meta(ClubRequest.Meta):
        verbose_name = _("sign-up request")
        verbose_name_plural = _("sign-up requests")
        constraints = [
            models.UniqueConstraint(fields=["competition", "player"], name="signup_invitation_unique_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.competition}: {self.player}"


# -- entry at the table (scoring.services.table) ---------------------------------------------------


class TableLink(models.Model):
    """A match's table link, /t/<code>/: without an account it gives the right to enter and confirm
    this match's deals while the match is played, and nothing else. A renewed or withdrawn link
    keeps its row (the log names it) with `withdrawn_at` set; a match has one link in use at most."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="table_links")
    # Each team signs for itself: the home team's code and the away team's code, each acting for
    # its side only (docs/rules.md, entry at the table). No code is ever both.
    code = models.CharField(_("home team's code"), max_length=12, unique=True)
    away_code = models.CharField(_("away team's code"), max_length=12, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("created by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    last_contact_at = models.DateTimeField(_("last contact"), null=True, blank=True)
    # Both sides confirm the whole protocol at the table when the match has ended.
    home_confirmed_at = models.DateTimeField(_("home team confirmed the protocol"), null=True, blank=True)
    away_confirmed_at = models.DateTimeField(_("away team confirmed the protocol"), null=True, blank=True)
    # When a side's device last checked a deal it is typing (the live check), cleared by its
    # proposal: the other side's phone asks more often meanwhile (selectors.table.sides_typing).
    home_typing_at = models.DateTimeField(_("home team typing a deal"), null=True, blank=True)
    away_typing_at = models.DateTimeField(_("away team typing a deal"), null=True, blank=True)

    class Meta:
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        ordering = ["match", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(withdrawn_at__isnull=True), name="table_link_one_in_use_per_match"
            ),
        ]

    def __str__(self) -> str:
        return self.code

    def code_for(self, side: str) -> str:
        return self.code if side == Side.HOME else self.away_code

    def side_of(self, code: str) -> str | None:
        """The side a code acts for at this table, or None."""
        if code == self.code:
            return Side.HOME
        if code == self.away_code:
            return Side.AWAY
        return None


class TableDeal(models.Model):
    """What one side proposed at the table and the other side must agree to: the next deal, a
    correction of the last deal (rule 35), or the time running out between deals. It changes the
    protocol only once both sides agreed (then through the deal services). `client_id` is made on
    the device, so a proposal sent twice (a lost connection) is stored once."""

    class Kind(models.TextChoices):
        DEAL = "deal", _("deal")
        CORRECTION = "correction", _("correction")
        TIME_UP = "time_up", _("time ran out between deals")

    class Status(models.TextChoices):
        WAITING = "waiting", _("waiting for the other side")
        AGREED = "agreed", _("agreed")
        REJECTED = "rejected", _("rejected")
        CONFLICT = "conflict", _("conflict")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="table_deals")
    link = models.ForeignKey(TableLink, verbose_name=_("table link"), on_delete=models.CASCADE, related_name="deals")
    client_id = models.CharField(_("id made on the device"), max_length=64)
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.DEAL)
    number = models.PositiveSmallIntegerField(_("deal"), default=0)
    values = models.JSONField(_("as typed"), default=dict, blank=True)
    proposed_by = models.CharField(_("proposed by"), max_length=4, choices=Side.choices)
    home_agreed_at = models.DateTimeField(_("home team agreed"), null=True, blank=True)
    away_agreed_at = models.DateTimeField(_("away team agreed"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.WAITING)
    note = models.TextField(_("note"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided"), null=True, blank=True)
    # A conflict stays open (shown to the table and on the secretary's page) until it is settled:
    # its numbers sent again as the next deal, or set aside by the secretary or a side.
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal proposed at the table")
        verbose_name_plural = _("deals proposed at the table")
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "client_id"], name="table_deal_client_id_unique"),
        ]
        indexes = [models.Index(fields=["match", "status"], name="table_deal_match_status")]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number} {self.kind} {self.status}"


class MatchPhoto(models.Model):
    """A photo of the signed paper protocol. Kept in the database, so the backup holds it; the
    image is re-encoded on upload (Pillow), which drops its location and other metadata."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="photos")
    image = models.BinaryField(_("image"))
    content_type = models.CharField(_("content type"), max_length=20)
    width = models.PositiveIntegerField(_("width"))
    height = models.PositiveIntegerField(_("height"))
    uploaded_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("uploaded by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    link = models.ForeignKey(
        TableLink, verbose_name=_("table link"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("photo of the signed protocol")
        verbose_name_plural = _("photos of the signed protocol")
        ordering = ["match", "uploaded_at", "id"]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.uploaded_at:%Y-%m-%d %H:%M}"


# -- the season's chores: matches moved by agreement, reminders, check-in (scoring.services.moves,
# scoring.services.reminders, scoring.services.checkin) ---------------------------------------------


class MatchMove(models.Model):
    """A new date (and perhaps hall) for a match, agreed by both teams: the home club's secretary
    proposes, the away team answers, and where the competition says so
    (`Competition.moves_need_approval`) its organiser approves; only then does the match move.
    Each step is kept here and in the audit log. Written by the move services only."""

    class Status(models.TextChoices):
        WAITING_AWAY = "waiting_away", _("waiting for the away team")
        WAITING_ORGANISER = "waiting_organiser", _("waiting for the organiser's approval")
        MOVED = "moved", _("moved")
        DECLINED = "declined", _("declined by the away team")
        REFUSED = "refused", _("not approved by the organiser")
        WITHDRAWN = "withdrawn", _("withdrawn")

    # Still to be decided: a match has one such proposal at most.
    OPEN_STATUSES = (Status.WAITING_AWAY, Status.WAITING_ORGANISER)

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="moves")
    old_start = models.DateTimeField(_("date before"), null=True, blank=True)
    new_start = models.DateTimeField(_("new date and time"))
    hall = models.CharField(_("hall"), max_length=150, blank=True, validators=[no_control_characters])
    reason = models.TextField(_("why"), blank=True, validators=[no_control_characters])
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.WAITING_AWAY)
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("proposed by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    proposed_at = models.DateTimeField(_("proposed"), auto_now_add=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("answered by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("decided by the organiser"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip
    approved_at = models.DateTimeField(_("decided by the organiser at"), null=True, blank=True)
    note = models.TextField(_("note with the answer"), blank=True, validators=[no_control_characters])

    class Meta:
        verbose_name = _("match moved by agreement")
        verbose_name_plural = _("matches moved by agreement")
        ordering = ["match", "-proposed_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match"], condition=Q(status__in=["waiting_away", "waiting_organiser"]),
                name="match_move_one_open_per_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.new_start:%Y-%m-%d %H:%M} {self.status}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN_STATUSES


class Reminder(models.Model):
    """A reminder e-mail sent about an overdue match, once for each kind (scoring.services.reminders):
    a protocol waiting for confirmation, or a match whose day has passed without a protocol."""

    class Kind(models.TextChoices):
        CONFIRMATION = "confirmation", _("protocol waiting for confirmation")
        PROTOCOL = "protocol", _("no protocol yet")

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="reminders")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    sent_at = models.DateTimeField(_("sent"), auto_now_add=True)
    recipients = models.JSONField(_("sent to"), default=list, blank=True)

    class Meta:
        verbose_name = _("reminder")
        verbose_name_plural = _("reminders")
        ordering = ["match", "sent_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "kind"], name="reminder_once_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.kind}"


class CheckIn(models.Model):
    """A team (tournament) or a player (club night) present on a day of a competition: the draw of
    that day's next round pairs only those present, when anyone is checked in
    (scoring.services.checkin). Exactly one of `team` and `player` is set."""

    competition = models.ForeignKey(
        Competition, verbose_name=_("competition"), on_delete=models.CASCADE, related_name="check_ins"
    )
    day = models.DateField(_("day"))
    team = models.ForeignKey(
        Team, verbose_name=_("team"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(_("checked in"), auto_now_add=True)

    class Meta:
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["competition", "day", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(team__isnull=True, player__isnull=False) | Q(team__isnull=False, player__isnull=True),
                name="check_in_team_or_player",
            ),
            models.UniqueConstraint(fields=["competition", "day", "team"], name="check_in_team_once_a_day"),
            models.UniqueConstraint(fields=["competition", "day", "player"], name="check_in_player_once_a_day"),
        ]

    def __str__(self) -> str:
        return f"{self.competition_id} {self.day}: {self.team_id or self.player_id}"


# -- Championships ---------------------------------------------------------------------------------


class Championship(models.Model):
    """A chain of stages (club heats, district heats, a final) whose best pairs go on to the next
    stage (docs/rules.md, "Championships: qualification and carried points"). Each stage is played
    as one or more ordinary competitions, its heats; the championship's organiser runs them all.
    Written by the championship services only (scoring.services.championships)."""

    name = models.CharField(_("name"), max_length=150, validators=[no_control_characters])
    season = models.CharField(_("season"), max_length=20, help_text=_("For example 2026/27."),
                              validators=[no_control_characters])
    organiser = models.ForeignKey(
        Club, verbose_name=_("organising club"), on_delete=models.PROTECT, related_name="organised_championships"
    )
    is_public = models.BooleanField(_("public"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Moved by every championship service (scoring.services.locking): its page's ETag.
    edition = models.PositiveBigIntegerField(_("edition"), default=1, editable=False)

    class Meta:
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        ordering = ["-season", "name"]

    def __str__(self) -> str:
        return f"{self.name} {self.season}"


class ChampionshipStage(models.Model):
    """One stage of a championship, and who of it goes on to the next: the first `per_heat` of each
    heat and the best `best_of_rest` of the others across the heats, with a share of their points
    carried into the next stage's tables. Confirmed once by the organiser (`confirmed_at`)."""

    championship = models.ForeignKey(
        Championship, verbose_name=_("championship"), on_delete=models.CASCADE, related_name="stages"
    )
    number = models.PositiveSmallIntegerField(_("stage"))
    name = models.CharField(_("name"), max_length=80, validators=[no_control_characters])
    per_heat = models.PositiveSmallIntegerField(
        _("pairs going on from each heat"), default=0, help_text=_("The first N of each heat's table.")
    )
    best_of_rest = models.PositiveSmallIntegerField(
        _("best of the rest going on"), default=0,
        help_text=_("The best M of the other pairs, all heats ranked together."),
    )
    carry_points_percent = models.PositiveSmallIntegerField(
        _("share of match points carried on (%)"), default=0,
        validators=[MaxValueValidator(100)],
    )
    carry_cards_percent = models.PositiveSmallIntegerField(
        _("share of card points carried on (%)"), default=0,
        validators=[MaxValueValidator(100)],
    )
    starts_on = models.DateField(_("first day of play"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("qualified list confirmed"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("confirmed by"), on_delete=models.SET_NULL,
        null=True, blank=True, related_name="+",
    )  # fmt: skip

    class Meta:
        verbose_name = _("championship stage")
        verbose_name_plural = _("championship stages")
        ordering = ["championship", "number"]
        constraints = [
            models.UniqueConstraint(fields=["championship", "number"], name="stage_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="stage_number_positive"),
            models.CheckConstraint(
                condition=Q(carry_points_percent__lte=100) & Q(carry_cards_percent__lte=100),
                name="stage_carried_share_at_most_all",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ChampionshipHeat(models.Model):
    """A competition played as one heat of a stage. Heats of a stage may be played on the same
    night in different halls; they are ranked together for the best of the rest."""

    stage = models.ForeignKey(
        ChampionshipStage, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="heats"
    )
    competition = models.OneToOneField(
        Competition, verbose_name=_("competition"), on_delete=models.PROTECT, related_name="championship_heat"
    )

    class Meta:
        verbose_name = _("heat")
        verbose_name_plural = _("heats")
        ordering = ["stage", "competition__name", "id"]

    def __str__(self) -> str:
        return str(self.competition.name)


class StageWithdrawal(models.Model):
    """A pair that withdrew before its stage's qualified list was confirmed: it does not go on, and
    the next in line takes its place. The reason is kept (and logged)."""

    stage = models.ForeignKey(
        ChampionshipStage, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="withdrawals"
    )
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.CASCADE, related_name="+")
    reason = models.TextField(_("reason"))
    at = models.DateTimeField(_("when"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("by"), on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )  # fmt: skip

    class Meta:
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")
        ordering = ["stage", "at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "team"], name="withdrawal_once_per_stage"),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: {self.team}"


class StageQualifier(models.Model):
    """A pair that went on from a stage, as its organiser confirmed the list: why (its place in its
    heat, or its place among the best of the rest, or the place of a pair that withdrew), the heat
    of the next stage it entered, and the points it carried into that heat's table."""

    class Why(models.TextChoices):
        PLACE = "place", _("on its place in its heat")
        BEST_OF_REST = "best_of_rest", _("among the best of the rest")
        REPLACEMENT = "replacement", _("next in line for a pair that withdrew")

    stage = models.ForeignKey(
        ChampionshipStage, verbose_name=_("stage"), on_delete=models.CASCADE, related_name="qualifiers"
    )
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.PROTECT, related_name="qualifications")
    order = models.PositiveSmallIntegerField(_("order"))
    why = models.CharField(_("why"), max_length=20, choices=Why.choices)
    heat = models.ForeignKey(
        Competition, verbose_name=_("heat"), on_delete=models.PROTECT, related_name="+"
    )
    heat_rank = models.PositiveSmallIntegerField(_("place in its heat"))
    heat_tied = models.BooleanField(_("place shared"), default=False)
    # Among the best of the rest: the place taken and how many such places there were.
    rest_place = models.PositiveSmallIntegerField(_("place among the rest"), null=True, blank=True)
    rest_of = models.PositiveSmallIntegerField(_("places for the rest"), null=True, blank=True)
    replaces = models.ForeignKey(
        Team, verbose_name=_("replaces"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    entered = models.ForeignKey(
        Competition, verbose_name=_("entered heat"), on_delete=models.PROTECT, null=True, blank=True,
        related_name="carried_in",
    )  # fmt: skip
    carried_points = models.DecimalField(_("match points carried"), max_digits=7, decimal_places=1, default=0)
    carried_for = models.IntegerField(_("card points for carried"), default=0)
    carried_against = models.IntegerField(_("card points against carried"), default=0)

    class Meta:
        verbose_name = _("qualified pair")
        verbose_name_plural = _("qualified pairs")
        ordering = ["stage", "order"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "team"], name="qualifier_once_per_stage"),
        ]

    def __str__(self) -> str:
        return f"{self.stage}: {self.team}"
