"""Merging what was entered twice: a player into the same person's other row, a team into the
same pair's other team. Beside deleting (services.deleting), for what has been used: the
duplicate's teams, matches, substitutions, sign-ups and results move to the one kept, and the
duplicate is deleted, so its protocols and statistics count for the one kept.

A merge is refused when what it would make is not valid: a team of one player twice, a player on
both sides of a match or twice in one round, a team meeting itself or playing twice in one round,
two user accounts for one person, a team with results (its protocols name its players; the team
without results is merged into it). Two different member numbers for one person are a question,
not a refusal: the secretary says which one the player kept keeps (`member_number`).

`merge_plan` says what moves or why it cannot, for the confirmation page; `merge` does it in one
transaction, planning again under locks, and logs it in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from scoring import permissions
from scoring.models import Bye, Competition, Invitation, Match, Player, Round, Team, TeamStanding
from scoring.selectors import with_play
from scoring.selectors.merging import merge_archive, merge_competitions

from .locking import lock
from .audit import audit_log
from .errors import DomainError
from .seasons import archive_refusal, require_open
from .derived import derived_refresh


@dataclass
class MergePlan:
    kind: str  # "player" or "team"
    name: str  # the duplicate, which goes
    into: str  # the one kept
    moves: list[str] = field(default_factory=list)  # what moves to the one kept
    refusals: list[str] = field(default_factory=list)  # why it cannot be done
    # Players with two different member numbers: (the kept one's, the duplicate's); which one the
    # player kept keeps is asked, and `member_number` is the answer.
    member_numbers: tuple[str, ...] = ()
    member_number: str = ""

    @property
    def needs_member_number(self) -> bool:
        return bool(self.member_numbers) and self.member_number not in self.member_numbers

    @property
    def allowed(self) -> bool:
        return not self.refusals and not self.needs_member_number


def _match_name(match: Match) -> str:
    where = f" ({match.round})" if match.round_id else ""
    return f"{match.home_team.name} – {match.away_team.name}{where}"


def _matches(teams) -> Q:
    return Q(home_team__in=teams) | Q(away_team__in=teams)


def _round_name(round_: Round) -> str:
    return f"{round_} · {round_.competition}"


def merge_plan(duplicate, kept, *, member_number: str = "") -> MergePlan:
    """What merging `duplicate` into `kept` moves, or why it cannot be done. For two players with
    different member numbers, `member_number` is the one the player kept keeps (else it is asked)."""
    if isinstance(duplicate, Player) and isinstance(kept, Player):
        plan = _player_plan(duplicate, kept, member_number=member_number)
    elif isinstance(duplicate, Team) and isinstance(kept, Team):
        plan = _team_plan(duplicate, kept)
    else:
        raise TypeError((duplicate, kept))
    archive = merge_archive(duplicate, kept)
    if archive is not None:
        plan.refusals.append(archive_refusal([archive]))
    return plan


# -- players ------------------------------------------------------------------------------------


def _player_sides(match: Match, player_id: int) -> set[str]:
    """The sides of `match` on which the player plays, as one of the team's pair or its substitute."""
    sides = set()
    for side, team, substitute in (
        ("home", match.home_team, match.home_substitute_id),
        ("away", match.away_team, match.away_substitute_id),
    ):
        if player_id in (team.player_one_id, team.player_two_id, substitute):
            sides.add(side)
    return sides


