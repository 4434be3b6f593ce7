"""A host found by mDNS alone is listed with its tables (its TXT record's summary), or
says that they are unknown: never as an empty host."""
from __future__ import annotations

from cartagena_net.cli.list import format_hosts, host_record
from cartagena_net.discovery.browser import MDNS, DiscoveryBrowser, summary_counts
from cartagena_net.discovery.mdns import _count, txt_properties
from tests.twisted_loop import reactor

RECORD = {"service": "den abc123._cartagena._tcp.local.", "host_id": "abc123" * 4,
          "name": "den", "address": "10.0.0.2", "port": 41672, "version": 1}


def _browser():
    seen = []
    browser = DiscoveryBrowser(reactor, seen.append, broadcast=False, mdns=False)
    browser.running = True
    return browser, seen


def test_the_txt_record_carries_the_tables_summary():
    summary = {"tables": [{"id": 1, "free": 2, "seats": 4}, {"id": 2, "free": 0, "seats": 3},
                          {"id": 3, "seats": [{"name": "ann"}, {}, {"bot": "greedy"}]}]}
    assert summary_counts(summary) == (3, 3)
    props = txt_properties("id1", "den", 1, summary_counts(summary))
    assert props == {"id": "id1", "name": "den", "v": "1", "tables": "3", "free": "3"}
    assert "tables" not in txt_properties("id1", "den", 1, None)
    assert [_count(t) for t in ("3", "", None, "٣", "-1", "1234567")] == [
        3, None, None, None, None, None]


def test_a_host_found_by_mdns_with_a_summary_is_listed_with_its_tables():
    browser, seen = _browser()
    browser.mdns_found({**RECORD, "tables": 2, "free": 3})
    (host,) = seen[-1]
    assert host.instance == MDNS and host.tables_known
    assert (host.n_tables, host.free_seats) == (2, 3)
    assert "2 tables, 3 free seats" in format_hosts([host])
    entry = host_record(host)
    assert entry["table_count"] == 2 and entry["free_seats"] == 3
    browser.mdns_found({**RECORD, "tables": 1, "free": 0})  # the record was updated
    assert "1 table, 0 free seats" in format_hosts(seen[-1])


def test_a_host_found_by_mdns_without_a_summary_says_its_tables_are_unknown():
    browser, seen = _browser()
    browser.mdns_found({**RECORD, "tables": None, "free": None})
    (host,) = seen[-1]
    assert not host.tables_known and host.free_seats is None
    line = format_hosts([host])
    assert "tables unknown" in line and "0 tables" not in line and "0 free" not in line
    assert host_record(host)["free_seats"] is None


def test_the_terminal_clients_host_list_says_so_too():
    from client.model import ClientModel
    from client.render import render_browser

    browser, seen = _browser()
    browser.mdns_found({**RECORD, "tables": None, "free": None})
    browser.mdns_found({**RECORD, "host_id": "def456" * 4, "name": "deck",
                        "service": "deck def456._cartagena._tcp.local.", "tables": 2,
                        "free": 5})
    model = ClientModel(name="ann", screen="browser")
    model.hosts = seen[-1]
    text = "\n".join("".join(part for _, part in line)
                     for line in render_browser(model, 100, 30))
    assert "den" in text and "tables unknown" in text
    assert "2 table(s), 5 free seat(s)" in text
    assert "0 table(s)" not in text


def test_the_advertiser_sends_the_record_again_when_the_summary_changes():
    import socket
    import time

    from zeroconf import ServiceInfo

    from cartagena_net.discovery.mdns import SERVICE, MdnsAdvertiser, instance_name

    class FakeZeroconf:
        def __init__(self):
            self.sent = []

        def update_service(self, info):
            self.sent.append(dict(info.properties))

    adv = MdnsAdvertiser("den", "abc123", 41672, 1, counts=(1, 2))
    zc = FakeZeroconf()
    adv._zc = zc
    adv._info = ServiceInfo(SERVICE, instance_name("den", "abc123"),
                            addresses=[socket.inet_aton("10.0.0.2")], port=41672,
                            properties=txt_properties("abc123", "den", 1, (1, 2)))
    adv.registered.set()
    adv.refresh((1, 2))  # unchanged: nothing sent
    adv.refresh((2, 5))
    deadline = time.monotonic() + 10
    while adv.updates < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert adv.updates == 1 and len(zc.sent) == 1
    assert zc.sent[0][b"tables"] == b"2" and zc.sent[0][b"free"] == b"5"
