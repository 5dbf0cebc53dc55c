"""`manage.py protocol import/export`: all or nothing, and export then import gives the same deals."""

import pytest
from django.core.management import call_command

from scoring.models import AuditEntry
from scoring.selectors.protocols import match_protocol
from tests import factories as f

pytestmark = pytest.mark.django_db

GOOD = """deal,home_cards,away_cards,home_natural,home_mixed,out
1,485,-40,2,1,home
2,485,-40,2,1,home
3,100,50,0,0,
"""


def run(*args):
    with pytest.raises(SystemExit) as exit_info:
        call_command("protocol", *args)
    return exit_info.value.code


def test_import_saves_every_deal_and_logs_it(tmp_path, capsys):
    match = f.protocol_setup()["match"]
    path = tmp_path / "p.csv"
    path.write_text(GOOD)
    call_command("protocol", "import", str(path), "--match", str(match.pk))
    match.refresh_from_db()
    assert match.deal_count == 3
    assert (match.home_total, match.away_total) == (3870, -30)
    assert AuditEntry.objects.filter(match=match, action__startswith="deals_import").exists()
    assert "3" in capsys.readouterr().out


def test_import_with_one_bad_deal_saves_nothing(tmp_path, capsys):
    match = f.protocol_setup()["match"]
    path = tmp_path / "p.csv"
    path.write_text(GOOD + "4,287,0,0,0,\n")
    assert run("import", str(path), "--match", str(match.pk)) == 1
    match.refresh_from_db()
    assert match.deal_count == 0 and match.deals.count() == 0
    assert "Giv 4" in capsys.readouterr().err


def test_import_of_an_unreadable_file_exits_2(tmp_path):
    match = f.protocol_setup()["match"]
    path = tmp_path / "p.csv"
    path.write_text("deal,home_cards,away_cards,colour\n1,0,0,red\n")
    assert run("import", str(path), "--match", str(match.pk)) == 2


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_export_then_import_gives_the_same_deals(tmp_path, fmt):
    match = f.protocol_setup()["match"]
    source = tmp_path / "in.csv"
    source.write_text(GOOD)
    call_command("protocol", "import", str(source), "--match", str(match.pk))
    exported = tmp_path / f"out.{fmt}"
    call_command("protocol", "export", "--match", str(match.pk), "--format", fmt, "-o", str(exported))
    fields = ["number", "home_cards", "away_cards", "home_natural", "home_mixed", "out", "end", "home_total", "away_total"]
    before = list(match.deals.values_list(*fields))
    second = f.make_match(home=match.home_team, away=match.away_team, competition=match.competition, round_number=2)
    call_command("protocol", "import", str(exported), "--match", str(second.pk))
    assert list(second.deals.values_list(*fields)) == before


def test_import_of_a_file_with_slips_of_arithmetic_saves_it_as_written(tmp_path, capsys):
    """docs/rules.md, "Revision 3": a written deal score or running total that does not add up is noted,
    not refused (rule 35 b); the computed numbers count and the written ones are kept."""
    match = f.protocol_setup()["match"]
    path = tmp_path / "p.csv"
    path.write_text(
        "deal,home_cards,away_cards,home_natural,home_mixed,out,home_score,home_total,away_total\n"
        "1,485,-40,2,1,home,1885,1885,-40\n"
        "2,485,-40,2,1,home,1885,3775,-80\n"  # 1 885 + 1 885 = 3 770: written 5 too high
        "3,100,50,0,0,,100,3875,-30\n"  # added up from the written 3 775
    )
    call_command("protocol", "import", str(path), "--match", str(match.pk))
    match.refresh_from_db()
    assert match.deal_count == 3
    assert (match.home_total, match.away_total) == (3870, -30)
    assert match.deals.get(number=2).home_total_written == 3775
    notes = [(note.number, note.problem.code, note.problem.side) for note in match_protocol(match).notes]
    assert notes == [(2, "total-mismatch", "home")]
    # The command lists the note as `protocol check` and the pages word it.
    assert "Giv 2, hemmalaget, summa: 1\u202f885 och givpoängen 1\u202f885 blir 3\u202f770, inte 3\u202f775" in capsys.readouterr().out
