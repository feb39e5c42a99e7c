"""League table: the papers' learners as river estimators on real streams, next to river, scikit-learn and VW.

Usage:  .venv/bin/python benchmarks/league.py [--quick] [--no-speed]

Part 1 (progressive validation: predict, then learn, row by row, in the stream's order): log-loss (−log of the
probability given to the true label, clipped at 1e-15 like river's metrics), accuracy and rounds/s on river's
Phishing and Bananas, scikit-learn's breast_cancer (binary), digits and river's ImageSegments (multiclass).
Every learner runs raw and behind river's ``StandardScaler``; ours are ``olr_verify.river`` estimators with their
default parameters (practical mode for R: the running max of ‖x_t‖). Competitors: river ``LogisticRegression`` /
``SoftmaxRegression``, ``ALMAClassifier``, ``PAClassifier`` (not probabilistic: their log-loss is shown only for
completeness), scikit-learn ``SGDClassifier(loss="log_loss")`` through ``partial_fit`` one row at a time
(``river.compat``), and Vowpal Wabbit (``--loss_function logistic``, one online pass) when ``vowpalwabbit``
imports.

Part 2 (speed, with another process keeping one core busy, no environment variable set): AIOLI rounds/s vs
river ``LogisticRegression`` (predict_proba_one + learn_one on the same stream of dicts) at d = 64 and 256, and
AIOLI's per-round time exponent over d = 64 … 1024 (``AIOLI.run``, a least-squares slope in log-log). The same
runs with the single-threaded BLAS guard switched off show what the guard is worth. AIOLI's round is compiled by
numba: the kernel is compiled (or loaded from its on-disk cache) before anything is timed, and the time of a cold
compile (fresh interpreter, empty NUMBA_CACHE_DIR) and of a load from the cache are printed separately.

Prints markdown; ``benchmarks/run.py`` (``make bench``) stores it for the report.
"""
from __future__ import annotations

import argparse
import contextlib
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from river import base as river_base  # noqa: E402
from river import compat, datasets, linear_model, preprocessing, stream  # noqa: E402
from sklearn import datasets as skdatasets  # noqa: E402
from sklearn.linear_model import SGDClassifier  # noqa: E402

import olr_verify.river as ours  # noqa: E402
from algorithms import AIOLI  # noqa: E402

try:  # optional competitor
    import vowpalwabbit
except ImportError:  # pragma: no cover - depends on the machine
    vowpalwabbit = None

CLIP = 1e-15
OURS_BINARY = {"AIOLI (000)": ours.AIOLIClassifier, "ONS": ours.ONSClassifier, "OGD": ours.OGDClassifier,
               "EKF (004)": ours.EKFClassifier, "FTRL (000 §5)": ours.FTRLClassifier,
               "ScaleInvariant (002 Alg. 2)": ours.ScaleInvariantClassifier}
OURS_MULTI = {"GAF (001)": ours.GAFClassifier, "MulticlassONS": ours.MulticlassONSClassifier,
              "MulticlassOGD": ours.MulticlassOGDClassifier}


# ----------------------------------------------------------------------------- streams
def _sk_stream(loader, binary: bool):
    data = loader()
    for x, y in stream.iter_sklearn_dataset(data):
        yield x, (bool(y == 1) if binary else int(y))


STREAMS = {
    "Phishing": (lambda: datasets.Phishing(), True),
    "Bananas": (lambda: datasets.Bananas(), True),
    "breast_cancer": (lambda: _sk_stream(skdatasets.load_breast_cancer, True), True),
    "digits": (lambda: _sk_stream(skdatasets.load_digits, False), False),
    "ImageSegments": (lambda: datasets.ImageSegments(), False),
}


