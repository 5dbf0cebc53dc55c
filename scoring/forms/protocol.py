"""Forms of the protocol page: one deal (giv) as written on the paper protocol, its correction, and
the small forms of the match lifecycle (start, walk over, postpone, void, submit, confirm, reopen,
upload a protocol file).

Field names are the protocol file's column names (docs/protocol-file.md: home_cards, away_natural, out, end …),
so a Problem from the engine, which names its field by column, lands next to the input it concerns.
Counts and penalties left empty mean 0 (their fields are empty, with a 0 shown as a placeholder, so
that a tap and 45 typed give 45, never 450); card points must be written, 0 included, for a deal to
be saved (the live check of a deal still being typed counts them 0: `CHECKING`). The form turns
what was typed into the engine's DealEntry and never computes a score itself.
"""

from __future__ import annotations

from datetime import datetime

from django import forms
from django.forms.renderers import Jinja2
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _, ngettext, pgettext_lazy

from scoring.adapters import minutes_between
from scoring.engine import DEFAULT_RULES_KEY, SIDE_NUMBERS, SIDES, WRITTEN_FIELDS, DealEntry, RuleSet, SideEntry, get_rules
from scoring.engine.deal import canasta_counts
from scoring.files.protocol_file import ProtocolFileError, parse_number
from scoring.formatting import format_number
from scoring.models import Deal, Match

# Per side, in the order of the paper protocol (and of the Tab key).
COUNT_FIELDS = SIDE_NUMBERS
# Per side, the counts its canasta points came to ("3:0"), carried by the page (CanastaPoints).
CANASTA_MARKS = tuple(f"{side}_canastas" for side in SIDES)
UPLOAD_LIMIT_BYTES = 1024 * 1024

MELDED_CHOICES = [
    ("", _("As the entries say")),
    ("yes", _("Yes")),
    ("no", _("No, nothing melded")),
]


def _number_input(*, autofocus: bool = False) -> forms.NumberInput:
    attrs = {"class": "num", "autocomplete": "off", "inputmode": "numeric"}
    if autofocus:
        attrs["autofocus"] = True
    return forms.NumberInput(attrs=attrs)


# Numbers that may be below zero (card points −65, a deal score, a running total): a phone's
# numeric keypad (inputmode "numeric" or "decimal") has no minus key, so these fields ask for the
# keyboard that has one, and take the text as a protocol file does (engine parse_number: −65,
# -65, 1 187), which names a slip instead of the browser quietly emptying the field.
SIGNED_FIELDS = tuple(f"{side}_{name}" for side in SIDES for name in ("cards", "score", "total"))


def _signed_number_input() -> forms.TextInput:
    return forms.TextInput(attrs={
        "class": "num", "autocomplete": "off", "inputmode": "text", "autocapitalize": "off",
        "spellcheck": "false", "pattern": "[−+\\-]?[0-9 \u202f]*",
    })  # fmt: skip


class ProtocolNumberField(forms.Field):
    """A whole number, read as a protocol file reads it (engine.protocol_file.parse_number: the same
    numbers are accepted on the page and in a file, and the same refused); empty means
    `empty_value` (0 for counts, None for the optional columns)."""

    default_error_messages = {
        "invalid": _("Write a whole number, for example 0, 120 or −40."),
        "too_large": _("The number is far too large for a protocol."),
    }

    def __init__(self, *, empty_value=0, **kwargs):
        self.blank_value = empty_value
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", _number_input())
        super().__init__(**kwargs)

    def to_python(self, value):
        try:
            number = parse_number(value)
        except ProtocolFileError as error:
            code = "too_large" if error.code == "number-too-large" else "invalid"
            raise forms.ValidationError(self.error_messages[code], code=code) from None
        return self.blank_value if number is None else number


class MinuteField(ProtocolNumberField):
    """The minute of the match a deal was dealt (docs/protocol-file.md, "Rows and columns": `dealt`)."""

    default_error_messages = {"negative": _("Write the minute of the match, counted from 0 when it started.")}

    def validate(self, value):
        super().validate(value)
        if value is not None and value < 0:
            raise forms.ValidationError(self.error_messages["negative"], code="negative")


