"""The `vigil` command: replaces this Python process with the executable the wheel carries."""
import os
import stat
import sys

BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "vigil")


def main():
    if not os.path.isfile(BINARY):
        sys.stderr.write(f"vigil: {BINARY} is missing: reinstall vigil-llm\n")
        return 2
    if not os.access(BINARY, os.X_OK):
        # An installer that dropped the executable bit; the owner may set it again.
        try:
            mode = os.stat(BINARY).st_mode
            os.chmod(BINARY, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        except OSError as error:
            sys.stderr.write(f"vigil: {BINARY} is not executable ({error}): run chmod +x on it\n")
            return 2
    # Tells `vigil --version` how it was installed.
    env = dict(os.environ, VIGIL_INSTALL="wheel")
    os.execve(BINARY, ["vigil", *sys.argv[1:]], env)
    return 2


if __name__ == "__main__":
    sys.exit(main())
