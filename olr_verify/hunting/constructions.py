"""The papers' own lower-bound constructions, simulated against implemented learners.

- 002 Theorem 4.2 (App. C): adaptive sequence, regret >= ||u||_{S_T} sqrt(T/2) for any algorithm.
- 003 Theorem 2 / Corollary 7 (Figure 2, one dimension) and Theorem 4 / Corollary 8 (Figure 4, two
  dimensions): the printed regimes (Lemma 3: 40 e^{-0.45 D} <= eps <= 1/25; Lemma 5:
  100 e^{-0.6 D/sqrt 2} <= eps <= 1/(10 D)) and the proof constants 1/4000 D^{2/3} T^{-2/3} and
  1/1300 sqrt(D/T), with eps tied to T by the proofs' sample bounds T < D/(256 eps^{1.5}) and
  T < D/(256 eps^2).  Expected excess losses are exact on the finite-support laws and averaged
  over simulated samples (mean and standard error reported).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from olr_verify.hunting import highprec_learners as hl
from reference.comparator import best_in_ball_fast
from olr_verify.hunting.optimisers import theorem_4_2_sequence


def theorem_4_2_check(quick: bool = False) -> list[dict]:
    rows = []
    import algorithms as A

    learners = [("002 Algorithm 1, alpha=1.5", lambda d: A.ScaleInvariantCoordinatewise(d, 1.5)),
                ("002 Algorithm 2, alpha=1.5", lambda d: A.ScaleInvariantFull(d, 1.5)),
                ("002 Algorithm 2, alpha=1.2", lambda d: A.ScaleInvariantFull(d, 1.2)),
                ("zero predictor", lambda d: hl.ZeroPredictor(d))]
    for name, make in learners:
        for d in (2, 3):
            for T in ((20,) if quick else (20, 40)):  # float64 loses the rank of S_T beyond T ~ 50
                L = make(d)
                X, G = theorem_4_2_sequence(L, d, T)
                L2 = make(d)
                alg = 0.0
                for x, g in zip(X, G):
                    alg += g * float(L2.predict(x))
                    L2.update_gradient(x, g)
                S, h = X.T @ X, -(G[:, None] * X).sum(0)
                Sp = np.linalg.pinv(S)
                beta = 1.0
                u = beta * math.sqrt(2 / T) * Sp @ h
                regret = alg + h @ u
                rows.append({"learner": name, "d": d, "T": T, "norm_u_S": round(float(math.sqrt(u @ S @ u)), 12),
                             "regret": float(regret), "bound": beta * math.sqrt(T / 2),
                             "ratio": float(regret / (beta * math.sqrt(T / 2)))})
    return rows


# --------------------------------------------------------------------------- seed 003
def regime_theorem_2(D: float) -> dict:
    """T-range where Lemma 3's hypotheses hold with eps = (D / (256 T))^{2/3} (empty when D < ln(1000)/0.45)."""
    eps_lo, eps_hi = 40 * math.exp(-0.45 * D), 1 / 25
    if D < 1 or eps_lo > eps_hi:
        return {"D": D, "empty": True, "reason": f"40 e^(-0.45 D) = {eps_lo:.3g} > 1/25"}
    return {"D": D, "empty": False, "T_min": D / (256 * eps_hi ** 1.5), "T_max": D / (256 * eps_lo ** 1.5)}


def regime_theorem_4(D: float) -> dict:
    eps_lo, eps_hi = 100 * math.exp(-0.6 * D / math.sqrt(2)), 1 / (10 * D)
    if D < 2 or eps_lo > eps_hi:
        return {"D": D, "empty": True, "reason": f"100 e^(-0.6 D/sqrt 2) = {eps_lo:.3g} > 1/(10 D) = {eps_hi:.3g}"}
    return {"D": D, "empty": False, "T_min": D / (256 * eps_hi ** 2), "T_max": D / (256 * eps_lo ** 2)}


