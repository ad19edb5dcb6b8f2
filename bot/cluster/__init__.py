"""Running the bot past one process: shard ownership, the cluster supervisor, table leases.

`shards` says which servers a process owns, `supervisor` runs `python -m bot cluster`, and
`leases` holds the rule that keeps two processes from ever driving one table.
"""
