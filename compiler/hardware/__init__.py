"""Hardware profiles, the handler choice (targeting) and the scheduler's NPU arithmetic: what compile and lint share."""
