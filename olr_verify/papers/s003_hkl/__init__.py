"""Seed 003: Logistic Regression: Tight Bounds for Stochastic and Online Optimization (claims in paper.toml)."""
