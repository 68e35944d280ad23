"""The rule units, one module per rule (explicit list: adding a rule = a module + a line here).

Numbering: AC2xx operator (AscendJob) rules, AC3xx scheduler and hardware
rules (AC301-AC304 are shared with ``compiler/hardware.py``), AC4xx Volcano
admission, AC5xx ranktable, AC6xx environment, AC7xx Kubernetes, AC8xx security.
"""

RULE_MODULES = (
    # ascend-operator
    "scaling_labels",            # AC201
    "scaleout_type",             # AC202
    "replica_specs",             # AC203
    "success_policy",            # AC204
    "scheduling_queue",          # AC205
    "framework_label",           # AC206
    "replica_type",              # AC207
    "replica_count",             # AC208
    "leader_replicas",           # AC209
    "ascend_container",          # AC210
    "leader_required",           # AC211
    "mindspore_scheduler",       # AC212
    "ascendjob_port",            # AC213
    "restart_policy",            # AC214
    "ring_controller",           # AC215
    # Volcano Ascend plugin, hardware profiles
    "npu_count",                 # AC301
    "super_pod_block",           # AC302
    "not_full_node",             # AC303
    "accelerator_type_missing",  # AC305
    "accelerator_type_unknown",  # AC306
    "schedule_policy",           # AC307
    "node_selector_consistency",  # AC308
    "tor_affinity",              # AC309
    # Volcano Job admission
    "job_min_available",         # AC401
    "max_retry",                 # AC402
    "tasks_required",            # AC403
    "task_replicas",             # AC404
    "task_name",                 # AC405
    "policies",                  # AC406
    "plugins",                   # AC407
    # ranktable
    "ranktable_configmap",       # AC501
    "ranktable_configmap_label",  # AC502
    "ranktable_mount",           # AC503
    # environment
    "visible_devices",           # AC601
    "ranktable_env",             # AC602
    "hccl_if_ip",                # AC603
    "framework_env",             # AC604
    # Kubernetes
    "npu_requests_limits",       # AC701
    "single_npu_resource",       # AC702
    "uniform_npu_count",         # AC703
    "dns_name",                  # AC704
    "pod_name_length",           # AC705
    # security
    "plaintext_credential",      # AC801
)
