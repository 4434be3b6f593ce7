"""Password checks and the reactor: what a hash costs, and how long the reactor stalls.

Prints one JSON line: ``make_ms`` (scrypt hash of a new password), ``slow_check_ms``
(scrypt check of a password restored from a journal), ``quick_check_us`` (a password
this process has seen), and ``max_reactor_lag_ms`` while ``--checks`` slow checks run
through the host's PasswordChecker (in its thread pool), beside ``inline_lag_ms``, the
lag the same checks would cause run on the reactor thread.
"""
from __future__ import annotations

import argparse
import json
import time

from cartagena_net.cli.loop import install_reactor

reactor = install_reactor()

from twisted.internet import defer, task

from cartagena_net.host.passwords import (
    PasswordChecker,
    StoredPassword,
    hash_password,
)


def timed(f, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - start) / n


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--checks", type=int, default=16)
    args = parser.parse_args()
    made = StoredPassword.make("sea dog")
    restored = StoredPassword(made.hash)
    out = {
        "make_ms": round(1000 * timed(lambda: hash_password("sea dog"), 5), 2),
        "slow_check_ms": round(1000 * timed(lambda: restored.slow_check("sea dog"), 5), 2),
        "quick_check_us": round(1e6 * timed(lambda: made.quick_check("sea dog"), 2000), 2),
    }
    checker = PasswordChecker(reactor)
    lags: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        lags.append(now - last[0])
        last[0] = now

    @defer.inlineCallbacks
    def run():
        loop = task.LoopingCall(tick)
        loop.start(0.005)
        # every check wrong and from its own address: all take the slow path, none waits
        yield defer.gatherResults([
            checker.check(f"10.0.0.{i}", "landlubber", StoredPassword(made.hash), "host")
            for i in range(args.checks)])
        loop.stop()
        checker.stop()
        out["checks"] = args.checks
        out["max_reactor_lag_ms"] = round(1000 * max(lags), 2)
        out["inline_lag_ms"] = round(args.checks * out["slow_check_ms"], 1)
        reactor.stop()

    reactor.callWhenRunning(run)
    reactor.run()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