class VWClassifier(river_base.Classifier):
    """Vowpal Wabbit as a river classifier: logistic loss, one online pass (binary or --oaa K)."""

    def __init__(self, classes=None):
        self.classes = classes
        if self.classes is None:
            self.vw = vowpalwabbit.Workspace("--loss_function logistic --link logistic --quiet")
        else:
            self.vw = vowpalwabbit.Workspace(f"--oaa {len(self.classes)} --loss_function logistic "
                                             "--probabilities --quiet")
        self._labels = None if classes is None else list(classes)

    @property
    def _multiclass(self) -> bool:
        return self.classes is not None

    @staticmethod
    def _features(x: dict) -> str:
        return " ".join(f"{str(k).replace(' ', '_').replace(':', '_').replace('|', '_')}:{float(v)!r}"
                        for k, v in x.items())

    def predict_proba_one(self, x: dict) -> dict:
        ex = f"| {self._features(x)}"
        if self.classes is None:
            p = float(self.vw.predict(ex))
            return {False: 1.0 - p, True: p}
        probs = self.vw.predict(ex)
        return {c: float(p) for c, p in zip(self._labels, probs)}

    def learn_one(self, x: dict, y) -> None:
        label = (1 if y else -1) if self.classes is None else self._labels.index(y) + 1
        self.vw.learn(f"{label} | {self._features(x)}")


def competitors(binary: bool, classes) -> dict:
    """name -> factory of a fresh river-style model (without scaler)."""
    if binary:
        models = {name: cls for name, cls in OURS_BINARY.items()}
        models.update({"river LogisticRegression": linear_model.LogisticRegression,
                       "river ALMA": linear_model.ALMAClassifier, "river PA": linear_model.PAClassifier,
                       "sklearn SGD log_loss (partial_fit)": lambda: compat.convert_sklearn_to_river(
                           SGDClassifier(loss="log_loss", random_state=0), classes=[False, True])})
        if vowpalwabbit is not None:
            models["Vowpal Wabbit"] = lambda: VWClassifier()
    else:
        models = {name: cls for name, cls in OURS_MULTI.items()}
        models.update({"river SoftmaxRegression": linear_model.SoftmaxRegression,
                       "sklearn SGD log_loss (partial_fit)": lambda: compat.convert_sklearn_to_river(
                           SGDClassifier(loss="log_loss", random_state=0), classes=list(classes))})
        if vowpalwabbit is not None:
            models["Vowpal Wabbit"] = lambda: VWClassifier(classes)
    return models


def progressive(model, data) -> tuple[float, float, float]:
    """(mean log-loss, accuracy, rounds/s) of predict-then-learn over the stream."""
    loss = correct = n = 0
    start = time.perf_counter()
    for x, y in data:
        p = model.predict_proba_one(x)
        loss -= math.log(max(float(p.get(y, 0.0)), CLIP))
        correct += bool(p) and max(p, key=p.get) == y
        model.learn_one(x, y)
        n += 1
    seconds = time.perf_counter() - start
    return loss / n, correct / n, n / seconds


