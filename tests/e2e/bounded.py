"""An agent's non-interactive run in a process group of its own, killed with all it started when it overruns."""

import os
import signal
import subprocess


def run_bounded(cmd, cwd, env, timeout):
    """Runs `cmd` with no stdin; returns (returncode, stdout, stderr), the
    returncode None when the run was killed after `timeout` seconds."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err
