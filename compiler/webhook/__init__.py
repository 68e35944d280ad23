"""The admission webhook: ``webhook serve`` and what to apply to run it."""
