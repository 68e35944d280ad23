"""The compile pipeline and its edges: ``--set`` overrides, writing and ``--check``, the KRM function."""
