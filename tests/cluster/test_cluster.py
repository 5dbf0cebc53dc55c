"""Two app servers behind nginx, sharing one database and one Redis (conftest.py): what one
server does, the other shows at once; a session is the site's, not a server's; a server lost in
the middle of saving loses no confirmed deal; Redis going away is seen by nobody."""

from __future__ import annotations

import http.client
import io
import os
import signal
import threading
import time

import openpyxl
import pytest

from .conftest import CSRF_INPUT, PASSWORD, Browser, deals_stored, query

# Real servers: `make test-fast` leaves them out.
pytestmark = pytest.mark.slow

def running(cluster_setup):
    """The set-up with both app servers and Redis running (a scenario before may have stopped one)."""
    cluster = cluster_setup.cluster
    for index in (0, 1):
        process = cluster.processes.get(f"app{index + 1}")
        if process is None or process.poll() is not None:
            cluster.start_app(index)
    process = cluster.processes.get("redis")
    if process is None or process.poll() is not None:
        cluster.start_redis()
    return cluster_setup


def workbook_numbers(content: bytes) -> set:
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    return {cell for sheet in book.worksheets for row in sheet.iter_rows(values_only=True) for cell in row}


def a_deal_saved_through_server_a_shows_at_once_on_server_b(setup):
    match = setup.matches[0]
    visitor = Browser(setup.b)
    # B has made the match page, the standings and the workbook before the save.
    status, _, before = visitor.get(f"/matches/{match}/")
    assert status == 200 and b"215" not in before
    assert visitor.get(f"/competitions/{setup.competition}/")[0] == 200
    status, _, workbook = visitor.get(f"/matches/{match}/protocol.xlsx")
    assert status == 200 and 215 not in workbook_numbers(workbook)

    secretary = Browser(setup.a, cookies=dict(setup.secretary_cookies))
    assert secretary.save_deal(match, 215, 35) == (1, "")

    status, _, page = visitor.get(f"/matches/{match}/")
    assert status == 200 and b"215" in page and b"35" in page
    status, headers, workbook = visitor.get(f"/matches/{match}/protocol.xlsx")
    assert status == 200 and headers["Content-Type"].startswith("application/vnd.openxmlformats")
    assert {215, 35} <= workbook_numbers(workbook)
    # And the other way round: saved on B, shown by A.
    secretary.port = setup.b
    assert secretary.save_deal(match, 120, 40) == (2, "")
    status, _, page = Browser(setup.a).get(f"/matches/{match}/")
    assert status == 200 and b"120" in page
    assert deals_stored(setup)[match] == [(1, 215, 35), (2, 120, 40)]


def nginx_keeps_an_anonymous_page_for_its_max_age_and_never_a_signed_in_ones(setup):
    path = f"/competitions/{setup.competition}/"
    status, first, _ = Browser(setup.proxy).get(path)
    assert status == 200 and "Set-Cookie" not in first and first["Cache-Control"] == "public, max-age=5"
    status, second, _ = Browser(setup.proxy).get(path)
    assert status == 200 and second["X-Cache-Status"] == "HIT" and second["ETag"] == first["ETag"]
    # A browser that holds the page asks with its validator: nginx answers from the kept copy.
    status, _, body = Browser(setup.proxy).get(path, headers={"If-None-Match": first["ETag"]})
    assert status == 304 and body == b""
    # A signed-in person is never served the kept copy, and their page is never kept.
    secretary = Browser(setup.proxy, cookies=dict(setup.secretary_cookies))
    for _ in range(2):
        status, headers, _ = secretary.get(path)
        assert status == 200 and headers["X-Cache-Status"] == "BYPASS"
        assert headers["Cache-Control"] == "private, no-store"
    # An answer that sets a cookie (the login form's CSRF cookie) is not kept either.
    for _ in range(2):
        status, headers, _ = Browser(setup.proxy).get("/accounts/login/")
        assert status == 200 and "Set-Cookie" in headers and headers["X-Cache-Status"] != "HIT"


def a_session_started_on_server_a_is_valid_on_server_b(setup):
    browser = Browser(setup.a)
    browser.login(setup.username)
    status, _, page = browser.get("/my-matches/", port=setup.b)
    assert status == 200 and setup.username.encode() in page
    assert Browser(setup.b).get("/my-matches/")[0] == 302  # without the session: to the login page

    # Logging out on B ends the session on A too.
    _, _, page = browser.get("/my-matches/", port=setup.b)
    token = CSRF_INPUT.search(page).group(1).decode()
    status, _, _ = browser.request("POST", "/accounts/logout/", {"csrfmiddlewaretoken": token}, port=setup.b)
    assert status == 302
    status, headers, _ = browser.get("/my-matches/", port=setup.a)
    assert status == 302 and "/accounts/login/" in headers["Location"]


