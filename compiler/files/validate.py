"""Validate files in bulk: discover, read, check against the schemas; both cores when the input is large.

One implementation for ``ascend-compile validate`` and :func:`ascend_compile.validate_manifests`.
Files are independent, so a large run is split over worker processes (YAML
parsing, not validation, is the cost: about 96% of the time per document).
"""
from __future__ import annotations

from typing import FrozenSet, List, Optional, Sequence, Tuple

from ..catalogue import INPUT_ERROR, INPUT_TOO_LARGE, YAML_TOO_DEEP
from ..findings import ERROR, Finding
from .parallel import workers_for


def _check_files(paths: Sequence[str], strict: bool, strict_kinds: bool, volcano_version: Optional[str],
                 max_bytes: int, named: FrozenSet[str] = frozenset(),
                 disabled: FrozenSet[str] = frozenset()) -> List[Finding]:
    """The findings of ``paths``; a file not in ``named`` (found by a walk) that holds no manifest gets one note
    (judged on the findings the ``disabled`` rules leave, as lint does; :func:`validate_paths` drops them)."""
    from .discovery import no_manifest_in, not_a_manifest
    from ..errors import InputError
    from ..schemacheck.check import validate_document
    from ..schemacheck.messages import SchemaError
    from ..schemacheck.registry import registry
    from ..yamlio.parsing import iter_documents
    from ..yamlio.reading import display_name, read_text

    reg = registry()
    findings: List[Finding] = []
    for path in paths:
        name = display_name(path)
        start, objects_seen = len(findings), False
        try:
            text = read_text(path, max_bytes)
            for doc in iter_documents(text, name):
                data = doc.data
                objects_seen = objects_seen or isinstance(data, dict) and bool(data.get("apiVersion") or data.get("kind"))
                findings.extend(validate_document(doc, strict=strict, volcano_version=volcano_version,
                                                  strict_kinds=strict_kinds, reg=reg))
            if path not in named and no_manifest_in([f for f in findings[start:] if f.rule not in disabled],
                                                    objects_seen):
                findings[start:] = [not_a_manifest(name)]
        except InputError as exc:
            findings.extend(exc.findings)
        except SchemaError as exc:
            findings.append(Finding(rule=INPUT_ERROR, severity=ERROR, file=name, input_error=True,
                                    message=f"the built-in schemas are broken: {exc}",
                                    hint="reinstall ascend-compile; please report this"))
        except MemoryError:
            findings.append(Finding(rule=INPUT_TOO_LARGE, severity=ERROR, file=name, input_error=True,
                                    message="is too large to check in the memory available (out of memory)",
                                    hint="split it into smaller files, or refuse such files early with --max-bytes"))
        except RecursionError:
            findings.append(Finding(rule=YAML_TOO_DEEP, severity=ERROR, file=name, input_error=True,
                                    message="nests too deeply to check", hint="flatten the document"))
        except Exception as exc:  # noqa: BLE001 - never a traceback for any input
            findings.append(Finding(rule=INPUT_ERROR, severity=ERROR, file=name, input_error=True,
                                    message=f"could not be checked: internal error ({type(exc).__name__}: {exc})",
                                    hint="please report this with the input file"))
    return findings


def _run_parallel(paths: Sequence[str], workers: int, *args: object) -> List[Finding]:
    import multiprocessing

    try:
        context = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: spawn would re-import everything, not worth it
        return _check_files(paths, *args)  # type: ignore[arg-type]
    from .parallel import chunks

    with context.Pool(workers) as pool:
        parts = pool.starmap(_check_files, [(chunk, *args) for chunk in chunks(paths, workers)])
    return [finding for part in parts for finding in part]


def validate_paths(paths: Sequence[str], strict: bool = True, strict_kinds: bool = False,
                   include: Sequence[str] = (), exclude: Sequence[str] = (),
                   volcano_version: Optional[str] = None, max_bytes: Optional[int] = None,
                   jobs: Optional[int] = None, disable: Sequence[str] = (),
                   left_out: Optional[List[Finding]] = None) -> Tuple[List[Finding], int]:
    """Validate every document under ``paths``; return (findings, number of inputs read).

    ``jobs`` sets the number of processes (default: one per core once there
    are at least 64 files).  ``disable``: rule IDs or names whose findings are dropped (input errors, and the others
    no setting silences, stay: :func:`~ascend_compile.catalogue.silenceable`);
    ``left_out``, when given, receives the notes of what discovery left out on purpose, disabled or not (see
    :meth:`~ascend_compile.files.discovery.Discovery.left_out`).
    """
    from ..catalogue import resolve, silenceable
    from .discovery import discover
    from ..yamlio.common import DEFAULT_MAX_BYTES, STDIN

    found = discover(paths, include=include, exclude=exclude)
    if left_out is not None:
        left_out.extend(found.left_out())
    findings: List[Finding] = list(found.findings)
    disabled = frozenset(resolve(rule) or rule.upper() for rule in disable)
    args = (strict, strict_kinds, volcano_version, max_bytes or DEFAULT_MAX_BYTES, frozenset(found.named), disabled)
    files = [p for p in found.paths if p != STDIN]
    if STDIN in found.paths:  # only this process can read our stdin
        findings.extend(_check_files([STDIN], *args))
    workers = workers_for(len(files), jobs)
    if workers > 1:
        findings.extend(_run_parallel(files, workers, *args))
    else:
        findings.extend(_check_files(files, *args))
    kept = [finding for finding in findings if not silenceable(finding) or finding.rule not in disabled]
    return sorted(kept, key=Finding.sort_key), len(found.paths)
