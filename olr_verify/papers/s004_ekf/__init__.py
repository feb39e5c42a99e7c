"""Seed 004: Logarithmic regret for parameter-free online logistic regression (claims in paper.toml)."""
