"""cartagena-net: Cartagena, the pirate-escape race game, over a local network."""

__version__ = "0.1.0"
