"""Shared pytest set-up: Hypothesis profiles (Hypothesis's own habit: register once, choose by env var).

- ``ci`` (default, also under CI=true): derandomised, so `make test` is deterministic;
- ``dev``: random exploration with the example database;
- ``hunt``: long exploratory runs (``HYPOTHESIS_PROFILE=hunt make hunt``).
"""
import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", deadline=None, print_blob=True)
settings.register_profile("hunt", max_examples=5000, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The longest test module (the quick run of every registered check, two processes) is collected first, so that
# under `make test`'s two workers (pytest-xdist, --dist loadfile) it starts at once instead of finishing alone.
FIRST = "tests/foundation/test_every_check_runs.py"


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))  # stable: the order is otherwise kept
