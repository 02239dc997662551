"""What the agent drivers share: the throwaway user's environment, and an agent's non-interactive run in a process group of its own, killed with all it started when it overruns."""

import os
import signal
import subprocess


def user_env(home, **extra):
    """The environment of the throwaway user whose HOME is `home`, with `extra`
    variables: no variable of the caller's leaks in."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "HOME": home,
        "TMPDIR": os.path.join(os.path.dirname(home), "tmp"),
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "XDG_STATE_HOME": os.path.join(home, ".local", "state"),
        "XDG_CACHE_HOME": os.path.join(home, ".cache"),
        "GIT_CONFIG_NOSYSTEM": "1",
        **extra,
    }


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