def _player_plan(duplicate: Player, kept: Player, *, member_number: str = "") -> MergePlan:
    plan = MergePlan("player", duplicate.name, kept.name)
    if duplicate.pk == kept.pk:
        plan.refusals.append(_("Choose another player: a player cannot be merged into itself."))
        return plan
    if duplicate.club_id != kept.club_id:
        plan.refusals.append(_("Both players must be of the same club."))
        return plan
    names = {"duplicate": duplicate.name, "kept": kept.name}
    teams = list(Team.objects.filter(Q(player_one=duplicate) | Q(player_two=duplicate)).order_by("name"))
    for team in teams:
        if kept.pk in (team.player_one_id, team.player_two_id):
            plan.refusals.append(_(
                "%(duplicate)s and %(kept)s are the two players of %(team)s: merged, the team would be "
                "one player twice."
            ) % {**names, "team": team.name})
    both = Q(home_team__player_one__in=[duplicate, kept]) | Q(home_team__player_two__in=[duplicate, kept])
    both |= Q(away_team__player_one__in=[duplicate, kept]) | Q(away_team__player_two__in=[duplicate, kept])
    both |= Q(home_substitute__in=[duplicate, kept]) | Q(away_substitute__in=[duplicate, kept])
    matches = list(
        Match.objects.filter(both)
        .select_related("home_team", "away_team", "round__competition")
        .order_by("round__number", "pk")
    )
    rounds: dict[int, dict[str, set[int]]] = {}
    substitutions = []
    for match in matches:
        as_duplicate = _player_sides(match, duplicate.pk)
        as_kept = _player_sides(match, kept.pk)
        if as_duplicate and as_kept:
            if as_duplicate != as_kept or len(as_duplicate) > 1:
                plan.refusals.append(_(
                    "%(duplicate)s and %(kept)s play against each other in %(match)s: merged, one "
                    "player would meet themselves."
                ) % {**names, "match": _match_name(match)})
            else:
                plan.refusals.append(_(
                    "%(duplicate)s and %(kept)s both play for one side in %(match)s: merged, one player "
                    "would be there twice."
                ) % {**names, "match": _match_name(match)})
            continue
        if match.round_id:
            seen = rounds.setdefault(match.round_id, {"duplicate": set(), "kept": set()})
            if as_duplicate:
                seen["duplicate"].add(match.pk)
            if as_kept:
                seen["kept"].add(match.pk)
            if seen["duplicate"] and seen["kept"] and seen.get("refused") is None:
                seen["refused"] = True
                plan.refusals.append(_(
                    "%(duplicate)s and %(kept)s both play in %(round)s: merged, one player would play two "
                    "matches of the round."
                ) % {**names, "round": _round_name(match.round)})
        if duplicate.pk in (match.home_substitute_id, match.away_substitute_id):
            substitutions.append(match)
    if duplicate.user_id and kept.user_id:
        plan.refusals.append(_(
            "Both players have a user account: one person has one account. Ask the site's "
            "administrator to remove one first."
        ))
    if duplicate.member_number and kept.member_number and duplicate.member_number != kept.member_number:
        # One person entered twice may well have been given two numbers (the same-name rule asks
        # for them): the one kept keeps the number the secretary chooses.
        plan.member_numbers = (kept.member_number, duplicate.member_number)
        if member_number in plan.member_numbers:
            plan.member_number = member_number

    for team in teams:
        plan.moves.append(_("team %(team)s: %(kept)s plays in it instead of %(duplicate)s") % {**names, "team": team.name})
    played = with_play(Match.objects.filter(_matches(teams) | Q(home_substitute=duplicate) | Q(away_substitute=duplicate)))
    count = played.count()
    if count:
        plan.moves.append(ngettext(
            "%(count)s played match: its protocol and the statistics count for %(kept)s",
            "%(count)s played matches: their protocols and the statistics count for %(kept)s",
            count,
        ) % {"count": count, "kept": kept.name})
    for match in substitutions:
        plan.moves.append(_("substitute in %(match)s") % {"match": _match_name(match)})
    for competition in duplicate.individual_competitions.order_by("name"):
        plan.moves.append(_("signed up for %(competition)s") % {"competition": competition})
    for round_ in Round.objects.filter(sitting_out=duplicate).select_related("competition"):
        plan.moves.append(_("sitting out %(round)s") % {"round": _round_name(round_)})
    if duplicate.user_id and not kept.user_id:
        plan.moves.append(_("the user account %(user)s") % {"user": duplicate.user.get_username()})
    if duplicate.member_number and not kept.member_number:
        plan.moves.append(_("member number %(number)s") % {"number": duplicate.member_number})
    if plan.member_numbers and not plan.needs_member_number:
        other = next(number for number in plan.member_numbers if number != plan.member_number)
        plan.moves.append(_("member number %(number)s (%(other)s is given up)") % {
            "number": plan.member_number, "other": other})
    return plan


