"""Reproductions of the papers' experiments and runs on real data (used by the checks and the report)."""
