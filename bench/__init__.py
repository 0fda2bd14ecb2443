"""Benchmarks of the server that print figures (never asserts); not part of the wheel."""