def _merge_players(duplicate: Player, kept: Player, member_number: str = "") -> set[int]:
    """Move every reference from `duplicate` to `kept`; the ids of the matches whose players changed."""
    teams = list(Team.objects.filter(Q(player_one=duplicate) | Q(player_two=duplicate)))
    touched = set(Match.objects.filter(_matches(teams)).values_list("pk", flat=True))
    touched |= set(
        Match.objects.filter(Q(home_substitute=duplicate) | Q(away_substitute=duplicate)).values_list("pk", flat=True)
    )
    Team.objects.filter(player_one=duplicate).update(player_one=kept)
    Team.objects.filter(player_two=duplicate).update(player_two=kept)
    Match.objects.filter(home_substitute=duplicate).update(home_substitute=kept)
    Match.objects.filter(away_substitute=duplicate).update(away_substitute=kept)
    for competition in duplicate.individual_competitions.all():
        competition.entrants.add(kept)
    for round_ in Round.objects.filter(sitting_out=duplicate):
        round_.sitting_out.add(kept)
    # One person, one row: what the kept row lacks it takes from the duplicate (an account, a
    # member number, a birth year, an e-mail address); it stays in use if either was.
    taken = []
    if duplicate.user_id and not kept.user_id:
        kept.user_id = duplicate.user_id
        taken.append("user")
    if duplicate.member_number and (not kept.member_number or member_number == duplicate.member_number):
        kept.member_number = duplicate.member_number
        taken.append("member_number")
    if taken:
        Player.objects.filter(pk=duplicate.pk).update(user=None, member_number="")
    kept.birth_year = kept.birth_year or duplicate.birth_year
    kept.email = kept.email or duplicate.email
    kept.archived = kept.archived and duplicate.archived
    kept.save(update_fields=["user", "member_number", "birth_year", "email", "archived"])
    return touched


# -- teams --------------------------------------------------------------------------------------


def _team_plan(duplicate: Team, kept: Team) -> MergePlan:
    plan = MergePlan("team", duplicate.name, kept.name)
    names = {"duplicate": duplicate.name, "kept": kept.name}
    if duplicate.pk == kept.pk:
        plan.refusals.append(_("Choose another team: a team cannot be merged into itself."))
        return plan
    if duplicate.club_id != kept.club_id:
        plan.refusals.append(_("Both teams must be of the same club."))
        return plan
    shared = Competition.objects.filter(teams=duplicate).filter(teams=kept)
    if not shared.exists():
        plan.refusals.append(_(
            "%(duplicate)s and %(kept)s take part in no competition together. A team entered by "
            "mistake with nothing to move is deleted instead."
        ) % names)
    matches = list(
        Match.objects.filter(_matches([duplicate]))
        .select_related("home_team", "away_team", "round__competition")
        .order_by("round__number", "pk")
    )
    duplicate_played = with_play(Match.objects.filter(_matches([duplicate]))).exists()
    kept_played = with_play(Match.objects.filter(_matches([kept]))).exists()
    if duplicate_played and kept_played:
        plan.refusals.append(_(
            "Both teams have results, and their protocols name their players: teams with results "
            "are not merged."
        ))
    elif duplicate_played:
        plan.refusals.append(_(
            "%(duplicate)s has results, %(kept)s has none: merge %(kept)s into %(duplicate)s instead, "
            "and rename it if need be."
        ) % names)
    kept_rounds = set(Match.objects.filter(_matches([kept]), round__isnull=False).values_list("round_id", flat=True))
    kept_rounds |= set(Bye.objects.filter(team=kept).values_list("round_id", flat=True))
    for match in matches:
        if kept.pk in (match.home_team_id, match.away_team_id):
            plan.refusals.append(_("%(match)s: merged, %(kept)s would meet itself.") % {
                **names, "match": _match_name(match)})
        elif match.round_id in kept_rounds:
            plan.refusals.append(_(
                "%(match)s: %(kept)s already plays in %(round)s, and a team plays once a round."
            ) % {**names, "match": _match_name(match), "round": _round_name(match.round)})
    byes = list(Bye.objects.filter(team=duplicate).select_related("round__competition"))
    for bye in byes:
        if bye.round_id in kept_rounds:
            plan.refusals.append(_(
                "The bye in %(round)s: %(kept)s already plays in that round, or has a bye in it."
            ) % {**names, "round": _round_name(bye.round)})

    for match in matches:
        plan.moves.append(_("match %(match)s, not played") % {"match": _match_name(match)})
    for bye in byes:
        plan.moves.append(_("the bye in %(round)s") % {"round": _round_name(bye.round)})
    for competition in duplicate.competitions.exclude(teams=kept).order_by("name"):
        plan.moves.append(_("its place in %(competition)s") % {"competition": competition})
    if duplicate.captain_id and not kept.captain_id:
        plan.moves.append(_("its captain, %(user)s") % {"user": duplicate.captain.get_username()})
    if {duplicate.player_one_id, duplicate.player_two_id} != {kept.player_one_id, kept.player_two_id}:
        plan.moves.append(_("%(kept)s keeps its players, %(one)s and %(two)s") % {
            "kept": kept.name, "one": kept.player_one.name, "two": kept.player_two.name})
    return plan


