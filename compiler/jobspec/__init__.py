"""The compact job spec: the resolved :class:`~.model.Spec` (:mod:`.model`), the checks (:mod:`.steps`) and
:func:`~.resolve.resolve` (:mod:`.resolve`), which turns a TrainingJob document into a Spec.  Import each name
from the module that defines it: this package hands none on."""