def league(names, quick: bool) -> None:
    print("### League table: progressive validation on real streams\n")
    print("Predict then learn, one pass in stream order; log-loss = mean −log p(true label) (clipped at 1e-15); "
          "ours = `olr_verify.river` defaults (R: running max of ‖x_t‖). "
          "Bold = best log-loss of the stream. ALMA and PA output hard 0/1 probabilities.\n")
    for name in names:
        make_stream, binary = STREAMS[name]
        data = list(make_stream())
        if quick:
            data = data[:300]
        classes = sorted({y for _, y in data}, key=repr)
        rows = []
        for model_name, factory in competitors(binary, classes).items():
            for scaled in (False, True):
                model = factory()
                if scaled:
                    model = preprocessing.StandardScaler() | model
                try:
                    ll, acc, rps = progressive(model, data)
                except Exception as exc:  # report, do not hide
                    rows.append((model_name, scaled, math.nan, math.nan, math.nan, f"failed: {exc!r}"[:80]))
                    continue
                rows.append((model_name, scaled, ll, acc, rps, ""))
        best = min(r[2] for r in rows if not math.isnan(r[2]))
        d = len(data[0][0])
        print(f"#### {name} ({'binary' if binary else f'{len(classes)} classes'}, n = {len(data)}, d = {d})\n")
        print("| learner | scaler | log-loss | accuracy | rounds/s | note |")
        print("|---|---|---:|---:|---:|---|")
        for model_name, scaled, ll, acc, rps, note in sorted(rows, key=lambda r: (math.isnan(r[2]), r[2])):
            cell = f"**{ll:.4f}**" if ll == best else f"{ll:.4f}"
            print(f"| {model_name} | {'StandardScaler' if scaled else '—'} | {cell} | {acc:.4f} | {rps:,.0f} "
                  f"| {note} |")
        ours_names = set(OURS_BINARY) | set(OURS_MULTI)
        winner = min((r for r in rows if not math.isnan(r[2])), key=lambda r: r[2])
        best_ours = min((r for r in rows if r[0] in ours_names and not math.isnan(r[2])), key=lambda r: r[2])
        best_other = min((r for r in rows if r[0] not in ours_names and not math.isnan(r[2])), key=lambda r: r[2])
        print(f"\nBest: {winner[0]} ({'scaled' if winner[1] else 'raw'}). Best paper learner: {best_ours[0]} "
              f"{best_ours[2]:.4f} at {best_ours[4]:,.0f} rounds/s; best other: {best_other[0]} "
              f"{best_other[2]:.4f} at {best_other[4]:,.0f} rounds/s.\n")
    if vowpalwabbit is None:
        print("Vowpal Wabbit: `import vowpalwabbit` failed on this machine, so it is not in the table.\n")
    else:
        print(f"Vowpal Wabbit {vowpalwabbit.__version__}: pip `vowpalwabbit`, not a project dependency "
              "(installed by hand for this benchmark).\n")


# ----------------------------------------------------------------------------- speed under load
@contextlib.contextmanager
def busy_core():
    """Another process keeping one core busy for the duration of the block (killed by its pid after)."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)
        yield
    finally:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def guard_off():
    """Counterfactual: the single-threaded BLAS guard does nothing (BLAS keeps its default threads)."""
    import algorithms._threads as threads

    saved = threads._blas_handles()
    threads._LIBS = ()
    try:
        yield
    finally:
        threads._LIBS = saved


def dict_stream(n: int, d: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) / math.sqrt(d)
    w = rng.standard_normal(d) * 3.0 / math.sqrt(d)
    Y = rng.random(n) < 1.0 / (1.0 + np.exp(-X @ w))
    return X, Y, [{i: float(v) for i, v in enumerate(row)} for row in X], [bool(y) for y in Y]


CHUNK = 25  # rounds timed together; a chunk preempted by another process is an outlier, not the typical cost
QUANTILE = 0.25  # the lower quartile of the chunk times estimates the cost of a round when it has the core


def _river_chunks(model, xs, ys):
    """Per-chunk seconds of predict_proba_one + learn_one, one chunk at a time (a generator: interleavable)."""
    for s in range(0, len(xs), CHUNK):
        start = time.perf_counter()
        for x, y in zip(xs[s:s + CHUNK], ys[s:s + CHUNK]):
            model.predict_proba_one(x)
            model.learn_one(x, y)
        yield time.perf_counter() - start


def _array_chunks(X, Y):
    """Per-chunk seconds of AIOLI.predict + AIOLI.update per row on numpy vectors."""
    learner = AIOLI(X.shape[1], 1.0, float(np.linalg.norm(X, axis=1).max()))
    Ypm = np.where(Y, 1.0, -1.0)
    for s in range(0, X.shape[0], CHUNK):
        start = time.perf_counter()
        for x, y in zip(X[s:s + CHUNK], Ypm[s:s + CHUNK]):
            learner.predict(x)
            learner.update(x, y)
        yield time.perf_counter() - start


class _GuardOff:
    """Wrap a chunk generator so that each of its chunks runs with the BLAS guard disabled."""

    def __init__(self, chunks):
        self.chunks = chunks

    def __iter__(self):
        return self

    def __next__(self):
        with guard_off():
            return next(self.chunks)


def interleaved_rates(sources: dict, n: int) -> dict:
    """name -> rounds/s from the lower quartile of per-chunk times, the sources' chunks run in turn."""
    times = {name: [] for name in sources}
    iters = {name: iter(src) for name, src in sources.items()}
    for _ in range(0, n, CHUNK):
        for name, it in iters.items():
            times[name].append(next(it))
    return {name: CHUNK / float(np.quantile(t, QUANTILE)) for name, t in times.items()}


