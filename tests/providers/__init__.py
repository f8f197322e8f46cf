"""Tests of the model providers."""
