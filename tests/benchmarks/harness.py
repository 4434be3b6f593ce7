"""Benchmarks that host in this process and measure from a child process: run the
reactor until the child exits, then print the child's last line (its JSON result)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def serve_until_child_exits(reactor: Any, script: str, *args: Any) -> int:
    """Start ``python3 script ARGS...``, run the reactor until it exits; its exit code."""
    from twisted.internet.task import LoopingCall

    child = subprocess.Popen([sys.executable, script, *map(str, args)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    status = {"code": 0}

    def check() -> None:
        if child.poll() is not None:
            out = child.stdout.read().strip()
            if out:
                print(out.splitlines()[-1], flush=True)
            status["code"] = child.returncode
            poll.stop()
            reactor.stop()

    poll = LoopingCall(check)
    poll.start(0.2, now=False)
    reactor.run()
    return status["code"]