def aioli_round_seconds(d: int, n: int, chunk: int) -> tuple[float, float]:
    """Lower-quartile seconds per round of ``AIOLI.run`` on chunks of the stream (guard on, guard off)."""
    X, Y, _, _ = dict_stream(n, d, seed=1)
    Ypm = np.where(Y, 1.0, -1.0)
    R = float(np.linalg.norm(X, axis=1).max())
    on, off = AIOLI(d, 1.0, R), AIOLI(d, 1.0, R)
    t_on, t_off = [], []
    for s in range(0, n, chunk):
        start = time.perf_counter()
        on.run(X[s:s + chunk], Ypm[s:s + chunk])
        t_on.append(time.perf_counter() - start)
        with guard_off():
            start = time.perf_counter()
            off.run(X[s:s + chunk], Ypm[s:s + chunk])
            t_off.append(time.perf_counter() - start)
    return float(np.quantile(t_on, QUANTILE)) / chunk, float(np.quantile(t_off, QUANTILE)) / chunk


WARM_UP = """
import numpy as np
from algorithms import AIOLI
from olr_verify.river import AIOLIClassifier
X = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, -1.0]]); Y = np.array([1.0, -1.0, 1.0])
learner = AIOLI(2, 1.0, 1.0)
learner.run(X, Y); learner.predict(X[0]); learner.update(X[0], 1.0)
learner.state()  # the BLAS-3 fold of A: the first BLAS guard entry locates the BLAS libraries (threadpoolctl)
model = AIOLIClassifier()
for x, y in zip(X, Y):
    model.predict_proba_one({"a": x[0], "b": x[1]}); model.learn_one({"a": x[0], "b": x[1]}, bool(y > 0))
"""


def warm_up_seconds(cache_dir: str | None) -> float:
    """Seconds of a fresh interpreter's first AIOLI calls (imports excluded): the numba round kernel is compiled
    (``cache_dir`` = an empty NUMBA_CACHE_DIR: a cold compile) or loaded from the on-disk cache (None)."""
    code = ("import time, numpy, numba, algorithms, olr_verify.river\nstart = time.perf_counter()\n" + WARM_UP +
            "\nprint(time.perf_counter() - start)")
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True,
                         cwd=str(Path(__file__).resolve().parents[1]))
    return float(out.stdout.strip().splitlines()[-1])


