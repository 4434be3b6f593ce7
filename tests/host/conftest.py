"""Host tests run on the real asyncio reactor, driven through its asyncio loop."""
from __future__ import annotations

import pytest

from cartagena_net.cli.loop import install_reactor

reactor = install_reactor()


@pytest.fixture
def tmp_state(tmp_path):
    return tmp_path / "state"
