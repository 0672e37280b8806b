"""Simulated players for demo mode and tests: seeded, holding the true cards the camera sees."""
