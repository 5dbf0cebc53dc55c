"""Reads of championships: their stages and heats, each stage's tables (each heat's, and all heats
ranked together), who goes on and why, the next in line, and a pair's road through them. One read
model (`ChampionshipRoad`, `StageRoad`) serves the public page, the organiser's page, the PDF and
the workbook.

Who goes on is the engine's (engine.qualification.who_goes_on) over the heats' tables as the
standings rank them (selectors.standings.competition_standings), so what the pages propose is what
the confirmation stores (docs/rules.md, "Championships: qualification and carried points"). Before
the organiser confirms a stage, its list is worked out from the tables as they stand; after, it is
the stored list (StageQualifier), which no later change of a heat's result moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from scoring import permissions
from scoring.engine.qualification import (
    BEST_OF_REST,
    PLACE,
    REPLACEMENT,
    Carried,
    Entrant,
    HeatTable,
    Qualifying,
    carried_share,
    who_goes_on,
)
from scoring.engine.standings import StandingRow, rank_teams
from scoring.models import (
    Championship,
    ChampionshipHeat,
    ChampionshipStage,
    Competition,
    Match,
    Season,
    StageQualifier,
    StageWithdrawal,
    Team,
)

from .counting import counted_q
from .standings import competition_standings

# The kinds of competition a heat may be: pairs ranked in a table (an individual competition ranks
# players, who go on alone, not as pairs).
HEAT_KINDS = (Competition.Kind.LEAGUE, Competition.Kind.TOURNAMENT)


# -- which championships ----------------------------------------------------------------------------


def visible_championships(user=None) -> QuerySet[Championship]:
    """Public championships, and those a signed-in organiser manages."""
    rows = Championship.objects.select_related("organiser")
    if permissions.is_site_admin(user):
        return rows
    return rows.filter(Q(is_public=True) | permissions.managed_by(user, "organiser"))


def get_visible_championship(pk: int, user=None) -> Championship:
    championship = visible_championships(user).filter(pk=pk).first()
    if championship is None:
        raise Http404
    return championship


def managed_championships(user) -> QuerySet[Championship]:
    """The championships the user manages (permissions.managed_by), the latest season first."""
    return Championship.objects.select_related("organiser").filter(permissions.managed_by(user, "organiser"))


def managed_stage(pk: int, user) -> ChampionshipStage:
    """A stage of a championship the user manages, or 404."""
    stage = ChampionshipStage.objects.select_related("championship", "championship__organiser").filter(pk=pk).first()
    if stage is None or not permissions.can_manage_championship(user, stage.championship):
        raise Http404
    return stage


def championship_archived(championship: Championship) -> bool:
    """A championship of a closed season is an archive, as its competitions are."""
    return Season.objects.filter(name=championship.season, closed_at__isnull=False).exists()


def heat_choices(championship: Championship) -> QuerySet[Competition]:
    """The competitions that may become a heat: the organiser's own of the championship's season,
    of a kind that ranks pairs, and not a heat already."""
    return Competition.objects.filter(
        organiser=championship.organiser_id, season=championship.season, kind__in=HEAT_KINDS,
        championship_heat__isnull=True, archived=False,
    ).order_by("name")  # fmt: skip


# -- a stage's tables ------------------------------------------------------------------------------


@dataclass
class HeatView:
    heat: ChampionshipHeat
    competition: Competition
    rows: list[StandingRow]
    complete: bool
    match_count: int


@dataclass
class CombinedRow:
    """A pair's line in the stage's combined table: all heats ranked together."""

    row: StandingRow
    heat: Competition
    heat_rank_label: str


@dataclass
class QualifiedLine:
    """A pair going on (or next in line, or withdrawn) with why, in words."""

    order: int
    team_id: int
    team: str
    heat: Competition
    heat_rank_label: str
    why: str
    reason: str
    carried: Carried
    entered: Competition | None = None
    tied_at_line: bool = False


@dataclass
class StageRoad:
    stage: ChampionshipStage
    heats: list[HeatView]
    combined: list[CombinedRow]
    complete: bool
    confirmed: bool
    # "confirmed": the stored list; "proposed": every heat complete, waiting for the organiser;
    # "as it stands": worked out from the tables so far.
    state: str
    going_on: list[QualifiedLine] = field(default_factory=list)
    next_in_line: list[QualifiedLine] = field(default_factory=list)
    withdrawn: list[tuple[QualifiedLine, StageWithdrawal]] = field(default_factory=list)
    next_stage: ChampionshipStage | None = None
    tiebreaks: tuple[str, ...] = ()
    carried_in: bool = False  # its tables count points carried from the stage before

    @property
    def carries(self) -> tuple[bool, bool]:
        """Whether the stage carries match points, and card points, into the next."""
        return bool(self.stage.carry_points_percent), bool(self.stage.carry_cards_percent)

    @property
    def sends_on(self) -> bool:
        """Whether anybody goes on from this stage (the final sends nobody)."""
        return self.next_stage is not None and (self.stage.per_heat or self.stage.best_of_rest)

    @property
    def expected(self) -> list[int]:
        """The team ids of the list as shown: the confirmation is refused if it changed meanwhile."""
        return [line.team_id for line in self.going_on]


@dataclass
class ChampionshipRoad:
    championship: Championship
    stages: list[StageRoad]
    archived: bool


def heat_complete(competition: Competition) -> bool:
    """Every match of the heat has a result that counts, or is void; and it has matches."""
    matches = Match.objects.filter(competition=competition)
    if not matches.exists():
        return False
    return not matches.exclude(counted_q(competition)).exclude(status=Match.Status.VOID).exists()


def stage_heats(stage: ChampionshipStage) -> list[ChampionshipHeat]:
    return list(stage.heats.select_related("competition", "competition__organiser").order_by("competition__name", "id"))


def stage_tiebreaks(heats: list[ChampionshipHeat]) -> tuple[str, ...]:
    """The stage's standings order: its heats' (a stage's heats share a points preset,
    services.championships)."""
    if not heats:
        return ("points", "card_points_for", "difference", "name")
    return tuple(heats[0].competition.points_rules.tiebreaks)


def _heat_view(heat: ChampionshipHeat) -> HeatView:
    competition = heat.competition
    return HeatView(
        heat=heat, competition=competition, rows=competition_standings(competition),
        complete=heat_complete(competition), match_count=Match.objects.filter(competition=competition).count(),
    )  # fmt: skip


def _combined(heats: list[HeatView], tiebreaks) -> list[CombinedRow]:
    heat_of, label_of = {}, {}
    records = []
    for view in heats:
        for row in view.rows:
            heat_of[row.record.team_id] = view.competition
            label_of[row.record.team_id] = row.rank_label
            records.append(row.record)
    return [
        CombinedRow(row=row, heat=heat_of[row.record.team_id], heat_rank_label=label_of[row.record.team_id])
        for row in rank_teams(records, tiebreaks)
    ]


def _reason(entrant: Entrant, stage: ChampionshipStage, heat_name: str, names: dict) -> str:
    place = f"{entrant.heat_rank}=" if entrant.heat_tied else str(entrant.heat_rank)
    at_heat = {"place": place, "heat": heat_name}
    if entrant.why == PLACE:
        text = _("Place %(place)s in %(heat)s") % at_heat
    elif entrant.why == BEST_OF_REST:
        words = {"n": entrant.rest_place, "of": entrant.rest_of, **at_heat}
        if entrant.heat_rank == stage.per_heat + 1:
            text = _("Best runner-up, %(n)s of %(of)s (place %(place)s in %(heat)s)") % words
        else:
            text = _("Best of the rest, %(n)s of %(of)s (place %(place)s in %(heat)s)") % words
    elif entrant.why == REPLACEMENT:
        text = _("Next in line in the place of %(team)s, who withdrew (place %(place)s in %(heat)s)") % {
            "team": names.get(entrant.replaces, ""), **at_heat}
    else:  # next in line: the list's order is their turn
        text = _("Place %(place)s in %(heat)s") % at_heat
    if entrant.tied_at_line:
        text += " " + _("Shared place at the line: the table's order decided.")
    return text


def stage_qualifying(stage: ChampionshipStage, heats: list[HeatView] | None = None) -> Qualifying:
    """The engine's answer for the stage as its tables stand (services.championships confirms it)."""
    if heats is None:
        heats = [_heat_view(heat) for heat in stage_heats(stage)]
    withdrawn = set(stage.withdrawals.values_list("team_id", flat=True))
    return who_goes_on(
        [HeatTable(view.competition.pk, view.rows) for view in heats],
        per_heat=stage.per_heat, best_of_rest=stage.best_of_rest,
        tiebreaks=stage_tiebreaks([view.heat for view in heats]), withdrawn=withdrawn,
    )  # fmt: skip


