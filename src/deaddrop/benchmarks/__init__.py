"""Yardsticks the benchmarks measure the product against."""
