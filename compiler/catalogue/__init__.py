"""The rule catalogue: every ID ascend-compile can report, with its name, severity, origin and documentation.

One entry per ID, whoever reports it:

=========  ==================================================================  ============
origin     reported by                                                         suppressible
=========  ==================================================================  ============
input      the YAML reader and file discovery (AC001-AC006; exit code 2)       no
discovery  file discovery's notes (AC007-AC009, AC015)                         by settings
discovery  file discovery's warning of a file NOT CHECKED (AC014)                  no
config     the config, profile and snapshot loaders (AC010, AC011, AC016)  no   
output     the file writer (AC013; exit code 2)                                no
spec       ``compile``, reading a job spec (AC02x, AC304)                      no
schema     the schema check, as ``validate`` (AC1xx)                           yes
engine     the lint engine itself (AC012)                                      yes
cluster    the Python client, ``ascend_compile.Cluster`` (AC017)               no
lint       a rule unit of :mod:`ascend_compile.lint.rules` (AC2xx-AC9xx)       yes
=========  ==================================================================  ============

``compile`` also reports the IDs of lint rules when a spec breaks the same upstream rule a manifest
would (the NPU arithmetic of :mod:`ascend_compile.hardware.arithmetic`, AC301, AC302, AC310; fault tolerance,
AC311 and AC312), always as errors: what ``lint`` warns about there, ``compile`` refuses to write.

The IDs that code reports by name are constants at the top of this module.
The lint engine, the reporters (SARIF's rule list, the JSON ``ruleName``), ``rules``, ``explain``,
project-config checks and ``docs/rules.md`` all read this module; reporting code takes its IDs from
the constants here.  A lint rule's entry names its unit (``lint/rules/<name with _>.py``, whose
``check`` runs and whose docstring is the rule's documentation, loaded only when asked for).

A lint rule lives in two places, as ruff keeps its rules: its row here (ID, name, severity, kinds, hint, the
schema rules it replaces) and its unit (the check, the documentation, ``CITATION``: what it mirrors upstream,
the one place that names upstream's code, and ``fix`` when ``lint --fix`` can fix it); nothing else is keyed
by its ID (``tests/structure/test_rule_table.py``).  Adding a rule: a row here, a unit module, a failing and a
passing case in ``tests/lint/cases/``, then ``python scripts/gen_rule_docs.py``.  This module imports only
constants, so listing and resolving rules costs nothing at start-up.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..findings import ERROR, INFO, WARNING, Finding
from ..records import NamedTuple
from ..vocabulary import (ACCELERATOR_TYPE_LABEL, ASCEND_JOB, CONFIG_MAP, CONTAINER_NAME, DEFAULT_PORT, JOBS,
                         PORT_NAME, RANKTABLE_CONFIGMAP_PREFIX, RANKTABLE_INITIAL, RANKTABLE_KEY,
                         RANKTABLE_MOUNT_PATH, RESET_CONFIGMAP_PREFIX, RESET_INITIAL, RESET_KEY, RESET_LABEL, RING_LABEL,
                         SCHEDULER_NAME, HOST_ARCH_LABEL, HOST_ARCH_VALUES, SCHEDULE_POLICY_ANNOTATION, VOLCANO_JOB, POD_KINDS,
                         POD_CONTROLLERS, NPU_CORE_RESOURCE, VNPU_310P_RING_VALUE, VNPU_DVPP_LABEL)

#: the IDs that code reports by name: the reader, the loaders, the writer, ``compile``, the schema check and the
#: lint engine (the other IDs are reported by their lint units, under the ID of their entry below)
INPUT_ERROR = "AC001"  # unreadable: missing, directory, binary, not UTF-8, through a link out of the repository
INPUT_TOO_LARGE = "AC002"
YAML_SYNTAX = "AC003"  # syntax errors and unsafe tags
YAML_DUPLICATE_KEY = "AC004"
YAML_ALIAS_BOMB = "AC005"  # alias expansion over budget, or recursive alias
YAML_TOO_DEEP = "AC006"
HELM_CHART_SKIPPED = "AC007"  # a directory walk met a Helm chart and did not read it (a note)
KUSTOMIZE_PART_SKIPPED = "AC008"  # a kustomization file was not read (a note)
NOT_A_MANIFEST = "AC009"  # a walked file with no document that has apiVersion or kind (a note)
PROFILE_INVALID = "AC010"
CONFIG_INVALID = "AC011"
BAD_SUPPRESSION = "AC012"
OUTPUT_ERROR = "AC013"
KUSTOMIZE_PART_NOT_CHECKED = "AC014"  # a file a kustomization merges into objects was not checked (a warning)
LINKED_FOLDER_SKIPPED = "AC015"  # a walk did not follow a linked folder, or a linked file out of the repository
CLUSTER_SNAPSHOT_INVALID = "AC016"  # --cluster-snapshot FILE cannot be read or breaks its schema
CLUSTER_ERROR = "AC017"  # the Python client's ClusterError: the API server refused a request, or was not reached
SPEC_INVALID = "AC020"  # a spec rule the schema cannot express
PROFILE_UNKNOWN = "AC021"
PROFILE_UNSUPPORTED = "AC022"  # framework, target or dialect the profile does not support
NOT_A_SPEC = "AC023"
GENERATED_KEY = "AC024"  # free-form labels/annotations or patches over what a spec field writes
PATCH_CONFLICT = "AC025"  # a podTemplatePatch/jobPatch that cannot be merged as written
IMPORT_REFUSED = "AC026"  # import: a manifest part no spec can carry, an ambiguous profile, not a job
UNKNOWN_FIELD = "AC101"
WRONG_TYPE = "AC102"
MISSING_REQUIRED = "AC103"
NOT_ALLOWED_VALUE = "AC104"
BAD_FORMAT = "AC105"
UNKNOWN_KIND = "AC106"
NOT_AN_OBJECT = "AC107"
NPU_COUNT = "AC301"  # per-pod NPU count not accepted by the scheduler
SUPER_POD_BLOCK = "AC302"  # sp-block / ra-block arithmetic
NOT_FULL_NODE = "AC303"  # distributed pods that do not take whole nodes (convention)
NPU_TOTAL = "AC304"  # a total that cannot be split into pods the profile allows
MULTI_LEVEL = "AC310"  # multi-level scheduling levels the plugin refuses
RESILIENCE_PREREQUISITES = "AC311"  # a fault-tolerance setting without what makes it work
FAULT_RETRY_RESTART_POLICY = "AC312"  # fault-retry-times with pods that restart in place


INPUT, DISCOVERY, CONFIG, OUTPUT, SPEC, SCHEMA, ENGINE, LINT, CLUSTER = (
    "input", "discovery", "config", "output", "spec", "schema", "engine", "lint", "cluster")
ORIGINS = (INPUT, DISCOVERY, CONFIG, OUTPUT, SPEC, SCHEMA, ENGINE, LINT, CLUSTER)
#: the origins whose findings no setting or comment silences, and why (config.cannot_disable refuses such settings)
_NOT_SUPPRESSIBLE = {INPUT: "an input error: a file that could not be read is never reported as checked",
                     CONFIG: "a config error: nothing runs with settings that could not be read",
                     OUTPUT: "an output error: compile could not write its files",
                     SPEC: "a spec error: compile writes nothing from a spec it refuses",
                     CLUSTER: "a cluster error: the API server's answer to a request, not a finding in a file"}
SILENCED_BY_SETTINGS = (DISCOVERY,)  # notes on files not linted: no comment in them can reach the note
#: the rules of a suppressible origin that no setting, comment or baseline silences or lowers either, and why
_NEVER_SILENCED = {KUSTOMIZE_PART_NOT_CHECKED: "a file not checked: a run must never look clean because a "
                                               "kustomization named its files"}
_REPORTED_BY = {
    INPUT: "the YAML reader (an input error: exit code 2)",
    DISCOVERY: "file discovery, as it walks a directory (a note; the settings may silence it or change its severity)",
    CONFIG: "the loader of project configuration and hardware profiles (exit code 2)",
    OUTPUT: "every command that writes files (``compile -o``, ``lint --fix``, ...; exit code 2)",
    SPEC: "``ascend-compile compile`` when it reads a job spec",
    SCHEMA: "the schema check (the same as ``ascend-compile validate``)",
    ENGINE: "the lint engine",
    CLUSTER: "the Python client, ``ascend_compile.Cluster``, as the one finding of the ``ClusterError`` it raises",
}
#: what an entry lists in ``kinds`` to apply to every object
ALL_KINDS = ("*",)
SPEC_KINDS = ("TrainingJob",)
DOCS_URI = "https://github.com/ascend-compile/ascend-compile/blob/main/docs/rules.md"

class Entry(NamedTuple):
    """One rule ID and everything said about it (a NamedTuple: cheaper to define at start-up than a dataclass)."""

    id: str
    name: str
    severity: str  # the default; a project config may change it
    origin: str
    #: the documentation of a rule without a unit (its first line is the summary)
    text: str = ""
    hint: str = ""
    kinds: Tuple[str, ...] = ()
    #: schema rule IDs whose finding at the same path this rule's finding makes redundant
    replaces: Tuple[str, ...] = ()

    @property
    def suppressible(self) -> bool:
        """Whether --disable and the config silence it (comments too, outside SILENCED_BY_SETTINGS); input never."""
        return not self.why_not_suppressible

    @property
    def why_not_suppressible(self) -> str:
        """Why no setting, comment or baseline silences it or changes its severity ("" when they can)."""
        return _NEVER_SILENCED.get(self.id) or _NOT_SUPPRESSIBLE.get(self.origin, "")

    @property
    def unit(self) -> str:
        """The module under ``ascend_compile.lint.rules`` that checks a lint rule ('' for the others)."""
        return self.name.replace("-", "_") if self.origin == LINT else ""

    @property
    def doc(self) -> str:
        """The documentation of a rule without a lint unit: what, why, how to fix, examples.  A lint rule's is its
        unit's docstring and its citation (:func:`ascend_compile.lint.registry.documentation`): "" here."""
        if self.unit:
            return ""
        if "\n" in self.text:
            return self.text
        from .docs import DOCS, REPORTED_BY

        return f"{self.text}\n\n{DOCS[self.id]}\n\nReported by {REPORTED_BY.get(self.id, _REPORTED_BY[self.origin])}."

    @property
    def summary(self) -> str:
        """The first line of :attr:`doc` ("" for a lint rule: :func:`ascend_compile.lint.registry.summary`)."""
        if not self.unit and "\n" not in self.text:
            return self.text.strip()  # the first line of its doc, without loading the rest
        return self.doc.split("\n", 1)[0].strip()

    @property
    def cluster_aware(self) -> bool:
        """A lint rule of the AC9xx range: it judges a job against a cluster inventory (``--cluster``,
        ``--cluster-snapshot``) and says nothing without one, so a run without one does not import it."""
        return self.origin == LINT and self.id.startswith("AC9")

    @property
    def help_uri(self) -> str:
        return f"{DOCS_URI}#{self.id.lower()}-{self.name}"


