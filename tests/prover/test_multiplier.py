"""The kernel's tail and kink closers (issue 13): ``multiplier`` (with softplus ``flips`` and strict pieces),
``abs_cases``, touching points of order 4-8, Abs branches resolved per box; and refutation from a box the
certificate search could not close. Each closer is attacked with a tampered certificate."""
from __future__ import annotations

import copy

import pytest
import sympy as sp

from olr_verify.kernel import FORMAT, check, statement_sha256
from olr_verify.kernel.inequality import Inequality
from olr_verify.prover import prove
from olr_verify.prover.certify import certify

REAL = {"x": ("-oo", "oo")}
A1 = "x + exp(-x) <= exp(9*x**2/16)"


def _cert(relation, domain, **kw):
    cert, why = certify(relation, domain, **kw)
    assert cert is not None, why
    verdict = check(cert)
    assert verdict.accepted, verdict.reason
    return cert


def _leaves(node):
    if "split" in node:
        yield from _leaves(node["lo"])
        yield from _leaves(node["hi"])
    else:
        yield node


def _resealed(cert):
    cert["statement_sha256"] = statement_sha256(cert)
    return cert


def _hand(relation, domain, tree):
    return _resealed({"format": FORMAT, "claim": None, "kind": "inequality", "relation": relation,
                      "domain": domain, "tree": tree})


LEFT_TAIL = {"close": "multiplier", "log_multiplier": "-9*x**2/16",
             "pieces": [{"expr": "1", "bound": "1", "tree": {"close": "interval"}},
                        {"expr": "-x*exp(-9*x**2/16)", "bound": "0", "tree": {"close": "interval"}},
                        {"expr": "-exp(x*(-9*x/16 - 1))", "bound": "-1/1000", "tree": {"close": "interval"}}]}


def test_lemma_a1_over_all_reals_has_a_kernel_certificate_with_multiplier_tails():
    cert = _cert(A1, REAL, max_boxes=3000)
    assert any(leaf["close"] == "multiplier" for leaf in _leaves(cert["tree"]))


def test_a_hand_written_left_tail_of_lemma_a1_is_accepted():
    assert check(_hand(A1, [["x", "-oo", "-8"]], LEFT_TAIL)).accepted


@pytest.mark.parametrize("tamper", ["relation", "bound", "multiplier", "piece", "undefined-multiplier",
                                    "domain", "budget"])
def test_a_tampered_multiplier_leaf_is_rejected(tamper):
    tree, relation, domain = copy.deepcopy(LEFT_TAIL), A1, [["x", "-oo", "-8"]]
    if tamper == "relation":
        relation = "x + exp(-x) <= exp(x**2/2)"  # false at x = -1.37, and s*exp(h) is no longer the sum
    elif tamper == "bound":
        tree["pieces"][2]["bound"] = "-2"  # the bounds no longer add up to >= 0
    elif tamper == "multiplier":
        tree["log_multiplier"] = "-x**2/2"
    elif tamper == "piece":
        tree["pieces"][1]["expr"] = "-x*exp(-x**2/2)"
    elif tamper == "undefined-multiplier":
        # equal to -9x^2/16 for sympy, but sqrt(x) has no real value on the box
        tree["log_multiplier"] = "-9*x**2/16 + sqrt(x)**2 - x"
    elif tamper == "domain":
        domain = [["x", "-oo", "-1/2"]]  # the third piece's bound fails near -1/2
    cert = _hand(relation, domain, tree)
    if tamper == "budget":
        cert["max_nodes"] = 3  # the multiplier leaf and its three pieces are four nodes
    verdict = check(cert)
    assert not verdict.accepted and verdict.reason, tamper


def test_a_strict_relation_needs_a_strictly_positive_total_or_a_strict_piece():
    ok = {"close": "multiplier", "log_multiplier": "x", "pieces": [{"expr": "1", "bound": "1", "tree": {"close": "interval"}}]}
    assert check(_hand("exp(-x) > 0", [["x", "-oo", "oo"]], ok)).accepted
    zero = copy.deepcopy(ok)
    zero["pieces"][0]["bound"] = "0"
    assert not check(_hand("exp(-x) > 0", [["x", "-oo", "oo"]], zero)).accepted  # total 0 shows only >= 0
    zero["pieces"][0]["strict"] = True  # 1 > 0 by its interval leaf: strict again
    assert check(_hand("exp(-x) > 0", [["x", "-oo", "oo"]], zero)).accepted
    # the limit 0 at infinity: x*exp(-x) > 0 fails at 0; a piece bound of 0 cannot make it strict
    bad = {"close": "multiplier", "log_multiplier": "0",
           "pieces": [{"expr": "x*exp(-x)", "bound": "0", "tree": {"close": "interval"}}]}
    assert not check(_hand("x*exp(-x) > 0", [["x", "0", "oo"]], bad)).accepted
    bad["pieces"][0]["strict"] = True  # the piece's own tree must then show > 0, which fails at x = 0
    assert not check(_hand("x*exp(-x) > 0", [["x", "0", "oo"]], bad)).accepted


