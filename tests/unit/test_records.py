"""Records behave as the frozen dataclasses of their fields, named tuples as typing's, and the lint path never
imports dataclasses or compiles code at run time."""
from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys

import pytest

from tests.checkout import ROOT, checkout_env
from ascend_compile.config import LintSettings, ProjectConfig
from ascend_compile.findings import Finding
from ascend_compile.hardware.profiles import Profile, ProfileRegistry, SuperPod
from ascend_compile.inventory.model import Inventory, Node, Queue, Taint

SAMPLES = {
    Finding: [Finding("AC101", "error", "m"), Finding("AC102", "warning", "x", ("a", 0), "h", "f.yaml", 3, 4, "Job/x",
                                                       True, (("internal", "true"),))],
    LintSettings: [LintSettings(), LintSettings(("AC1",), {"AC2": "info"}, "warning")],
    ProjectConfig: [ProjectConfig(), ProjectConfig("c.yaml", {"queue": "q"}, ("p",), LintSettings(("AC1",)))],
    SuperPod: [SuperPod(16), SuperPod(16, 4, (2, 4), True)],
    Profile: ProfileRegistry().all()[:3],
    Taint: [Taint("npu", "bad", "NoSchedule")],
    Node: [Node("n1", {"a": "b"}, {"huawei.com/npu": 8}, {}, True, False),
           Node("n2", {}, {}, {}, False, True, {"ns/j": 8}, (Taint("k", "", "NoExecute"),))],
    Queue: [Queue("default", "Open"), Queue("q", "Closed", {"cpu": "1"}, {"cpu": "0"})],
    Inventory: [Inventory(), Inventory((), {}, {"ns": frozenset({"c"})}, None, {"volcano": "v1.12.0"}, "f.yaml", "c")],
}


def _compiled():
    """The records compile builds, from compiling a shipped example."""
    from ascend_compile.api import compile_files
    from ascend_compile.jobspec import model, steps

    job = compile_files([str(ROOT / "examples" / "pytorch-module-910b-8.yaml")])[0]
    spec = job.spec
    return {type(job): [job], model.Spec: [spec], model.Volume: list(spec.volumes)[:2],
            model.Port: [model.Port("http", 8080), model.Port("x", 1, "UDP")],
            model.Replica: [model.Replica(), *spec.replica_types.values()], model.Resilience: [spec.resilience],
            steps.Choices: [steps.Choices("ascendjob", "volcano", "file", None)]}


SAMPLES.update(_compiled())


def twin(cls):
    """The real frozen dataclass of ``cls``'s fields, defaults and methods."""
    namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
    fields = [(f.name, f.type, f) for f in dataclasses.fields(cls)]
    return dataclasses.make_dataclass(cls.__name__, [(n, t, dataclasses.field(default=f.default,
                                                                               default_factory=f.default_factory))
                                                     for n, t, f in fields], frozen=True,
                                      namespace={k: v for k, v in namespace.items() if not k.startswith("__")})


def _hash(value):
    try:
        return hash(value)
    except TypeError as exc:  # a dict field: the dataclass is unhashable too
        return str(exc)


@pytest.mark.parametrize("cls", SAMPLES, ids=lambda c: c.__name__)
def test_a_record_is_the_frozen_dataclass_of_its_fields(cls):
    real = twin(cls)
    assert dataclasses.is_dataclass(cls) and [f.name for f in dataclasses.fields(cls)] == list(cls.__annotations__)
    for sample in SAMPLES[cls]:
        values = [getattr(sample, f.name) for f in dataclasses.fields(cls)]
        same = real(*values)
        assert repr(sample) == repr(same)
        assert dataclasses.astuple(sample) == dataclasses.astuple(same) and dataclasses.asdict(sample) == dataclasses.asdict(same)
        assert _hash(sample) == _hash(same) and sample == cls(*values) and sample != same
        assert pickle.loads(pickle.dumps(sample)) == sample
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(sample, dataclasses.fields(cls)[0].name, None)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(sample, dataclasses.fields(cls)[0].name)
        name = dataclasses.fields(cls)[-1].name
        changed = dataclasses.replace(sample, **{name: values[-1]})
        assert changed == sample and changed is not sample
    defaults = {f.name for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING
                and f.default_factory is dataclasses.MISSING}
    assert defaults == {f.name for f in dataclasses.fields(real) if f.default is dataclasses.MISSING
                        and f.default_factory is dataclasses.MISSING}


def test_default_factories_make_a_new_value_each_time():
    assert ProjectConfig().defaults == {} and ProjectConfig().defaults is not ProjectConfig().defaults
    assert LintSettings().severity is not LintSettings().severity


def test_fields_of_an_instance_before_anyone_asked_the_class():
    code = ("import dataclasses; from ascend_compile.findings import Finding\n"
            "print([f.name for f in dataclasses.fields(Finding('AC1', 'error', 'm'))][:3])\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=checkout_env())
    assert proc.stdout.strip() == "['rule', 'severity', 'message']", proc.stderr


def test_linting_a_clean_file_imports_no_dataclasses(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n")
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['lint', '--no-cache', sys.argv[1]])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'dataclasses' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=checkout_env())
    assert proc.stdout.strip().endswith("exit 0 False"), proc.stdout + proc.stderr