def carried_for(stage: ChampionshipStage, entrant: Entrant) -> Carried:
    return carried_share(entrant.record, points_percent=stage.carry_points_percent,
                         cards_percent=stage.carry_cards_percent)  # fmt: skip


def next_stage(stage: ChampionshipStage) -> ChampionshipStage | None:
    return stage.championship.stages.filter(number__gt=stage.number).order_by("number").first()


def stage_road(stage: ChampionshipStage) -> StageRoad:
    """A stage as its pages show it: its heats' tables, the combined table, who goes on and why,
    the next in line, and the pairs that withdrew."""
    heats = [_heat_view(heat) for heat in stage_heats(stage)]
    tiebreaks = stage_tiebreaks([view.heat for view in heats])
    complete = bool(heats) and all(view.complete for view in heats)
    confirmed = stage.confirmed_at is not None
    road = StageRoad(
        stage=stage, heats=heats, combined=_combined(heats, tiebreaks), complete=complete, confirmed=confirmed,
        state="confirmed" if confirmed else ("proposed" if complete else "as it stands"),
        next_stage=next_stage(stage), tiebreaks=tiebreaks,
        carried_in=StageQualifier.objects.filter(entered__championship_heat__stage=stage).exclude(
            carried_points=0, carried_for=0, carried_against=0).exists(),
    )  # fmt: skip
    if not road.sends_on:
        return road
    heat_names = {view.competition.pk: view.competition.name for view in heats}
    names = {row.record.team_id: row.record.name for view in heats for row in view.rows}
    qualifying = stage_qualifying(stage, heats)
    withdrawals = {w.team_id: w for w in stage.withdrawals.select_related("team")}

    def line(order, entrant, entered=None, carried=None):
        return QualifiedLine(
            order=order, team_id=entrant.team_id, team=entrant.record.name, heat=_heat(heats, entrant.heat_id),
            heat_rank_label=f"{entrant.heat_rank}=" if entrant.heat_tied else str(entrant.heat_rank),
            why=entrant.why, reason=_reason(entrant, stage, heat_names.get(entrant.heat_id, ""), names),
            carried=carried if carried is not None else carried_for(stage, entrant), entered=entered,
            tied_at_line=entrant.tied_at_line,
        )  # fmt: skip

    if confirmed:
        road.going_on = [_stored_line(q, stage, heat_names, names) for q in stage_stored_qualifiers(stage)]
    else:
        road.going_on = [line(n, entrant) for n, entrant in enumerate(qualifying.going_on, start=1)]
    road.next_in_line = [line(n, entrant) for n, entrant in enumerate(qualifying.next_in_line, start=1)]
    road.withdrawn = [(line(n, entrant), withdrawals[entrant.team_id])
                      for n, entrant in enumerate(qualifying.withdrawn, start=1)]  # fmt: skip
    return road


