"""bgcheck: a static analyzer for Python background-job code."""

__version__ = "0.1.0"

# Where the project lives: SARIF informationUri and rule help links.
PROJECT_URL = "https://github.com/bgcheck/bgcheck"
