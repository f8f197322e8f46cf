"""User-defined tools: see docs/extending.md."""
