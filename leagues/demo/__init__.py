"""Demo data for ``manage.py seed_demo``: a card simulation and the leagues it fills."""
