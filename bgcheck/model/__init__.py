"""The project model, built once per run from the summaries (build.py): the index, execution, jobs, locks, money, shutdown, transactions; the facts digest the cache keys on."""