def test_compile_check_of_an_up_to_date_folder_imports_no_dataclasses(tmp_path):
    spec = ROOT / "examples" / "pytorch-module-910b-8.yaml"
    out = tmp_path / "out"
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['compile', sys.argv[1], '-o', sys.argv[2], *sys.argv[3:]])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'dataclasses' in sys.modules)\n")
    write = subprocess.run([sys.executable, "-c", code, str(spec), str(out)], capture_output=True, text=True,
                           env=checkout_env())
    assert write.stdout.strip().endswith("exit 0 False"), write.stdout + write.stderr
    check = subprocess.run([sys.executable, "-c", code, str(spec), str(out), "--check"], capture_output=True,
                           text=True, env=checkout_env())
    assert check.stdout.strip().endswith("exit 0 False"), check.stdout + check.stderr


def _root():
    from pathlib import Path

    return Path(ROOT)


def _named_tuples():
    from ascend_compile import catalogue, report
    from ascend_compile.hardware import arithmetic as hardware
    from ascend_compile.hardware import targeting
    from ascend_compile.lint import rule, suppress
    from ascend_compile.yamlio import locations
    from ascend_compile.cli import _optiontable

    return [catalogue.Entry, hardware.NpuLayout, hardware.Violation, report.RuleInfo, targeting.HardwareSignals,
            rule.Problem, rule.Rule, suppress.BadDirective, suppress.AnnotationEntry, locations.Location,
            locations.Origin, _optiontable.Option]


@pytest.mark.parametrize("cls", _named_tuples(), ids=lambda c: c.__name__)
def test_a_named_tuple_is_typings_named_tuple_of_its_fields(cls):
    import typing

    namespace = {k: v for k, v in cls.__dict__.items()
                 if k not in cls._fields and (not k.startswith("_") or k == "__doc__")}
    namespace.update({name: cls._field_defaults[name] for name in cls._field_defaults})
    namespace["__annotations__"] = dict(cls.__annotations__)
    namespace["__module__"] = cls.__module__
    real = typing.NamedTupleMeta(cls.__name__, (typing._NamedTuple,), namespace)  # type: ignore[attr-defined]
    assert cls._fields == real._fields and cls._field_defaults == real._field_defaults
    assert issubclass(cls, tuple) and cls.__doc__ == real.__doc__ and cls.__module__ == real.__module__
    assert typing.get_type_hints(cls) == typing.get_type_hints(real)
    values = tuple(f"v{i}" for i in range(len(cls._fields)))
    ours, theirs = cls(*values), real(*values)
    assert ours == theirs and repr(ours) == repr(theirs).replace(real.__qualname__, cls.__qualname__)
    assert ours._asdict() == theirs._asdict() and ours._replace(**{cls._fields[0]: 1}) == (1, *values[1:])
    assert pickle.loads(pickle.dumps(ours)) == ours and type(pickle.loads(pickle.dumps(ours))) is cls
    required = len(cls._fields) - len(cls._field_defaults)
    assert cls(*values[:required]) == real(*values[:required])


def test_a_named_tuple_refuses_what_typing_refuses():
    from ascend_compile.records import NamedTuple

    with pytest.raises(TypeError):
        class _Late(NamedTuple):
            a: int = 0
            b: int
    with pytest.raises(AttributeError):
        class _Clash(NamedTuple):
            a: int

            def _replace(self):  # type: ignore[override]
                return self


def test_linting_a_clean_file_compiles_no_code(tmp_path):
    """The first ``compile()`` builds the ast module's type table: typing's NamedTuple paid it for every field."""
    path = tmp_path / "job.yaml"
    path.write_text((_root() / "golden" / "pytorch-module-910b-8.yaml").read_text())
    code = ("import sys; compiled = []\n"
            "sys.addaudithook(lambda event, args: event == 'compile' and args[1] == '<string>' and compiled.append(args[0]))\n"
            "from ascend_compile.cli import main\n"
            "try:\n    main(['lint', '--no-cache', sys.argv[1]])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, [text for text in compiled if not str(text).startswith(('lambda', 'b\\'lambda'))])\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=checkout_env())
    assert proc.stdout.strip().endswith("[]"), proc.stdout + proc.stderr


@pytest.mark.parametrize("args,kwargs", [((), {}), (("AC1", "error"), {}), (("AC1", "error", "m"), {"rule": "x"}),
                                         (("AC1", "error", "m"), {"nope": 1}),
                                         (tuple(range(len(Finding.__annotations__) + 1)), {})])
def test_wrong_arguments_are_a_type_error_as_for_the_dataclass(args, kwargs):
    real = twin(Finding)
    with pytest.raises(TypeError):
        real(*args, **kwargs)
    with pytest.raises(TypeError):
        Finding(*args, **kwargs)