def login_throttling_sees_the_client_behind_the_proxy_and_no_forged_address(setup):
    """nginx replaces X-Forwarded-For with the address that connected to it, and the app servers
    believe that header only from the proxy (DJANGO_TRUSTED_PROXIES). Clients connect from 127.0.0.2 and
    127.0.0.3 (this machine too, but not the proxy's address)."""
    forged = {"X-Forwarded-For": "203.0.113.9"}
    Browser(setup.proxy, source="127.0.0.2").login("nobody-here", password="wrong", headers=forged)
    # Straight to an app server, not through the proxy: the header is not believed.
    Browser(setup.b, source="127.0.0.3").login("nobody-there", password="wrong", headers=forged)
    # Not even from the proxy's own address, 127.0.0.1, without the secret only nginx sends.
    Browser(setup.a, source="127.0.0.1").login("nobody-thus", password="wrong",
                                               headers={**forged, "X-Canasta-Proxy": "guessed"})
    attempts = query(
        setup, "SELECT username, ip_address FROM axes_accessattempt WHERE username LIKE 'nobody-%' ORDER BY username"
    )
    # (PostgreSQL gives the addresses as ipaddress objects, SQLite as text.)
    assert [(username, str(address)) for username, address in attempts] == [
        ("nobody-here", "127.0.0.2"), ("nobody-there", "127.0.0.3"), ("nobody-thus", "127.0.0.1"),
    ]  # fmt: skip


def a_redis_restart_is_seen_by_nobody(setup):
    cluster = setup.cluster
    match = setup.matches[1]
    visitor = Browser(setup.proxy)
    pages = ["/", f"/competitions/{setup.competition}/", f"/matches/{match}/"]
    for path in pages:
        assert visitor.get(path)[0] == 200
    secretary = Browser(setup.proxy, cookies=dict(setup.secretary_cookies))
    assert secretary.get("/my-matches/")[0] == 200  # the login is in Redis now

    cluster.stop("redis")
    assert not cluster.redis_answers()
    for path in pages:
        status, _, _ = visitor.get(path)
        assert status == 200, (path, status)
    for port in (setup.a, setup.b):  # still signed in: the login is read from the database
        status, _, page = secretary.get("/my-matches/", port=port)
        assert status == 200 and setup.username.encode() in page
    assert secretary.save_deal(match, 215, 35) == (1, "")
    for port in (setup.a, setup.b):
        status, _, page = visitor.get(f"/matches/{match}/", port=port)
        assert status == 200 and b"215" in page

    cluster.start_redis()
    for path in pages:
        assert visitor.get(path)[0] == 200

    # Redis is in use again (the secretary's login is kept there once more), and a change made now
    # still shows on both servers at once.
    def cached_entries() -> int:
        import redis

        return redis.Redis(host="127.0.0.1", port=cluster.redis_port).dbsize()

    deadline = time.monotonic() + 60
    while cached_entries() == 0:
        assert time.monotonic() < deadline, "the servers did not use Redis again"
        for port in (setup.a, setup.b):
            status, _, page = secretary.get("/my-matches/", port=port)
            assert status == 200 and setup.username.encode() in page
        time.sleep(0.2)
    assert secretary.save_deal(match, 120, 40) == (2, "")
    for port in (setup.a, setup.b):
        status, _, page = visitor.get(f"/matches/{match}/", port=port)
        assert status == 200 and b"120" in page
    for name in ("app1", "app2"):
        log = (cluster.run_dir / f"{name}.log").read_text()
        assert "Traceback" not in log and "Internal Server Error" not in log, log[-3000:]


