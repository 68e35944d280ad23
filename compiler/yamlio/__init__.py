"""Safe YAML in (with source locations and hostile-input limits), deterministic YAML out.

Reading
    :func:`read_text` turns a path (or ``-`` for stdin) into text, refusing
    directories, missing or unreadable files, binary data, invalid UTF-8 and
    files over the size limit with an :class:`~ascend_compile.errors.InputError`.
    :func:`iter_documents` parses a multi-document stream with PyYAML's safe
    loader (the C one when libyaml is present) and yields :class:`Document`
    objects: plain Python data plus the composed node tree, so any field path
    can be mapped back to the line and column of its YAML node.

    Only safe tags are constructed (``!!python/...`` is refused), duplicate
    keys are an error (Kubernetes rejects them too), and documents that nest
    too deeply or expand through aliases beyond a fixed budget ("billion
    laughs") are refused before anything walks them; what aliases add is also
    bounded across a stream's documents and, given one :class:`AliasBudget`,
    across every file of a run.

Writing
    :func:`dump_documents` emits a ``---``-separated stream with a fixed style,
    so the same objects give byte-identical text on every machine.

The parts: :mod:`.reading` (text in), :mod:`.guards` (depth and alias limits),
:mod:`.parsing` (the safe loader, a stream into documents; plain block YAML is read by
:mod:`.blockload`, other ordinary streams by :mod:`.fastload`), :mod:`.locations`
(:class:`Document` and field paths to line and column), :mod:`.dump` (text out:
reading commands never import it), :mod:`.common` (the limits), :mod:`.plain` (Python values a caller
gives in place of a file, made the data a file gives, within the same limits).  Import each name from the module
that defines it: this package hands none on.
"""
