"""Tests of the environments (simulated and Docker sandbox)."""