def _population_min(atoms, probs, D):
    """min over the D-ball of sum_k probs_k log(1 + e^{atoms_k . w}) (reference.comparator, float64).

    Its ``value`` is F(theta) >= min F, so the excess losses and regrets below are LOWER estimates, within the
    comparator's ``value_gap`` (~1e-9) of the exact ones."""
    return best_in_ball_fast(atoms, D, weights=probs)


def _fig2(D, eps, chi):
    theta = math.sqrt(eps) / D
    p = theta / 2 + chi * eps / D
    return np.array([[1 - theta / 2], [-theta]]), np.array([p, 1 - p])


def _fig4(D, eps, chi):
    r = D / math.sqrt(2) * (1 + math.exp(0.9)) / (1 + math.exp(-0.9 * D / math.sqrt(2)))
    p = r / (1 + r)
    atoms = np.array([[0, -1 / D], [-1 / math.sqrt(2), 1 / math.sqrt(2)], [1 / math.sqrt(2), 1 / math.sqrt(2)]])
    return atoms, np.array([p, (1 + chi * eps) / 2 * (1 - p), (1 - chi * eps) / 2 * (1 - p)])


def _simulate(atoms, probs, D, T, reps, rng, learners):
    import algorithms as A

    d = atoms.shape[1]
    best = _population_min(atoms, probs, D).value
    out = {}
    for name in learners:
        ex, rg = [], []
        for _ in range(reps):
            idx = rng.choice(len(probs), size=T, p=probs)
            X = atoms[idx]
            if name == "003 Algorithm 1 (FTRL), average":
                L = A.FTRLSurrogate1D(D, T=T)
                ws = []
                for x in X[:, 0]:
                    ws.append(L.state()["w"])
                    L.update_instance(x)
                W = np.array(ws)[:, None]
            elif name == "projected OGD, average":
                L = A.OGD(d, D, 1.0)  # step D / sqrt(t), projected on the D-ball; loss log(1 + e^{x.w}) = label -1
                W = []
                for x in X:
                    W.append(L.state()["theta_hat"])
                    L.update(x, -1)
                W = np.array(W)
            else:  # empirical risk minimiser on the sample (FTL's last iterate), a proper output
                counts = np.bincount(idx, minlength=len(probs)).astype(float)
                W = np.repeat(_population_min(atoms, counts / T, D).theta[None, :], T, axis=0)
            wbar = W.mean(0)
            ex.append(float(probs @ np.logaddexp(0, atoms @ wbar)) - best)
            if name == "empirical risk minimiser":
                rg.append(math.nan)  # not an online learner: no regret
                continue
            cum = np.logaddexp(0, (X * W).sum(1)).sum()
            counts = np.bincount(idx, minlength=len(probs)).astype(float)
            rg.append(float(cum - T * _population_min(atoms, counts / T, D).value))
        out[name] = (float(np.mean(ex)), float(np.std(ex) / math.sqrt(reps)),
                     float(np.mean(rg)), float(np.std(rg) / math.sqrt(reps)))
    return out


def lower_bound_check(which: str, quick: bool = False, seed: int = 0) -> dict:
    """Simulate the construction of Theorem 2 (which='1d') or Theorem 4 ('2d') in its printed regime."""
    rng = np.random.default_rng(seed)
    if which == "1d":
        D = 20.0
        reg = regime_theorem_2(D)
        Ts = [int(reg["T_min"]) + 2, 100] if not quick else [int(reg["T_min"]) + 2]
        const = 1 / 4000
        bound = lambda T: const * D ** (2 / 3) * T ** (-2 / 3)
        eps_of = lambda T: (D / (256 * T)) ** (2 / 3)
        law = _fig2
        learners = ["003 Algorithm 1 (FTRL), average", "projected OGD, average", "empirical risk minimiser"]
    else:
        D = 24.0
        reg = regime_theorem_4(D)
        Ts = [int(reg["T_min"]) + 2]
        bound = lambda T: math.sqrt(D / T) / 1300
        eps_of = lambda T: math.sqrt(D / (256 * T))
        law = _fig4
        learners = ["projected OGD, average", "empirical risk minimiser"]
    reps = (12 if quick else 40) if which == "1d" else (2 if quick else 10)
    rows = []
    for T in Ts:
        eps = eps_of(T) * 0.999
        res = {chi: _simulate(*law(D, eps, chi), D, T, reps, rng, learners) for chi in (-1, 1)}
        for name in learners:
            worst = max((-1, 1), key=lambda c: res[c][name][0])
            m, se, rm, rse = res[worst][name]
            rows.append({"learner": name, "D": D, "T": T, "eps": eps, "worst_chi": worst,
                         "expected_excess": m, "stderr": se, "excess_bound": bound(T),
                         "ratio_excess": m / bound(T), "expected_regret": rm, "regret_stderr": rse,
                         "regret_bound_T_times": T * bound(T), "ratio_regret": rm / (T * bound(T))})
    return {"regime": reg, "rows": rows, "reps": reps}


