"""Differential testing of ``lint`` against the simulated cluster (issue 14, docs/fidelity.md).

A deterministic generator (:mod:`.generator`) makes jobs from parents (the
goldens, compiled specs across profiles and NPU counts, the upstream samples)
and single-field mutations of them (:mod:`.mutations`); the runner
(:mod:`.runner`) judges every job with the real upstream (the oracle of
``tests.simcluster``) and with ``lint`` through the Python API, and
:mod:`.report` writes ``docs/fidelity.md``.  Disagreements that are understood
are listed with their reason in ``known.yaml``.

``python -m tests.fidelity run [--full]`` regenerates the document;
``test_fidelity.py`` runs a reduced subset in CI.
"""
