"""The documentation of the rule IDs that have no lint unit (input, discovery, config, output, spec, schema).

A lint rule's documentation is its unit's docstring; the others are reported by code spread over the
reader, the loaders, the writer, ``compile`` and the schema check, so their text lives here, keyed by
ID.  :attr:`ascend_compile.catalogue.Entry.doc` puts an entry's one-line summary first; each text here
is the rest: what, why, how to fix, and an example.  Loaded only when a rule's documentation is asked
for (``explain``, SARIF, ``docs/rules.md``).
"""
from __future__ import annotations

from typing import Dict

#: who reports an ID, where its origin's reporter is not it
REPORTED_BY: Dict[str, str] = {"AC026": "``ascend-compile import``",
                               "AC014": "file discovery, as it walks a directory or meets a named file (a warning "
                                        "that no setting, comment or baseline silences or lowers)",
                               "AC016": "the loader of cluster snapshots (``--cluster-snapshot``; exit code 2)"}

DOCS: Dict[str, str] = {
    "AC001": """\
**What.** A path on the command line does not exist, is not a regular file (a directory given where a
file is read, a device, a socket), or its bytes are not UTF-8 text (a binary file, or text saved as
UTF-16 or GBK).  The same holds for a file a setting names (a profile in ``profileDirs``, the project
config), and for any of them reached through a symbolic link, at the file or at a folder above it, that
leads outside the repository the link sits in (``k8s/x.yaml -> ~/.kube/config``): the error names the
link and where it leads, and nothing there is read.

**Why.** Kubernetes manifests and specs are UTF-8 YAML; anything else cannot be checked, and
checking half of it would report a clean result for a file nobody read.  A link committed in a pull
request must not make a CI run read a runner's file and print it in findings or a diff.

**How to fix.** Check the path (the message names it), or save the file as UTF-8. To skip files in
a directory, use ``--exclude GLOB``.  Replace a link out of the repository with the file itself, or
name the file where it really is (a path outside any repository, named as it is, is read).

Example::

    $ ascend-compile lint job.yaml
    job.yaml: error: no such file or directory [AC001]""",
    "AC002": """\
**What.** The file (or standard input) is larger than the limit, 16 MiB unless ``--max-bytes``
says otherwise.

**Why.** No Kubernetes object comes close (the API server refuses requests over about 3 MiB); a
larger input is a mistake (a log, a data file) or an attempt to exhaust memory, and is refused before
it is read.

**How to fix.** Give the right file, split a very long stream into several files, or raise the limit
with ``--max-bytes N`` if the input is really meant.""",
    "AC003": """\
**What.** The text is not valid YAML (a bad indent, an unclosed quote or bracket, a tab used for
indentation), or it uses a tag such as ``!!python/object`` that plain YAML data does not have.

**Why.** kubectl and the API server cannot read such a file either; tags that build objects are
refused because reading them safely is impossible.

**How to fix.** Fix the YAML at the line and column given (the message quotes the parser). Remove
custom tags: Kubernetes objects use only maps, lists, strings, numbers, booleans and null.

Failing::

    spec:
      replicas: [1, 2

Passing::

    spec:
      replicas: [1, 2]""",
    "AC004": """\
**What.** A mapping has the same key twice, e.g. two ``image:`` lines in one container.

**Why.** YAML forbids it, and tools disagree on which value wins: most keep the last one silently,
the API server's strict field validation refuses the object. Either way one of the two values is not
what runs.

**How to fix.** Keep one of the keys (the message gives the line of both).

Failing::

    containers:
      - name: ascend
        image: train:1
        image: train:2

Passing::

    containers:
      - name: ascend
        image: train:2""",
    "AC005": """\
**What.** YAML aliases (``*name``) expand the document beyond 200,000 nodes or 16 MiB of text, or an
alias refers to the node that contains it.

**Why.** A few lines of nested aliases can expand to gigabytes (the "billion laughs" pattern); such
input is refused before it is expanded.

**How to fix.** Write the repeated parts out, or use fewer levels of aliases. Manifests rarely need
aliases at all.""",
    "AC006": """\
**What.** The document nests deeper than 200 levels.

**Why.** A full PodTemplateSpec is about 20 levels deep; deeper input is a generated mistake or an
attempt to exhaust the parser, and is refused.

**How to fix.** Flatten the document; check the tool that generated it.""",
    "AC007": """\
**What.** A directory given to ``lint`` or ``validate`` holds a Helm chart: a directory with a
``Chart.yaml`` file. Nothing in that directory (its ``values.yaml``, ``templates/``, sub-charts) is
read; the note names the directory. A directory given inside a chart's ``templates/`` is not read either
(the note names it and its chart). A file of the chart named on the command line is still read.

**Why.** A chart's templates are Go templates, not YAML (``{{ .Values.replicas }}``), and its
``Chart.yaml`` and ``values.yaml`` are not Kubernetes objects: read as manifests they give only syntax
errors and "not an object" errors about files that are right as they are. What reaches the cluster
is what the chart renders.

**How to fix.** Lint what the chart renders, with the values you deploy with:
``helm template RELEASE path/to/chart -f values-prod.yaml | ascend-compile lint -``. To keep the
note out of a directory walk, exclude the chart: ``--exclude 'charts/**'``, or silence every such note:
``--disable AC007``, or ``lint: {disable: [AC007]}`` in ``.ascend-compile.yaml``.""",
    "AC008": """\
**What.** A kustomization file (``kustomization.yaml``, ``kustomization.yml``, ``Kustomization``) was not
linted: it is kustomize's build file, not an object to apply. A named one gets this note; a walk notes one
only when it found nothing else to read (an overlay whose patches are inline): the run then exits by its
findings, not 2. The files a kustomization merges into objects are AC014.

**Why.** Its fields (``resources``, ``patches``, ``images``) are no Kubernetes object's; read as a manifest
it would give only "not an object" errors.

**How to fix.** Lint what kustomize builds, for each overlay you deploy:
``kubectl kustomize overlays/prod | ascend-compile lint -`` (or ``kustomize build``). ``--disable AC008``
(or ``lint.disable``) silences the notes.""",
    "AC009": """\
**What.** A file found by walking a folder holds no Kubernetes object: no document is a mapping with
``apiVersion`` or ``kind`` (or ``metadata``). Its AC107 errors are replaced by this one note. A file
named on the command line (as pre-commit passes them) gets the errors, and so does a file in which any
document is an object: a stray list after a manifest is still AC107. So is a list of manifests (a
document that is a list whose items have ``apiVersion`` or ``kind``): kubectl and kustomize refuse it.

**Why.** Repositories keep other tools' YAML beside their manifests: ``docker-compose.yml``,
``mkdocs.yml``, Ansible playbooks, CI and linter settings. None of it is sent to the cluster, and an
error for each would bury the findings about the jobs (kubeconform's users ask for a way out of the
same errors). A manifest that lost its ``apiVersion`` and ``kind`` keeps its ``metadata``, so it is
still an error.

**How to fix.** Nothing, if the file is not a manifest; ``--exclude`` it to drop the note, or silence
every such note with ``--disable AC009`` (or ``lint.disable``). If it is one, add ``apiVersion`` and
``kind``.""",
    "AC014": """\
**What.** A file was NOT CHECKED: a kustomization merges it into objects or reads it as data, so it was
left out of the run. The files are those under ``patches``, ``patchesStrategicMerge``, ``patchesJson6902``,
``replacements``, the ``files``/``envs`` of ``configMapGenerator`` and ``secretGenerator``, a ``helmCharts``
values file, the transformer configurations under ``configurations`` (kubebuilder's
``kustomizeconfig.yaml``) and an ``openapi`` schema. The kustomizations asked are those of the file's folder
and of the folders above it up to the repository's root (the folder with ``.git`` or
``.ascend-compile-root``, as for the project config; without one, the file's own folder only), and those a
walk meets. A kustomization leaves out only files in or below its own folder (after links are followed), as
kustomize reads no other: ``../manifests/job.yaml`` or an absolute path in it leaves nothing out. A file a
kustomization also lists under ``resources`` is an object and is linted. The warning names the file and the
kustomization, and the summary counts the files not checked.

**Why.** A strategic-merge patch names an object and carries only the fields it changes; linted as a
whole object it lacks everything its base gives (labels, containers, images), and every rule about
those would be a false error. A JSON 6902 patch is a list of operations, not an object at all. But a
file left out is a file nobody checked: a run must not look clean because a kustomization named it, so
this is a warning (``--fail-on warning`` fails on it), not a note. What reaches the cluster is what
kustomize builds.

**How to fix.** Lint what kustomize builds, for each overlay you deploy:
``kubectl kustomize overlays/prod | ascend-compile lint -`` (or ``kustomize build``). If the file is not
meant to be a part, take it out of the kustomization. ``--exclude`` on the command line drops a file from the run.
Nothing else silences the warning or lowers it: ``--disable AC014``, ``lint.disable`` or ``lint.severity`` naming it
are refused (a usage or config error, exit code 2), no comment or annotation reaches it and no baseline accepts it,
since a repository's own config could otherwise make a run that checked nothing say "No problems found".""",
    "AC015": """\
**What.** A directory walk met a symlink to a folder and did not follow it: nothing in that folder was
read. Nor does a walk read a symlinked file that leads outside the repository the link sits in. The note
names the link and its target. A folder named on the command line is read, link or not, unless the link
leads outside the repository (then it is an input error, AC001); a linked file that stays inside is read.

**Why.** A linked folder may lead outside the paths given (``manifests/ext -> ../../outside``): a
repository must not make ``lint --fix manifests/`` rewrite files elsewhere, nor make a run check files
it was not given. It may also lead back into the tree, which would read files twice. A linked file out of
the repository (``k8s/x.yaml -> ~/.kube/config``) would put a runner's file in findings and diffs.

**How to fix.** To check what the folder holds, name its target on the command line (or the link, when it
stays inside the repository); put a file that should be checked in the repository itself. To drop the
note, ``--exclude`` the link, or silence every such note with ``--disable AC015`` (or
``lint.disable``).""",
    "AC016": """\
**What.** The file given to ``--cluster-snapshot`` is not a cluster snapshot ascend-compile can read: not
YAML, more than one document, or a field its schema (``schemas/clustersnapshot-v1alpha1.json``) does not
allow (an unknown key, a wrong type, a missing ``apiVersion``, ``kind``, ``metadata.name`` or ``spec``).
The message gives the file, line, column and field path.

**Why.** The cluster-aware rules (AC901-AC915) judge jobs by what the snapshot says the cluster has; a
snapshot read half-way would make them report missing queues or nodes that are there, so nothing is
linted until it is fixed.

**How to fix.** Take the snapshot again with ``ascend-compile cluster snapshot -o FILE`` (the format is
described in ``docs/cluster-snapshot.md``), or correct the field the message names.

Failing::

    apiVersion: ascend-compile.io/v1alpha1
    kind: ClusterSnapshot
    metadata: {name: prod}
    spec:
      queues:
      - {name: default, state: open}    # Open, Closed, Closing or Unknown

Passing::

    apiVersion: ascend-compile.io/v1alpha1
    kind: ClusterSnapshot
    metadata: {name: prod}
    spec:
      queues:
      - {name: default, state: Open}""",
    "AC010": """\
**What.** A hardware profile file (in ``profiles/`` or a directory named by ``--profile-dir`` or
``profileDirs``) does not match the profile schema (an unknown field, a missing ``npu`` section, a
wrong type, more than one document in the file), or a profile directory does not exist. (A profile
in a later directory replaces a built-in one of the same name; that is not an error.)

**Why.** Profiles drive every NPU count, label and selector ascend-compile writes or checks; a broken
one would give wrong answers for every job on that hardware, so nothing runs until it is fixed.

**How to fix.** Correct the field at the line given; ``schemas/profile-v1alpha1.json`` (also printed
by ``ascend-compile schema --profile``) describes every field, and ``ascend-compile profiles show
NAME`` prints a built-in profile to start from.

Failing::

    apiVersion: ascend-compile.io/v1alpha1
    kind: HardwareProfile
    name: my-a2          # belongs under metadata

Passing::

    apiVersion: ascend-compile.io/v1alpha1
    kind: HardwareProfile
    metadata:
      name: my-a2""",
    "AC011": """\
**What.** The project config (``.ascend-compile.yaml``, found upward from the working directory, or
the file given by ``--config``) does not match its format: an unknown key, a wrong type, an unknown
rule ID under ``lint.disable`` or ``lint.severity``, a rule there that no setting changes (an input,
config, output or spec error, as ``--disable`` refuses them), or a severity other than error, warning,
info.

**Why.** A config that is half understood would silently change defaults or keep rules on that the
team meant to turn off; it is refused so the mistake is seen.

**How to fix.** Correct the key at the line given. ``ascend-compile lint --show-config`` prints the
config a command would use; ``--no-config`` ignores it.

Passing::

    defaults:
      queue: training
    lint:
      disable: [AC303]
      severity: {AC305: error}
      failOn: warning""",
    "AC013": """\
**What.** A file ascend-compile was asked to write is not written: ``compile -o DIR`` would write two
jobs to one file (``<name>.yaml`` for jobs of the same name in different namespaces); the folder cannot
be created or written; or the file's place holds a symbolic link, a directory or anything but a regular
file.  ``lint --fix`` also refuses a file outside the paths it was given (reached through a linked
folder) and a file edited since its fixes were planned.  The same holds for ``import -o``,
``schema --write``, ``init`` and ``lint --write-baseline``.  A path named on the command line (an output
folder, a ``--check`` folder, a ``--fix``/``--diff`` path, a baseline) is refused, naming the link, when a
symbolic link at it or at any folder above it leads outside the repository the link sits in (the git work
tree, or the working directory's tree outside one): nothing there is read, printed, diffed or written.

**Why.** Every file is written to a temporary file of its own beside the target and renamed into place,
never through a link: a link committed where a file goes (or in a folder a walk reached) would
otherwise have a file outside the repository overwritten, and a committed ``manifests -> ../../.kube``
would have ``--check`` print a runner's kubeconfig as its diff.  Writing only some of the files would leave
a directory out of step with the specs, so ``compile`` writes all files or none.

**How to fix.** Give the jobs distinct names, or compile them into separate directories; check the
directory's permissions; remove the link (or name the file it points to; a link that stays inside the
repository is followed); run ``lint --fix`` again
after an edit.""",
    "AC017": """\
**What.** A call of the Python client (``ascend_compile.Cluster``: ``create``, ``status``, ``delete``,
``why``, ...) failed at the cluster: the API server refused the request (a job that already exists, a
namespace that does not, missing rights, an object it finds invalid), or it could not be reached (a bad
kubeconfig, a server that is down, no answer within ``request_timeout``).

**Why.** The client raises one ``ClusterError`` for each of these. It is an ``AscendCompileError``, so
code that catches that catches cluster errors too; its one finding, under this ID, carries the server's
own message (with what was being done) and a hint. ``status``, ``reason`` and ``message`` give the HTTP
status (``None`` when the server was not reached), the server's reason and its message.

**How to fix.** As the message says: delete the job first or give it another name (``AlreadyExists``),
create the namespace (``ensure_namespace``), ask for the rights (``Forbidden``), correct the field the
server names (``Invalid``; ``lint_manifests`` finds most such mistakes first), or point the kubeconfig at
a server that answers.

Example::

    try:
        cluster.create(ascend_compile.compile_spec(spec))
    except ascend_compile.AscendCompileError as exc:
        for finding in exc.findings:
            print(finding.rule, finding.message)   # AC017 create AscendJob training/resnet50: ... already exists""",
    "AC020": """\
**What.** A job spec breaks a rule the schema cannot express: a job defined twice (same name and
namespace) in one run, volumes or env entries that clash, a setting that needs another one (e.g.
per-replica settings for a replica the framework does not have), values that contradict each other.

**Why.** The compiled manifest would be refused by the operator or Volcano, or would not run as the
spec says; ``compile`` refuses to write it.

**How to fix.** The message names the field and the hint the change; ``docs/spec.md`` documents
every field.

Failing (two specs, one job)::

    metadata: {name: resnet, namespace: training}   # in a.yaml
    metadata: {name: resnet, namespace: training}   # in b.yaml

Passing: give each job its own name.""",
    "AC021": """\
**What.** ``spec.profile`` names a hardware profile that is neither built in nor in a directory
given by ``--profile-dir`` or ``profileDirs``.

**Why.** The profile says which NPUs, labels and selectors the job uses; without it nothing can be
compiled.

**How to fix.** Use a name ``ascend-compile profiles`` lists (the message suggests close ones), or add
your own profile directory.

Failing::

    spec:
      profile: module-910b-9

Passing::

    spec:
      profile: module-910b-8""",
    "AC022": """\
**What.** The spec asks its profile for something upstream does not support on that hardware: a
framework, a target (AscendJob or Volcano Job) or a scheduling dialect the profile does not list.

**Why.** The profiles record what the operator and the Volcano plugin accept for each server model;
a job outside that is refused or never scheduled.

**How to fix.** ``ascend-compile profiles show NAME`` lists the frameworks, targets and dialects of a
profile; pick one of those, or another profile.""",
    "AC023": """\
**What.** A document given to ``compile`` is not a job spec (its kind is not ``TrainingJob`` with
apiVersion ``ascend-compile.io/v1alpha1``), e.g. an AscendJob manifest.

**Why.** ``compile`` reads specs and writes manifests; a manifest given to it is most likely the
wrong file or directory.

**How to fix.** Give ``compile`` spec files only; check manifests with ``ascend-compile lint``. In a
directory that holds both, keep the specs in a folder of their own.""",
    "AC024": """\
**What.** A spec's free-form ``labels``, ``annotations`` or ``podLabels`` set a key the compiler writes
itself (``ring-controller.atlas``, ``framework``, the fault-tolerance labels and annotations, ...), or its
``jobPatch`` or ``podTemplatePatch`` changes, adds or removes something a spec field writes in the job: the
container's image or NPU count, ``restartPolicy``, a generated label such as ``fault-retry-times``, a Volcano
Job's ``maxRetry``, ``queue`` or ``plugins``, the generated env and volumes, ... Which field writes what is
derived from the compiler itself (each field's value changed in turn, the jobs compared), so every field is
covered. A patch that restates the field's value, or sets what no field writes (tolerations, a sidecar, a
``{event: PodFailed, action: Ignore}`` policy), is not reported.

**Why.** The spec would say one thing in a field and another in a label or patch (``fault-retry-times:
"5"`` in ``jobPatch`` over ``faultRetryTimes: 3``; ``image: v2`` with a container patch of ``v1``), and the
patch would win silently. A field brings what goes with it and gets its checks: ``faultRetryTimes`` makes
the pods ``Never`` restart and drops the ``RestartJob`` policy, while the same label added by a patch kept both.

**How to fix.** Remove it from the label map or the patch and set the spec field the message names (e.g.
``torAffinity`` for ``tor-affinity``, ``faultRetryTimes`` for ``fault-retry-times``, ``retries`` for
``maxRetry``, ``image`` for the container's image).""",
    "AC025": """\
**What.** A ``podTemplatePatch`` or ``jobPatch`` cannot be merged into the generated object as
written: a list item without the ``name`` it is merged by, a ``$patch: delete`` of an item that is not
there, or a list that would replace generated items wholesale.

**Why.** A patch that merged differently from what it says would change the job silently; it is
refused instead.

**How to fix.** Give each list item its ``name`` (containers, volumes, env, ports), and delete only
items the compiled job has (``ascend-compile compile`` without the patch shows them).""",
    "AC026": """\
**What.** ``ascend-compile import`` refuses a manifest when the spec it would write could not compile
back to the same objects: a value no spec field or patch can say (an explicit ``null``, a key named
``$patch``), a ConfigMap the spec writes differently, a job whose NPU request matches no hardware
profile, or a job that several profiles fit equally well. A job whose spec would compile to objects with an error
that ``lint`` finds (the manifest has the same mistake) is refused too, but under that error's own ID, at the
place ``lint`` reports it in the manifest: one problem, one ID. An object that is not an AscendJob or Volcano Job and that no
job's spec writes (an unrelated ConfigMap, a Deployment) is not refused: it is skipped with an
``info`` note under this ID (and a comment on the specs of its file's jobs), and stays a manifest.

**Why.** An import that dropped a field would give a spec that compiles to a different job, and
nobody would notice until it ran differently.

**How to fix.** The message names the field or object. Remove the explicit null (or give the value),
keep the objects import skips as manifests beside the specs, and name the hardware with ``--profile
NAME`` when the message lists several candidates (``ascend-compile profiles`` shows them).

Example::

    $ ascend-compile import job.yaml
    job.yaml: error: job 'train' fits the profiles card-910 and card-910b-2 equally well; say which
    with --profile [AC026]""",
    "AC101": """\
**What.** A field that the schema of this apiVersion and kind does not define: most often a typo
(``replicaSpec`` for ``replicaSpecs``) or a field at the wrong level.

**Why.** The API server refuses unknown fields under strict field validation and otherwise drops
them, so the setting has no effect.

**How to fix.** Use the field name the hint suggests, or move the field to where it belongs.
``--no-strict`` allows unknown fields (e.g. for a newer API than the built-in schemas).

Failing::

    spec:
      replicaSpec:
        Master: {replicas: 1}

Passing::

    spec:
      replicaSpecs:
        Master: {replicas: 1}""",
    "AC102": """\
**What.** A value has the wrong type: a number where the API wants a string (env values, label
values), a string where it wants a number, a map where it wants a list.

**Why.** The API server refuses the object ("cannot unmarshal number into ... of type string").

**How to fix.** Quote numbers and booleans meant as strings; write lists as lists.

Failing::

    env:
      - name: HCCL_CONNECT_TIMEOUT
        value: 600

Passing::

    env:
      - name: HCCL_CONNECT_TIMEOUT
        value: "600\"""",
    "AC103": """\
**What.** A field the schema requires is missing, e.g. a container without ``name`` or ``image``,
an env entry without ``name``.

**Why.** The API server refuses the object.

**How to fix.** Add the field the message names.

Failing::

    containers:
      - image: train:1

Passing::

    containers:
      - name: ascend
        image: train:1""",
    "AC104": """\
**What.** A value is not one of the values the schema allows, e.g. ``restartPolicy: Sometimes`` or
``imagePullPolicy: always`` (the values are case-sensitive).

**Why.** The API server refuses the object.

**How to fix.** Use one of the values the message lists.

Failing::

    imagePullPolicy: always

Passing::

    imagePullPolicy: Always""",
    "AC105": """\
**What.** A value does not match the pattern, range or format the schema requires: a resource
quantity such as ``16gb`` (Kubernetes writes ``16Gi`` or ``16G``), a negative count, a name that is
not a DNS label, a port outside 1-65535.

**Why.** The API server refuses the object.

**How to fix.** Write the value in the form the message names.

Failing::

    resources:
      requests: {memory: 16gb}

Passing::

    resources:
      requests: {memory: 16Gi}""",
    "AC106": """\
**What.** There is no built-in schema for this apiVersion and kind, so its fields were not checked:
a warning when the object may be one of ours or one of Kubernetes' own mistyped (its API group is
ours or Kubernetes', as ``batch.volcano.sh/v1`` Job or ``apps/v1`` Deploymnet, or its kind is ours
under another group), an info otherwise: Kubernetes' own kinds (``apps/v1`` Deployment, ``v1``
Service, ...) and other projects' kinds in their own groups (``leaderworkerset.x-k8s.io/v1``
LeaderWorkerSet, ``kubeflow.org/v1`` PyTorchJob); ``--strict-kinds`` (lint and validate) makes either an error.
lint still checks the pod templates of the kinds whose templates it knows (Kubernetes' workloads, KubeRay's
RayCluster, RayService and RayJob, LeaderWorkerSet, JobSet, kthena's ModelServing, Kubeflow's PyTorchJob, TFJob
and MPIJob, and the kinds the project config's ``podTemplates`` adds: docs/configuration.md) with the rules
that hold for any pod, and its message says so.

**Why.** ascend-compile ships schemas for AscendJob, Volcano Job/PodGroup/Queue, ConfigMap,
Namespace and its own spec; other kinds pass unchecked. For a Deployment, a Service or another
project's workload that is only a note (a repository of real jobs holds hundreds, and the cluster
checks them against their own CRDs); a kind in our groups that we do not know may be a typo in the
apiVersion or kind of a job, which the cluster would refuse.

**How to fix.** Check the apiVersion and kind for typos (``mindxdl.gitee.com/v1`` AscendJob,
``batch.volcano.sh/v1alpha1`` Job). For other kinds, exclude their files with ``--exclude`` or
disable the rule with ``--disable AC106``.""",
    "AC107": """\
**What.** A YAML document is not a mapping (a list or a plain string at the top level), or a mapping
without ``apiVersion`` or ``kind``.

**Why.** Every Kubernetes object is a mapping with both; kubectl refuses anything else.

**How to fix.** Add the missing ``apiVersion``/``kind``, or remove the stray document (a ``---``
followed by a bare value is a common cause). A file found by walking a folder in which no document
has ``apiVersion`` or ``kind`` (nor ``metadata``) is taken for another tool's YAML: one note, AC009,
instead of these errors.""",
    "AC304": """\
**What.** ``spec.npus`` cannot be split into pods the hardware profile allows. A job that fits on one
server takes one pod with one of the profile's single-pod counts; a larger job takes whole servers,
so its total must be a multiple of the NPUs per server.

**Why.** The Volcano Ascend plugin accepts only these per-pod counts on each server model (see
``ascend-compile explain AC301``); a job split any other way stays Pending for ever.

**How to fix.** Request one of the totals the hint lists (``ascend-compile profiles show NAME`` prints
them), or give ``pods`` and ``npusPerPod`` explicitly.

Failing (module-910b-8: 8 NPUs per server)::

    spec:
      profile: module-910b-8
      npus: 13

Passing::

    spec:
      profile: module-910b-8
      npus: 16      # 2 pods x 8""",
}
