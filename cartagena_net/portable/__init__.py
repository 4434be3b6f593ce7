"""What differs between Linux, macOS and Windows, in one place.

Each module here gives the portable way to do one platform-dependent thing, or a
guarded fallback where a platform lacks it, so that the rest of the product calls one
function and never asks which system it runs on.

- :mod:`.dirs`: the per-user directories (state: journals, records, seat tokens).
"""
