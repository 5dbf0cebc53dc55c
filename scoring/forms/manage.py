"""Forms for setting up a club's league: players, teams, competitions, rounds and matches.

They validate what a secretary types, with messages that say what to do; the services
(scoring.services.manage) check rights and write.
"""

from __future__ import annotations

from django import forms
from django.db.models import Q
from django.contrib.auth import get_user_model
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring.models import Club, ClubStandingsOrder, Competition, Match, Player, Round, Team
from scoring.selectors.names import order_by_name

from .dates import UNREADABLE_DATE, DateInput


class UserChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, user):
        full_name = user.get_full_name()
        return f"{full_name} ({user.get_username()})" if full_name else user.get_username()


def player_label(player: Player) -> str:
    """A player as the choice lists name one: with the member number, where there is one."""
    if player.member_number:
        return _("%(name)s (member number %(number)s)") % {"name": player.name, "number": player.member_number}
    return player.name


class TeamChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, team):
        return f"{team.name} ({team.club.name})"


class PlayerForm(forms.ModelForm):
    class Meta:
        model = Player
        # The birth year and e-mail address are the club's member list's (docs/member-file.md):
        # only the club's secretaries see this form.
        fields = ["name", "member_number", "birth_year", "email"]
        error_messages = {"name": {"required": _("Write the player's name.")}}

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.same_name: list[Player] = []
        self.fields["member_number"].help_text = _("Optional; unique within the club.")
        self.fields["birth_year"].help_text = _("Optional. Seen by the club's secretaries only, like the e-mail address.")
        self.fields["email"].help_text = _("Optional.")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        # One person, one row: "Anna Berg" and "anna berg" are the same player to a reader. Two
        # members who do share a name are told apart by their member numbers.
        number = (self.data.get(self.add_prefix("member_number")) or "").strip()
        same = Player.objects.filter(club=self.club, name__iexact=name).exclude(pk=self.instance.pk)
        # The page offers, beside the refusal, what to do if they are one person (form.html):
        # open the player there is, or merge this one into it.
        self.same_name = list(same.order_by("pk"))
        if same.filter(member_number="").exists() or (not number and same.exists()):
            raise forms.ValidationError(
                _("The club already has a player called %(name)s. If they are two people, give both a member number.")
                % {"name": name}
            )
        return name

    def clean_member_number(self):
        number = (self.cleaned_data.get("member_number") or "").strip()
        if number and Player.objects.filter(club=self.club, member_number=number).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("Another player of the club has member number %(number)s.") % {"number": number})
        return number


