"""Seed 000: Efficient improper learning for online logistic regression (claims in paper.toml)."""
