"""Benchmarks behind ``hokm bench TARGET``: one module per target (``engine``, ``solver``)."""
