"""The shared layer below every package: YAML, problems, converter, digests, files.

YAML with positions and problem formatting, the one converter, digests, bounded file
reading, path rules, globs and limits. It imports nothing of ArtemisKit except
`artemiskit._errors`.
"""
