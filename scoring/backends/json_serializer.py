"""Django's JSON serializer (dumpdata, loaddata) with times to the microsecond.

The stock encoder cuts times to milliseconds, so a JSON backup (`manage.py backup --format json`)
would not restore the audit log and match times exactly. Registered for the "json" format in
settings.SERIALIZATION_MODULES; reading is Django's own.
"""

import datetime

from django.core.serializers.json import Deserializer, DjangoJSONEncoder
from django.core.serializers.json import Serializer as DjangoJSONSerializer

__all__ = ["Deserializer", "Serializer"]


class PreciseJSONEncoder(DjangoJSONEncoder):
    def default(self, o):
        if isinstance(o, (datetime.datetime, datetime.time)):
            return o.isoformat()
        return super().default(o)


class Serializer(DjangoJSONSerializer):
    def serialize(self, queryset, **options):
        # Django's JSON serializer hands its options on to json.dump; `cls` chooses the encoder
        # unless the caller has chosen one.
        options.setdefault("cls", PreciseJSONEncoder)
        return super().serialize(queryset, **options)
