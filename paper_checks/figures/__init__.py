"""The figures of the check scripts, one module per script (``figures/<script>.py``), each
making its script's PNGs with :func:`make`, deterministically (same settings, same bytes)."""
