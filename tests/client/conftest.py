"""Client tests run on the real asyncio reactor, driven through its asyncio loop."""
from __future__ import annotations

import sys
from pathlib import Path

from cartagena_net.loop import install_reactor

install_reactor()
sys.path.insert(0, str(Path(__file__).parent))
