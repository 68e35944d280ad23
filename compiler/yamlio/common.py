"""What every part of the YAML layer shares: the libyaml-backed PyYAML classes, the limits, input errors."""
from __future__ import annotations

from ..catalogue import INPUT_ERROR
from ..errors import InputError
from ..findings import ERROR, Finding

try:  # libyaml bindings: ~7x faster parsing, ~5x faster dumping
    from yaml import CSafeDumper as BaseDumper
    from yaml import CSafeLoader as BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as BaseDumper  # type: ignore[assignment]
    from yaml import SafeLoader as BaseLoader  # type: ignore[assignment]

HAVE_LIBYAML = BaseLoader.__name__.startswith("C")

#: Largest input accepted by default (bytes); override with ``--max-bytes``.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: Deepest nesting accepted (a full PodTemplateSpec is about 20 levels deep).
MAX_DEPTH = 200
#: Largest number of nodes a document may expand to through aliases.
MAX_EXPANDED_NODES = 200_000
#: Most characters of scalar text a document may expand to through aliases (the default input limit:
#: aliases never make a document bigger than the largest file read by default).
MAX_EXPANDED_BYTES = DEFAULT_MAX_BYTES

STDIN = "-"
STDIN_NAME = "<stdin>"


def input_error(file: str, message: str, hint: str = "", line: int = 0, column: int = 0,
                 rule: str = INPUT_ERROR) -> InputError:
    return InputError([Finding(rule=rule, severity=ERROR, message=message, hint=hint,
                               file=file, line=line, column=column, input_error=True)])


__all__ = ["BaseDumper", "BaseLoader", "DEFAULT_MAX_BYTES", "HAVE_LIBYAML", "MAX_DEPTH", "MAX_EXPANDED_BYTES",
           "MAX_EXPANDED_NODES", "STDIN",
           "STDIN_NAME", "input_error"]
