"""Test-suite settings: property tests are derandomized so that every run (and CI) draws the
same examples; a failure is then reproducible, never a flake."""

from hypothesis import HealthCheck, settings

settings.register_profile("countdp", derandomize=True, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("countdp")
