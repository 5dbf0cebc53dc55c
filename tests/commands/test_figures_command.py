"""`manage.py figures`: the JSON of a pair, a player, a club, a competition and the federation, and
the readable lines; the season is tests/selectors/test_figures.py's."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scoring.selectors.figures import FIGURES
from tests.selectors.test_figures import build_season

pytestmark = pytest.mark.django_db


def _run(*args) -> str:
    out = StringIO()
    call_command("figures", *args, stdout=out)
    return out.getvalue()


def test_the_figures_as_json_and_as_lines():
    season = build_season()
    ab, m = season["teams"]["ab"], season["matches"]
    pair = json.loads(_run("--team", str(ab.pk), "--json"))
    assert pair["team"] == "Anna/Bo" and pair["club"] == "Canastaklubben Ess"
    assert [s["season"] for s in pair["seasons"]] == [None, "2026/27", "2025/26"]
    this = pair["seasons"][1]["figures"]
    assert set(this) == {f.key for f in FIGURES}
    assert (this["matches"], this["deals"], this["natural_per_deal"]) == (3, 16, 1.06)  # 17 in 16 deals
    assert this["concealed_share"] == 6.2 and this["red_threes_per_deal"] == 1 and this["target_minute"] == 42
    assert pair["seasons"][1]["federation"]["clock_share"] == 25
    player = json.loads(_run("--player", str(season["players"]["Anna"].pk), "--json"))
    assert player["seasons"][0]["figures"] == pair["seasons"][0]["figures"]
    club = json.loads(_run("--club", str(season["clubs"]["kung"].pk), "--json"))
    assert {r["team"] for r in club["records"]} == {"Eva/Filip"}
    competition = json.loads(_run("--competition", str(season["competitions"]["series"].pk), "--json"))
    assert [r["round"] for r in competition["rounds"]] == [1, 2, 3]
    assert [p["pair"] for p in competition["pairs"]] == ["Anna/Bo", "Cilla/Dan", "Eva/Filip"]
    federation = json.loads(_run("--json"))
    comeback = next(r for r in federation["records"] if r["record"] == "comeback")
    assert comeback == {"record": "comeback", "value": 3850, "team": "Anna/Bo", "opponent": "Eva/Filip",
                        "match": m["m2"].pk, "deal": 2, "competition": "Serien 2026/27"}
    lines = _run("--team", str(ab.pk))
    assert "Rena canastor per giv: 1,06 (Förbundets snitt:" in lines
    assert "Gick ut dolt, andel av givarna: 6\u00a0%" in lines
    with pytest.raises(CommandError):
        _run("--team", "999999")
