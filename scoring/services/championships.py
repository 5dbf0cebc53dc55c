"""Services for championships: a chain of stages, each played as one or more heats (ordinary
competitions), whose best pairs go on to the next stage (docs/rules.md, "Championships:
qualification and carried points").

- `championship_save`: create or change a championship (its organiser's secretaries, admins).
- `championship_stage_save`: add a stage or change its rule (who goes on, points carried).
- `championship_heat_add`: make a competition of the organiser's one of a stage's heats.
- `stage_withdrawal_add`: a pair that withdrew before the list was confirmed; the next in line
  takes its place, and the reason is logged.
- `stage_qualifiers_confirm`: once every heat of a stage is complete, the organiser confirms the
  list the engine proposes (selectors.championships): the pairs are entered into the next stage's
  heats (dealt to and fro, engine.qualification.seed_into_heats) with the points they carry, and
  the next stage's schedules are made by the schedule services.

Each takes the championship and every heat of it through the locks (services.locking), which
refuse a closed season and move the editions of the pages that show them, and writes the audit log.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.engine.qualification import seed_into_heats
from scoring.engine.standings import rank_teams
from scoring.models import (
    Championship,
    ChampionshipHeat,
    ChampionshipStage,
    Competition,
    StageQualifier,
    StageWithdrawal,
    Team,
)
from scoring.selectors import championships as reads
from scoring.selectors.manage import competition_has_play

from .audit import audit_log
from .errors import DomainError
from .locking import lock, lock_competition
from .schedules import schedule_generate_league, schedule_pair_next_round
from .standings import standings_refresh

__all__ = [
    "championship_heat_add",
    "championship_save",
    "championship_stage_save",
    "stage_qualifiers_confirm",
    "stage_withdrawal_add",
]


class ChampionshipArchivedError(DomainError):
    default_message = _("The season is closed: the championship is an archive and cannot be changed.")


class StaleQualifiersError(DomainError):
    default_message = _(
        "The qualified list changed after you opened it (a result or a withdrawal). Check the list as it is "
        "now and confirm again."
    )


def _require(user, championship: Championship) -> None:
    if not permissions.can_manage_championship(user, championship):
        raise PermissionDenied(_("You may not change this championship."))


def _lock_championship(user, championship: Championship) -> Championship:
    """The championship and every heat of it locked, their editions moved; refused in a closed
    season and for a user who does not manage it."""
    _require(user, championship)
    locked = lock(championship)
    _require(user, locked)
    if reads.championship_archived(locked):
        raise ChampionshipArchivedError(
            _("The season %(season)s is closed: %(championship)s is an archive and cannot be changed.")
            % {"season": locked.season, "championship": locked.name}
        )
    for competition in Competition.objects.filter(championship_heat__stage__championship=locked).order_by("pk"):
        lock_competition(competition)
    return locked


def _audit(user, action: str, championship: Championship, *, after=None, before=None, reason: str = "") -> None:
    audit_log(match=None, user=user, action=action, object_type="championship", object_id=championship.pk,
              before=before, after=after, reason=reason)  # fmt: skip


@transaction.atomic
def championship_save(*, user, championship: Championship) -> Championship:
    """Create or change a championship of a club the user manages."""
    _require(user, championship)
    before = None
    if championship.pk:
        stored = _lock_championship(user, Championship.objects.get(pk=championship.pk))
        before = {"name": stored.name, "season": stored.season, "public": stored.is_public}
        if stored.organiser_id != championship.organiser_id:
            raise DomainError(_("A championship stays with its organising club."))
        if stored.season != championship.season and stored.stages.filter(heats__isnull=False).exists():
            raise DomainError(_("The championship has heats of its season: it cannot move to another season."))
        championship.edition = stored.edition
    elif reads.championship_archived(championship):
        raise ChampionshipArchivedError(
            _("The season %(season)s is closed: no competition can be added to it or moved into it.")
            % {"season": championship.season}
        )
    championship.name = championship.name.strip()
    championship.save()
    locked = lock(championship)
    _audit(user, "championship_save", locked, before=before,
           after={"name": locked.name, "season": locked.season, "public": locked.is_public})  # fmt: skip
    return locked


def _rule(stage: ChampionshipStage) -> dict:
    return {"number": stage.number, "name": stage.name, "per_heat": stage.per_heat, "best_of_rest": stage.best_of_rest,
            "carry_points_percent": stage.carry_points_percent, "carry_cards_percent": stage.carry_cards_percent,
            "starts_on": stage.starts_on}  # fmt: skip


@transaction.atomic
def championship_stage_save(*, user, stage: ChampionshipStage) -> ChampionshipStage:
    """Add a stage after the last one, or change a stage's name, rule or first day. A stage whose
    list is confirmed keeps its rule: its pairs went on by it."""
    championship = _lock_championship(user, stage.championship)
    before = None
    if stage.pk:
        stored = ChampionshipStage.objects.get(pk=stage.pk, championship=championship)
        before = _rule(stored)
        if stored.confirmed_at is not None and _rule(stored) | {"name": "", "starts_on": None} != _rule(stage) | {
            "name": "", "starts_on": None
        }:
            raise DomainError(_("The stage's qualified list is confirmed: its rule cannot change any more."))
        stage.number, stage.confirmed_at, stage.confirmed_by = stored.number, stored.confirmed_at, stored.confirmed_by
    else:
        last = championship.stages.order_by("-number").first()
        stage.number = (last.number if last else 0) + 1
    if stage.carry_points_percent > 100 or stage.carry_cards_percent > 100:
        raise DomainError(_("A share carried on is at most 100 per cent."))
    stage.name = stage.name.strip()
    stage.championship = championship
    stage.save()
    _audit(user, "championship_stage_save", championship, before=before, after=_rule(stage))
    return stage


@transaction.atomic
def championship_heat_add(*, user, stage: ChampionshipStage, competition: Competition) -> ChampionshipHeat:
    """Make a competition one of a stage's heats: the championship organiser's own, of its season,
    of a kind that ranks pairs, a heat of no other stage, under the same points preset as the
    stage's other heats (they are ranked together)."""
    championship = _lock_championship(user, stage.championship)
    stage = ChampionshipStage.objects.get(pk=stage.pk, championship=championship)
    if stage.confirmed_at is not None:
        raise DomainError(_("The stage's qualified list is confirmed: its heats cannot change any more."))
    before = championship.stages.filter(number__lt=stage.number).order_by("-number").first()
    if before is not None and before.confirmed_at is not None:
        raise DomainError(_("The pairs of the stage before are entered already: add heats before confirming its list."))
    competition = lock_competition(competition)
    if competition.organiser_id != championship.organiser_id:
        raise DomainError(_("A heat is a competition of the championship's organiser."))
    if competition.season != championship.season:
        raise DomainError(_("A heat is played in the championship's season (%(season)s).") % {"season": championship.season})
    if competition.kind not in reads.HEAT_KINDS:
        raise DomainError(_("A heat is a league series or a tournament of pairs."))
    if ChampionshipHeat.objects.filter(competition=competition).exists():
        raise DomainError(_("%(competition)s is a heat already.") % {"competition": competition.name})
    first = stage.heats.select_related("competition").first()
    if first is not None and first.competition.points_key != competition.points_key:
        raise DomainError(_(
            "The heats of a stage are ranked together: %(competition)s must count matches as %(first)s does."
        ) % {"competition": competition.name, "first": first.competition.name})
    heat = ChampionshipHeat.objects.create(stage=stage, competition=competition)
    _audit(user, "championship_heat_add", championship, after={"stage": stage.number, "competition": competition.pk})
    return heat


