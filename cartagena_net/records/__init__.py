"""Game records: the format (:mod:`.format`, docs/records.md) and where they are kept
(:mod:`.store`). Free of Twisted, so the command line and the client can use them."""
from cartagena_net.records.format import (
    FORMAT,
    VERSION,
    RecordError,
    build,
    dumps,
    loads,
    replay,
    score,
    steps,
)

__all__ = ["FORMAT", "VERSION", "RecordError", "build", "dumps", "loads", "replay", "score",
           "steps"]
