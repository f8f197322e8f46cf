"""The Docker sandbox (SPEC 11); its public names are in `artemiskit.environments`.

`_environment.py` (the environment and its factory), `_engine.py` (the Docker
engine: image, limits, the helper's container), `_channel.py` and `_frames.py`
(the host side of the helper protocol), `_config.py` (the trusted configuration's
``sandbox`` part) and ``helper.sh`` (the fixed POSIX-sh helper run in the
container). aiodocker is imported only when a sandbox is made.
"""
