"""Django admin for the site's data, for site administrators.

Deals and match results are never edited here: every number of a protocol comes from the engine
through the services, which check the rules, lock the match and log the change. So deals and the
audit log are read-only, the computed fields of a match are read-only, and each match links to its
protocol page, where deals are entered and corrected. Competitions' rule and scoring overrides are
checked by the engine before they are saved; a team's players must be of its club.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.db import transaction
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from scoring import services
from scoring.engine.rules import get_points_rules, get_rules
from scoring.models import AuditEntry, Club, Competition, Deal, Match, Player, Round, Season, Team
from scoring.services import invitations
from scoring.services import seasons as season_services
from scoring.services.locking import move_editions

PROTOCOL_NOTE = _(
    "Deals and results are entered and corrected on the match's protocol page, where the rules are "
    "checked and every change is logged."
)


def protocol_link(match: Match) -> str:
    url = reverse("scoring:match-protocol", args=[match.pk])
    return format_html('<a href="{}">{}</a>', url, _("Open the protocol page"))


class VersionedAdmin(admin.ModelAdmin):
    """The admin writes rows past the services and knows no page a row was shown on: each write
    moves every page's editions (scoring.services.locking), in the admin's transaction."""

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        move_editions(everywhere=True)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        move_editions(everywhere=True)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            super().delete_queryset(request, queryset)
            move_editions(everywhere=True)


@admin.register(Club)
class ClubAdmin(VersionedAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    filter_horizontal = ["secretaries"]


@admin.register(Player)
class PlayerAdmin(VersionedAdmin):
    list_display = ["name", "club", "member_number", "user"]
    list_filter = ["club"]
    search_fields = ["name", "member_number"]
    autocomplete_fields = ["club"]
    raw_id_fields = ["user"]


class TeamAdminForm(forms.ModelForm):
    class Meta:
        model = Team
        fields = "__all__"

    def clean(self):
        data = super().clean()
        club = data.get("club")
        for name in ("player_one", "player_two"):
            player = data.get(name)
            if club and player and player.club_id != club.pk:
                self.add_error(name, _("Both players must belong to the team's club."))
        if data.get("player_one") and data.get("player_one") == data.get("player_two"):
            self.add_error("player_two", _("Choose two different players: a team is a pair."))
        return data


@admin.register(Team)
class TeamAdmin(VersionedAdmin):
    form = TeamAdminForm
    list_display = ["name", "club", "player_one", "player_two", "captain"]
    list_filter = ["club"]
    search_fields = ["name", "player_one__name", "player_two__name"]
    autocomplete_fields = ["club", "player_one", "player_two"]
    raw_id_fields = ["captain"]


def overrides_problem(preset, overrides) -> str | None:
    """Why overrides do not fit a preset (a RuleSet or PointsRules), or None when they do."""
    if not isinstance(overrides, dict):
        return str(_("Write the overrides as an object, for example {\"target\": 3000}."))
    known = {field.name for field in dataclass_fields(preset)} - {"key", "name"}
    for name, value in overrides.items():
        if name not in known:
            return str(_("Unknown setting “%(name)s”.") % {"name": name})
        default = getattr(preset, name)
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, (int, float)) or default is None:
            ok = value is None and default is None or (isinstance(value, (int, float)) and not isinstance(value, bool))
        elif isinstance(default, (tuple, list)):
            ok = isinstance(value, list)
        else:
            ok = isinstance(value, type(default))
        if not ok:
            return str(_("“%(name)s” has a value of the wrong kind.") % {"name": name})
    return None


# -- closed seasons: their competitions, rounds and matches are archives (services.seasons) ------


class ArchiveReadOnlyMixin:
    """A closed season's competition, and its rounds and matches, are shown read-only: no change,
    addition or deletion, and the page says why; a posted change is refused with the reason."""

    def competition_of(self, obj) -> Competition | None:
        return obj if isinstance(obj, Competition) else getattr(obj, "competition", None)

    def archived(self, obj) -> bool:
        competition = self.competition_of(obj) if obj is not None else None
        return bool(competition is not None and competition.archived)

    def has_change_permission(self, request, obj=None):
        return not self.archived(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self.archived(obj) and super().has_delete_permission(request, obj)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        refusal = season_services.archive_refusal([self.competition_of(obj)]) if self.archived(obj) else None
        if refusal and request.method == "POST":
            raise PermissionDenied(refusal)
        if refusal:
            self.message_user(request, refusal, messages.WARNING)
        return super().change_view(request, object_id, form_url, extra_context)

    def delete_queryset(self, request, queryset):
        # "Delete selected" asks has_delete_permission without the rows: each is checked here.
        refusal = season_services.archive_refusal(self.competition_of(obj) for obj in queryset)
        if refusal:
            raise season_services.SeasonClosedError(refusal)
        super().delete_queryset(request, queryset)


def closed_season_error(season: str | None, instance: Competition | None) -> str | None:
    """Why a competition may not be added to, or moved into, `season` (services.seasons)."""
    if not season or (instance is not None and instance.pk and instance.season == season):
        return None
    try:
        season_services.require_open_season(season)
    except season_services.SeasonClosedError as refusal:
        return refusal.message
    return None


class CompetitionAdminForm(forms.ModelForm):
    class Meta:
        model = Competition
        fields = "__all__"

    def clean(self):
        data = super().clean()
        refusal = closed_season_error(data.get("season"), self.instance)
        if refusal:
            self.add_error("season", refusal)
        if data.get("kind") and data.get("organiser") and data.get("teams") is not None:
            entered = set(self.instance.teams.values_list("pk", flat=True)) if self.instance.pk else set()
            probe = Competition(kind=data["kind"], organiser=data["organiser"])
            try:
                invitations.refuse_rotating(probe, [team for team in data["teams"] if team.pk not in entered])
            except services.DomainError as refusal:
                self.add_error("teams", refusal.message)
        checks = (
            ("rules_overrides", "rules_key", get_rules, lambda rules: (rules.opening_minimum(0), rules.opening_minimum(3000))),
            ("points_overrides", "points_key", get_points_rules, lambda points: points.match_points("win")),
        )
        for field, key_field, build, use in checks:
            key, overrides = data.get(key_field), data.get(field) or {}
            if key is None:
                continue
            problem = overrides_problem(build(key), overrides)
            if problem is None:
                try:
                    use(build(key, overrides))
                except (KeyError, TypeError, ValueError, IndexError) as error:
                    problem = str(error)
            if problem:
                self.add_error(field, ValidationError(_("Not accepted by the rules engine: %(problem)s") % {"problem": problem}))
        return data


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "date", "clock_started_at"]

    # `obj` is the competition: an archive's rounds are read-only with it.
    def has_add_permission(self, request, obj=None):
        return not (obj is not None and obj.archived) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not (obj is not None and obj.archived) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not (obj is not None and obj.archived) and super().has_delete_permission(request, obj)


@admin.register(Competition)
class CompetitionAdmin(ArchiveReadOnlyMixin, VersionedAdmin):
    form = CompetitionAdminForm
    list_display = ["name", "season", "kind", "organiser", "rules_key", "is_public"]
    list_filter = ["kind", "season", "is_public", "rules_key"]
    search_fields = ["name", "season", "organiser__name"]
    autocomplete_fields = ["organiser"]
    filter_horizontal = ["teams"]
    inlines = [RoundInline]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # The points rules, confirmation or teams may have changed: the stored table follows, and
        # the stored ratings (whether its results are public and final: services.rating), and its
        # figures' sums (which results are final, its rounds' dates: services.figures).
        with transaction.atomic():
            services.derived_refresh(competitions=[form.instance], matches=form.instance.matches.values_list("pk", flat=True))


class RoundAdminForm(forms.ModelForm):
    class Meta:
        model = Round
        fields = "__all__"

    def clean(self):
        data = super().clean()
        refusal = season_services.archive_refusal([data["competition"]]) if data.get("competition") else None
        if refusal:
            self.add_error("competition", refusal)
        return data


@admin.register(Round)
class RoundAdmin(ArchiveReadOnlyMixin, VersionedAdmin):
    form = RoundAdminForm
    list_display = ["__str__", "competition", "date"]
    list_filter = ["competition"]
    autocomplete_fields = ["competition"]

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # Its date is the month its results were played in, of the competition it is in now and of
        # the one it was in (services.figures).
        with transaction.atomic():
            moved_from = form.initial.get("competition")
            services.figures_refresh(competitions={form.instance.competition_id, moved_from} - {None})


class DealInline(admin.TabularInline):
    """The match's deals, read-only: they are entered on the protocol page."""

    model = Deal
    extra = 0
    can_delete = False
    fields = [
        "number", "home_cards", "home_natural", "home_mixed", "home_red3", "home_penalty", "home_score",
        "home_total", "away_cards", "away_natural", "away_mixed", "away_red3", "away_penalty", "away_score",
        "away_total", "out", "concealed", "end",
    ]  # fmt: skip
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


