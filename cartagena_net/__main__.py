"""`python -m cartagena_net` runs the same CLI as `cartagena`."""
from cartagena_net.cli import main

raise SystemExit(main())