def _heat(heats: list[HeatView], heat_id) -> Competition:
    return next(view.competition for view in heats if view.competition.pk == heat_id)


def stage_stored_qualifiers(stage: ChampionshipStage) -> list[StageQualifier]:
    return list(stage.qualifiers.select_related("team", "heat", "entered", "replaces").order_by("order"))


def _stored_line(qualifier: StageQualifier, stage, heat_names, names) -> QualifiedLine:
    entrant = Entrant(
        record=_NamedRecord(qualifier.team_id, qualifier.team.name),
        heat_id=qualifier.heat_id, heat_rank=qualifier.heat_rank, heat_tied=qualifier.heat_tied, why=qualifier.why,
        rest_place=qualifier.rest_place, rest_of=qualifier.rest_of, replaces=qualifier.replaces_id,
    )  # fmt: skip
    names = {**names, **({qualifier.replaces_id: qualifier.replaces.name} if qualifier.replaces_id else {})}
    return QualifiedLine(
        order=qualifier.order, team_id=qualifier.team_id, team=qualifier.team.name, heat=qualifier.heat,
        heat_rank_label=f"{qualifier.heat_rank}=" if qualifier.heat_tied else str(qualifier.heat_rank),
        why=qualifier.why, reason=_reason(entrant, stage, heat_names.get(qualifier.heat_id, qualifier.heat.name), names),
        carried=Carried(qualifier.carried_points, qualifier.carried_for, qualifier.carried_against),
        entered=qualifier.entered,
    )  # fmt: skip


@dataclass(frozen=True)
class _NamedRecord:
    team_id: Any
    name: str


def championship_road(championship: Championship) -> ChampionshipRoad:
    """The championship page's read model: every stage in order ("Vägen till finalen")."""
    stages = list(championship.stages.select_related("championship").order_by("number"))
    return ChampionshipRoad(
        championship=championship, stages=[stage_road(stage) for stage in stages],
        archived=championship_archived(championship),
    )  # fmt: skip


