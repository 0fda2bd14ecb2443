"""Where live races are kept: the store interface, the memory store (optionally saved to a
data directory) and the Redis store shared by every worker."""
