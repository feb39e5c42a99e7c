"""Seed 002: Scale-Invariant Unconstrained Online Learning (claims in paper.toml)."""
