"""docs/rules.md, "Revision 2", on the pages: an uploaded `time_up` file ends the match by the clock,
and the new warnings show on the protocol page for the captain as in the official protocol PDF.
The files and the commands are tests/commands/test_revision_2_files.py, whose match (`s`) and
files these use."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from scoring.engine import get_rules
from scoring.exports import pdf
from tests.commands.test_revision_2_files import TIME_UP, WARNED, assert_ended_by_the_clock, s  # noqa: F401 (s is a fixture)
from tests.support.readers import pdf_text


def test_upload_of_a_time_up_file_ends_the_match_by_the_clock(s, client):
    match = s["match"]
    client.force_login(s["secretary"])
    url = reverse("scoring:match-protocol-upload", args=[match.pk])
    checked = client.post(url, {"version": match.version, "file": SimpleUploadedFile("p.csv", TIME_UP.encode())})
    # The file is shown as it would be saved; saved when the preview is confirmed.
    save_form = checked.context["save_form"]
    client.post(
        reverse("scoring:match-protocol-upload-save", args=[match.pk]),
        {name: save_form[name].value() or "" for name in ("version", "checked", "reason")},
    )
    match.refresh_from_db()
    assert_ended_by_the_clock(match)


def test_the_new_warnings_show_on_the_page_for_the_captain_and_in_the_pdf(s, client, tmp_path):
    match = s["match"]
    path = tmp_path / "p.csv"
    path.write_text(WARNED)
    call_command("protocol", "import", str(path), "--match", str(match.pk))
    warning = "ett straff på 50 är inte en multipel av 100"

    client.force_login(s["away_captain"])
    page = client.get(reverse("scoring:match-protocol", args=[match.pk])).content.decode()
    assert warning in page
    assert "röda treor står skrivna" in page

    match.refresh_from_db()
    text = " ".join(pdf_text(pdf.match_protocol_pdf(match).content).split())
    assert warning in text
    assert get_rules("sv-tavling").red_three == 0

