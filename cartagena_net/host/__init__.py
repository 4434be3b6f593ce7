"""The host: a Twisted service that is the authority of every table on the LAN."""
from cartagena_net.host.config import HostConfig
from cartagena_net.host.service import HostService

__all__ = ["HostConfig", "HostService"]
