"""The project model, built once per run from the summaries: the index, execution, jobs, locks, money, shutdown, transactions."""
