"""Demo data for a championship's road to the final: the district championship organised by Örebro,
whose club qualifiers (two heats played on the same nights, in Stockholm and in the south and west)
are finished and confirmed, and whose final is under way (its first round played, two ahead).
Every protocol, the qualified list and the final's schedule go through the services."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.utils import timezone

from scoring import services
from scoring.models import Championship, ChampionshipStage, Competition
from scoring.selectors.championships import stage_road

CHAMPIONSHIP_NAME = "Distriktsmästerskapet i par"
# The qualifiers: (heat, its pairs), played on the same three evenings.
HEATS = (
    ("DM-kval Stockholm", ("Älvsjö Jokrar", "Älvsjö Ess", "Åkersberga Kungar", "Åkersberga Knektar")),
    ("DM-kval Syd och Väst", ("Örebro Röda treor", "Örebro Damer", "Malmö Tior", "Malmö Tvåor")),
)
FINAL_NAME = "DM-final"


def delete(clubs) -> None:
    """The demo championship and its heats, for a replay (demo --reset)."""
    championships = Championship.objects.filter(name=CHAMPIONSHIP_NAME, organiser=clubs["orebro"])
    heats = list(Competition.objects.filter(championship_heat__stage__championship__in=championships).values_list("pk", flat=True))
    championships.delete()
    Competition.objects.filter(pk__in=heats).delete()


def championship(report, play_class, clubs, secretaries, teams, season: str, today: date, rng, evening) -> None:
    organiser, secretary = clubs["orebro"], secretaries["orebro"]
    found = Championship.objects.filter(name=CHAMPIONSHIP_NAME, season=season, organiser=organiser).first()
    if found is not None:
        return
    report.created = True
    first_day = today - timedelta(weeks=5)
    championship = services.championship_save(user=secretary, championship=Championship(
        name=CHAMPIONSHIP_NAME, season=season, organiser=organiser))
    qualifiers = services.championship_stage_save(user=secretary, stage=ChampionshipStage(
        championship=championship, name="Klubbkval", per_heat=1, best_of_rest=2, carry_points_percent=50,
        starts_on=first_day))
    final_stage = services.championship_stage_save(user=secretary, stage=ChampionshipStage(
        championship=championship, name="Final", starts_on=today - timedelta(days=3)))
    strengths = {team.pk: rng.uniform(-0.12, 0.12) for team in teams.values()}
    play = play_class(rng, {club.pk: secretaries[slug] for slug, club in clubs.items()}, strengths)
    heats = []
    for name, pairs in HEATS:
        heat = Competition.objects.create(
            name=name, season=season, organiser=organiser, kind=Competition.Kind.LEAGUE, rules_key="sv-tavling",
            points_key="sv-serie", requires_confirmation=True, is_public=True,
        )  # fmt: skip
        heat.teams.add(*[teams[pair] for pair in pairs])
        services.championship_heat_add(user=secretary, stage=qualifiers, competition=heat)
        services.schedule_generate_league(competition=heat, user=secretary, start_date=first_day, start_time=evening)
        heats.append(heat)
    final = Competition.objects.create(
        name=FINAL_NAME, season=season, organiser=organiser, kind=Competition.Kind.LEAGUE, rules_key="sv-tavling",
        points_key="sv-serie", requires_confirmation=True, is_public=True,
    )  # fmt: skip
    services.championship_heat_add(user=secretary, stage=final_stage, competition=final)
    for heat in heats:
        _play_rounds(play, heat, evening, rounds=None)
    # Both qualifiers are complete: the organiser confirms the list the site proposes.
    road = stage_road(qualifiers)
    services.stage_qualifiers_confirm(user=secretary, stage=qualifiers, expected=road.expected)
    _play_rounds(play, final, evening, rounds=1)
    report.competitions.extend([*heats, final])
    report.matches += play.matches
    report.deals += play.deals


def _play_rounds(play, competition, evening, *, rounds: int | None) -> None:
    for round_ in list(competition.rounds.order_by("number"))[:rounds]:
        for match in round_.matches.select_related("home_team", "away_team", "competition"):
            start = timezone.make_aware(datetime.combine(round_.date, evening)) + timedelta(minutes=match.table or 0)
            play.confirm(play.submit(play.play(match, start)))