class TeamForm(forms.ModelForm):
    captain = UserChoiceField(
        queryset=get_user_model().objects.none(),
        required=False,
        label=_("Captain"),
        help_text=_("The user who confirms the team's protocols. Optional."),
        empty_label=_("(no captain)"),
    )

    reserves = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        label=_("Reserves"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Players of the club who may play for the team besides its pair. Optional."),
    )

    class Meta:
        model = Team
        fields = ["name", "player_one", "player_two", "captain"]
        error_messages = {
            "name": {"required": _("Give the team a name.")},
            "player_one": {"required": _("Choose the first player.")},
            "player_two": {"required": _("Choose the second player.")},
        }

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        # An archived player is kept for old protocols, not paired into new teams.
        players = Player.objects.filter(club=club).filter(Q(archived=False) | Q(pk__in=[
            self.instance.player_one_id, self.instance.player_two_id,
        ])).order_by("name")
        self.fields["player_one"].queryset = players
        self.fields["player_two"].queryset = players
        # By name whatever its letter case, the Swedish way, with member numbers: "anna andersson"
        # beside "Anna Andersson", and two of one name told apart.
        ordered = [("", _("(choose a player)"))] + [(player.pk, player_label(player)) for player in order_by_name(players)]
        self.fields["player_one"].choices = ordered
        self.fields["player_two"].choices = ordered
        self.fields["captain"].queryset = self.captain_candidates(club, self.instance.captain_id)
        reserves = self.instance.reserves.all() if self.instance.pk else Player.objects.none()
        self.fields["reserves"].queryset = Player.objects.filter(club=club).filter(
            Q(archived=False) | Q(pk__in=reserves.values("pk"))).order_by("name")
        self.fields["reserves"].choices = [(player.pk, player_label(player)) for player in order_by_name(
            self.fields["reserves"].queryset)]
        if self.instance.pk:
            self.initial.setdefault("reserves", [player.pk for player in reserves])

    @staticmethod
    def captain_candidates(club: Club, current_id: int | None):
        """The club's own people (its players' accounts, its secretaries, its teams' captains) and
        accounts nobody has yet; never another club's people or the site's administrators, whose
        user names are not this club's to see."""
        own = Q(player__club=club) | Q(secretary_of=club) | Q(captain_of__club=club)
        unattached = Q(player__isnull=True, secretary_of__isnull=True, captain_of__isnull=True, is_superuser=False)
        users = get_user_model().objects.filter(is_active=True).filter(own | unattached | Q(pk=current_id))
        return users.distinct().order_by("first_name", "last_name", "username")

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if Team.objects.filter(club=self.club, name__iexact=name).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("The club already has a team called %(name)s.") % {"name": name})
        return name

    def clean(self):
        data = super().clean()
        one, two = data.get("player_one"), data.get("player_two")
        if one and two and one == two:
            self.add_error("player_two", _("Choose two different players: a team is a pair."))
        return data


