import pytest

from olr_verify import registry


@pytest.fixture
def fresh_registry(monkeypatch):
    """Papers added in a test do not leak into the others."""
    registry.load_checks()  # the seed folders' checks are registered once (cached): copy them, not an empty table
    monkeypatch.setattr(registry, "_FOLDERS", [])
    checks = dict(registry._CHECKS)
    registry.papers.cache_clear()
    registry.claims.cache_clear()
    yield registry
    registry._CHECKS.clear()
    registry._CHECKS.update(checks)
    registry.papers.cache_clear()
    registry.claims.cache_clear()
