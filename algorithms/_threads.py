"""Single-threaded BLAS around the learners' per-round work, without changing the caller's setting.

Why: a round of AIOLI/ONS/EKF/GAF is a handful of BLAS-2 calls on a d×d matrix (d ≤ a few thousand). OpenBLAS
splits such a call over all its threads; on a machine with other work running, the threads wait for a core and a
round becomes 3–50× slower (issue 18: AIOLI at d = 256 ran at 0.04–0.20× river's LogisticRegression with the
default threads, 1.75× with one thread). One thread is also the fastest choice at these sizes on an idle machine.

How: :data:`single_threaded_blas` is a re-entrant context manager. On the outermost entry it reads the current
thread count of every BLAS library loaded in the process (located with ``threadpoolctl``, again after new imports), sets each to 1,
and on the outermost exit restores exactly the counts it read; the caller's global setting is never changed
beyond the with-block. ``threadpoolctl.threadpool_limits`` re-scans the loaded libraries on every call (~600 µs
here) and ``ThreadpoolController.limit`` costs ~12 µs, too much for a round of a few µs, so the library handles
are resolved once and the per-entry cost is the raw ``openblas_get_num_threads``/``openblas_set_num_threads``
calls (~1.5 µs for the two OpenBLAS copies numpy and scipy ship). ``run``/``fit`` enter it once per batch.

The thread count of OpenBLAS is process-wide: two Python threads running learners at the same time share it (the
depth counter is protected by a lock, so the last one out restores the caller's value).
"""
from __future__ import annotations

import sys
import threading

_LOCK = threading.Lock()
_LIBS: tuple = ()  # ((get, set), ...) for every BLAS library loaded at the last scan
_SCANNED_AT = -1  # len(sys.modules) at the last scan: a later import may load another BLAS library


def _blas_handles() -> tuple:
    """(getter, setter) pairs of the thread count of every loaded BLAS library (re-scanned after new imports)."""
    global _LIBS, _SCANNED_AT
    if _SCANNED_AT != len(sys.modules):
        import numpy  # noqa: F401  (make sure numpy's and scipy's BLAS are loaded before scanning)
        import scipy.linalg.blas  # noqa: F401
        from threadpoolctl import ThreadpoolController

        handles = []
        for lib in ThreadpoolController().lib_controllers:
            if lib.user_api != "blas" or getattr(lib, "threading_layer", None) == "disabled":
                continue  # a BLAS built without threads (e.g. the one scs ships) has nothing to limit
            handles.append(_raw_handles(lib) or (lib.get_num_threads, lib.set_num_threads))
        _LIBS, _SCANNED_AT = tuple(handles), len(sys.modules)
    return _LIBS


def _raw_handles(lib):
    """The raw ctypes getter/setter of an OpenBLAS library (cheap), or None to use threadpoolctl's methods."""
    if getattr(lib, "internal_api", None) != "openblas" or getattr(lib, "threading_layer", None) == "openmp":
        return None
    get_symbol = getattr(lib, "_get_symbol", None)
    if get_symbol is None:
        return None
    getter, setter = get_symbol("openblas_get_num_threads"), get_symbol("openblas_set_num_threads")
    if getter is None or setter is None:
        return None
    return getter, setter


class _SingleThreadedBlas:
    """Re-entrant ``with single_threaded_blas:`` block; see the module docstring."""

    __slots__ = ("_depth", "_saved")

    def __init__(self):
        self._depth = 0
        self._saved: list = []

    def __enter__(self):
        with _LOCK:
            self._depth += 1
            if self._depth == 1:
                saved = []
                for get, set_ in _blas_handles():
                    n = get()
                    if n is not None and n != 1:
                        set_(1)
                        saved.append((set_, n))
                self._saved = saved
        return self

    def __exit__(self, *exc):
        with _LOCK:
            self._depth -= 1
            if self._depth == 0:
                for set_, n in self._saved:
                    set_(n)
                self._saved = []
        return False


single_threaded_blas = _SingleThreadedBlas()


def blas_thread_counts() -> list[int]:
    """The current thread count of every loaded BLAS library (for tests and benchmarks)."""
    return [get() for get, _ in _blas_handles()]
