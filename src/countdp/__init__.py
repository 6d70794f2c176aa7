"""countdp: reproducible verification of "Better Privacy Guarantees for Larger Groups".

The library computes what the paper's claims are about (normal functions, output laws, the
shifted log-Gaussian mechanism, Renyi divergences, budgets, lower bounds); the scripts in
``paper_checks/`` compare independent routes to those numbers and report verdicts.
"""

__version__ = "0.2.0"  # the one place the version is written (pyproject.toml reads it)