# What the services compute or the lifecycle sets: never typed in the admin.
MATCH_COMPUTED_FIELDS = [
    "status", "end", "clock_expired", "rules_snapshot", "points_snapshot", "started_at", "deal_count", "home_total",
    "away_total", "winner", "home_points", "away_points", "home_for", "home_against", "away_for",
    "away_against", "reason", "entered_by", "submitted_at", "confirmed_by", "confirmed_at", "version",
    "updated_at",
]  # fmt: skip


class MatchAdminForm(forms.ModelForm):
    class Meta:
        model = Match
        fields = "__all__"

    def clean(self):
        data = super().clean()
        instance = self.instance if self.instance.pk else None
        competition = data.get("competition") or (instance and instance.competition)
        home = data.get("home_team") or (instance and instance.home_team)
        away = data.get("away_team") or (instance and instance.away_team)
        round_ = data.get("round")
        if home and away and home == away:
            self.add_error("away_team", _("A team cannot play itself: choose two different teams."))
        if competition and home and away:
            entered = set(competition.teams.values_list("pk", flat=True))
            if home.pk not in entered or away.pk not in entered:
                self.add_error(None, _("Both teams must take part in the competition."))
        if round_ and competition and round_.competition_id != competition.pk:
            self.add_error("round", _("The round belongs to another competition."))
        refusal = season_services.archive_refusal([competition]) if competition else None
        if refusal:
            self.add_error(None, refusal)
        return data


