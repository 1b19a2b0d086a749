"""What the scripts share: the repository's root, one way to fail, git.

Each script that `make` runs imports this module (with its own folder on
`sys.path`), so a failure reads the same whichever check printed it:
`<check>: FAILED: <what, where, why>` on standard error, exit status 1.
"""
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))


def failing(check):
    """A `fail(message)` for the check named `check`: prints and exits 1."""
    def fail(message):
        print(f'{check}: FAILED: {message}', file=sys.stderr)
        sys.exit(1)
    return fail


def git(*arguments, cwd=ROOT, env=None):
    """The output of a git command (stripped); raises when it fails."""
    return subprocess.run(['git', *arguments], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()
