"""Views, one module per audience: public (anyone), secretary (enter and confirm protocols),
manage (set up competitions), exports (PDF and xlsx downloads); health holds the health check.
"""
