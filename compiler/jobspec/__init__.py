"""The compact job spec: the resolved :class:`Spec` (:mod:`.model`), the checks (:mod:`.steps`) and
:func:`resolve` (:mod:`.resolve`), which turns a TrainingJob document into a Spec."""
from __future__ import annotations

from .model import API_VERSION, GENERATED_ENV, KIND, RESERVED_VOLUMES, Spec, Volume, is_spec
from .resolve import resolve

__all__ = ["API_VERSION", "GENERATED_ENV", "KIND", "RESERVED_VOLUMES", "Spec", "Volume", "is_spec", "resolve"]
