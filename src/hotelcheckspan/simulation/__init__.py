"""The stand-in corpus: a seeded simulation with the real corpus' shape."""
