"""Adapters exposing olr_verify learners to other libraries."""