# --------------------------------------------------------------------------- every learner of algorithms/
class BinaryGAF:
    """algorithms.GAF with K = 2 as a binary learner (seed 001 with Phi(x) = e_k (x) x): yhat = log p_hat(+1) -
    log p_hat(-1), so log(1 + e^{-y yhat}) = -log p_hat(y) (mu = 0: p_hat sums to 1). Corollary 2's lam, beta
    for the B-ball. Improper: p_hat is a Gaussian mixture of sigmoids, not sigma(w . x) for one w."""

    def __init__(self, d: int, B: float, R: float = 1.0):
        import algorithms as A

        self.L = A.GAF(d, 2, **A.corollary2_parameters(d, 2, B, R))

    def predict(self, x) -> float:
        s = self.L.predict(np.asarray(x, float))
        return float(s[1] - s[0])

    def update(self, x, y) -> None:
        self.L.update(np.asarray(x, float), 1 if y > 0 else 0)


def algorithms_learners(d: int, D: float, T: int) -> dict:
    """Every binary learner of ``algorithms/`` that runs in dimension ``d``, set up for the D-ball (B = D, R = 1),
    improper ones included (AIOLI, SurrogateFTL, Foster, GAF with K = 2, EKF, ...)."""
    import algorithms as A

    out = {"AIOLI": lambda: A.AIOLI(d, D, 1.0), "SurrogateFTL": lambda: A.SurrogateFTL(d, D, 1.0),
           "ONS": lambda: A.ONS(d, D, 1.0), "OGD": lambda: A.OGD(d, D, 1.0), "FTL": lambda: A.FTL(d, D),
           "FTRL": lambda: A.FTRL(d, 1.0, B=D), "EKF": lambda: A.EKF(d), "TruncatedEKF": lambda: A.TruncatedEKF(d, 0.25),
           "SOS": lambda: A.SOS(d), "ScaleInvariantCoordinatewise": lambda: A.ScaleInvariantCoordinatewise(d),
           "ScaleInvariantFull": lambda: A.ScaleInvariantFull(d), "GAF (K = 2)": lambda: BinaryGAF(d, D)}
    if d == 1:
        out["FosterAggregating"] = lambda: A.FosterAggregating(D, 1.0)
        out["FTRLSurrogate1D"] = lambda: A.FTRLSurrogate1D(D, T=T)
    return out


