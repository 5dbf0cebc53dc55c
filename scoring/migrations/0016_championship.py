"""Championships: stages of heats, who goes on from each and what they carry (docs/rules.md,
"Championships: qualification and carried points")."""

import django.core.validators
import django.db.models.deletion
import scoring.validators
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_round_places"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Championship',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=150, validators=[scoring.validators.no_control_characters], verbose_name='name')),
                ('season', models.CharField(help_text='For example 2026/27.', max_length=20, validators=[scoring.validators.no_control_characters], verbose_name='season')),
                ('is_public', models.BooleanField(default=True, verbose_name='public')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('version', models.PositiveBigIntegerField(default=1, editable=False, verbose_name='version')),
                ('organiser', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='organised_championships', to='scoring.club', verbose_name='organising club')),
            ],
            options={
                'verbose_name': 'championship',
                'verbose_name_plural': 'championships',
                'ordering': ['-season', 'name'],
            },
        ),
        migrations.CreateModel(
            name='ChampionshipStage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField(verbose_name='stage')),
                ('name', models.CharField(max_length=80, validators=[scoring.validators.no_control_characters], verbose_name='name')),
                ('per_heat', models.PositiveSmallIntegerField(default=0, help_text="The first N of each heat's table.", verbose_name='pairs going on from each heat')),
                ('best_of_rest', models.PositiveSmallIntegerField(default=0, help_text='The best M of the other pairs, all heats ranked together.', verbose_name='best of the rest going on')),
                ('carry_points_percent', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100)], verbose_name='share of match points carried on (%)')),
                ('carry_cards_percent', models.PositiveSmallIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(100)], verbose_name='share of card points carried on (%)')),
                ('starts_on', models.DateField(blank=True, null=True, verbose_name='first day of play')),
                ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='qualified list confirmed')),
                ('championship', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stages', to='scoring.championship', verbose_name='championship')),
                ('confirmed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='confirmed by')),
            ],
            options={
                'verbose_name': 'championship stage',
                'verbose_name_plural': 'championship stages',
                'ordering': ['championship', 'number'],
            },
        ),
        migrations.CreateModel(
            name='ChampionshipHeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('competition', models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='championship_heat', to='scoring.competition', verbose_name='competition')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='heats', to='scoring.championshipstage', verbose_name='stage')),
            ],
            options={
                'verbose_name': 'heat',
                'verbose_name_plural': 'heats',
                'ordering': ['stage', 'competition__name', 'id'],
            },
        ),
        migrations.CreateModel(
            name='StageQualifier',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('order', models.PositiveSmallIntegerField(verbose_name='order')),
                ('why', models.CharField(choices=[('place', 'on its place in its heat'), ('best_of_rest', 'among the best of the rest'), ('replacement', 'next in line for a pair that withdrew')], max_length=20, verbose_name='why')),
                ('heat_rank', models.PositiveSmallIntegerField(verbose_name='place in its heat')),
                ('heat_tied', models.BooleanField(default=False, verbose_name='place shared')),
                ('rest_place', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='place among the rest')),
                ('rest_of', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='places for the rest')),
                ('carried_points', models.DecimalField(decimal_places=1, default=0, max_digits=7, verbose_name='match points carried')),
                ('carried_for', models.IntegerField(default=0, verbose_name='card points for carried')),
                ('carried_against', models.IntegerField(default=0, verbose_name='card points against carried')),
                ('entered', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='carried_in', to='scoring.competition', verbose_name='entered heat')),
                ('heat', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scoring.competition', verbose_name='heat')),
                ('replaces', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='scoring.team', verbose_name='replaces')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='qualifiers', to='scoring.championshipstage', verbose_name='stage')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='qualifications', to='scoring.team', verbose_name='team')),
            ],
            options={
                'verbose_name': 'qualified pair',
                'verbose_name_plural': 'qualified pairs',
                'ordering': ['stage', 'order'],
            },
        ),
        migrations.CreateModel(
            name='StageWithdrawal',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.TextField(verbose_name='reason')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='when')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='withdrawals', to='scoring.championshipstage', verbose_name='stage')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scoring.team', verbose_name='team')),
            ],
            options={
                'verbose_name': 'withdrawal',
                'verbose_name_plural': 'withdrawals',
                'ordering': ['stage', 'at', 'id'],
            },
        ),
        migrations.AddConstraint(
            model_name='championshipstage',
            constraint=models.UniqueConstraint(fields=('championship', 'number'), name='stage_number_unique'),
        ),
        migrations.AddConstraint(
            model_name='championshipstage',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='stage_number_positive'),
        ),
        migrations.AddConstraint(
            model_name='championshipstage',
            constraint=models.CheckConstraint(condition=models.Q(('carry_points_percent__lte', 100), ('carry_cards_percent__lte', 100)), name='stage_carried_share_at_most_all'),
        ),
        migrations.AddConstraint(
            model_name='stagequalifier',
            constraint=models.UniqueConstraint(fields=('stage', 'team'), name='qualifier_once_per_stage'),
        ),
        migrations.AddConstraint(
            model_name='stagewithdrawal',
            constraint=models.UniqueConstraint(fields=('stage', 'team'), name='withdrawal_once_per_stage'),
        ),
    ]
