"""The read-only web view of a host's tables (twisted.web, Server-Sent Events)."""
from __future__ import annotations

from cartagena_net.web.server import WebServer

__all__ = ["WebServer"]
