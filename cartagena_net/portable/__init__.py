"""What differs between Linux, macOS and Windows, in one place.

Each module here gives the portable way to do one platform-dependent thing, or a
guarded fallback where a platform lacks it, so that the rest of the product calls one
function and never asks which system it runs on.

- :mod:`.cores`: the cores this process may use (its CPU affinity, a cgroup's quota).
- :mod:`.dirs`: the per-user directories (state: journals, records, seat tokens).
- :mod:`.files`: files that survive a crash and stay private: binary mode, fsync, locks,
  permissions where they exist.
- :mod:`.signals`: stopping the usual way on each platform (Ctrl+C, Ctrl+Break, SIGTERM).
- :mod:`.sockets`: listening ports no second process can take (``SO_EXCLUSIVEADDRUSE``)
  and how many connections the platform's event loop can hold.
"""
