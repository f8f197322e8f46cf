"""Environments: where file tools act (simulated or Docker sandbox)."""
