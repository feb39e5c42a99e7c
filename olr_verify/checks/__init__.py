"""The shared mechanics of the checks, and the checks that span papers.

- :mod:`~olr_verify.checks.scalar_common` -- the deciders (``inequality``, ``identity``, ``combine`` for chains)
  that the declared claims of every ``paper.toml`` and the Python checks both use; :mod:`exact_points` where they
  evaluate (exact values, domains, special points) and :mod:`scalar_replay` their replayers and statement mode;
- :mod:`~olr_verify.checks.verdicts` -- verdict helpers (proved on less than the printed domain, cited steps,
  matrix identities, round-by-round differential verdicts);
- ``reference_*`` -- the differential runs of the fast learners against the certified references;
- ``hunt_*`` -- the regret hunts of 002-004 written in Python (:mod:`olr_verify.hunting`; 000's are declared in its
  paper.toml as ``[claim.hunt]`` tables); ``lemmas_core`` -- the prover's proof plans of
  000 Lemmas 5 and 8 and 002 Lemma A.1; ``corrected_variants`` -- corrected forms of printed slips.

The checks of one paper live in its folder, ``olr_verify/papers/s<key>_<name>/`` (``paper.toml`` + modules by
topic). Every module here and there is imported by :func:`olr_verify.registry.load_checks`; do heavy work inside
the check function, not at import.
"""