def _meta(rule_id: str, name: str, origin: str, text: str, severity: str = ERROR,
          kinds: Tuple[str, ...] = ()) -> Entry:
    return Entry(rule_id, name, severity, origin, text, kinds=kinds)


def _lint(rule_id: str, name: str, severity: str, kinds: Tuple[str, ...], hint: str,
          replaces: Tuple[str, ...] = ()) -> Entry:
    return Entry(rule_id, name, severity, LINT, hint=hint, kinds=kinds, replaces=replaces)


_BAD_SUPPRESSION_DOC = """\
A suppression comment or annotation is malformed: an unknown rule, one it cannot silence, or no reason.

**What.** ``# ascend-compile: disable=...`` comments and the ``ascend-compile.io/ignore``
annotation name rules that do not exist or that no comment can silence (input errors, discovery
notes: use ``--disable``), or an annotation entry has no reason after its colon.

**Why.** A suppression that names a wrong ID silently suppresses nothing; an
annotation suppression outlives the review that allowed it, so it must say why.
An entry without a reason is not honoured.

**How to fix.** Use the IDs ``ascend-compile rules`` lists, and write the
annotation as ``"AC303: reason; AC305: reason"``.

Failing::

    metadata:
      annotations:
        ascend-compile.io/ignore: "AC303"

Passing::

    metadata:
      annotations:
        ascend-compile.io/ignore: "AC303: 4 NPUs per pod on purpose for this benchmark"
"""

