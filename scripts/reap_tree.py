#!/usr/bin/env python3
"""Run a command and wait for every process it starts, also those it leaves behind, so that
`/usr/bin/time -v scripts/reap_tree.py CMD...` counts the whole process tree.

A PySpark driver (python -m ...) starts its JVM and does not wait for it: the JVM, and the
Python workers it starts, outlive the driver and are never reaped by it, so /usr/bin/time on
the driver alone reports the driver's CPU and memory only. Here this process is their
subreaper (Linux prctl PR_SET_CHILD_SUBREAPER): orphans come to it and are reaped, and their
CPU seconds add up in its children's usage; the peak resident memory is the largest single
process's (the JVM's, in local mode). Exits with the command's status.

    scripts/reap_tree.py CMD [ARG...]
"""
import ctypes
import os
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36


def main(argv):
    if not argv:
        sys.exit(__doc__)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit(f"reap_tree.py: prctl: {os.strerror(ctypes.get_errno())}")
    status = subprocess.call(argv)
    while True:  # the orphans, until none is left
        try:
            os.wait()
        except ChildProcessError:
            break
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
