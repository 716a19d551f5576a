"""A reusable Django app that keeps a search index up to date with Celery."""