_ENTRIES: Tuple[Entry, ...] = (
    _meta(INPUT_ERROR, "unreadable-input", INPUT,
          "The file cannot be read as UTF-8 text (missing, a directory, binary, bad encoding, or reached through "
          "a link out of the repository)."),
    _meta(INPUT_TOO_LARGE, "input-too-large", INPUT, "The input is larger than the size limit (--max-bytes)."),
    _meta(YAML_SYNTAX, "yaml-syntax", INPUT, "The YAML cannot be parsed, or uses a tag other than plain YAML types."),
    _meta(YAML_DUPLICATE_KEY, "yaml-duplicate-key", INPUT, "A mapping repeats a key; YAML and Kubernetes reject this."),
    _meta(YAML_ALIAS_BOMB, "yaml-alias-expansion", INPUT,
          "Aliases expand beyond a safe budget, or an alias refers to itself."),
    _meta(YAML_TOO_DEEP, "yaml-too-deep", INPUT, "The document nests deeper than any Kubernetes object does."),
    _meta(HELM_CHART_SKIPPED, "helm-chart-skipped", DISCOVERY,
          "A directory walk met a Helm chart (a directory with Chart.yaml) and did not read its files.", INFO),
    _meta(KUSTOMIZE_PART_SKIPPED, "kustomize-part-skipped", DISCOVERY,
          "A kustomization file (kustomize's build file, no object) was not linted.", INFO),
    _meta(NOT_A_MANIFEST, "not-a-manifest", DISCOVERY,
          "A file found by walking a folder holds no Kubernetes object (no apiVersion or kind): another tool's YAML.",
          INFO),
    _meta(PROFILE_INVALID, "profile-invalid", CONFIG,
          "A hardware profile file is invalid or a profile directory does not exist."),
    _meta(CONFIG_INVALID, "config-invalid", CONFIG, "The project config file (.ascend-compile.yaml) is invalid."),
    _meta(CLUSTER_SNAPSHOT_INVALID, "cluster-snapshot-invalid", CONFIG,
          "The cluster snapshot file (--cluster-snapshot) cannot be read or does not match its schema."),
    _meta(CLUSTER_ERROR, "cluster-error", CLUSTER,
          "The API server refused a request of the Python client (ascend_compile.Cluster), or could not be reached."),
    _meta(BAD_SUPPRESSION, "bad-suppression", ENGINE, _BAD_SUPPRESSION_DOC, WARNING, ALL_KINDS),
    _meta(OUTPUT_ERROR, "output-error", OUTPUT,
          "A file cannot be written: two jobs share a file name, the folder is not writable, a link stands where it goes, or a link on the path leads out of the repository."),
    _meta(KUSTOMIZE_PART_NOT_CHECKED, "kustomize-part-not-checked", DISCOVERY,
          "A file was not checked: a kustomization in its folder or above merges it into objects (a patch).", WARNING),
    _meta(LINKED_FOLDER_SKIPPED, "linked-folder-skipped", DISCOVERY,
          "A directory walk met a symlinked folder, or a link to a file outside the repository, and did not follow "
          "it.", INFO),
    _meta(SPEC_INVALID, "spec-invalid", SPEC,
          "A job spec breaks a rule of the spec format that its schema cannot express.", kinds=SPEC_KINDS),
    _meta(PROFILE_UNKNOWN, "profile-unknown", SPEC, "A job spec names a hardware profile that does not exist.",
          kinds=SPEC_KINDS),
    _meta(PROFILE_UNSUPPORTED, "profile-unsupported", SPEC,
          "A job spec asks a profile for a framework, target or scheduling dialect that upstream does not support "
          "on it.", kinds=SPEC_KINDS),
    _meta(NOT_A_SPEC, "not-a-spec", SPEC, "compile was given a document that is not a TrainingJob spec.", kinds=SPEC_KINDS),
    _meta(GENERATED_KEY, "generated-key", SPEC,
          "A spec's free-form labels or annotations set a key the compiler generates, or its jobPatch or "
          "podTemplatePatch changes, adds or removes what a spec field writes; the message names the field.",
          kinds=SPEC_KINDS),
    _meta(PATCH_CONFLICT, "patch-conflict", SPEC,
          "A podTemplatePatch or jobPatch cannot be merged as written: a list item without the name it is merged "
          "by, a removal of an item that is not there, or a list that would silently replace generated items.",
          kinds=SPEC_KINDS),
    _meta(IMPORT_REFUSED, "import-refused", SPEC,
          "import cannot turn a manifest into a spec without losing something, or cannot tell which profile it is "
          "for.", kinds=ALL_KINDS),
    _meta(NPU_TOTAL, "npu-total", SPEC,
          "A spec's total NPU count cannot be split into pods the hardware profile allows.", kinds=SPEC_KINDS),
    _meta(UNKNOWN_FIELD, "unknown-field", SCHEMA,
          "A field that the schema of this kind does not define (often a typo); the API server rejects or drops it.",
          kinds=ALL_KINDS),
    _meta(WRONG_TYPE, "wrong-type", SCHEMA, "A value has the wrong type, e.g. a number where the API wants a string.",
          kinds=ALL_KINDS),
    _meta(MISSING_REQUIRED, "missing-required", SCHEMA, "A required field is missing.", kinds=ALL_KINDS),
    _meta(NOT_ALLOWED_VALUE, "not-allowed-value", SCHEMA, "A value is not one of the values the schema allows.",
          kinds=ALL_KINDS),
    _meta(BAD_FORMAT, "bad-format", SCHEMA,
          "A value does not match the required pattern, range or format (e.g. a resource quantity).",
          kinds=ALL_KINDS),
    _meta(UNKNOWN_KIND, "unknown-kind", SCHEMA,
          "No built-in schema for this apiVersion and kind, so its fields were not checked.", WARNING, ALL_KINDS),
    _meta(NOT_AN_OBJECT, "not-an-object", SCHEMA, "A document is not a mapping, or lacks apiVersion or kind.",
          kinds=ALL_KINDS),
    # AC2xx ascend-operator, AC3xx Volcano Ascend plugin and hardware profiles, AC4xx Volcano admission,
    # AC5xx ranktable, AC6xx environment, AC7xx Kubernetes, AC8xx security, AC9xx the cluster (with an inventory)
    _lint("AC201", "scaling-labels", ERROR, (ASCEND_JOB,),
          "set labels mind-cluster/group-name and jobID, or remove mind-cluster/scaling-rule"),
    _lint("AC202", "scaleout-type", ERROR, (ASCEND_JOB,),
          "set scaleout-type to ROCE or UBOE, or remove the label"),
    _lint("AC203", "replica-specs", ERROR, (ASCEND_JOB,),
          "give spec.replicaSpecs a Master/Scheduler/Chief and Worker spec, each with replicas and a template",
          replaces=(WRONG_TYPE, MISSING_REQUIRED)),
    _lint("AC204", "success-policy", ERROR, (ASCEND_JOB,),
          "use successPolicy: AllWorkers, or leave it out"),
    _lint("AC205", "scheduling-queue", ERROR, (ASCEND_JOB,),
          "set spec.runPolicy.schedulingPolicy.queue, e.g. queue: default"),
    _lint("AC206", "framework-label", ERROR, (ASCEND_JOB,),
          "set metadata.labels.framework to pytorch, mindspore or tensorflow"),
    _lint("AC207", "replica-type", ERROR, (ASCEND_JOB,),
          "use the replica types of the framework: pytorch Master/Worker, mindspore Scheduler/Worker, "
          "tensorflow Chief/Worker"),
    _lint("AC208", "replica-count", ERROR, (ASCEND_JOB,),
          "use a replicas value from 0 to 20000"),
    _lint("AC209", "leader-replicas", ERROR, (ASCEND_JOB,),
          "set the leader's replicas to 1; put the other pods under Worker"),
    _lint("AC210", "ascend-container", ERROR, (ASCEND_JOB,),
          "name the training container 'ascend' and give it an image", replaces=(WRONG_TYPE, MISSING_REQUIRED)),
    _lint("AC211", "leader-required", ERROR, (ASCEND_JOB,),
          "add a Master (pytorch) or Chief (tensorflow) replica with replicas: 1"),
    _lint("AC212", "mindspore-scheduler", ERROR, (ASCEND_JOB,),
          "add a Scheduler replica (replicas: 1, no NPUs), or request a single NPU"),
    _lint("AC213", PORT_NAME, INFO, (ASCEND_JOB,),
          f"name the rendezvous port {PORT_NAME} (containerPort {DEFAULT_PORT} unless you need another), or leave "
          f"ports out of the {CONTAINER_NAME} container"),
    _lint("AC214", "restart-policy", ERROR, JOBS,
          "use restartPolicy: Never (or Always, OnFailure; an AscendJob replica also ExitCode)"),
    _lint("AC216", "scheduling-min-available", ERROR, (ASCEND_JOB,),
          "set spec.runPolicy.schedulingPolicy.minAvailable to the number of pods, or leave it out"),
    _lint("AC217", "leader-service-port", ERROR, (ASCEND_JOB,),
          f"give each port of the leader's {CONTAINER_NAME} container a name and number of its own, or leave ports out"),
    _lint("AC215", "ring-controller-label", WARNING, JOBS,
          f"use the {RING_LABEL} value of the hardware profile on the job and on every pod template"),
    _lint(NPU_COUNT, "npu-count", ERROR, POD_KINDS,
          "request a count the hardware profile allows (ascend-compile profiles show <profile>)"),
    _lint(SUPER_POD_BLOCK, "super-pod-block", ERROR, JOBS,
          "make sp-block a multiple of the node's NPUs that divides the job's total, or leave it out"),
    _lint(NOT_FULL_NODE, "not-full-node", INFO, POD_KINDS,
          "nothing upstream requires; if the job's total allows, fewer pods of a whole node each is the convention"),
    _lint(MULTI_LEVEL, "multi-level", ERROR, JOBS,
          "set huawei.com/affinity-config to level1=<pods>,level2=<pods>,... with consecutive levels, each dividing "
          "the next and the last dividing the number of NPU pods"),
    _lint(RESILIENCE_PREREQUISITES, "resilience-prerequisites", WARNING, JOBS,
          "add fault-scheduling: grace (or force), fault-retry-times for process-level recovery, and use an "
          "AscendJob for process-level recovery and hotSwitch"),
    _lint(FAULT_RETRY_RESTART_POLICY, "fault-retry-restart-policy", WARNING, JOBS,
          "set restartPolicy: Never on every replica / pod template of a job with fault-retry-times"),
    _lint("AC313", "resilience-values", WARNING, JOBS,
          "use the values upstream reads: fault-scheduling grace|force|off, pod-rescheduling on, fault-retry-times "
          "a whole number, subHealthyStrategy ignore|graceExit|forceExit|hotSwitch, recover-strategy from retry, recover, "
          "recover-in-place, elastic-training, dump, exit"),
    _lint("AC314", "soft-share", ERROR, JOBS,
          "label the job huawei.com/scheduler.softShareDev.aicoreQuota (1-100), .hbmQuota (MB, at least 1) and "
          ".policy (fixed-share, elastic or best-effort)"),
    _lint("AC315", "host-arch", ERROR, POD_KINDS,
          f"use {HOST_ARCH_LABEL}: {' or '.join(HOST_ARCH_VALUES)} (the labels of your nodes), or leave it out"),
    _lint("AC316", "npu-resource", ERROR, POD_KINDS,
          "spell the NPU resource as the device plugin does, and request the chip of the nodes you select"),
    _lint("AC317", "handler-node-size", WARNING, POD_KINDS,
          f"use the {SCHEDULE_POLICY_ANNOTATION} of the servers you select (see ascend-compile profiles), or select "
          "the servers the policy is for"),
    _lint("AC318", "workload-annotations", WARNING, POD_CONTROLLERS,
          "move the annotation to spec.template.metadata.annotations"),
    _lint("AC321", "node-name", ERROR, POD_KINDS,
          "remove nodeName; select the node with nodeSelector kubernetes.io/hostname (or node affinity)"),
    _lint("AC330", "hami-vnpu", ERROR, POD_KINDS,
          "ask HAMi's vNPUs as its device stack serves them: one vNPU per container (or whole cards), -memory within "
          "the card, -core and huawei.com/vnpu-mode: hami-core only where soft slicing runs"),
    _lint("AC331", "volcano-vnpu", ERROR, POD_KINDS,
          f"label the pod {RING_LABEL}: {VNPU_310P_RING_VALUE}, ask {NPU_CORE_RESOURCE} 1, 2, 4 or whole chips, and set "
          f"{VNPU_DVPP_LABEL} to yes, no or null"),
    _lint("AC319", "host-arch-hardware", WARNING, POD_KINDS,
          f"select the {HOST_ARCH_LABEL} of the servers the accelerator-type names (see ascend-compile profiles), or "
          "leave it out"),
    _lint("AC320", "job-label-placement", WARNING, ALL_KINDS,
          "put the label on the job's metadata.labels (a Deployment's: on spec.template.metadata.labels)"),
    _lint("AC305", "accelerator-type-missing", WARNING, POD_KINDS,
          f"add the nodeSelector {ACCELERATOR_TYPE_LABEL} of the servers the job is for to every pod template, or "
          f"the job annotation {SCHEDULE_POLICY_ANNOTATION}"),
    _lint("AC306", "accelerator-type-unknown", ERROR, POD_KINDS,
          f"use a known {ACCELERATOR_TYPE_LABEL} (see ascend-compile profiles)"),
    _lint("AC307", "schedule-policy", ERROR, POD_KINDS,
          f"set the job annotation {SCHEDULE_POLICY_ANNOTATION} to a known policy (see ascend-compile profiles); "
          "for Atlas 300 label npu-310-strategy chip or card"),
    _lint("AC308", "node-selector-consistency", WARNING, JOBS,
          "use identical nodeSelector values on every replica / task of the job"),
    _lint("AC309", "tor-affinity", ERROR, JOBS, "use tor-affinity: large-model-schema, normal-schema or null"),
    _lint("AC401", "job-min-available", ERROR, (VOLCANO_JOB,),
          "set spec.minAvailable to the number of pods (the sum of task replicas)", replaces=(BAD_FORMAT,)),
    _lint("AC402", "max-retry", ERROR, (VOLCANO_JOB,),
          "set maxRetry (3 is the default) and ttlSecondsAfterFinished to 0 or more", replaces=(BAD_FORMAT,)),
    _lint("AC403", "tasks-required", ERROR, (VOLCANO_JOB,),
          "add at least one task under spec.tasks", replaces=(MISSING_REQUIRED, BAD_FORMAT)),
    _lint("AC404", "task-replicas", ERROR, (VOLCANO_JOB,),
          "keep task replicas >= 0 and task minAvailable <= replicas", replaces=(BAD_FORMAT,)),
    _lint("AC405", "task-name", ERROR, (VOLCANO_JOB,),
          "use unique lower-case task names of letters, digits and '-' (at most 63 characters); let dependsOn "
          "name only other tasks of the job, without a circle", replaces=(BAD_FORMAT,)),
    _lint("AC406", "policies", ERROR, (VOLCANO_JOB,),
          "use a valid Volcano event (e.g. PodEvicted) and action (e.g. RestartJob)", replaces=(NOT_ALLOWED_VALUE,)),
    _lint("AC407", "plugins", ERROR, (VOLCANO_JOB,),
          "use the Volcano job plugins ssh, env, svc (or tensorflow, mpi, pytorch, ray; mpi needs its master "
          "and worker tasks)"),
    _lint("AC408", "fault-retry-policies", WARNING, (VOLCANO_JOB,),
          "remove the policy: with fault-retry-times or pod-rescheduling the Ascend plugin handles failed pods "
          "and a Volcano Job needs no policies"),
    _lint("AC409", "scheduler-name", ERROR, JOBS,
          f"set schedulerName: {SCHEDULER_NAME}, or leave it out (the job's and every pod template's)"),
    _lint("AC501", "ranktable-configmap", WARNING, JOBS,
          f"add a ConfigMap {RANKTABLE_CONFIGMAP_PREFIX}<job> (label {RING_LABEL}, data {RANKTABLE_KEY}) "
          "in the job's namespace"),
    _lint("AC502", "ranktable-configmap-label", WARNING, (CONFIG_MAP,),
          f"label the ConfigMap {RING_LABEL}=<job's value> and add data {RANKTABLE_KEY}: '{RANKTABLE_INITIAL}'"),
    _lint("AC503", "ranktable-mount", WARNING, JOBS,
          f"mount the {RANKTABLE_CONFIGMAP_PREFIX}<job> ConfigMap volume at {RANKTABLE_MOUNT_PATH} in every NPU container"),
    _lint("AC504", "npu-node-directory", WARNING, JOBS,
          "mount the ranktable directory and the reset information on the NPU pods only"),
    _lint("AC505", "reset-config", WARNING, JOBS + (CONFIG_MAP,),
          f"add a ConfigMap {RESET_CONFIGMAP_PREFIX}<job> (label {RESET_LABEL}: \"true\", data {RESET_KEY}: "
          f"'{RESET_INITIAL}') in the job's namespace"),
    _lint("AC506", "reset-config-path", WARNING, JOBS,
          f"write the reset folder as /user/restore/reset/<namespace>.{RESET_CONFIGMAP_PREFIX}<job> with the job's "
          "own namespace and name"),
    _lint("AC507", "config-volume-name", WARNING, POD_KINDS,
          "name the ConfigMap or Secret the files define for the job (or define the one named), or mark the volume "
          "optional: true"),
    _lint("AC601", "visible-devices", WARNING, POD_KINDS,
          "set fieldPath to metadata.annotations['<the requested huawei.com resource>']"),
    _lint("AC602", "ranktable-env", INFO, (VOLCANO_JOB,),
          "add env XDL_IP (fieldRef status.hostIP) and POD_UID (fieldRef metadata.uid)"),
    _lint("AC603", "hccl-if-ip", WARNING, (ASCEND_JOB,),
          "add env HCCL_IF_IP with valueFrom.fieldRef.fieldPath: status.hostIP"),
    _lint("AC604", "framework-env", WARNING, (VOLCANO_JOB,),
          "set env framework to PyTorch, MindSpore or Tensorflow"),
    _lint("AC701", "npu-requests-limits", ERROR, POD_KINDS,
          "set the same huawei.com/* count in resources.requests and resources.limits"),
    _lint("AC702", "single-npu-resource", WARNING, POD_KINDS,
          "request only one huawei.com/* resource per container"),
    _lint("AC703", "uniform-npu-count", WARNING, JOBS,
          "request the same number of NPUs in every NPU pod of the job"),
    _lint("AC704", "dns-name", ERROR, ALL_KINDS,
          "use lower-case letters, digits and '-' (a job's name that a Service takes: a letter first, no dots)"),
    _lint("AC705", "pod-name-length", ERROR, JOBS,
          "shorten the job or task name so that <job>-<task>-<index> fits in 63 characters"),
    _lint("AC706", "volume-mount", ERROR, POD_KINDS,
          "add the volume to the pod template's volumes, or mount a volume it defines"),
    _lint("AC707", "requests-over-limits", ERROR, POD_KINDS, "request at most the limit, or leave the request out"),
    _lint("AC708", "env-field-ref", ERROR, POD_KINDS,
          "read a field or resource the downward API offers there, with one source per env var (see the message)"),
    _lint("AC709", "pod-template-fields", ERROR, POD_KINDS, "correct the name, number or value as the message says"),
    _lint("AC710", "image-reference", ERROR, POD_KINDS,
          "write the image as [registry[:port]/]name[:tag][@digest] in ASCII, with a lower-case name"),
    _lint("AC711", "env-reference", WARNING, POD_KINDS,
          "define the variable in an env entry above the one that uses it, or write the value out"),
    _lint("AC712", "label-annotation-syntax", ERROR, ALL_KINDS,
          "write keys as [prefix/]name (a DNS subdomain prefix; a name of at most 63 letters, digits, '-', '_' or '.' "
          "with a letter or digit at each end) and label values as such a name or empty; keep annotations under "
          "256 KiB"),
    _lint("AC713", "duplicate-env", WARNING, POD_KINDS,
          "keep one env entry per name, or write the later value with $(NAME) to extend the earlier one"),
    _lint("AC801", "plaintext-credential", WARNING, POD_KINDS + (CONFIG_MAP,),
          "move the value into a Secret and use valueFrom.secretKeyRef (or a Secret volume)"),
    # AC9xx the cluster the job will run on: only with --cluster or --cluster-snapshot (an inventory)
    _lint("AC901", "cluster-queue-missing", ERROR, JOBS, "use a queue the cluster has, or have the queue created"),
    _lint("AC902", "cluster-queue-closed", ERROR, JOBS, "use an Open queue, or have the queue opened"),
    _lint("AC903", "cluster-node-selector", ERROR, POD_KINDS,
          "select labels of nodes the cluster has (kubectl get nodes -L host-arch,accelerator-type), or tolerate "
          "their taints"),
    _lint("AC904", "cluster-handler-nodes", ERROR, JOBS,
          f"use the {SCHEDULE_POLICY_ANNOTATION} of the servers you select, or select the servers the policy is for"),
    _lint("AC905", "cluster-pod-too-large", ERROR, POD_KINDS,
          "request at most one node's NPUs per pod, or select nodes with more NPUs"),
    _lint("AC906", "cluster-gang-never-fits", ERROR, JOBS,
          "run fewer or smaller pods, or run the job on a larger cluster"),
    _lint("AC907", "cluster-gang-no-room", WARNING, JOBS,
          "wait for other jobs to end, or run fewer or smaller pods"),
    _lint("AC908", "cluster-claim-missing", ERROR, POD_KINDS,
          "create the PersistentVolumeClaim first, or mount one the namespace has"),
    _lint("AC909", "cluster-config-map-missing", ERROR, POD_KINDS,
          "create the ConfigMap first (apply it with the job), mount one the namespace has, or mark it optional"),
    _lint("AC910", "cluster-tor-topology", ERROR, JOBS,
          "import the switch topology (basic-tor-node-cm), or set tor-affinity: \"null\" on this cluster"),
    _lint("AC911", "cluster-multilevel-topology", ERROR, JOBS,
          "have the topology configured (resource-level-config) and the nodes labelled, use fewer levels, or drop "
          "schedule_policy multilevel on this cluster"),
    _lint("AC912", "cluster-queue-capability", ERROR, JOBS,
          "run fewer or smaller pods, use a queue whose capability holds the job, or have the capability raised"),
    _lint("AC913", "cluster-priority-class-missing", ERROR, POD_KINDS,
          "name a PriorityClass the cluster has (kubectl get priorityclasses), or have it created first"),
    _lint("AC914", "cluster-network-topology", ERROR, (VOLCANO_JOB,),
          "have the HyperNodes created, allow a higher tier, use mode: soft, or leave networkTopology out"),
    _lint("AC915", "cluster-ranktable-namespace", ERROR, JOBS,
          "put the ranktable ConfigMap in the job's namespace (the same metadata.namespace, or the same -n)"),
)

