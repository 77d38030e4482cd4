"""Reads for pages: each selector fetches what its page shows in a fixed number of queries.

``fixtures`` (leagues, seasons, divisions, fixtures, teams, players), ``standings`` (the league
table with its tie-break precedence), ``statistics`` (player and pair figures from stored awards).
"""
