"""The rule IDs that code reports by name: the reader, the loaders, the writer, ``compile``, the schema check
and the lint engine. The other IDs are reported by their lint units, under the ID of their catalogue entry.

:mod:`ascend_compile.catalogue` describes every ID (and re-exports these): import them from there.
"""
from __future__ import annotations

INPUT_ERROR = "AC001"  # unreadable: missing, directory, binary, not UTF-8
INPUT_TOO_LARGE = "AC002"
YAML_SYNTAX = "AC003"  # syntax errors and unsafe tags
YAML_DUPLICATE_KEY = "AC004"
YAML_ALIAS_BOMB = "AC005"  # alias expansion over budget, or recursive alias
YAML_TOO_DEEP = "AC006"
HELM_CHART_SKIPPED = "AC007"  # a directory walk met a Helm chart and did not read it (a note)
KUSTOMIZE_PART_SKIPPED = "AC008"  # a kustomization file, or a patch it lists, was not read (a note)
NOT_A_MANIFEST = "AC009"  # a walked file with no document that has apiVersion or kind (a note)
PROFILE_INVALID = "AC010"
CONFIG_INVALID = "AC011"
BAD_SUPPRESSION = "AC012"
OUTPUT_ERROR = "AC013"
SPEC_INVALID = "AC020"  # a spec rule the schema cannot express
PROFILE_UNKNOWN = "AC021"
PROFILE_UNSUPPORTED = "AC022"  # framework, target or dialect the profile does not support
NOT_A_SPEC = "AC023"
GENERATED_KEY = "AC024"  # free-form labels/annotations that would replace generated ones
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

