"""The benchmark harness: measures knight, never imported by it."""