@transaction.atomic
def stage_withdrawal_add(*, user, stage: ChampionshipStage, team: Team, reason: str) -> StageWithdrawal:
    """A pair of the stage withdraws before its list is confirmed: it does not go on, and the next
    in line takes its place."""
    championship = _lock_championship(user, stage.championship)
    stage = ChampionshipStage.objects.get(pk=stage.pk, championship=championship)
    if stage.confirmed_at is not None:
        raise DomainError(_("The stage's qualified list is confirmed already."))
    if not reason.strip():
        raise DomainError(_("Say why the pair withdrew."))
    if not Competition.objects.filter(championship_heat__stage=stage, teams=team).exists():
        raise DomainError(_("%(team)s plays in no heat of this stage.") % {"team": team.name})
    if stage.withdrawals.filter(team=team).exists():
        raise DomainError(_("%(team)s has withdrawn already.") % {"team": team.name})
    withdrawal = StageWithdrawal.objects.create(stage=stage, team=team, reason=reason.strip(), by=user if getattr(user, "pk", None) else None)
    _audit(user, "stage_withdrawal", championship, reason=reason.strip(),
           after={"stage": stage.number, "team": team.pk, "team_name": team.name})  # fmt: skip
    return withdrawal


@transaction.atomic
def stage_qualifiers_confirm(*, user, stage: ChampionshipStage, expected: Sequence[int]) -> list[StageQualifier]:
    """Confirm the stage's qualified list as the organiser saw it (`expected`: the team ids in
    order; refused if the list changed meanwhile), enter the pairs into the next stage's heats with
    what they carry, and make the next stage's schedules."""
    championship = _lock_championship(user, stage.championship)
    stage = ChampionshipStage.objects.select_related("championship").get(pk=stage.pk, championship=championship)
    if stage.confirmed_at is not None:
        raise DomainError(_("The stage's qualified list is confirmed already."))
    road = reads.stage_road(stage)
    if not road.heats:
        raise DomainError(_("The stage has no heats."))
    if not road.complete:
        raise DomainError(_("Every heat of the stage must be complete (every match with a result that counts) first."))
    following = road.next_stage
    if following is None or not road.sends_on:
        raise DomainError(_("Nobody goes on from this stage: it is the last, or its rule sends nobody."))
    next_heats = reads.stage_heats(following)
    if not next_heats:
        raise DomainError(_("Add the heats of %(stage)s first: the pairs going on are entered into them.")
                          % {"stage": following.name})
    for heat in next_heats:
        if competition_has_play(heat.competition):
            raise DomainError(_("%(competition)s has been played already.") % {"competition": heat.competition.name})
    if list(expected) != road.expected:
        raise StaleQualifiersError()
    qualifying = reads.stage_qualifying(stage)
    # The strongest pairs spread over the next heats: all of them ranked together, then dealt.
    order = [row.record.team_id for row in rank_teams([e.record for e in qualifying.going_on], road.tiebreaks)]
    seeded = seed_into_heats(order, len(next_heats))
    entered_heat = {team_id: next_heats[index].competition for index, ids in enumerate(seeded) for team_id in ids}
    qualifiers = []
    for number, entrant in enumerate(qualifying.going_on, start=1):
        carried = reads.carried_for(stage, entrant)
        qualifiers.append(StageQualifier(
            stage=stage, team_id=entrant.team_id, order=number, why=entrant.why, heat_id=entrant.heat_id,
            heat_rank=entrant.heat_rank, heat_tied=entrant.heat_tied, rest_place=entrant.rest_place,
            rest_of=entrant.rest_of, replaces_id=entrant.replaces, entered=entered_heat[entrant.team_id],
            carried_points=carried.points, carried_for=carried.card_points_for,
            carried_against=carried.card_points_against,
        ))  # fmt: skip
    StageQualifier.objects.bulk_create(qualifiers)
    teams = {team.pk: team for team in Team.objects.filter(pk__in=order)}
    for index, heat in enumerate(next_heats):
        competition = heat.competition
        competition.teams.set([teams[team_id] for team_id in seeded[index]])
        standings_refresh(competition=competition)  # the points carried in
        if competition.kind == Competition.Kind.LEAGUE:
            schedule_generate_league(competition=competition, user=user, start_date=following.starts_on)
        else:
            schedule_pair_next_round(competition=competition, user=user, on=following.starts_on)
    stage.confirmed_at = timezone.now()
    stage.confirmed_by = user if getattr(user, "pk", None) else None
    stage.save(update_fields=["confirmed_at", "confirmed_by"])
    _audit(user, "stage_qualifiers_confirm", championship, after={
        "stage": stage.number,
        "qualified": [{"team": line.team, "reason": line.reason, "entered": entered_heat[line.team_id].name,
                       "carried": [line.carried.points, line.carried.card_points_for, line.carried.card_points_against]}
                      for line in road.going_on],
        "withdrawn": [{"team": line.team, "reason": withdrawal.reason} for line, withdrawal in road.withdrawn],
    })  # fmt: skip
    return qualifiers
