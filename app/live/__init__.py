"""Live updates: the hub that tells every worker a race changed, and the event streams
that follow one race for one seat or a spectator."""
