/**
 * Python's `warnings` header, `file.py:8: RuntimeWarning: message`: the runtime's grammar reads it as a
 * survived warning, and the session gives it the lines its message goes on on.
 */
export const PYTHON_WARNING = /^\S+\.py:\d+: (\w+Warning): (.+)/;
