"""Adversarial bound hunting (issue 6): every printed regret bound attacked.

- :mod:`~olr_verify.hunting.bounds`        each printed bound as (sequence, run, comparator) -> (lhs, rhs);
- :mod:`~olr_verify.hunting.shipped`      the shipped learners of algorithms/ the float64 search runs;
- :mod:`~olr_verify.hunting.highprec_learners` their >= 50-digit twins (replay of a candidate);
- :mod:`~olr_verify.hunting.strategies`    Hypothesis strategies (bounded sequences, adaptive adversaries);
- :mod:`~olr_verify.hunting.space`         each bound's free parameters and printed ranges, worst ratio per region;
- :mod:`~olr_verify.hunting.optimisers`    parameters and sequences searched jointly: boundary points, log-uniform
  draws, random / greedy / paper sequences, local search over both, a deterministic budget of work;
- :mod:`~olr_verify.hunting.planted`       planted false bounds, the measure of the hunter's quality;
- :mod:`~olr_verify.hunting.confirm`       50-digit replay of a candidate before it is called refuted;
- :mod:`~olr_verify.hunting.campaign`      ``olr-verify hunt`` on dask.distributed with SQLite results.

Imports here stay cheap: check modules import this package at registry load time.
"""
