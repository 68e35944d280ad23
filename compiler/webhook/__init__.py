"""The admission webhook: ``webhook serve`` judges each submitted object with the lint session; ``webhook manifests``
says what to apply to run it."""
