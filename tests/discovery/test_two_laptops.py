"""Two (and three) "laptops": network namespaces joined by veth, created and removed here.

Every broadcast in these tests stays inside the namespaces the test created.
"""
from __future__ import annotations

import json
import queue
import shutil
import subprocess
import tempfile
import textwrap
import threading
import time

import pytest

from tests.netns import PYTHON, Namespaces, ip

pytestmark = pytest.mark.netns

HOST_START_TIMEOUT = 60.0


def readline(proc: subprocess.Popen, timeout: float) -> str:
    """One line of ``proc``'s stdout, or "" at EOF or after ``timeout`` seconds."""
    reader = getattr(proc, "_lines", None)
    if reader is None:
        reader = proc._lines = queue.Queue()

        def pump() -> None:
            for line in proc.stdout:
                reader.put(line)
            reader.put("")

        threading.Thread(target=pump, daemon=True).start()
    try:
        return reader.get(timeout=max(0.0, timeout))
    except queue.Empty:
        return ""


def start_host(net: Namespaces, index: int, name: str, *extra: str) -> subprocess.Popen:
    """``cartagena host --headless`` inside namespace ``index``; waits until it listens."""
    # The host's log goes to a file: a pipe nobody reads could fill up and block it.
    log = tempfile.TemporaryFile("w+")  # noqa: SIM115 - lives as long as the host
    proc = net.popen(index, [PYTHON, "-m", "cartagena_net", "host", "--headless", "--name",
                             name, "--bot-delay", "0", *extra], stderr=log)
    proc.log = log
    deadline = time.monotonic() + HOST_START_TIMEOUT
    line = ""
    while time.monotonic() < deadline:
        line = readline(proc, deadline - time.monotonic())
        if "listening on port" in line or not line:
            break
    if "listening on port" not in line:
        log.seek(0)
        raise AssertionError(f"host did not start: {line!r}\n{log.read()[-2000:]}")
    return proc


def list_hosts(net: Namespaces, index: int, *extra: str) -> list[dict]:
    result = net.run(index, [PYTHON, "-m", "cartagena_net", "list", "--json", *extra])
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_namespaces_are_created_and_removed():
    with Namespaces(2) as net:
        names = list(net.names)
        listed = ip("netns", "list").stdout
        assert all(name in listed for name in names)
        assert net.run(0, ["ip", "-br", "addr"]).stdout.count("10.231.0.1/24") == 1
    listed = ip("netns", "list").stdout
    assert not any(name in listed for name in names)


def test_namespaces_are_removed_on_failure():
    with pytest.raises(RuntimeError), Namespaces(2) as net:
        names = list(net.names)
        net.popen(0, ["sleep", "600"])
        raise RuntimeError("boom")
    listed = ip("netns", "list").stdout
    assert not any(name in listed for name in names)


def test_two_laptops_find_by_broadcast_and_play_a_game():
    with Namespaces(2) as net:
        host = start_host(net, 0, "lan-party", "--bots", "3", "--level", "easy")
        found = list_hosts(net, 1, "--timeout", "3")  # broadcast only: no --to
        assert len(found) == 1, found
        entry = found[0]
        assert entry["name"] == "lan-party"
        assert entry["address"] == net.addresses[0]  # the datagram's source address
        assert entry["port"] == 41672 and entry["version"] == 1
        assert entry["free_seats"] == 1 and entry["tables"][0]["status"] == "waiting"
        # A client in the other namespace joins over TCP at that address and plays.
        result = net.run(1, [PYTHON, "-m", "cartagena_net", "bot",
                             f"{entry['address']}:{entry['port']}", "--kind", "greedy",
                             "--name", "laptop-b"], timeout=180)
        assert result.returncode == 0, result.stderr
        assert "played 1 game(s)" in result.stdout
        assert host.poll() is None  # the host is still serving
        # After the game the table shows up as finished.
        again = list_hosts(net, 1, "--timeout", "2")
        assert again[0]["tables"][0]["status"] == "finished"


BROWSE = textwrap.dedent("""
    import json, sys
    from cartagena_net.cli.loop import install_reactor
    reactor = install_reactor()
    from cartagena_net.discovery import DiscoveryBrowser
    seen = []
    def changed(hosts):
        seen.append([[h.name, h.address, h.instance] for h in hosts])
        print(json.dumps(seen[-1]), flush=True)
    # Probes only once, at the start: later hosts are found by their announcements.
    browser = DiscoveryBrowser(reactor, changed, probe_interval=3600, expiry=5.0)
    reactor.callWhenRunning(browser.start)
    reactor.callLater(float(sys.argv[1]), reactor.stop)
    reactor.run()
""")


