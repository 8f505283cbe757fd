"""Test-wide settings.

Hypothesis's default ``deadline`` (200 ms an example) is a wall-clock
assertion: on a busy machine it fails tests that are correct. No test here
asserts elapsed time; speed is measured by the scripts in ``bench/``.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("raspis", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("raspis")
