"""algorithms.gaf_squared: squared-loss GAF of seed 001 §4.1 meets eq. (4) and matches its exact closed form."""
import numpy as np
import pytest

from algorithms.gaf_squared import GAFSquared
from reference.gaf import squared_theta_t_exact

pytestmark = pytest.mark.multiclass


def test_theta_t_equals_the_exact_rational_ridge_solution():
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(15, 3)), rng.uniform(-1, 1, 15)
    g = GAFSquared(3, lam=0.7, Y=1.0)
    g.run(X, Y)
    exact = np.array([float(v) for v in squared_theta_t_exact(X, Y, 0.7)])
    assert np.allclose(g.theta(), exact, rtol=1e-12, atol=1e-13)


def test_prediction_satisfies_equation_4_for_every_label_on_a_grid():
    rng = np.random.default_rng(1)
    g = GAFSquared(2, lam=0.2, Y=2.0)
    for _ in range(30):
        x = rng.normal(size=2) * 3
        yhat = g.predict(x)
        for y in np.linspace(-2, 2, 41):
            assert (yhat - y) ** 2 <= g.mixability_rhs(x, y) + 1e-12
        g.update(x, rng.uniform(-2, 2))


def test_labels_outside_minus_y_y_raise_value_error_naming_y():
    with pytest.raises(ValueError, match="y"):
        GAFSquared(2, 1.0, 1.0).update([1.0, 0.0], 1.5)
