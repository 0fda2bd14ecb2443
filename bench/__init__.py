"""Benchmarks of the server (outside the wheel): ``python -m bench COMMAND``."""
