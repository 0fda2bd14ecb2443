"""The races: their records, the lobby and turn clock, and the operations on them.

This layer imports the engine, the bots' runner and the storage interface, never the web
stack: its errors are plain exceptions that :mod:`app.http` maps to answers.
"""
