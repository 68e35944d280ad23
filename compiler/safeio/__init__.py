"""What comes from outside, handled safely: ``read`` (a file read only when it is a regular file of bounded size,
no link followed), ``write`` (every file the tool writes: an exclusive temporary file renamed into place) and
``text`` (outside text made printable before it reaches a comment or a terminal)."""
