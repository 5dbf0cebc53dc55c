# Canasta scoring: `make run` starts the site on http://127.0.0.1:8000, `make test` runs the tests,
# `make bench` the benchmarks. Each installs what it needs first (Debian packages, a virtualenv).

VENV := .venv
PY := $(VENV)/bin/python
PYTEST_ARGS ?=
# Two test processes (pytest-xdist), one per core of the machines this runs on.
PYTEST_WORKERS ?= 2

# WeasyPrint (PDF) needs Pango, HarfBuzz's subsetter and a font with å, ä, ö; gettext compiles
# translations.
SYSTEM_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core gettext
# Several app servers (make cluster, tests/cluster): nginx in front, Redis as their shared cache;
# make cluster also runs PostgreSQL.
SYSTEM_PACKAGES_CLUSTER := $(SYSTEM_PACKAGES) nginx redis-server postgresql
# The tests also read PDFs back (poppler), drive a real browser (chromium), open exported
# spreadsheets in a real spreadsheet program (LibreOffice Calc) and run the cluster's parts.
SYSTEM_PACKAGES_TEST := $(SYSTEM_PACKAGES) poppler-utils chromium libatomic1 libreoffice-calc-nogui nginx redis-server
# The benchmarks count the pages of the PDFs they make (poppler's pdfinfo).
SYSTEM_PACKAGES_BENCH := $(SYSTEM_PACKAGES) poppler-utils

.PHONY: help run test test-fast test-deep help-pictures bench load cluster cluster-stop system-deps system-deps-test system-deps-bench system-deps-cluster venv venv-dev messages

help:
	@echo "make run     start the site on http://127.0.0.1:8000 (SQLite in var/ unless DATABASE_URL is set)"
	@echo "make test    run the test suite (the property and fuzz tests try a tenth of their examples)"
	@echo "make test-fast  the suite without the slow browser, server and fuzz tests"
	@echo "make help-pictures  take the help pages' screenshots again (static/scoring/help/)"
	@echo "make test-deep  the suite with the property and fuzz tests' full example counts (TEST_DEPTH=deep)"
	@echo "make bench   run the benchmarks in tests/benchmarks (one JSON line per figure)"
	@echo "make load    a federation's round night with Locust, through nginx before the app server(s) (LOAD_ARGS=...)"
	@echo "make cluster  nginx on http://127.0.0.1:8080 before two app servers, PostgreSQL, Redis, demo data"
	@echo "make cluster-stop  stop what make cluster started (PostgreSQL keeps running)"
	@echo "make messages  merge locale/sv/parts/*.po into django.po and compile django.mo"

# Install missing Debian packages when root; otherwise say what is missing and stop.
define ensure_debian_packages
	@missing=""; \
	for pkg in $(1); do \
		dpkg-query -W -f='$${Status}' "$$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$pkg"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "Installing Debian packages:$$missing"; \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else \
		echo "Missing Debian packages:$$missing" >&2; \
		echo "Install them with: sudo apt-get install --no-install-recommends$$missing" >&2; \
		exit 1; \
	fi
endef

system-deps:
	$(call ensure_debian_packages,$(SYSTEM_PACKAGES))

system-deps-test:
	$(call ensure_debian_packages,$(SYSTEM_PACKAGES_TEST))

system-deps-bench:
	$(call ensure_debian_packages,$(SYSTEM_PACKAGES_BENCH))

system-deps-cluster:
	$(call ensure_debian_packages,$(SYSTEM_PACKAGES_CLUSTER))

$(VENV)/.installed: requirements.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.installed
venv-dev: $(VENV)/.installed-dev

# The demo season fills an empty database; run again, it adds nothing.
run: system-deps venv
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py runserver 127.0.0.1:8000

test: system-deps-test venv-dev
	$(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# The tests marked slow (real browser, gunicorn, the longest fuzz tests) are left out; CI runs `make test`.
test-fast: venv-dev
	$(PY) -m pytest -n $(PYTEST_WORKERS) -m "not slow" $(PYTEST_ARGS)

# The help pages' screenshots, written over static/scoring/help/ (docs/operations.md, "Help pages
# and their pictures"); `make test` takes them too, into a scratch folder. Look at them, then commit.
help-pictures: system-deps-test venv-dev
	HELP_PICTURES=1 $(PY) -m pytest tests/browser/test_help_pictures.py -p no:cacheprovider $(PYTEST_ARGS)

# The whole suite with the property and fuzz tests' full example counts (tests/support/depth.py):
# `make test` tries a tenth of them (at least 50 per test), this all of them, some minutes more.
# Before a release and after a change to the engine, the protocol form or the file readers.
test-deep: system-deps-test venv-dev
	TEST_DEPTH=deep $(PY) -m pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

# Each benchmark module runs in a pytest process of its own, so that no figure depends on the heap
# and caches the ones before it left (the protocol files' figure took minutes after the workbooks'
# in one process). One JSON line per figure (grep '^{'); every module runs even if one fails.
BENCH_MODULES ?= $(sort $(wildcard tests/benchmarks/test_*.py))

bench: system-deps-bench venv-dev
	@status=0; \
	for module in $(BENCH_MODULES); do \
		echo "== $$module"; \
		$(PY) -m pytest "$$module" -s -q -p no:cacheprovider $(PYTEST_ARGS) || status=1; \
	done; \
	exit $$status

# A federation's round night as it is played at the tables (Locust, headless), served as deployed:
# nginx with its proxy cache before one app server on SQLite, `demo --scale federation` data in a
# scratch database; a quiet step, then 10 to 500 live matches, 30 s each (docs/speed.md, "The round
# night"). LOAD_ARGS="--postgres" (one app server on PostgreSQL), "--cluster" (two app servers,
# PostgreSQL, Redis), "--no-nginx", "--steps 10,50 --seconds 20", "--stop-early".
load: system-deps-cluster venv-dev
	$(PY) tests/benchmarks/round_night.py $(LOAD_ARGS)

# Several app servers on one database, on loopback (deploy/cluster.py; docs/operations.md):
# PostgreSQL (started if it is down; database canasta_cluster), Redis on 6380, gunicorn on 8001 and
# 8002, nginx on 8080, the demo data; returns once the site answers through nginx.
cluster: system-deps-cluster venv
	$(PY) deploy/cluster.py start

cluster-stop:
	$(PY) deploy/cluster.py stop

# Swedish texts live in one part per area (locale/sv/parts/*.po) so that several people can
# translate at once; this merges them into django.po and compiles django.mo. Commit all three.
messages:
	msgcat --use-first -o locale/sv/LC_MESSAGES/django.po locale/sv/parts/*.po
	msgfmt --check-format -o locale/sv/LC_MESSAGES/django.mo locale/sv/LC_MESSAGES/django.po