class CompetitionForm(forms.ModelForm):
    teams = TeamChoiceField(
        queryset=Team.objects.none(),
        required=False,
        label=_("Teams"),
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The teams that play in the competition, from any club."),
    )

    class Meta:
        model = Competition
        fields = [
            "name",
            "season",
            "kind",
            "rules_key",
            "points_key",
            "requires_confirmation",
            "table_confirmation",
            "is_public",
            "has_club_standings",
            "club_standings_order",
            "team_players_min",
            "team_players_max",
            "one_team_per_player",
            "moves_need_approval",
            "reminder_days",
            "teams",
        ]
        error_messages = {
            "name": {"required": _("Give the competition a name.")},
            "season": {"required": _("Write the season, for example 2026/27.")},
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A club night's rotating partnerships play only there (services.invitations.refuse_rotating).
        self.fields["teams"].queryset = Team.objects.select_related("club").filter(
            Q(archived=False, rotating=False) | Q(pk__in=self.instance.teams.all() if self.instance.pk else [])
        ).order_by("club__name", "name")
        self.fields["rules_key"].help_text = _(
            "How deals are scored and checked. Matches already played keep the rules they were played under."
        )
        self.fields["points_key"].help_text = _(
            "Match points for a win, a draw and a loss, and the walk-over award. Matches already played keep "
            "the points they were given."
        )
        self.fields["table_confirmation"].help_text = _(
            "When both teams confirm the whole protocol at the table (the match's table link), the match is "
            "confirmed; otherwise the home club's secretary submits it as usual."
        )
        # Only a series with a club table needs it: a form sent without it keeps the usual order.
        self.fields["club_standings_order"].required = False
        # The enrolment rules (services.enrolment): a form sent without them keeps a pair per team.
        self.fields["team_players_min"].required = False
        self.fields["team_players_min"].min_value = 1
        self.fields["team_players_min"].help_text = _("2 for pairs. The pair and its reserves count.")
        self.fields["one_team_per_player"].help_text = _("Otherwise a player may play for two teams in it.")
        self.fields["moves_need_approval"].help_text = _(
            "When both teams agree to move a match to another day, the organiser approves it before it moves."
        )

    def clean_club_standings_order(self):
        return self.cleaned_data.get("club_standings_order") or ClubStandingsOrder.POINTS_CARDS

    def clean_team_players_min(self):
        return self.cleaned_data.get("team_players_min") or 2

    def clean(self):
        data = super().clean()
        low, high = data.get("team_players_min"), data.get("team_players_max")
        if low and high and high < low:
            self.add_error("team_players_max", _("The most players in a team cannot be fewer than the fewest."))
        return data


class RoundForm(forms.ModelForm):
    class Meta:
        model = Round
        fields = ["number", "date"]
        widgets = {"date": DateInput()}
        error_messages = {"number": {"required": _("Write the round's number.")}, "date": {"invalid": UNREADABLE_DATE}}

    def __init__(self, *args, competition: Competition, **kwargs):
        super().__init__(*args, **kwargs)
        self.competition = competition
        self.fields["number"].min_value = 1
        self.fields["number"].widget.attrs["min"] = 1
        self.fields["date"].required = False

    def clean_number(self):
        number = self.cleaned_data["number"]
        if number < 1:
            raise forms.ValidationError(_("Rounds are numbered from 1."))
        if Round.objects.filter(competition=self.competition, number=number).exclude(pk=self.instance.pk).exists():
            raise forms.ValidationError(_("The competition already has a round %(number)s.") % {"number": number})
        return number


class MatchForm(forms.Form):
    """When and where a match is played, and by whom. A plain form, not a model form: the services
    write the match (services.match_create, match_schedule_update); only the form's own checks run
    here, so no model validation of fields it does not hold (the competition)."""

    round = forms.ModelChoiceField(queryset=Round.objects.none(), required=False, label=capfirst(_("round")))
    table = forms.IntegerField(min_value=0, max_value=32767, required=False, label=capfirst(_("table")))
    home_team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        label=capfirst(_("home team")),
        error_messages={"required": _("Choose the home team.")},
    )
    away_team = forms.ModelChoiceField(
        queryset=Team.objects.none(),
        label=capfirst(_("away team")),
        error_messages={"required": _("Choose the away team.")},
    )
    scheduled_start = forms.DateTimeField(
        required=False,
        label=capfirst(_("scheduled start")),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, competition: Competition, match: Match | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.competition = competition
        self.match = match
        self.fields["round"].queryset = competition.rounds.order_by("number")
        self.fields["round"].empty_label = _("(no round)")
        teams = competition.teams.select_related("club").order_by("name")
        self.fields["home_team"].queryset = teams
        self.fields["away_team"].queryset = teams
        self.fields["home_team"].empty_label = _("(choose a team)")
        self.fields["away_team"].empty_label = _("(choose a team)")
        self.fields["home_team"].help_text = _("The home team keeps the protocol.")
        self.fields["scheduled_start"].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
        self.fields["scheduled_start"].error_messages["invalid"] = _(
            "Write a date and time, for example 2026-10-14 18:30."
        )
        self.fields["table"].widget.attrs["min"] = 1
        if match is not None:
            for name in ("round", "table", "home_team", "away_team", "scheduled_start", "version"):
                self.initial.setdefault(name, getattr(match, name))
            if match.deal_count or match.status not in Match.NOT_STARTED_STATUSES:
                for name in ("home_team", "away_team"):
                    self.fields[name].disabled = True
                    self.fields[name].help_text = _("The match has been played; its teams cannot change.")

    def clean(self):
        data = super().clean()
        home, away, round_, table = data.get("home_team"), data.get("away_team"), data.get("round"), data.get("table")
        if home and away and home == away:
            self.add_error("away_team", _("A team cannot play itself: choose two different teams."))
            return data
        if round_ and home and away:
            others = Match.objects.filter(round=round_)
            if self.match is not None:
                others = others.exclude(pk=self.match.pk)
            for team in (home, away):
                if others.filter(home_team=team).exists() or others.filter(away_team=team).exists():
                    field = "home_team" if team == home else "away_team"
                    self.add_error(field, _("%(team)s already plays a match in this round.") % {"team": team})
            if table is not None and others.filter(table=table).exists():
                self.add_error("table", _("Table %(table)s is already taken in this round.") % {"table": table})
        return data
