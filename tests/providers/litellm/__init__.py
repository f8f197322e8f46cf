"""Interop with a real LiteLLM proxy (installed by ``scripts/litellm-env.sh``)."""
