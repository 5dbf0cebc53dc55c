"""The Django project package of the Canasta club site: settings, root URLs, WSGI/ASGI entry points.

The application code lives in the `scoring` app; this package only wires it up.
"""
