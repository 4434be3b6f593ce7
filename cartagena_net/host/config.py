"""Settings of one host process."""
from __future__ import annotations

import socket
from dataclasses import dataclass, field


def default_host_name() -> str:
    """The machine's short host name, used when no ``--name`` is given."""
    return (socket.gethostname().split(".")[0] or "cartagena")[:64]


@dataclass
class HostConfig:
    """Everything a :class:`~cartagena_net.host.service.HostService` needs to know.

    ``port`` 0 binds an ephemeral port; ``bind`` "" listens on every interface.
    ``state_dir`` None keeps no journal. Times are in seconds. ``log_events`` logs
    every game event (from the spectator view) at info level. ``web_port`` None: no
    web view; 0: any free port. ``web_bind`` None: where the game binds. ``bot_level`` is
    the searching bots' level (``cartagena_net.bots.kinds.LEVELS``) and ``bot_think``, if set,
    their budget in seconds a decision instead; ``bot_workers`` the processes that run
    their searches (0: one thread).

    ``handshake_timeout`` is also how long one frame may take to arrive whole.
    ``password`` (the host's, plaintext; the service keeps only its hash). Wrong
    passwords: the first ``guess_free`` from an address cost nothing, then each check
    from it waits ``guess_delay`` seconds, doubling up to ``guess_max_delay``.
    """

    name: str = field(default_factory=default_host_name)
    port: int = 41672
    bind: str = ""
    state_dir: str | None = None
    resume: bool = False
    # Journals are fsynced at most this often, off the action path (0: every action
    # before it is answered); see cartagena_net.host.journal.Syncer.
    journal_sync: float = 1.0
    # Why this host keeps no journal though one was wanted ({"folder", "error"}: its
    # state folder cannot be written), said to every client (lobby.notices: no-journal).
    journal_off: dict[str, str] | None = None
    password: str | None = None
    spectators: bool = True
    takeover: float | None = None
    idle_table_grace: float = 300.0  # an unattended bots-only table goes after this
    bot_delay: float = 0.7
    bot_level: str = "normal"
    bot_think: float | None = None
    bot_workers: int = 2
    handshake_timeout: float = 5.0
    ping_interval: float = 15.0
    idle_timeout: float = 45.0
    max_frame: int | None = None
    max_connections: int = 1024
    max_per_address: int = 64
    max_tables: int = 128
    max_tables_per_address: int = 16
    rate: float = 100.0
    burst: float = 200.0
    lobby_delay: float = 0.05
    max_send_buffer: int = 1 << 20
    log_events: bool = False
    guess_free: int = 3
    guess_delay: float = 0.5
    guess_max_delay: float = 30.0
    web_port: int | None = None
    web_bind: str | None = None
    # Host names the web port answers to besides its addresses, localhost and its own
    # name (--web-host; cartagena_net.web.hostcheck).
    web_hosts: tuple[str, ...] = ()
    web_idle_timeout: float = 20.0
    web_keepalive: float = 15.0
    web_max_buffer: int = 1 << 18
    # A seeded deal and seeded bots: reproducible games for practice and tests only.
    # None (always, for real games): the deal uses the OS's secure RNG.
    seed: int | None = None
    # Where every game's record is kept (cartagena_net.records); None: no records.
    records_dir: str | None = None
    # The bot reviews each game that ends (cartagena_net.host.reviewer), beside its record.
    reviews: bool = True
    # Each seat's chance of winning, estimated after every turn for spectators and the TV
    # (cartagena_net.host.coach); False: never estimated (--no-live-chances).
    live_chances: bool = True
