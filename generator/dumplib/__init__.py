"""ecsgen-dump: diff, stats and check of saved worlds (see ecsgen_dump.py)."""
