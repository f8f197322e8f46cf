"""The ArtemisKit benchmark suite: ``python -m benchmarks`` (SPEC 10).

It measures, never asserts: engine overhead per step, many sessions at once, the CLI's
cold start, the Docker sandbox's file operations against ``docker exec``, peak memory
of a long run and, optionally, LangGraph side by side on the same workload. The
figures land in ``benchmarks/results/latest.json`` and ``docs/performance.md``; a
``--quick`` run's land in the scratch folder ``build/benchmarks-quick/`` instead.
"""