@admin.register(Match)
class MatchAdmin(ArchiveReadOnlyMixin, VersionedAdmin):
    form = MatchAdminForm
    list_display = ["__str__", "competition", "round", "table", "status", "home_total", "away_total", "protocol"]
    list_filter = ["status", "competition"]
    search_fields = ["home_team__name", "away_team__name", "competition__name"]
    autocomplete_fields = ["competition", "home_team", "away_team", "home_substitute", "away_substitute"]
    readonly_fields = ["protocol", *MATCH_COMPUTED_FIELDS]
    inlines = [DealInline]
    fieldsets = [
        (None, {"fields": ["protocol", "competition", "round", "table", "home_team", "away_team",
                           "home_substitute", "away_substitute", "scheduled_start"]}),
        (_("Result (computed from the protocol)"), {"fields": MATCH_COMPUTED_FIELDS, "description": PROTOCOL_NOTE}),
    ]  # fmt: skip

    @admin.display(description=_("protocol"))
    def protocol(self, obj):
        if obj is None or obj.pk is None:
            return "–"
        return protocol_link(obj)

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and (obj.deal_count or obj.status not in Match.NOT_STARTED_STATUSES):
            # A played match keeps its competition and teams.
            fields += ["competition", "home_team", "away_team"]
        return fields

    def has_delete_permission(self, request, obj=None):
        # A match with deals or a result keeps its history; void it on the protocol page instead.
        if obj is not None and (obj.deal_count or obj.status not in Match.NOT_STARTED_STATUSES):
            return False
        return super().has_delete_permission(request, obj)

    def save_model(self, request, obj, form, change):
        """Through the services, so the change is checked and logged like any other."""
        data = form.cleaned_data
        common = {
            "user": request.user,
            "round": data.get("round"),
            "table": data.get("table"),
            "home_team": data.get("home_team") or obj.home_team,
            "away_team": data.get("away_team") or obj.away_team,
            "scheduled_start": data.get("scheduled_start"),
        }
        # The form's clean() foresees the services' refusals; one it did not (a change made
        # meanwhile) is the 409 page of any refusal (scoring.web.middleware.DomainErrorMiddleware): a
        # ValidationError raised here, after the form was checked, would be a server error.
        if change:
            saved = services.match_schedule_update(match=obj, expected_version=None, **common)
        else:
            saved = services.match_create(competition=data["competition"], **common)
        # Substitutes are not results: the admin may set them directly.
        Match.objects.filter(pk=saved.pk).update(
            home_substitute=data.get("home_substitute"), away_substitute=data.get("away_substitute")
        )
        obj.pk = saved.pk
        obj.refresh_from_db()


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the admin may look at but not add, change or delete."""

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields] + list(self.readonly_fields)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    """Read-only: deals are entered and corrected on the protocol page."""

    list_display = ["__str__", "match", "home_score", "away_score", "home_total", "away_total"]
    list_select_related = ["match__home_team", "match__away_team"]
    search_fields = ["match__home_team__name", "match__away_team__name"]
    readonly_fields = ["protocol"]

    @admin.display(description=_("protocol"))
    def protocol(self, obj):
        return protocol_link(obj.match)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    """The log is evidence: nobody edits or deletes it."""

    list_display = ["at", "user", "action", "match", "reason"]
    list_filter = ["action"]
    search_fields = ["reason", "action", "user__username"]
    date_hierarchy = "at"


# -- seasons: closed and reopened through the services, which archive their competitions ---------


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "closed_at", "closed_by"]
    readonly_fields = ["closed_at", "closed_by"]
    actions = ["close_seasons", "reopen_seasons"]

    def get_readonly_fields(self, request, obj=None):
        # A season's name ties it to its competitions: fixed once it exists.
        return [*self.readonly_fields, "name"] if obj else self.readonly_fields

    @admin.action(description=_("Close the chosen seasons (their competitions become read-only archives)"))
    def close_seasons(self, request, queryset):
        for season in queryset:
            try:
                season_services.season_close(name=season.name, user=request.user)
            except services.DomainError as error:
                self.message_user(request, error.message, level="error")
            else:
                self.message_user(request, _("The season %(season)s is closed.") % {"season": season.name})

    @admin.action(description=_("Reopen the chosen seasons"))
    def reopen_seasons(self, request, queryset):
        for season in queryset:
            try:
                season_services.season_reopen(
                    name=season.name, user=request.user, reason=str(_("Reopened in the admin site."))
                )
            except services.DomainError as error:
                self.message_user(request, error.message, level="error")
            else:
                self.message_user(request, _("The season %(season)s is open again.") % {"season": season.name})
