"""The rule units, one module per lint rule, named after the rule (``npu-count`` -> ``npu_count.py``).

The catalogue (:mod:`ascend_compile.catalogue`) lists them with their IDs and metadata; adding a rule
is an entry there and a module here.  Numbering: AC2xx operator (AscendJob) rules, AC3xx scheduler
and hardware rules (AC301-AC304 are shared with ``compiler/hardware/arithmetic.py``), AC4xx Volcano admission,
AC5xx ranktable, AC6xx environment, AC7xx Kubernetes, AC8xx security, AC9xx the cluster the job runs on
(only with ``--cluster``/``--cluster-snapshot``).
"""
