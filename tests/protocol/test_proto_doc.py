"""docs/protocol.md stays true: golden hex vectors, message fields, error codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from protocol import (
    ERROR_CODES,
    FrameDecoder,
    discovery,
    encode_frame,
    messages,
)
from protocol.connection import ALLOWED, ConnState, Role

from . import golden

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")


def golden_section() -> dict[str, dict[str, str]]:
    """``{example name: {"json": text, "hex": text}}`` from the doc's golden section."""
    body = DOC.split("<!-- golden:begin -->", 1)[1].split("<!-- golden:end -->", 1)[0]
    out: dict[str, dict[str, str]] = {}
    for block in re.split(r"^#### ", body, flags=re.MULTILINE)[1:]:
        title = block.splitlines()[0]
        name = re.search(r"`([a-z_]+)`", title).group(1)
        key = f"discovery {name}" if title.startswith("discovery") else name
        out[key] = dict(re.findall(r"```(json|hex)\n(.*?)\n```", block, flags=re.DOTALL))
    return out


VECTORS = golden_section()


def test_section_has_every_golden_vector():
    expected = set(golden.MESSAGES) | {f"discovery {n}" for n in golden.DATAGRAMS}
    assert set(VECTORS) == expected
    assert {m.TYPE for m in golden.MESSAGES.values()} == set(messages.MESSAGE_TYPES)


@pytest.mark.parametrize("name", sorted(golden.MESSAGES))
def test_message_vector(name):
    msg = golden.MESSAGES[name]
    data = golden.parse_hexdump(VECTORS[name]["hex"])
    assert data == encode_frame(msg.to_wire()), "wire format changed: regenerate the doc"
    shown = json.loads(VECTORS[name]["json"])
    assert shown == msg.to_wire() and list(shown) == list(msg.to_wire())
    decoder = FrameDecoder()
    decoder.receive_data(data)
    frame = decoder.next_frame()
    assert frame == shown
    assert messages.decode(frame) == msg
    assert data[:4] == (len(data) - 4).to_bytes(4, "big")


def test_discovery_vectors():
    probe = golden.parse_hexdump(VECTORS["discovery probe"]["hex"])
    full = discovery.Probe(golden.NONCE).encode()
    assert probe == full[:22] and full[22:] == bytes(490)
    announce = golden.parse_hexdump(VECTORS["discovery announce"]["hex"])
    assert announce == golden.ANNOUNCE.encode()
    assert json.loads(VECTORS["discovery announce"]["json"]) == golden.ANNOUNCE.to_wire()
    assert discovery.decode_datagram(announce) == golden.ANNOUNCE
    reply = golden.parse_hexdump(VECTORS["discovery reply"]["hex"])
    assert reply == discovery.reply_to(full, golden.ANNOUNCE)
    assert discovery.decode_datagram(reply).nonce == golden.NONCE


def test_rendered_section_matches_the_doc():
    assert golden.render().strip() in DOC


def message_sections() -> dict[str, set[str]]:
    """Field names per type from the "### 4.x `type`" sections' tables."""
    out: dict[str, set[str]] = {}
    for block in re.split(r"^### 4\.\d+ ", DOC, flags=re.MULTILINE)[1:]:
        block = block.split("\n## ", 1)[0]
        names = re.findall(r"`([a-z_]+)`", block.splitlines()[0])
        rows = set(re.findall(r"^\| `([a-z_]+)` \|", block, flags=re.MULTILINE))
        for name in names:
            if name in messages.MESSAGE_TYPES:
                out[name] = rows
    return out


def test_every_message_and_field_is_specified():
    sections = message_sections()
    assert set(sections) == set(messages.MESSAGE_TYPES)
    for kind, cls in messages.MESSAGE_TYPES.items():
        assert set(cls.FIELDS) <= sections[kind], kind
        assert f"| `{kind}` " in DOC or f"/ `{kind}` " in DOC  # in the summary table
    for record in (messages.TableInfo, messages.SeatInfo):
        for key in record.FIELDS:
            assert f"| `{key}` |" in DOC


def test_every_error_code_is_documented():
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \|", DOC, flags=re.MULTILINE))
    for code, (fatal, _meaning) in ERROR_CODES.items():
        assert code in rows, code
        cell = rows[code].strip()
        assert cell.startswith("yes") == fatal or cell.startswith("—") or "HANDSHAKE" in cell


def test_state_table_matches_the_connection_rules():
    table = {}
    for row in re.findall(r"^\| (HANDSHAKE|LOBBY|TABLE) \| (.*?) \| (.*?) \|$", DOC, flags=re.MULTILINE):
        state = ConnState[row[0]]
        for role, cell in ((Role.CLIENT, row[1]), (Role.HOST, row[2])):
            cell = re.sub(r"\(.*?\)", "", cell)  # drop remarks like "(once)"
            table[(role, state)] = set(re.findall(r"`([a-z_]+)`", cell))
    assert len(table) == 6
    for (role, state), kinds in table.items():
        assert kinds == set(ALLOWED[role][state]), (role, state)