def compile_times() -> tuple[float, float]:
    """(cold compile seconds, load-from-cache seconds) of AIOLI's round kernel, each in a fresh interpreter."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="numba-cold-") as empty:
        cold = warm_up_seconds(empty)
    warm_up_seconds(None)  # make sure the regular cache exists
    return cold, warm_up_seconds(None)


def speed(quick: bool) -> None:
    print("### Speed with another process keeping one core busy (2-core machine, no environment variable)\n")
    cold, cached = compile_times()
    print(f"AIOLI's round is one numba-compiled function (`algorithms/aioli.py`, `aioli_round`). Its first call "
          f"compiles it: {cold:.1f} s in a fresh interpreter with an empty cache, {cached:.2f} s when loaded from "
          "the on-disk cache (`__pycache__`, `cache=True`); both are measured here in separate interpreters and "
          "kept out of every rate below (the kernel is warmed up before timing).\n")
    print(f"Machine: {os.cpu_count()} cores; load average before the run {os.getloadavg()[0]:.1f} (the busy "
          "process adds 1; a load above 2 means other work competes too and the numbers are noisy).\n")
    print(f"Rounds/s of predict_proba_one + learn_one on the same stream of dicts. The learners run in turn, "
          f"{CHUNK} rounds at a time, and each rate is {CHUNK} / the lower quartile of its chunk times (a chunk "
          "during which the scheduler gave the core away is an outlier, not the cost of a round). "
          "`AIOLI arrays` = `AIOLI.predict` + `AIOLI.update` per row on numpy vectors; `guard off` = the same "
          "code with the single-threaded BLAS guard disabled (OpenBLAS default threads). AIOLI's compiled round "
          "calls no BLAS, so the guard now only covers the BLAS-3 fold of A every 256 rounds.\n")
    print("| d | river LogisticRegression | AIOLIClassifier | ratio | AIOLI arrays | ratio | "
          "AIOLIClassifier, guard off | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    with busy_core():
        for d in (64, 256):
            n = {64: 3000, 256: 1500}[d] // (3 if quick else 1)
            X, Y, xs, ys = dict_stream(n, d)
            m = interleaved_rates({"lr": _river_chunks(linear_model.LogisticRegression(), xs, ys),
                                   "ai": _river_chunks(ours.AIOLIClassifier(), xs, ys),
                                   "arr": _array_chunks(X, Y),
                                   "off": _GuardOff(_river_chunks(ours.AIOLIClassifier(), xs, ys))}, n)
            print(f"| {d} | {m['lr']:,.0f} | {m['ai']:,.0f} | {m['ai'] / m['lr']:.2f}× | {m['arr']:,.0f} | "
                  f"{m['arr'] / m['lr']:.2f}× | {m['off']:,.0f} | {m['off'] / m['lr']:.2f}× |")
        print("\nAIOLI per-round time of `AIOLI.run` on short chunks (about 0.2 ms of work each at one thread: "
              "25 rounds at d = 64 down to 2 at d = 1024; lower quartile; same busy core):\n")
        print("| d | rounds per chunk | µs/round | µs/round, guard off |")
        print("|---:|---:|---:|---:|")
        ds = [64, 128, 256, 512, 1024]
        chunks = {64: 25, 128: 25, 256: 10, 512: 4, 1024: 2}
        on, off = [], []
        for d in ds:
            n = {64: 2000, 128: 2000, 256: 1000, 512: 400, 1024: 200}[d] // (2 if quick else 1)
            t_on, t_off = aioli_round_seconds(d, n, chunks[d])
            on.append(t_on)
            off.append(t_off)
            print(f"| {d} | {chunks[d]} | {t_on * 1e6:.1f} | {t_off * 1e6:.1f} |")
        slope = np.polyfit(np.log(ds), np.log(on), 1)[0]
        slope_off = np.polyfit(np.log(ds), np.log(off), 1)[0]
        tail = np.polyfit(np.log(ds[2:]), np.log(on[2:]), 1)[0]
        print(f"\nPer-round time exponent (least-squares slope in log-log) over d = 64…1024: {slope:.2f} "
              f"(guard off: {slope_off:.2f}); over d = 256…1024 only: {tail:.2f}. A round is one pass over the d×d "
              "matrix A⁻¹ (the previous round's rank-one update fused with this round's mat-vec, O(d²)) plus a "
              "fixed cost (the call, the validation of the chunk) that still shows at d = 64.\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="300 rounds per stream, shorter speed runs")
    parser.add_argument("--no-speed", action="store_true", help="skip part 2")
    parser.add_argument("--no-league", action="store_true", help="skip part 1")
    parser.add_argument("--streams", nargs="*", default=list(STREAMS), choices=list(STREAMS))
    args = parser.parse_args(argv)
    exec(WARM_UP, {})  # compile (or load from cache) AIOLI's round kernel before anything is timed
    if not args.no_league:
        league(args.streams, args.quick)
    if not args.no_speed:
        speed(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
