"""Agreement metrics in their pure form: span F1 between two span sets, and the bootstrap."""