def _merge_teams(duplicate: Team, kept: Team) -> set[int]:
    touched = set(Match.objects.filter(_matches([duplicate])).values_list("pk", flat=True))
    Match.objects.filter(home_team=duplicate).update(home_team=kept)
    Match.objects.filter(away_team=duplicate).update(away_team=kept)
    Bye.objects.filter(team=duplicate).update(team=kept)
    for competition in duplicate.competitions.exclude(teams=kept):
        competition.teams.add(kept)
    for invitation in Invitation.objects.filter(team=duplicate):
        if Invitation.objects.filter(competition=invitation.competition_id, team=kept).exists():
            invitation.delete()
        else:
            Invitation.objects.filter(pk=invitation.pk).update(team=kept)
    TeamStanding.objects.filter(team=duplicate).delete()
    duplicate.competitions.clear()
    if duplicate.captain_id and not kept.captain_id:
        kept.captain_id = duplicate.captain_id
    kept.archived = kept.archived and duplicate.archived
    kept.save(update_fields=["captain", "archived"])
    return touched


# -- doing it -----------------------------------------------------------------------------------


@transaction.atomic
def merge(*, user, duplicate, kept, member_number: str = "") -> MergePlan:
    """Merge `duplicate` into `kept` (two players, or two teams): every reference moves to `kept`
    and `duplicate` is deleted. Refused (DomainError) when the result would not be valid, or when
    two players' different member numbers leave open which one is kept (`member_number`)."""
    model = type(duplicate)
    if model is not type(kept) or model not in (Player, Team):
        raise TypeError((duplicate, kept))
    if not (permissions.can_manage_club(user, duplicate.club) and permissions.can_manage_club(user, kept.club)):
        raise PermissionDenied(_("You may not change this."))
    # Both rows locked, in one order, and read again: the plan is made under the locks. Locking
    # moves the editions of where they appear, before the duplicate goes.
    try:
        locked = {obj.pk: lock(obj) for obj in sorted((duplicate, kept), key=lambda obj: obj.pk)}
    except model.DoesNotExist:
        raise DomainError(_("The player or team is gone: someone deleted it meanwhile.")) from None
    duplicate, kept = locked[duplicate.pk], locked[kept.pk]
    # A closed season's archive is refused as every service refuses it (SeasonClosedError), before
    # the plan, which says the same to the page that offers the merge.
    archive = merge_archive(duplicate, kept)
    if archive is not None:
        require_open(archive)
    plan = merge_plan(duplicate, kept, member_number=member_number)
    if plan.refusals:
        raise DomainError(" ".join(plan.refusals))
    if plan.needs_member_number:
        raise DomainError(_("Choose which member number %(kept)s keeps: %(one)s or %(two)s.") % {
            "kept": kept.name, "one": plan.member_numbers[0], "two": plan.member_numbers[1]})
    competitions = list(merge_competitions(duplicate, kept))
    touched = _merge_players(duplicate, kept, plan.member_number) if plan.kind == "player" else _merge_teams(duplicate, kept)
    # The matches now name other players or another team: a secretary's open form is stale.
    Match.objects.filter(pk__in=touched).update(version=F("version") + 1, updated_at=timezone.now())
    duplicate_pk = duplicate.pk
    duplicate.delete()
    # A merged pair's rows and figure sums are the kept one's; other players, or another pair's,
    # are on the rated sides of the touched matches.
    derived_refresh(competitions=competitions, matches=touched)
    audit_log(
        match=None, user=user, action=f"{plan.kind}_merge",
        before={"kind": plan.kind, "name": plan.name, "id": duplicate_pk, "into": plan.into, "moves": plan.moves},
        object_type=plan.kind, object_id=kept.pk,
    )  # fmt: skip
    return plan
