"""Syntax helpers shared by every phase: the read-only walk, the small IR, control flow, loop shapes."""
