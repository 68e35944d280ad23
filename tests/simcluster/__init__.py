"""A simulated Ascend cluster built from the real upstream sources (docs/testing.md).

Modules, one job each:

- ``sources``: the pinned archives in ../shared/upstream/src (checksums, unpacking);
- ``patches``: the source edits made before building (upstream's two, and ours);
- ``build``: building and caching every program (``python -m tests.simcluster build``);
- ``manifests``: CRDs, scheduler configuration and webhook configurations, read from the archives;
- ``nodes``: fake nodes and device-info ConfigMaps from ``profiles/*.yaml``;
- ``stages``: kwok's pod stages (Running, exit on a label, delete);
- ``processes`` and ``cluster``: starting and stopping the cluster (``SimCluster``);
- ``oracle``: upstream's verdict per job for a set of manifests;
- ``session``: the test run's one cluster, made ready in the background (the ``sim`` fixture of
  tests/conftest.py, the oracle's batch runs);
- ``jobs``: helpers for the tests; ``conftest``: markers and the reason to skip.
"""
