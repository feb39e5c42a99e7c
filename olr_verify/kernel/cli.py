"""The verdict of ``olr-verify check-proof PATH`` (printed by olr_verify/cli.py): the certificate file, read
strictly, accepted by the kernel and, when the report's ``results.json`` is found (``--results``, or two folders
above PATH), bound by it to the claim the certificate names."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import threading
from pathlib import Path

from olr_verify.kernel import check, statement_sha256


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"duplicate key {next(k for k in keys if keys.count(k) > 1)!r}")
    return dict(pairs)


def _no_constant(text):
    raise ValueError(f"{text} is not a number")


#: Largest certificate file read (the committed ones are below 200 kB).
MAX_BYTES = 20_000_000


def read_certificate(path: Path) -> dict:
    """The JSON object at ``path``: a regular file of at most :data:`MAX_BYTES` (never a device or a pipe),
    duplicate keys, NaN and infinities refused (another reader could differ)."""
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as handle:  # a FIFO must not block
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise ValueError("not a regular file")
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError(f"larger than {MAX_BYTES} bytes")
    return json.loads(data.decode("utf-8"), object_pairs_hook=_no_duplicates, parse_constant=_no_constant)


#: Seconds after which check-proof stops and rejects (a safety net: sympy's exact steps have no budget of their
#: own, and a hostile certificate can chain many; the committed ones take below 1 s each).
SAFETY_NET_SECONDS = 300


class _SafetyNet(BaseException):
    """Not an Exception: the kernel's ``except Exception`` around sympy's steps must not swallow it."""


def verdict_of(path: Path, results: Path | None = None, seconds: float = SAFETY_NET_SECONDS) -> tuple[bool, str]:
    """(accepted, reason) for the certificate file at ``path``; never raises. Past ``seconds`` of wall-clock time
    (Unix main thread) the answer is a rejection that says so."""
    try:
        with _alarm(seconds):
            return _verdict_of(path, results)
    except _SafetyNet:
        return False, f"not decided within the safety net of {seconds:g} s (the certificate asks too much exact work)"


@contextlib.contextmanager
def _alarm(seconds: float):
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def stop(signum, frame):
        raise _SafetyNet()

    old = signal.signal(signal.SIGALRM, stop)
    # fired again every 0.25 s: a raise that lands in a gc callback (hypothesis installs one) is swallowed as
    # 'unraisable', and a single alarm then never stopped the check
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _verdict_of(path: Path, results: Path | None) -> tuple[bool, str]:
    try:
        cert = read_certificate(path)
    except (OSError, ValueError, RecursionError) as exc:
        return False, f"cannot read {path}: {type(exc).__name__}: {exc}"[:300]
    verdict = check(cert)
    if not verdict.accepted:
        return False, verdict.reason
    return _bound_to_report(cert, Path(path), results if results is not None else
                            Path(path).resolve().parent.parent / "results.json", explicit=results is not None)


def _relative(path: Path, folder: Path) -> str | None:
    """``path`` relative to ``folder`` as the report writes it (``certificates/<file>``), or None if outside."""
    try:
        return Path(path).resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return None


def _bound_to_report(cert: dict, path: Path, results: Path, explicit: bool) -> tuple[bool, str]:
    """With a report (``--results``, or the results.json two folders above a file in ``certificates/``), the
    certificate must name its claim, the report must record that claim as proved with this statement's hash,
    and a file inside the report must be the one the report lists for that claim: a valid certificate of some
    other statement, copied over a claim's file, proves nothing about the claim. Without a report, the
    kernel's verdict on the certificate's own statement is the answer."""
    if not results.is_file():
        if explicit:
            return False, f"results file {results} not found"
        return True, (f"accepted on its own statement only: no {results} to bind it to claim {cert.get('claim')!r} "
                      "(give --results)")
    claim = cert.get("claim")
    if not isinstance(claim, str):
        return False, f"the certificate names no claim, so {results.name} cannot bind it to one"
    try:
        claims = {c["id"]: c for c in json.loads(results.read_text(encoding="utf-8"))["claims"]}
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        return False, f"cannot read {results}: {type(exc).__name__}: {exc}"[:300]
    entry = claims.get(claim)
    inside = _relative(path, results.parent)
    if inside is not None and inside.startswith("certificates/") and (not isinstance(entry, dict) or entry.get("certificate") != inside):
        return False, f"{inside} is not the certificate {results.name} lists for {claim}"
    if not isinstance(entry, dict):
        return False, f"claim {claim!r} is not in {results}"
    if entry.get("status") != "proved":
        return False, f"{results.name} records {claim} as {entry.get('status')!r}, not proved"
    if entry.get("certificate_sha256") != statement_sha256(cert):
        return False, f"the certificate's statement differs from the one {results.name} records for {claim}"
    return True, "accepted"
