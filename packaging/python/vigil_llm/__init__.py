"""vigil, as a Python package: the standalone executable in bin/ and the `vigil` command that runs it."""