_BY_ID: Dict[str, Entry] = {entry.id: entry for entry in sorted(_ENTRIES, key=lambda e: e.id)}
_BY_NAME: Dict[str, Entry] = {entry.name: entry for entry in _ENTRIES}


def entries(origin: Optional[str] = None) -> List[Entry]:
    """Every entry (or those of one origin), sorted by ID."""
    return [e for e in _BY_ID.values() if origin is None or e.origin == origin]


def get(key: str) -> Optional[Entry]:
    """An entry by ID (any case) or name."""
    return _BY_ID.get(key.upper()) or _BY_NAME.get(key.lower())


def resolve(key: str) -> Optional[str]:
    """The rule ID ``key`` (an ID or a name) stands for, None when there is no such rule."""
    found = get(key)
    return found.id if found else None


def severity(rule_id: str, fallback: str = ERROR) -> str:
    found = _BY_ID.get(rule_id)
    return found.severity if found else fallback


def suppressible(rule_id: str) -> bool:
    found = _BY_ID.get(rule_id)
    return found.suppressible if found else True


def silenceable(finding: Finding) -> bool:
    """Whether a setting, a comment, an annotation or a baseline may drop ``finding`` or change its severity: not
    an input error, and of a rule that can be suppressed (the one answer every one of them asks)."""
    return not finding.input_error and suppressible(finding.rule)
