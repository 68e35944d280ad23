"""The documentation of file discovery's notes (AC007-AC009), as :mod:`.ruledocs` keeps the other texts.

Discovery leaves some YAML out of a run on purpose (a Helm chart, kustomize's patches); these say why, and
how to lint what those files become.
"""
from __future__ import annotations

from typing import Dict

DOCS: Dict[str, str] = {
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
**What.** A file that kustomize reads but never applies as it is was not linted: a kustomization file
(``kustomization.yaml``, ``kustomization.yml``, ``Kustomization``), or a file a kustomization in its
folder or a folder above it (or one met in the walk) merges into objects or reads as data: the files
under ``patches``, ``patchesStrategicMerge``, ``patchesJson6902``, ``replacements``, the
``files``/``envs`` of ``configMapGenerator`` and ``secretGenerator``, a ``helmCharts`` values file, the
transformer configurations under ``configurations`` (kubebuilder's ``kustomizeconfig.yaml``) and an
``openapi`` schema.
A file a kustomization also lists under ``resources`` is an object and is linted. The note names the
file and the kustomization. A walk notes a kustomization file only when it found nothing else to read
(an overlay whose patches are inline): the run then exits by its findings, not 2.

**Why.** A strategic-merge patch names an object and carries only the fields it changes; linted as a
whole object it lacks everything its base gives (labels, containers, images), and every rule about
those would be a false error. A JSON 6902 patch is a list of operations, not an object at all. What
reaches the cluster is what kustomize builds.

**How to fix.** Lint what kustomize builds, for each overlay you deploy:
``kubectl kustomize overlays/prod | ascend-compile lint -`` (or ``kustomize build``). Files under
``resources`` are linted where they are. ``--disable AC008`` (or ``lint.disable``) silences the notes;
a run whose every file was left out still exits 0.""",
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
}