def _play(make, atoms, probs, D, T, rng) -> tuple[float, float, bool]:
    """(excess loss of the averaged predictor, regret, played inside W = D-ball as one w every round).

    The loss of instance x is log(1 + e^{yhat}) (label absorbed, y = -1 for the binary learners).  The
    output predictor's value at each atom is the average over t of the learner's prediction there, so the
    excess loss is defined for improper learners too.  'Proper on this run' holds when, every round, the
    predictions at the atoms come from one weight vector w with ||w|| <= D."""
    L = make()
    idx = rng.choice(len(probs), size=T, p=probs)
    P = np.zeros(len(atoms))
    cum, proper = 0.0, True
    for i in idx:
        preds = np.array([float(L.predict(a)) for a in atoms])
        w, *_ = np.linalg.lstsq(atoms, preds, rcond=None)
        if np.max(np.abs(atoms @ w - preds)) > 1e-9 * (1 + np.max(np.abs(preds))) or np.linalg.norm(w) > D * (1 + 1e-9):
            proper = False
        P += preds
        cum += float(np.logaddexp(0.0, preds[i]))
        L.update(atoms[i], -1)
    excess = float(probs @ np.logaddexp(0.0, P / T)) - _population_min(atoms, probs, D).value
    counts = np.bincount(idx, minlength=len(probs)).astype(float)
    return excess, cum - T * _population_min(atoms, counts / T, D).value, proper


CONSTRUCTIONS = {
    # which: (D, regime, law, T_of_regime, eps_of_T, printed bound on the expected excess loss)
    "1d": (20.0, regime_theorem_2, _fig2, lambda T: (20.0 / (256 * T)) ** (2 / 3),
           lambda D, T: D ** (2 / 3) * T ** (-2 / 3) / 4000),
    "2d": (24.0, regime_theorem_4, _fig4, lambda T: math.sqrt(24.0 / (256 * T)),
           lambda D, T: math.sqrt(D / T) / 1300),
}


# learners whose round costs grow with t (they re-solve over the whole past): O(T^2) work in all
GROWING_COST = frozenset({"FTL", "FTRL", "SOS"})


@functools.lru_cache(maxsize=8)
def every_learner_check(which: str, quick: bool = False, seed: int = 0, T: int | None = None,
                        reps: int | None = None, growing_T: int | None = None) -> dict:
    """Theorem 2 / Corollary 7 (which='1d', Figure 2, D = 20) or Theorem 4 / Corollary 8 (which='2d', Figure 4,
    D = 24) against every learner of algorithms/: per learner the worse of the two laws chi = +-1, mean over
    ``reps`` samples.  T defaults to T_min + 2 of the printed regime (5402 for '2d'); a smaller T (quick checks)
    leaves the regime, and is reported as ``in_regime: False``; ``growing_T`` caps T for the learners of
    :data:`GROWING_COST` (the work budget of a claim run; ``make hunt`` runs them at the full T)."""
    if which not in CONSTRUCTIONS:
        raise ValueError(f"which must be one of {sorted(CONSTRUCTIONS)}, got {which!r}")
    D, regime, law, eps_of, bound_of = CONSTRUCTIONS[which]
    rng = np.random.default_rng(seed)
    T_min = int(regime(D)["T_min"]) + 2
    T = T_min if T is None else int(T)
    eps = min(eps_of(T), eps_of(T_min)) * 0.999
    reps = (1 if quick else 3) if reps is None else int(reps)
    d = 1 if which == "1d" else 2
    rows = []
    for name, make in algorithms_learners(d, D, T).items():
        T_l = min(T, growing_T) if (growing_T and name in GROWING_COST) else T
        per_chi = {}
        for chi in (-1, 1):
            runs = [_play(make, *law(D, eps, chi), D, T_l, rng) for _ in range(reps)]
            per_chi[chi] = (float(np.mean([r[0] for r in runs])), float(np.mean([r[1] for r in runs])),
                            all(r[2] for r in runs))
        worst = max((-1, 1), key=lambda c: per_chi[c][0])
        ex, rg, proper = per_chi[worst]
        b = bound_of(D, T_l)
        rows.append({"learner": "algorithms." + name, "D": D, "T": T_l, "eps": eps, "worst_chi": worst,
                     "in_regime": T_l >= T_min, "proper_on_run": bool(per_chi[-1][2] and per_chi[1][2]),
                     "expected_excess": ex, "excess_bound": b, "ratio_excess": ex / b,
                     "expected_regret": rg, "ratio_regret": rg / (T_l * b)})
    return {"rows": rows, "reps": reps, "T_regime_min": T_min}
