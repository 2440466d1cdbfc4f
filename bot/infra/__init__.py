"""Plumbing any part may use: performance counters, bounded caches, worker pools and the
pictures' drawing pool."""
