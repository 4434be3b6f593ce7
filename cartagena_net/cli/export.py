"""`cartagena export ID`: a kept game as JSON (the record) and as a plain-text score."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cartagena_net.i18n import N_, _

HELP = N_("write a kept game (see `cartagena records`) as JSON and as a plain-text score")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", metavar=_("ID|FILE"), help=_("a record id (or its start), or a file"))
    parser.add_argument("--to", default=".", metavar=_("DIR"),
                        help=_("write ID.json and ID.txt in DIR (default: here)"))
    parser.add_argument("--print", choices=("json", "score"), default=None, dest="show",
                        help=_("print the JSON or the score instead of writing files"))
    parser.add_argument("--dir", default=None, metavar=_("DIR"),
                        help=_("the records folder (default: this user's)"))


def run(args: argparse.Namespace) -> int:
    from cartagena_net.records import RecordError, dumps, score
    from cartagena_net.records.format import in_file
    from cartagena_net.records.store import find, read

    try:
        path = find(args.id, args.dir)
        rec = read(path)
        with in_file(path):
            text = score(rec)
    except RecordError as exc:
        print(f"cartagena export: {exc}", file=sys.stderr)
        return 1
    if args.show == "json":
        sys.stdout.buffer.write(dumps(rec))
        return 0
    if args.show == "score":
        sys.stdout.write(text)
        return 0
    folder = Path(args.to)
    targets = [(folder / f"{rec['id']}.json", dumps(rec)),
               (folder / f"{rec['id']}.txt", text.encode("utf-8"))]
    for path, _data in targets:
        if path.exists():
            print("cartagena export: " + _("{path} exists; not overwritten").format(path=path),
                  file=sys.stderr)
            return 1
    try:
        for path, data in targets:
            path.write_bytes(data)
            print(path)
    except OSError as exc:
        print("cartagena export: " + _("cannot write {file}: {error}").format(
            file=exc.filename, error=exc.strerror), file=sys.stderr)
        return 1
    return 0
