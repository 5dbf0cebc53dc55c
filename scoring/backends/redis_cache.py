"""The shared cache of several app servers: Django's Redis backend, made to step aside when Redis
does not answer.

With more than one app server (README, Deployment), every server reads and writes one Redis, so
what one server caches or invalidates holds for all of them at once. Redis is only a cache here:
every page can be made from the database. So when Redis is down, restarting or out of reach, this
backend answers as an empty cache (a read finds nothing, a write is dropped) instead of raising,
and the site goes on from the database; nobody sees an error. It then leaves Redis alone for
`RETRY_SECONDS` rather than wait for it on every call, and logs the outage once.

A write dropped during an outage may have been an invalidation (a delete, or a newer value
replacing an old one), and a Redis that kept its data, or one this server merely could not
reach, may still hold the old entry. So once Redis answers again after this server dropped a
write, the server empties the cache once before using it (`clear()`, the whole Redis database:
give the site a database of its own, README, Deployment).
"""

from __future__ import annotations

import logging
import threading
import time

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

# How long a server leaves Redis alone after a failed call before it tries again.
RETRY_SECONDS = 2.0

# What a lost or refusing Redis raises through redis-py: connection refused or reset, a timeout,
# a server still loading its data or shutting down (all RedisError).
OUTAGE = (redis.exceptions.RedisError, OSError)


class FallbackRedisCache(RedisCache):
    """`django.core.cache.backends.redis.RedisCache` that behaves as an empty cache while Redis is
    unreachable (module docstring)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        # Reentrant: a failed clear() in available() reports through failed(), which takes it too.
        self.lock = threading.RLock()
        self.down_until = 0.0
        self.writes_dropped = False

    # -- the outage bookkeeping ------------------------------------------------------------------

    def available(self) -> bool:
        if time.monotonic() < self.down_until:
            return False
        if self.writes_dropped:
            with self.lock:
                if self.writes_dropped:
                    try:
                        super().clear()
                    except OUTAGE as error:
                        self.failed(error, write=True)
                        return False
                    self.writes_dropped = False
                    logger.warning("Redis answers again; the cache was emptied (writes were dropped while it was away).")
        return True

    def failed(self, error: Exception, *, write: bool) -> None:
        with self.lock:
            if self.down_until == 0.0 or time.monotonic() >= self.down_until + RETRY_SECONDS:
                logger.error("Redis does not answer (%s); the site works from the database meanwhile.", error)
            self.down_until = time.monotonic() + RETRY_SECONDS
            if write:
                self.writes_dropped = True

    def read(self, call, fallback):
        if not self.available():
            return fallback
        try:
            return call()
        except OUTAGE as error:
            self.failed(error, write=False)
            return fallback

    def write(self, call, fallback):
        if not self.available():
            with self.lock:
                self.writes_dropped = True
            return fallback
        try:
            return call()
        except OUTAGE as error:
            self.failed(error, write=True)
            return fallback

    # -- the cache API (django.core.cache.backends.base.BaseCache) -------------------------------

    def get(self, key, default=None, version=None):
        return self.read(lambda: super(FallbackRedisCache, self).get(key, default, version), default)

    def get_many(self, keys, version=None):
        return self.read(lambda: super(FallbackRedisCache, self).get_many(keys, version), {})

    def has_key(self, key, version=None):
        return self.read(lambda: super(FallbackRedisCache, self).has_key(key, version), False)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        # False: "not added", so a caller never believes it holds what it could not store.
        return self.write(lambda: super(FallbackRedisCache, self).add(key, value, timeout, version), False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self.write(lambda: super(FallbackRedisCache, self).set(key, value, timeout, version), None)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        # The keys that were not stored (BaseCache.set_many's contract): all of them.
        return self.write(lambda: super(FallbackRedisCache, self).set_many(data, timeout, version), list(data))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self.write(lambda: super(FallbackRedisCache, self).touch(key, timeout, version), False)

    def delete(self, key, version=None):
        return self.write(lambda: super(FallbackRedisCache, self).delete(key, version), False)

    def delete_many(self, keys, version=None):
        self.write(lambda: super(FallbackRedisCache, self).delete_many(keys, version), None)

    def incr(self, key, delta=1, version=None):
        result = self.write(lambda: super(FallbackRedisCache, self).incr(key, delta, version), None)
        if result is None:
            # What the API says of a key that is not there; the caller starts the counter anew
            # (with a set, which is dropped as well while Redis is away).
            raise ValueError(f"Key '{key}' not found (Redis is not answering).")
        return result

    def clear(self):
        return self.write(lambda: super(FallbackRedisCache, self).clear(), False)
