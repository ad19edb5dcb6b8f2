"""Stoppa for Discord: the Italian betting card game Stoppa (Cinquantacinque, 55)."""

__version__ = "0.1.0"
