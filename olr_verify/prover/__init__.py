"""olr_verify.prover: a rigorous scalar-inequality prover (arb balls + branch-and-bound).

    >>> from olr_verify.prover import prove
    >>> prove("exp(x) >= 1 + x", {"x": ("-oo", "oo")}).status  # certificate re-checked by olr_verify.kernel
    'proved'
    >>> prove("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-8", "8")}).status
    'proved'
    >>> prove("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-oo", "oo")}).status  # x -> -oo: a multiplier leaf
    'proved'
    >>> prove("log(1 + exp(x)) > x", {"x": ("-oo", "oo")}).status  # the slack tends to 0: a positive leaf
    'proved'
    >>> prove("tanh(x) < 1", {"x": ("-oo", "oo")}).status  # 1 - tanh(x) = 2/(1 + exp(2x)): a rewritten root
    'proved'
    >>> prove("atan(x) < pi/2", {"x": ("-oo", "oo")}).status  # pi/2 - atan(x) = atan(1/x): kernel cannot re-check
    'verified'

``prove(relation, domain, *, timeout=20.0, max_boxes=200000, cut=8, prec=80, search=True, seed=0,
max_tail_depth=4) -> ProofResult``

- ``relation``: sympy syntax with ``<=``, ``<``, ``>=`` or ``>``; decimals are exact rationals.
  Functions: exp, expm1, log, log1p, sqrt, tanh, sinh, cosh, atan, asinh, erf, Abs, Max, Min,
  Piecewise (simple conditions), powers; ``(e^u-1)/u`` is rewritten to its continuous extension.
- ``domain``: ``{name: (lo, hi)}`` in order; bounds are numbers, ``oo``/``-oo``, or expressions
  of earlier variables. Finite ends are closed; a strict relation must hold with ``>`` on them.

``ProofResult``: ``status`` in {proved, refuted, verified, inconclusive} ("verified": the bounded
core was proved but an unbounded tail was not certified); ``counterexample`` (name -> exact
rational string, checked in arb at 200 bits) or None; ``seconds``; ``certificate``.

Certificate (JSON-serialisable dict)
------------------------------------
- ``relation``, ``slack`` (s, the relation holds iff s >= 0 / s > 0), ``strict``, ``domain``,
  ``arb_precision_bits``, ``seconds``;
- ``rewrites``: removable singularities made explicit (``(e^u-1)/u -> E0(u)``);
- ``dependent_bounds``: constraints such as ``a <= C``;
- ``logistic_rewrites``: exact rewrites to ``Softplus(u) = log(1+e^u)``, ``Sigmoid(u) = 1/(1+e^-u)``
  (their derivatives have no cancelling parts);
- ``free_elimination`` + ``reduced``: a variable that no other bound mentions, with a certified sign
  of ``d s/d x`` on the whole domain, is replaced by the end of its range where s is smallest (that
  end may be infinite on the other side or an expression, e.g. ``p >= (e^a-1)/a``); ``reduced`` is
  the certificate of the smaller problem;
- ``monotone_elimination`` + ``pieces``: a variable x with constant bounds and a certified sign of
  ``d s/d x`` on the whole domain is replaced by its least (greatest) admissible value, a Max (Min)
  of linear forms of one variable; each piece is a sub-certificate with the keys below;
- ``reparametrisation``: otherwise dependent bounds are removed by ``x = lo + (hi - lo) t``;
- ``core_box``: the bounded box handled by branch-and-bound (unbounded ends cut at +-cut);
- ``touching_manifolds``: exact sympy facts ``s = d_i s = 0`` on ``x_i = x_j``;
- ``regions``: one entry per region (the core is split where an ``Abs`` changes sign) with
  ``box``, ``boxes`` (count), ``closers`` {name: count} (interval, taylor1, manifold,
  touching_point, monotone_face, zero_face, outside_domain; see :mod:`olr_verify.prover.bnb`),
  ``touching_points`` (exact points with s = grad s = 0 and the box where the Hessian is
  positive definite), ``abs_split``, ``closed``;
- ``boxes``, ``closers``: totals;
- ``tails``: per unbounded end ``{var, side, range, argument, boxes, proved}`` (see
  :mod:`olr_verify.prover.tails` and :mod:`olr_verify.prover.shrink`), or a string saying why tails
  were not attempted. With one unbounded variable the cut grows (8, 16, 32) until both tails are
  certified, and the core box grows with it;
- ``proved_box``: present when only the bounded core was proved (status "verified");
- ``refutation``/``slack_upper_bound``: how a counterexample was found and confirmed;
- ``reason``/``search``: why the result is not "proved" and what was searched.

``proved`` is returned only when every region closed and every tail was certified.
"""
from __future__ import annotations

__all__ = ["prove", "ProofResult"]


def __getattr__(name: str):
    if name in __all__:
        from olr_verify.prover import core

        return getattr(core, name)
    raise AttributeError(name)
