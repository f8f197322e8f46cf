"""The session engine: state, transitions, budgets, admission, outcomes."""
