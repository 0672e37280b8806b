"""Benchmarks and fuzzers: they measure and attack the companion from outside. Production code
never imports this package (only the `companion bench` command, listed by name in cli.py)."""
