"""The paper-check scripts, one per section of the paper (installed as ``countdp_checks``).

Each script is loaded by the runner from its file; this package marker only lets an installed
countdp ship the scripts with the library."""