def stage_for_documents(pk: int, user=None) -> StageRoad:
    """A stage of a visible championship, for its qualified list's PDF and workbook."""
    stage = ChampionshipStage.objects.select_related("championship", "championship__organiser").filter(pk=pk).first()
    if stage is None or not visible_championships(user).filter(pk=stage.championship_id).exists():
        raise Http404
    return stage_road(stage)


# -- a pair's road --------------------------------------------------------------------------------


@dataclass
class RoadStep:
    championship: Championship
    stage: ChampionshipStage
    heat: Competition
    rank_label: str  # "" before its first result
    went_on: StageQualifier | None
    carried_in: StageQualifier | None  # with points carried, if any


def team_road(team: Team) -> list[RoadStep]:
    """The heats of public championships a pair played, stage by stage: its place there, whether
    (and why) it went on, and what it carried in."""
    heats = list(
        ChampionshipHeat.objects.filter(competition__teams=team, stage__championship__is_public=True)
        .select_related("competition", "stage", "stage__championship")
        .order_by("stage__championship__season", "stage__championship__name", "stage__number")
    )
    if not heats:
        return []
    qualifiers = list(StageQualifier.objects.filter(team=team).select_related("entered"))  # one query for both
    went_on = {q.stage_id: q for q in qualifiers}
    carried_in = {q.entered_id: q for q in qualifiers if q.entered_id is not None}
    steps = []
    for heat in heats:
        rows = competition_standings(heat.competition)
        row = next((row for row in rows if row.record.team_id == team.pk), None)
        carried = carried_in.get(heat.competition_id)
        steps.append(RoadStep(
            championship=heat.stage.championship, stage=heat.stage, heat=heat.competition,
            rank_label=row.rank_label if row is not None and row.record.played else "", went_on=went_on.get(heat.stage_id),
            carried_in=carried if carried is not None and (carried.carried_points or carried.carried_for) else None,
        ))  # fmt: skip
    return steps


def heat_championship(competition: Competition) -> ChampionshipHeat | None:
    """The championship stage a competition is a heat of, if any (its page links there)."""
    return ChampionshipHeat.objects.filter(competition=competition).select_related(
        "stage", "stage__championship").first()


# -- the words a page and a document share --------------------------------------------------------


def stage_rule_text(stage: ChampionshipStage) -> str:
    """Who goes on from the stage, and what is carried, in one sentence or two."""
    if not stage.per_heat and not stage.best_of_rest:
        return _("Nobody goes on from this stage.")
    parts = []
    if stage.per_heat == 1:
        parts.append(_("The winner of each heat goes on."))
    elif stage.per_heat:
        parts.append(_("The first %(n)s of each heat go on.") % {"n": stage.per_heat})
    if stage.best_of_rest:
        parts.append(_("Then the best %(m)s of the other pairs, all heats ranked together.") % {"m": stage.best_of_rest})
    if stage.carry_points_percent and stage.carry_cards_percent:
        parts.append(_("Carried into the next stage's table: %(points)s %% of the match points and %(cards)s %% of "
                       "the card points.") % {"points": stage.carry_points_percent, "cards": stage.carry_cards_percent})
    elif stage.carry_points_percent:
        parts.append(_("Carried into the next stage's table: %(points)s %% of the match points.")
                     % {"points": stage.carry_points_percent})
    elif stage.carry_cards_percent:
        parts.append(_("Carried into the next stage's table: %(cards)s %% of the card points.")
                     % {"cards": stage.carry_cards_percent})
    return " ".join(parts)


def stage_state_text(road: StageRoad) -> str:
    if road.state == "confirmed":
        return _("Confirmed by the organiser.")
    if road.state == "proposed":
        return _("Every heat is complete: the list waits for the organiser's confirmation.")
    return _("The heats are still played: the list as the tables stand now.")


def championship_rows() -> QuerySet[Championship]:
    """Championships with their organiser (a management page's row, its right checked after)."""
    return Championship.objects.select_related("organiser")


def stage_rows() -> QuerySet[ChampionshipStage]:
    return ChampionshipStage.objects.select_related("championship", "championship__organiser")


def archive_text(championship: Championship) -> str | None:
    """Why nothing of a championship can change: its season is closed (or None)."""
    if championship_archived(championship):
        return _("The season %(season)s is closed: %(championship)s is an archive and cannot be changed.") % {
            "season": championship.season, "championship": championship.name}
    return None


def team_row(pk: int) -> Team:
    return Team.objects.get(pk=pk)


def championships_newest_first(user=None) -> list[Championship]:
    """The visible championships, the latest season first, then by name."""
    return list(visible_championships(user).order_by("-season", "name"))
