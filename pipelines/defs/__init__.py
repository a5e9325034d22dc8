"""The Dagster code location, one folder per domain, autoloaded by `pipelines.definitions`."""
