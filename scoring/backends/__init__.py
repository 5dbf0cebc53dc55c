"""Backends Django is configured to use (settings): the shared cache of several app servers
(Redis, falling back to local memory) and the JSON serializer of `manage.py backup`."""
