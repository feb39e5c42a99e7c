"""Seed 004 (EKF for logistic regression, de Vilmarest-Wintenberger): the logistic-loss facts the
transcription makes checkable (claims 1-3; formulas restored from the authors' published version
or slides, as the registry notes say).  The other scalar items of seed 004 lost their formulas in
the seed text and stay unregistered.
"""
from __future__ import annotations

from olr_verify.checks.scalar_common import combine, inequality
from olr_verify.outcome import Context, Outcome
from olr_verify.registry import check


