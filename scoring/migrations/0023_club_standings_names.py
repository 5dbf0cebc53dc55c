"""The club table (klubbtabell) is named club standings in the code: "table" is left to the table a
match is played at (scoring.selectors.club_standings)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("scoring", "0022_page_editions")]

    operations = [
        migrations.RenameField(model_name="competition", old_name="has_club_table", new_name="has_club_standings"),
        migrations.RenameField(model_name="competition", old_name="club_table_order", new_name="club_standings_order"),
    ]
