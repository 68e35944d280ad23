"""Build a 2-node PyTorch job for Atlas 800T A2 servers from Python values, lint it, print its YAML."""
import sys

import ascend_compile

spec = ascend_compile.JobSpec(
    name="resnet50-pytorch",
    namespace="training",
    framework="pytorch",
    profile="module-910b-8",  # 8 NPUs per node
    npus=16,  # the profile splits it: 2 pods x 8 NPUs
    image="swr.example.com/ml/pytorch-train:2.1.0",
    command=["/bin/bash", "-c"],
    args=["bash /job/code/train_start.sh --epochs=90"],
    volumes=[{"name": "code", "nfs": "10.0.0.5:/data/atlas_dls/public/code", "mountPath": "/job/code"}],
)
objects = ascend_compile.compile_spec(spec)  # raises ascend_compile.CompileError if the spec is wrong
findings = ascend_compile.lint_manifests(objects)
for finding in findings:
    print(f"{finding.severity} {finding.rule} {finding.field_path}: {finding.message}", file=sys.stderr)
if any(finding.severity == "error" for finding in findings):
    sys.exit(1)
print(ascend_compile.to_yaml(objects), end="")
