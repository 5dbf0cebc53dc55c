"""The shared cache's backend (scoring/backends/redis_cache.py) against a real Redis of its own, stopped
and started again: while Redis is away it is an empty cache that raises nothing, and a write it
had to drop meanwhile cannot leave an old entry behind once Redis is back."""

from __future__ import annotations

import shutil

import pytest
import redis

from deploy.cluster import Cluster
from scoring.backends import redis_cache
from scoring.backends.redis_cache import FallbackRedisCache
from tests.support.server import free_port

# A real Redis: `make test-fast` leaves these out.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server (Debian package redis-server)"),
]


@pytest.fixture
def redis_server(tmp_path, monkeypatch):
    # A short pause after a failure, so the test need not wait for the real one.
    monkeypatch.setattr(redis_cache, "RETRY_SECONDS", 0.05)
    cluster = Cluster(run_dir=tmp_path, database_url="", redis_port=free_port())
    cluster.start_redis()
    yield cluster
    cluster.stop_all()


def backend(cluster: Cluster) -> FallbackRedisCache:
    return FallbackRedisCache(
        cluster.redis_url, {"KEY_PREFIX": "t", "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}
    )


def wait_past_pause():
    import time

    time.sleep(redis_cache.RETRY_SECONDS * 2)


def test_while_redis_is_away_the_cache_is_empty_and_raises_nothing(redis_server):
    cache = backend(redis_server)
    cache.set("page", "made before")
    assert cache.get("page") == "made before"
    shared = backend(redis_server)  # another server sees it: one cache for all
    assert shared.get("page") == "made before"

    redis_server.stop("redis")
    assert cache.get("page") is None
    assert cache.get("page", "default") == "default"
    cache.set("page", "made meanwhile")
    assert cache.add("counter", 1) is False
    with pytest.raises(ValueError):
        cache.incr("counter")
    assert cache.get_or_set("standings", lambda: "from the database") == "from the database"
    assert cache.get_many(["page", "standings"]) == {}
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert cache.delete("page") is False
    cache.delete_many(["a", "b"])
    assert cache.has_key("page") is False
    assert cache.touch("page") is False

    redis_server.start_redis()
    wait_past_pause()
    cache.set("page", "made after")
    assert cache.get("page") == "made after"
    assert shared.get("page") == "made after"


def test_a_write_dropped_while_away_empties_the_cache_when_redis_is_back(redis_server):
    """A Redis that kept its entries (or that this server only could not reach) must not hand
    out one that a dropped delete should have removed."""
    cache = backend(redis_server)
    redis_server.stop("redis")
    cache.delete("standings")  # an invalidation, dropped
    redis_server.start_redis()
    # The entry the delete was meant for, as a Redis that kept its data would still hold it.
    redis.Redis(host="127.0.0.1", port=redis_server.redis_port).set(cache.make_key("standings"), b"old")
    wait_past_pause()
    assert cache.get("standings") is None
    cache.set("standings", "new")
    assert cache.get("standings") == "new"


def test_redis_still_away_after_a_dropped_write_is_no_error_either(redis_server):
    cache = backend(redis_server)
    redis_server.stop("redis")
    cache.set("page", "dropped")
    for _ in range(3):
        wait_past_pause()
        assert cache.get("page") is None
        cache.set("page", "dropped again")
    redis_server.start_redis()
    wait_past_pause()
    assert cache.get("page") is None
    cache.set("page", "stored")
    assert cache.get("page") == "stored"


def test_a_server_that_dropped_nothing_keeps_the_cache(redis_server):
    cache = backend(redis_server)
    cache.set("page", "kept")
    redis_server.stop("redis")
    assert cache.get("page") is None  # a read only
    redis_server.start_redis()
    other = backend(redis_server)
    other.set("page", "kept")
    wait_past_pause()
    assert cache.get("page") == "kept"
