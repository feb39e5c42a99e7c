"""river's own estimator checks (``river.checks.yield_checks``) on every native classifier of olr_verify.river.

Default parameters run in the default suite (except GAF's 7-second memory-growth check); the second
``_unit_test_params`` set runs under ``-m slow``. Skips come only from the estimator's documented
``_unit_test_skips`` (FTRL: bounded memory, by definition).
"""
import pytest
from river.checks import yield_checks

import olr_verify.river as native


def _cases():
    for name in native.__all__:
        cls = getattr(native, name)
        for i, params in enumerate(cls._unit_test_params()):
            model = cls(**params)
            seen: dict[str, int] = {}
            for check in yield_checks(model):
                if check.__name__ in model._unit_test_skips():
                    continue
                seen[check.__name__] = seen.get(check.__name__, -1) + 1  # one per dataset
                slow = i > 0 or (name == "GAFClassifier" and check.__name__ == "check_bounded_memory_growth")
                yield pytest.param(model, check, id=f"{name}-{i}-{check.__name__}-{seen[check.__name__]}",
                                   marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("model,check", list(_cases()))
def test_river_check(model, check):
    check(model.clone())


def test_the_checks_cover_every_native_classifier_and_skip_only_ftrl_memory():
    covered = {type(m).__name__ for m, _ in (p.values for p in _cases())}
    assert covered == set(native.__all__)
    skips = {name: getattr(native, name)()._unit_test_skips() for name in native.__all__}
    assert {k: v for k, v in skips.items() if v} == {"FTRLClassifier": {"check_bounded_memory_growth"}}
