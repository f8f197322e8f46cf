"""Checkpoint stores: explicit, private pause and resume."""
