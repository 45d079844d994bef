"""Benchmarks for adk-memory: each module prints its figures and the command reproducing them.

Run one with `python -m bench.<module>` or all of them with `python -m bench.run_all`.
"""
