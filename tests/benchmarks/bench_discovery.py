"""Discovery latency between two network namespaces: probe sent -> first reply received.

A real `cartagena host --headless` runs in one namespace; a prober in the other sends
probes by broadcast (subnet broadcast address) and by unicast, one at a time, and
times each until the first valid reply echoing its nonce. Needs root and iproute2;
the namespaces are created and removed here. Prints one JSON line.

    python tests/benchmarks/bench_discovery.py [--rounds N]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from tests.netns import PYTHON, Namespaces
from tests.userdirs import private_env

PROBER = textwrap.dedent("""
    import json, socket, statistics, sys, time
    from protocol import discovery as wire
    target, rounds = sys.argv[1], int(sys.argv[2])
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    sock.bind(("0.0.0.0", 0))
    sock.settimeout(2.0)
    times, lost = [], 0
    for _ in range(rounds):
        probe = wire.Probe()
        data = probe.encode()
        start = time.perf_counter()
        sock.sendto(data, (target, wire.DISCOVERY_PORT))
        while True:
            try:
                reply, addr = sock.recvfrom(65535)
            except socket.timeout:
                lost += 1
                break
            msg = wire.decode_datagram(reply)
            if isinstance(msg, wire.Announce) and msg.nonce == probe.nonce:
                times.append(time.perf_counter() - start)
                break
        time.sleep(0.025)  # stay well under the responder's reply rate limit
    times.sort()
    pick = lambda q: round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 3)
    print(json.dumps({"n": len(times), "lost": lost, "p50_ms": pick(0.5),
                      "p99_ms": pick(0.99), "min_ms": round(times[0] * 1000, 3)}))
""")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    # (the folder goes after the namespaces, which end the host first)
    with tempfile.TemporaryDirectory(prefix="bench-discovery-") as user, Namespaces(2) as net:
        # its journal and host id in a folder of its own, not among the user's
        host = net.popen(0, [PYTHON, "-m", "cartagena_net", "host", "--headless", "--name",
                             "bench", "--bots", "3"], stderr=subprocess.DEVNULL,
                         env=private_env(user))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "listening" not in host.stdout.readline():
            pass
        results = {}
        for mode, target in (("broadcast", net.broadcast), ("unicast", net.addresses[0])):
            out = net.run(1, [PYTHON, "-c", PROBER, target, str(args.rounds)], timeout=300)
            if out.returncode != 0:
                print(out.stderr, file=sys.stderr)
                return 1
            results[mode] = json.loads(out.stdout)
    print(json.dumps({"bench": "discovery", "what": "probe to first reply, between two "
                      "network namespaces (veth)", "rounds": args.rounds, **results}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
