"""Hypothesis profiles: ``dev`` (the default: a tenth of the examples, for a quick run) and ``ci``
(every example; ``.ci/run`` sets ``HYPOTHESIS_PROFILE=ci``). Both are derandomized: the same
examples on every run."""

import os

from hypothesis import settings

settings.register_profile("dev", derandomize=True, deadline=None)
settings.register_profile("ci", derandomize=True, deadline=None)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
settings.load_profile(PROFILE)


def examples(thorough: int) -> int:
    """How many examples a property test tries: ``thorough`` under ``ci``, a tenth of it (at least
    10) under ``dev``."""
    return thorough if PROFILE == "ci" else max(10, thorough // 10)
