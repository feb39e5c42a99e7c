"""scikit-learn's estimator checks (``parametrize_with_checks``) on every estimator of olr_verify.sklearn.

Default parameters, except GAF with m = 20 Monte-Carlo draws per prediction instead of 100 (the checks score
hundreds of rows several times; the code paths are the same). No check is skipped or marked as expected to fail;
sklearn itself skips the pandas and array-API checks when those libraries are not installed.
"""
import olr_verify.sklearn as native
from sklearn.utils.estimator_checks import parametrize_with_checks

ESTIMATORS = [getattr(native, name)(**({"m": 20} if name == "GAFClassifier" else {})) for name in native.__all__]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_check(estimator, check):
    check(estimator)