def test_softplus_flips_are_an_identity_only_for_the_listed_argument():
    cert = _cert("log(1 + exp(x)) >= x", REAL, max_boxes=3000)
    flipped = [leaf for leaf in _leaves(cert["tree"]) if leaf.get("flips")]
    assert flipped
    tampered = copy.deepcopy(cert)
    for leaf in _leaves(tampered["tree"]):
        if leaf.get("flips"):
            leaf["flips"] = ["2*x"]
    assert not check(tampered).accepted
    bad = copy.deepcopy(cert)
    bad["relation"] = "log(1 + exp(x)) >= x + 1/10**12"  # false at x = 40
    assert not check(_resealed(bad)).accepted


def test_abs_cases_needs_a_negative_coefficient():
    tree = {"close": "abs_cases", "abs": "x", "plus": {"close": "interval"}, "minus": {"close": "interval"}}
    assert check(_hand("Abs(x) <= 2", [["x", "-1", "1"]], tree)).accepted
    assert not check(_hand("Abs(x) <= 1/2", [["x", "-1", "1"]], tree)).accepted
    # Abs(x) >= 1/2 has the term +Abs(x): splitting it into cases would prove a false statement
    assert not check(_hand("Abs(x) >= 1/2", [["x", "-1", "1"]], tree)).accepted


def test_a_higher_order_touching_point_is_checked_exactly():
    tree = {"close": "touching", "point": {"x": "0"}, "order": 4}
    assert check(_hand("exp(x) >= 1 + x + x**2/2 + x**3/6", [["x", "-1/2", "1/2"]], tree)).accepted
    # one Taylor term short: d^3 s does not vanish at 0 (false for x < 0)
    assert not check(_hand("exp(x) >= 1 + x + x**2/2", [["x", "-1/2", "1/2"]], tree)).accepted
    assert not check(_hand("exp(x) >= 1 + x + x**2/2 + x**3/6", [["x", "-1/2", "1/2"]],
                           {**tree, "order": 3})).accepted


def test_abs_branches_are_resolved_only_where_the_box_decides_them():
    cert = {"format": FORMAT, "claim": None, "kind": "inequality", "relation": "Abs(x - 1/3) + x**2 >= 0",
            "domain": [["x", "-1", "1"]], "tree": {"close": "interval"}}
    ineq = Inequality(cert)
    from flint import fmpq

    right = ineq.on_box({"x": (fmpq(1, 2), fmpq(1))})
    across = ineq.on_box({"x": (fmpq(0), fmpq(1))})
    x = sp.Symbol("x")
    assert sp.expand(right.slack - (x - sp.Rational(1, 3) + x**2)) == 0 and right.smooth
    assert across is ineq and not across.smooth


def test_a_violation_far_in_a_tail_is_refuted_from_the_stuck_box():
    res = prove("exp(x/10**6) <= 10*x", {"x": ("1", "oo")}, timeout=2, kernel_boxes=1500)
    assert res.status == "refuted"
    x = sp.Rational(res.counterexample["x"])
    assert x > 10**6 and sp.N(10 * x - sp.exp(x / 10**6), 50) < 0
    assert prove("exp(x/10**6) <= 10*x + exp(x/10**6)", {"x": ("1", "oo")}, timeout=2,
                 kernel_boxes=1500).status != "refuted"


def test_an_odd_order_touching_point_must_sit_at_the_right_end_of_the_box():
    tree = {"close": "touching", "point": {"x": "0"}, "order": 3}
    assert check(_hand("exp(-x) <= 1/(1 + x + x**2/2)", [["x", "0", "1/64"]], tree)).accepted
    # the same point as the upper end: (x - 0)^3 <= 0 there, and the relation is false for x < 0
    assert not check(_hand("exp(-x) <= 1/(1 + x + x**2/2)", [["x", "-1/8", "0"]], tree)).accepted
    assert not check(_hand("exp(-x) <= 1/(1 + x + x**2/2)", [["x", "-1/8", "1/8"]], tree)).accepted


def test_a_log_of_a_sum_is_factored_only_by_a_term_of_its_argument():
    rel, dom = "log((exp(-z/2) + exp(z/2))/2) >= Abs(z)/2 - log(2)", {"z": ("-oo", "oo")}
    cert = _cert(rel, dom, max_boxes=3000)
    flipped = [leaf for leaf in _leaves(cert["tree"]) if leaf.get("flips")] + [
        leaf for node in _leaves(cert["tree"]) for key in ("plus", "minus") if key in node
        for leaf in _leaves(node[key]) if leaf.get("flips")]
    assert flipped
    for leaf in flipped:
        leaf["flips"] = ["z/3"]  # exp(z/3) is no term of the argument: no rewrite, the pieces do not add up
    assert not check(cert).accepted
