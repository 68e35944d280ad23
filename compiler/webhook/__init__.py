"""The validating admission webhook: ``webhook serve`` judges each submitted object with the lint session."""
