"""Where the server runs the bots' turns: threads for the light bots, the hard searches'
gate and their worker processes (the engine itself starts no process)."""
