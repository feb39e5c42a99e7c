"""Seed 001: Mixability made efficient: Fast online multiclass logistic regression (claims in paper.toml)."""
