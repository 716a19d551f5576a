"""Orchestration: runs loading, the model and the rules over a project, serially or in workers; applies suppressions."""
