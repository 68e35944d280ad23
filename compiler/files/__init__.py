"""Command-line paths into files: discovery (with what kustomize leaves out), bulk validation, the worker processes."""