# Every deal on the paper has both sides' card points, 0 included: an empty one is a line not yet
# copied, never a 0 (place_problems names the deal and the side beside the field).
CARD_POINTS_REQUIRED = _("Write the card points as the paper has them, 0 too.")
# Posted by the pages' live check (protocol.js; the table page's hx-vals) with the deal as typed
# so far: a side's card points not yet written count as 0 there, so that the engine checks what is
# written (the home side's 287 is "not divisible by 5" before the away side is reached) and no
# field the typist has not come to is marked. Saving refuses them.
CHECKING = "checking"


# A deal's some forty fields are drawn from Django's own Jinja2 widget templates (django/forms/jinja2):
# the same markup as its Django-template ones but for blank lines, in two thirds of the time (the
# table's page 7.8 ms of CPU instead of 11.7; docs/speed.md, "Drawing a page"). One renderer for
# every deal form: its Jinja2 environment is made once. The admin's widgets have Django templates
# only, so the site's other forms keep the default renderer.
DEAL_FIELDS_RENDERER = Jinja2()


class DealForm(forms.Form):
    """One deal as written. `entry(number)` gives the engine's DealEntry."""

    default_renderer = DEAL_FIELDS_RENDERER

    home_cards = ProtocolNumberField(label=_("Card points"), empty_value=None)
    home_natural = ProtocolNumberField(label=_("Natural canastas"))
    home_mixed = ProtocolNumberField(label=_("Mixed canastas"))
    home_red3 = ProtocolNumberField(label=_("Red threes"))
    home_penalty = ProtocolNumberField(label=_("Penalty"))
    away_cards = ProtocolNumberField(label=_("Card points"), empty_value=None)
    away_natural = ProtocolNumberField(label=_("Natural canastas"))
    away_mixed = ProtocolNumberField(label=_("Mixed canastas"))
    away_red3 = ProtocolNumberField(label=_("Red threes"))
    away_penalty = ProtocolNumberField(label=_("Penalty"))
    out = forms.ChoiceField(
        label=_("Who went out?"),
        choices=[
            ("", _("Nobody")),
            ("home", pgettext_lazy("side", "Home team")),
            ("away", pgettext_lazy("side", "Away team")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )
    concealed = forms.BooleanField(label=_("Concealed going out (200 instead of 100)"), required=False)
    end = forms.ChoiceField(
        label=_("How the deal ended"),
        choices=[
            ("", _("Automatically")),
            ("out", _("Going out")),
            ("stock", _("The stock ran out")),
            ("clock", _("The clock (final signal)")),
        ],
        required=False,
        widget=forms.RadioSelect,
        help_text=_("Automatically: going out when a side went out, otherwise the stock."),
    )
    home_melded = forms.ChoiceField(label=_("Melded in the deal"), choices=MELDED_CHOICES, required=False)
    away_melded = forms.ChoiceField(label=_("Melded in the deal"), choices=MELDED_CHOICES, required=False)
    dealt = MinuteField(
        label=_("Minute dealt"),
        empty_value=None,
        help_text=_("Only if the protocol records it: the minute of the match, for example 42."),
    )
    home_min = ProtocolNumberField(label=_("Minimum"), empty_value=None)
    home_score = ProtocolNumberField(label=_("Deal score"), empty_value=None)
    home_total = ProtocolNumberField(label=_("Running total"), empty_value=None)
    away_min = ProtocolNumberField(label=_("Minimum"), empty_value=None)
    away_score = ProtocolNumberField(label=_("Deal score"), empty_value=None)
    away_total = ProtocolNumberField(label=_("Running total"), empty_value=None)
    # Where a club's paper writes canasta points rather than counts: the points fill the counts
    # (CanastaPoints below). Not a column of the protocol: the counts are.
    home_canasta_points = ProtocolNumberField(label=_("Canasta points"), empty_value=None)
    away_canasta_points = ProtocolNumberField(label=_("Canasta points"), empty_value=None)
    # The counts the page filled from the points, or chose among several, as "natural:mixed".
    home_canastas = forms.CharField(required=False, widget=forms.HiddenInput)
    away_canastas = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, has_clock: bool = False, autofocus: bool = False, rules: RuleSet | None = None,
                 **kwargs):
        kwargs.setdefault("auto_id", "id_%s")
        super().__init__(*args, **kwargs)
        self.rules = rules or get_rules(DEFAULT_RULES_KEY)
        self.canastas = {side: CanastaPoints(side) for side in SIDES}
        for name in SIGNED_FIELDS:
            self.fields[name].widget = _signed_number_input()
        if not has_clock:
            self.fields["end"].choices = [c for c in self.fields["end"].choices if c[0] != "clock"]
        for name, field in self.fields.items():
            # Problems for a field appear in the element "problems-<name>" next to it.
            described = [f"problems-{name}"]
            if field.help_text:
                described.insert(0, f"hint-{name}")
            field.widget.attrs["aria-describedby"] = " ".join(described)
        if autofocus:
            self.fields["home_cards"].widget.attrs["autofocus"] = True
        for side in SIDES:
            for name in COUNT_FIELDS:
                if name != "cards":
                    # Empty means 0: shown, not typed, so what is typed is all the field holds.
                    self.fields[f"{side}_{name}"].widget.attrs["placeholder"] = "0"

    def clean(self):
        data = super().clean()
        checking = self.data.get(CHECKING) == "1"
        for side in SIDES:
            name = f"{side}_cards"
            if name in data and data[name] is None:
                if checking:
                    data[name] = 0
                else:
                    self.add_error(name, forms.ValidationError(CARD_POINTS_REQUIRED, code="required"))
        for side in SIDES:
            self._canastas_from_points(data, side)
        if not self.errors and self._nothing_typed(data):
            # A slip of the thumb on "Save" must not put a 0–0 deal on the protocol. A deal that
            # really ended 0–0 by the stock is saved once the secretary says so (how it ended).
            raise forms.ValidationError(
                _("Nothing is filled in for this deal. Copy it from the paper protocol; if it really "
                  "ended 0–0, choose “The stock ran out” under how the deal ended."),
                code="nothing-typed",
            )
        return data

    def _canastas_from_points(self, data, side: str) -> None:
        """A side's canasta points fill its counts of natural and mixed canastas (engine
        canasta_counts): one way to make them fills the counts; several ask which; none is refused
        beside the points. Counts typed by hand stay, and must make the points."""
        points_field, natural_field, mixed_field = (f"{side}_canasta_points", f"{side}_natural", f"{side}_mixed")
        points = data.get(points_field)
        if points is None or natural_field not in data or mixed_field not in data:
            return
        state = self.canastas[side]
        filled = _parse_counts(data.get(f"{side}_canastas"))
        typed = (data[natural_field], data[mixed_field])
        combinations = canasta_counts(self.rules, points)
        if typed != (0, 0) and typed != filled:
            if typed not in combinations:
                made = typed[0] * self.rules.natural_canasta + typed[1] * self.rules.mixed_canasta
                self.add_error(points_field, gettext("%(counts)s canastas make %(made)s, not %(points)s.") % {
                    "counts": counts_text(*typed), "made": format_number(made), "points": format_number(points),
                })
            return
        if filled in combinations:
            chosen = filled
        elif len(combinations) == 1:
            chosen = combinations[0]
        else:
            chosen = None
        if chosen is None:
            # The counts the page had filled no longer hold: nothing is counted until it is decided.
            self._show_counts(data, side, (0, 0))
            if combinations:
                state.choices = combinations
                self.add_error(points_field, gettext("%(points)s can be %(choices)s: choose which.") % {
                    "points": format_number(points), "choices": state.question_text(),
                })
            else:
                self.add_error(points_field, gettext(
                    "%(points)s cannot be made of natural (%(natural)s) and mixed (%(mixed)s) canastas."
                ) % {
                    "points": format_number(points),
                    "natural": format_number(self.rules.natural_canasta),
                    "mixed": format_number(self.rules.mixed_canasta),
                })
            return
        state.filled = chosen
        self._show_counts(data, side, chosen)

    def _show_counts(self, data, side: str, counts: tuple[int, int]) -> None:
        """The counts as the engine gets them, and as the page shows them when it comes back."""
        data[f"{side}_natural"], data[f"{side}_mixed"] = counts
        data[f"{side}_canastas"] = f"{counts[0]}:{counts[1]}" if counts != (0, 0) else ""
        shown = self.data.copy()
        shown[f"{side}_natural"], shown[f"{side}_mixed"] = str(counts[0]), str(counts[1])
        shown[f"{side}_canastas"] = data[f"{side}_canastas"]
        self.data = shown

    @staticmethod
    def _nothing_typed(data) -> bool:
        counts = [data.get(f"{side}_{name}") for side in SIDES for name in COUNT_FIELDS]
        written = [data.get(f"{side}_{name}") for side in SIDES for name in WRITTEN_FIELDS]
        melded = [data.get(f"{side}_melded") for side in SIDES]
        return (
            not any(counts)
            and all(value is None for value in written)
            and not any(melded)
            and not data.get("out")
            and not data.get("concealed")
            and not data.get("end")
            and data.get("dealt") is None
        )

    # -- groups for the template ------------------------------------------------------------

    def side_fields(self, side: str) -> list[forms.BoundField]:
        return [self[f"{side}_{name}"] for name in COUNT_FIELDS]

    def written_fields(self, side: str) -> list[forms.BoundField]:
        return [self[f"{side}_{name}"] for name in WRITTEN_FIELDS]

    @property
    def home_written(self):
        return self.written_fields("home")

    @property
    def away_written(self):
        return self.written_fields("away")

    # -- to the engine ----------------------------------------------------------------------

    def _side(self, side: str) -> SideEntry:
        data = self.cleaned_data
        melded = {"yes": True, "no": False}.get(data.get(f"{side}_melded") or "")
        return SideEntry(
            cards=data[f"{side}_cards"],
            natural=data[f"{side}_natural"],
            mixed=data[f"{side}_mixed"],
            red3=data[f"{side}_red3"],
            penalty=data[f"{side}_penalty"],
            melded=melded,
            written_min=data.get(f"{side}_min"),
            written_score=data.get(f"{side}_score"),
            written_total=data.get(f"{side}_total"),
        )

    def entry(self, number: int) -> DealEntry:
        data = self.cleaned_data
        return DealEntry(
            number=number,
            home=self._side("home"),
            away=self._side("away"),
            out=data.get("out") or None,
            concealed=bool(data.get("concealed")),
            end=data.get("end") or None,
            dealt_minute=data.get("dealt"),
        )

    @property
    def has_extra_values(self) -> bool:
        """Whether the optional part (melded or not) holds anything: it opens then."""
        names = ["home_melded", "away_melded"]
        return any(self[name].value() not in (None, "") for name in names)

    @staticmethod
    def initial_from_deal(deal: Deal | dict, started_at: datetime | None = None) -> dict:
        """The form's values for a stored deal, or for a deal's field values as a dict (what the
        table kept of a proposal: scoring.adapters.entry_to_fields)."""
        get = deal.get if isinstance(deal, dict) else (lambda name: getattr(deal, name))
        values = {}
        for side in SIDES:
            for name in COUNT_FIELDS:
                values[f"{side}_{name}"] = get(f"{side}_{name}")
            melded = get(f"{side}_melded")
            values[f"{side}_melded"] = "" if melded is None else ("yes" if melded else "no")
            for name in WRITTEN_FIELDS:
                values[f"{side}_{name}"] = get(f"{side}_{name}_written")
        values["out"] = get("out")
        values["concealed"] = get("concealed")
        # "Automatically" unless the deal ended by the clock: a stored deal's end is what the
        # automatic choice gives, and keeping it ticked would make changing who went out fail.
        values["end"] = ""
        if get("end") == "clock" or DealForm._nothing_typed(values):
            values["end"] = get("end")  # a 0–0 deal keeps the "stock" that let it be saved
        minute = minutes_between(started_at, get("dealt_at"))
        if minute is not None:
            values["dealt"] = int(minute) if float(minute).is_integer() else minute
        return values


def _parse_counts(value) -> tuple[int, int] | None:
    """"3:0" as (natural, mixed), or None."""
    try:
        natural, mixed = (int(part) for part in (value or "").split(":"))
    except ValueError:
        return None
    return natural, mixed


def counts_text(natural: int, mixed: int) -> str:
    """"3 natural", "5 mixed", "3 natural and 1 mixed" (Swedish: 3 naturliga, 5 blandade …)."""
    parts = []
    if natural or not mixed:
        parts.append(ngettext("%(count)s natural", "%(count)s natural", natural) % {"count": natural})
    if mixed:
        parts.append(ngettext("%(count)s mixed", "%(count)s mixed", mixed) % {"count": mixed})
    return gettext("%(first)s and %(second)s") % {"first": parts[0], "second": parts[1]} if len(parts) == 2 else parts[0]


class CanastaPoints:
    """What a side's canasta points came to: the counts they filled, or the counts to choose from."""

    def __init__(self, side: str):
        self.side = side
        self.filled: tuple[int, int] | None = None
        self.choices: tuple[tuple[int, int], ...] = ()

    def question_text(self) -> str:
        """"3 natural or 5 mixed" (Swedish: 3 naturliga eller 5 blandade)."""
        texts = [counts_text(*counts) for counts in self.choices]
        return gettext("%(first)s or %(last)s") % {"first": ", ".join(texts[:-1]), "last": texts[-1]}

    @property
    def filled_text(self) -> str:
        return counts_text(*self.filled) if self.filled else ""

    @property
    def options(self) -> list[tuple[str, str]]:
        """(value, label) of each choice, for the radio buttons."""
        return [(f"{natural}:{mixed}", counts_text(natural, mixed)) for natural, mixed in self.choices]


class VersionForm(forms.Form):
    """Carries the match version the page was loaded with: a stale one is refused."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class DealEntryForm(DealForm, VersionForm):
    pass


class ReasonField(forms.CharField):
    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("Reason"))
        kwargs.setdefault("max_length", 2000)
        kwargs.setdefault("widget", forms.Textarea(attrs={"rows": 3}))
        kwargs.setdefault(
            "error_messages", {"required": _("Write a reason; it is kept in the match's log.")}
        )
        super().__init__(**kwargs)


class DealCorrectForm(DealEntryForm):
    reason = ReasonField(help_text=_("For example: a typing error, the paper protocol says 120."))



class ReasonForm(VersionForm):
    reason = ReasonField()


class ForfeitForm(VersionForm):
    winner = forms.ChoiceField(label=_("Which team wins?"), widget=forms.RadioSelect)
    warnings = forms.ChoiceField(
        label=_("Why"),
        choices=[
            ("", _("Walk over: the match was not played")),
            ("yes", _("Lost after repeated warnings")),
        ],
        required=False,
        widget=forms.RadioSelect,
    )
    reason = ReasonField(required=False, label=_("Note"))

    def __init__(self, *args, match: Match, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            ("home", f"{match.home_team} ({pgettext_lazy('side', 'home team')})"),
            ("away", f"{match.away_team} ({pgettext_lazy('side', 'away team')})"),
        ]
        self.fields["winner"].error_messages["required"] = _("Choose the team that wins.")
        self.initial.setdefault("warnings", "")


class PostponeForm(VersionForm):
    reason = ReasonField()
    new_start = forms.DateTimeField(
        label=_("New start (if known)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        error_messages={"invalid": _("Write a date and time, for example 2026-10-14 18:30.")},
    )


class ProtocolUploadForm(VersionForm):
    file = forms.FileField(
        label=_("Protocol file (CSV or Excel xlsx)"),
        help_text=_("One row per deal with the columns of the protocol format; at most 1 MB."),
        error_messages={
            "required": _("Choose a file."),
            "empty": _("The file is empty."),
            "missing": _("Choose a file."),
        },
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
    )
    reason = ReasonField(required=False, label=_("Reason (needed when deals are replaced)"))

    def __init__(self, *args, replaces_deals: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.replaces_deals = replaces_deals
        self.fields["file"].widget.attrs["aria-describedby"] = "hint-file"

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > UPLOAD_LIMIT_BYTES:
            raise forms.ValidationError(_("The file is larger than 1 MB; a protocol is much smaller."))
        return upload

    def clean(self):
        data = super().clean()
        if self.replaces_deals and not (data.get("reason") or "").strip():
            self.add_error(
                "reason",
                _("The match already has deals; the file replaces them all. Write a reason for the log."),
            )
        return data