def stopping_server_a_in_the_middle_of_saving_loses_no_confirmed_deal(setup):
    """Four secretaries save deals through nginx as fast as the site answers; server A is killed
    (SIGKILL, the whole server: no chance to finish anything) while they do. Every save the site
    confirmed is stored, and B goes on serving everyone."""
    cluster = setup.cluster
    matches = setup.matches[2:6]
    browsers = [Browser(setup.proxy, cookies=dict(setup.secretary_cookies)) for _ in matches]
    confirmed: dict[int, list[int]] = {match: [] for match in matches}
    failed: dict[int, list[str]] = {match: [] for match in matches}
    killed = threading.Event()
    after_kill: dict[int, int] = {match: 0 for match in matches}
    stop = threading.Event()

    def secretary(browser: Browser, match: int):
        while not stop.is_set():
            try:
                number, problem = browser.save_deal(match, 10, 5)
            except (OSError, http.client.HTTPException) as error:
                # A server killed while it answers leaves the connection refused, reset or cut off
                # mid-page (IncompleteRead); none of these is a confirmed save.
                number, problem = None, repr(error)
            if number is None:
                failed[match].append(problem)
                continue
            confirmed[match].append(number)
            if killed.is_set():
                after_kill[match] += 1

    threads = [threading.Thread(target=secretary, args=(b, m)) for b, m in zip(browsers, matches)]
    for thread in threads:
        thread.start()
    try:
        # Bounds for a machine under load; on an idle one all this takes a second or two.
        deadline = time.monotonic() + 90
        while sum(map(len, confirmed.values())) < 8:
            assert time.monotonic() < deadline, f"no saves: {failed}"
            time.sleep(0.02)
        process = cluster.processes["app1"]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        killed.set()
        while min(after_kill.values()) < 3:
            assert time.monotonic() < deadline, f"B did not go on serving: {after_kill} {failed}"
            time.sleep(0.02)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)

    stored = deals_stored(setup)
    for match in matches:
        numbers = [number for number, _, _ in stored.get(match, [])]
        # Every confirmed deal is there, numbered without gaps; at most the one save in flight
        # when A died went through unconfirmed.
        assert numbers == list(range(1, len(numbers) + 1))
        assert set(confirmed[match]) <= set(numbers)
        assert len(numbers) - len(confirmed[match]) <= 1
    # Only a request in flight on A when it died can fail: one per secretary at most.
    assert sum(map(len, failed.values())) <= len(matches), failed

    # The server comes back (a restart, as in an upgrade) and shows what B stored meanwhile.
    cluster.start_app(0)
    played = len(stored[matches[0]])  # deals of 10 against 5 card points each
    status, _, page = Browser(setup.a).get(f"/matches/{matches[0]}/")
    assert status == 200 and f">{10 * played}<".encode() in page and f">{5 * played}<".encode() in page


def long_addresses_never_take_a_server_out(setup):
    """A long address is answered or refused (414) by nginx, never a 502: nginx's proxy buffer
    holds the cache key (the address) and every header the site answers with, and a request line
    over 4 KB is refused before it reaches an app server (deploy/nginx-proxy.conf). Each long one
    is sent several times, so both servers get it: with the buffer too small, one of them made
    nginx take that server out of the rotation and, both out, ordinary visitors got 502s."""
    cluster = setup.cluster
    visitor = Browser(setup.proxy)
    for _ in range(3):
        status, _, _ = visitor.get("/?x=" + "a" * 3300)
        assert status == 200, status
        status, _, page = visitor.get("/accounts/login/?next=/" + "a" * 3000)
        assert status == 200, status
        # Too long to be one of the site's addresses: the login does not offer to lead there.
        assert b'name="next" value=""' in page
        # A signed-in page asked for with a long query: the way to the login page says where to
        # come back to in a Location header about three times the address's length ("%" is "%25").
        status, headers, _ = visitor.get("/my-matches/?x=" + "%" * 3900)
        assert status == 302 and headers["Location"].startswith("/accounts/login/?next="), status
        status, _, _ = visitor.get("/?x=" + "a" * 10_000)
        assert status == 414, status

    # Logging in with such a `next` leads to the usual page, not to a Location of 3 000 characters.
    browser = Browser(setup.proxy, source="127.0.0.4")
    _, _, page = browser.get("/accounts/login/")
    token = CSRF_INPUT.search(page).group(1).decode()
    status, headers, _ = browser.request(
        "POST", "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": setup.username, "password": PASSWORD, "next": "/" + "a" * 3000},
    )  # fmt: skip
    assert status == 302 and headers["Location"] == "/my-matches/", (status, headers.get("Location", "")[:100])

    pages = ["/", "/competitions/", "/clubs/", f"/competitions/{setup.competition}/", f"/matches/{setup.matches[0]}/"]
    for number in range(20):
        path = pages[number % len(pages)]
        status, _, _ = Browser(setup.proxy).get(path)
        assert status == 200, (path, status)
    log = (cluster.run_dir / "nginx-error.log").read_text(errors="replace")
    assert "too big header" not in log and "no live upstreams" not in log, log[-3000:]


# In this order: the last one stops server A (and starts it again).
SCENARIOS = [
    a_deal_saved_through_server_a_shows_at_once_on_server_b,
    a_session_started_on_server_a_is_valid_on_server_b,
    login_throttling_sees_the_client_behind_the_proxy_and_no_forged_address,
    nginx_keeps_an_anonymous_page_for_its_max_age_and_never_a_signed_in_ones,
    a_redis_restart_is_seen_by_nobody,
    long_addresses_never_take_a_server_out,
    stopping_server_a_in_the_middle_of_saving_loses_no_confirmed_deal,
]


def test_two_app_servers_behind_nginx(cluster_setup, subtests):
    """Each scenario is a subtest of one test, so that the set-up, which takes most of the time, is
    started once, in one test process (pytest-xdist would otherwise start one in each)."""
    for scenario in SCENARIOS:
        with subtests.test(scenario.__name__.replace("_", " ")):
            scenario(running(cluster_setup))
