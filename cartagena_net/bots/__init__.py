"""The bots: every kind of computer player, and what measures them.

- :mod:`.kinds`: the registry of bot kinds and levels (``make_bot``, ``level_bot``,
  ``BOT_KINDS``, ``LEVELS``) and the ``random``, ``greedy`` and ``ismcts`` players;
- :mod:`.ismcts`: the information-set Monte Carlo tree search;
- :mod:`.evaluation`: the static measure of a seat's position, shared by greedy and the
  search;
- :mod:`.match`: games between bots in one process, with statistics (``selfplay``, the
  benchmarks);
- :mod:`.netbot`: a bot that takes a seat at a host over the network;
- :mod:`.worker`: the process in which a host runs its bots' searches.

All but :mod:`.netbot` are pure Python (no Twisted, no msgpack, no terminal), so the
search's worker processes import them alone.
"""