def read_json_line(proc: subprocess.Popen, want, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    history = []
    while time.monotonic() < deadline:
        line = readline(proc, deadline - time.monotonic())
        if not line:
            break
        history.append(json.loads(line))
        if want(history[-1]):
            return history[-1]
    raise AssertionError(f"never saw the expected host list; saw {history}")


def test_three_laptops_announcements_come_and_go():
    with Namespaces(3) as net:  # a bridge: 10.231.0.1 .. .3
        browser = net.popen(2, [PYTHON, "-c", BROWSE, "120"], stderr=subprocess.DEVNULL)
        first = start_host(net, 0, "alpha", "--bots", "1")
        start_host(net, 1, "beta", "--bots", "2", "--players", "3")
        both = read_json_line(browser, lambda hosts: len(hosts) == 2)
        assert sorted((name, addr) for name, addr, _ in both) == [
            ("alpha", net.addresses[0]), ("beta", net.addresses[1])]
        # alpha goes away: it vanishes from the list once its announcements stop.
        first.kill()
        first.wait(timeout=30)
        alone = read_json_line(browser, lambda hosts: len(hosts) == 1)
        assert alone[0][0] == "beta"
        # alpha restarts: a new instance is announced.
        old_instance = next(inst for name, _, inst in both if name == "alpha")
        start_host(net, 0, "alpha", "--bots", "1")
        back = read_json_line(browser, lambda hosts: len(hosts) == 2)
        alpha = next(h for h in back if h[0] == "alpha")
        assert alpha[2] != old_instance


RESPOND = textwrap.dedent("""
    import sys
    from cartagena_net.cli.loop import install_reactor
    reactor = install_reactor()
    from cartagena_net.discovery import DiscoveryResponder
    summary = lambda: {"host_id": "probe-only", "name": sys.argv[1], "tables": []}
    # No announcements: only answers to probes can make it visible.
    responder = DiscoveryResponder(reactor, summary, 5000, interface=sys.argv[2],
                                   announce_interval=None)
    responder.startService()
    print("ready", flush=True)
    reactor.run()
""")


@pytest.mark.parametrize("bind", ["", "own address"])
def test_broadcast_probe_is_answered_without_announcements(bind):
    with Namespaces(2) as net:
        interface = net.addresses[0] if bind else ""
        responder = net.popen(0, [PYTHON, "-c", RESPOND, "quiet", interface],
                              stderr=subprocess.DEVNULL)
        assert readline(responder, 60).strip() == "ready"
        found = list_hosts(net, 1, "--timeout", "2")
        assert [(h["name"], h["address"], h["port"]) for h in found] == [
            ("quiet", net.addresses[0], 5000)]
        # Probing by unicast from the other side finds it too, and nothing else does.
        found = list_hosts(net, 1, "--timeout", "1", "--no-broadcast", "--to",
                           net.addresses[0])
        assert [h["name"] for h in found] == ["quiet"]


def block_udp(net: Namespaces, index: int, port: int = 41672) -> None:
    """Drop UDP to and from ``port`` inside namespace ``index`` (nftables): the broadcast
    discovery cannot pass there; nothing outside the test's namespaces is touched."""
    if shutil.which("nft") is None:
        pytest.skip("needs nftables (nft) to drop UDP 41672 inside the test's namespace")
    rules = [["add", "table", "inet", "ctgn"],
             ["add", "chain", "inet", "ctgn", "in", "{ type filter hook input priority 0; }"],
             ["add", "chain", "inet", "ctgn", "out", "{ type filter hook output priority 0; }"]]
    for chain in ("in", "out"):
        for way in ("dport", "sport"):
            rules.append(["add", "rule", "inet", "ctgn", chain, "udp", way, str(port), "drop"])
    for rule in rules:
        result = net.run(index, ["nft", *rule])
        assert result.returncode == 0, result.stderr


def test_mdns_finds_a_host_where_udp_discovery_is_blocked():
    """Broadcast discovery blocked in the guest's namespace: `cartagena list` still finds
    the host by multicast DNS (_cartagena._tcp.local.), and without mDNS it finds nothing
    and says why (the system refused its sends)."""
    with Namespaces(2) as net:
        block_udp(net, 1)
        start_host(net, 0, "mdns den", "--players", "2")
        found: list = []
        deadline = time.monotonic() + 60
        while not found and time.monotonic() < deadline:
            found = list_hosts(net, 1, "--timeout", "3")
        assert len(found) == 1, found
        assert found[0]["name"] == "mdns den" and found[0]["address"] == net.addresses[0]
        assert found[0]["port"] == 41672 and found[0]["instance"] == "mdns"
        # its tables, from the TXT record: one table, both seats free (not an empty host)
        assert (found[0]["table_count"], found[0]["free_seats"]) == (1, 2), found
        text = net.run(1, [PYTHON, "-m", "cartagena_net", "list", "--timeout", "3"])
        assert "1 table, 2 free seats" in text.stdout, text.stdout
        plain = net.run(1, [PYTHON, "-m", "cartagena_net", "list", "--no-mdns",
                            "--timeout", "1"])
        assert plain.returncode == 0, plain.stderr
        assert "no hosts found" in plain.stdout
        assert "refused to send the search (EPERM)" in plain.stdout
        assert "cartagena join 192.168.1.20" in plain.stdout


def test_a_search_with_no_network_says_so():
    """A laptop with no address but loopback: `cartagena list` says there is no network
    with a broadcast address, and how to type the host's address instead."""
    with Namespaces(2) as net:
        assert net.run(1, ["ip", "addr", "flush", "dev", "veth0"]).returncode == 0
        result = net.run(1, [PYTHON, "-m", "cartagena_net", "list", "--timeout", "1"])
        assert result.returncode == 0, result.stderr
        assert "no hosts found" in result.stdout
        assert "no network with a broadcast address" in result.stdout
        assert "You can always type the host's address" in result.stdout
