"""The cluster commands' rough edges, against a fake kubectl: diff into a namespace that does not exist
shows the objects as new (with a hint), status names the namespace it looked in, and a second delete
points at --ignore-not-found."""
from __future__ import annotations

from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import EXAMPLE, Fake, fake  # noqa: F401  (fake is a fixture)

NO_NAMESPACE = 'Error from server (NotFound): namespaces "training" not found\n'


def test_diff_into_a_missing_namespace_shows_new_objects_and_says_why(fake: Fake) -> None:  # noqa: F811
    fake.rules({"match": ["diff"], "rc": 2, "stderr": NO_NAMESPACE})  # kubectl diff: errors exit 2
    proc = cli("diff", EXAMPLE, env=fake.env())
    assert proc.returncode == 1, proc.stderr  # differences, not an error
    assert "+++ MERGED/mindxdl.gitee.com.v1.AscendJob.training.resnet50-pytorch" in proc.stdout
    assert "+kind: AscendJob" in proc.stdout
    assert proc.stderr.count("namespace 'training' does not exist") == 1
    assert "kubectl create namespace training" in proc.stderr and "createNamespace: true" in proc.stderr


def test_status_without_namespace_names_the_one_it_used(fake: Fake) -> None:  # noqa: F811
    fake.rules({"match": ["config", "view"], "stdout": "team-a"}, {"match": ["get"], "stdout": ""})
    proc = cli("status", "resnet50-pytorch", "--kind", "acjob", env=fake.env())
    assert proc.returncode == 1
    assert "no AscendJob named 'resnet50-pytorch' in namespace 'team-a' (the context's default" in proc.stderr
    fake.rules({"match": ["config", "view"], "stdout": ""}, {"match": ["get"], "stdout": ""})
    proc = cli("status", "resnet50-pytorch", "--kind", "acjob", env=fake.env())
    assert "in namespace 'default' (the context's default" in proc.stderr
    proc = cli("status", "resnet50-pytorch", "--kind", "acjob", "-n", "ml", env=fake.env())
    assert "in namespace 'ml'" in proc.stderr and "context's default" not in proc.stderr


def test_a_second_delete_hints_at_ignore_not_found(fake: Fake) -> None:  # noqa: F811
    fake.rules({"match": ["delete"], "rc": 1, "stderr": 'Error from server (NotFound): ascendjobs.mindxdl.gitee.com '
                                                        '"resnet50-pytorch" not found\n'})
    proc = cli("delete", EXAMPLE, env=fake.env())
    assert proc.returncode == 1
    assert "not found" in proc.stderr and "--ignore-not-found" in proc.stderr
    fake.rules({"match": ["get"], "stdout": ""})
    proc = cli("delete", "resnet50-pytorch", "-n", "training", env=fake.env())
    assert proc.returncode == 1 and "--ignore-not-found" in proc.stderr
    fake.rules({"match": ["delete"], "rc": 1, "stderr": NO_NAMESPACE})
    proc = cli("delete", EXAMPLE, env=fake.env())
    assert proc.returncode == 1 and "--ignore-not-found" not in proc.stderr  # a missing namespace is not "gone"
