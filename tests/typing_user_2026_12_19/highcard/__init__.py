"""A small typed game plugin (draw or stand, closest to 21) and a house rule for it."""

__version__ = "0.1.0"
