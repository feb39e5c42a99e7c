"""Seed 002 (scale-invariant online learning, Kotłowski): the steps of Lemma A.1's proof in App. F that need
Python -- the table of (14) at 50 digits, the note on the smallest alpha_0.  Eq. (9), claim 7, the case x <= 0.34,
the chord/tangent step and the table's coverage of [0.34, 16/9] are declared in ``paper.toml``; ``TABLE`` is the
printed table, which the chord/tangent links of ``002:lemma-a.1/chord-tangent`` and the coverage links of
``002:equation-14/coverage`` write out.

alpha_0 = 9/8, kappa(alpha) = exp(1/(2(alpha - alpha_0))), a = alpha_0/alpha (paper §3.5).
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check

TABLE = [("1.24", "16/9", "0.017"), ("0.99", "1.24", "0.003"), ("0.85", "0.99", "0.001"), ("0.76", "0.85", "0.0007"),
         ("0.7", "0.76", "0.001"), ("0.65", "0.7", "0.0008"), ("0.6", "0.65", "0.0002"), ("0.56", "0.6", "0.0008"),
         ("0.52", "0.56", "0.0005"), ("0.47", "0.52", "0.0002"), ("0.42", "0.47", "0.0004"), ("0.37", "0.42", "0.0005"),
         ("0.34", "0.37", "0.001")]


# --------------------------------------------------------------------------- App. F, Lemma A.1's proof
def _f14(u, v):
    """Value of (14) on [u, v] at 50 digits (f(x) = e^{9x^2/16})."""
    import mpmath as mp

    f = lambda x: mp.e ** (mp.mpf(9) / 16 * x**2)  # noqa: E731
    fp = lambda x: mp.mpf(9) / 8 * x * f(x)  # noqa: E731
    b = (v * mp.e**u - u * mp.e**v) / (v - u)
    c = (mp.e**v - mp.e**u) / (v - u)
    k = fp(u) - c + 1
    return f(u) - fp(u) * u - b + min(v * k, u * k)


@check("002:equation-14/table")
def equation_14_table(ctx: Context) -> Outcome:
    import mpmath as mp

    F = lambda q: mp.mpf(q.split("/")[0]) / mp.mpf(q.split("/")[1]) if "/" in q else mp.mpf(q)  # noqa: E731
    rows, all_pos, mismatches = [], True, []
    with mp.workdps(50):
        for u, v, printed in TABLE:
            val = _f14(mp.mpf(u), mp.mpf(F(v)))
            rows.append({"interval": [u, v], "printed": printed, "value_50_digits": mp.nstr(val, 12)})
            all_pos &= bool(val > 0)
            if val < mp.mpf(printed):
                mismatches.append([u, v, printed, mp.nstr(val, 6)])
    ev = {"rows": rows, "all_positive": all_pos,
          "printed_value_exceeds_true_value": mismatches,
          "certificate": "each value computed at 50 digits; the smallest is far above the evaluation error",
          "reading": "the first interval is printed [1.24, 1.78]; the text says v_m = 16/9, and the printed 0.017 is "
                     "the value on [1.24, 16/9] (0.01740...); on [1.24, 1.78] the value is 0.01382..., still positive",
          "value_on_[1.24,1.78]": mp.nstr(_f14(mp.mpf("1.24"), mp.mpf("1.78")), 12)}
    ev["printed_value_is_not_the_truncated_value"] = [
        [u, v, printed, row["value_50_digits"]] for (u, v, printed), row in zip(TABLE, rows)
        if mp.mpf(printed) > 0 and _truncated(row["value_50_digits"], printed) != mp.mpf(printed)]
    ev["reading"] += ("; each printed value is read as a lower bound of (14) on its interval (the proof uses the "
                      "table only for positivity): a printed value above the true one fails the check")
    if not all_pos:
        return Outcome("inconclusive", "a value of (14) is not positive", ev)
    if mismatches:
        return Outcome("inconclusive", "a printed value of the table exceeds the value of (14)",
                       {**ev, "reason": "the table does not bound (14) from below on every interval"})
    # mpmath at 50 digits is evidence, not a certificate: without ball arithmetic this stays `verified`
    return Outcome("verified", "50-digit evaluation of (14) on each printed interval (mpmath, not ball arithmetic)",
                   ev)


def _truncated(value: str, printed: str):
    """``value`` cut to the decimal places of ``printed`` (0.000848 at 0.0005's four places: 0.0008)."""
    import mpmath as mp

    places = len(printed.split(".")[1]) if "." in printed else 0
    return mp.floor(mp.mpf(value) * 10**places) / 10**places


@check("002:lemma-a.1/note-smallest")
def lemma_a1_note_smallest(ctx: Context) -> Outcome:
    """alpha0* = sup_x 2 log(x + e^{-x})/x^2 at 50 digits; 9/8 brackets it from above."""
    import mpmath as mp

    with mp.workdps(60):
        r = lambda x: 2 * mp.log(x + mp.e ** (-x)) / x**2  # noqa: E731
        grid = [mp.mpf(-6) + mp.mpf(i) / 100 for i in range(0, 600) if i != 600]
        x0 = max((g for g in grid if g != 0), key=r)
        xs = mp.findroot(lambda x: mp.diff(r, x), x0)
        best = r(xs)
    above = inequality("x + exp(-x) <= exp(9*x**2/16)", {"x": ("-oo", "oo")}, ctx)
    lo = mp.nstr(best * (1 - mp.mpf(10) ** -3), 20)
    below = inequality(f"x + exp(-x) <= exp({lo}*x**2/2)", {"x": ("-3", "0")}, ctx)
    ev = {"alpha0_star_50_digits": mp.nstr(best, 50), "argmax_x": mp.nstr(xs, 20), "9/8": "1.125",
          "relative_gap": mp.nstr((mp.mpf(9) / 8 - best) / best, 6),
          "bracket": {"9/8": above.status, f"{lo} (alpha0* - 0.1%)": below.status}}
    ok = above.status in ("proved", "verified") and below.status == "refuted"
    return Outcome("verified" if ok else "inconclusive",
                   "optimal constant at 50 digits, bracketed by two relation checks", ev)
