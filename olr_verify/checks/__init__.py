"""Check functions, one module per topic; each attaches itself to claim ids with ``@check``.

Every module in this package is imported by :func:`olr_verify.registry.load_checks`.
Checks must be importable cheaply: do heavy work inside the check function, not at import.
"""
