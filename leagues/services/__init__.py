"""Every write to the leagues app: typed, keyword-only functions, one concept a module.

``structure`` (leagues, seasons, divisions, venues, teams, entries), ``registrations``,
``fixtures`` (generation, postponement, re-arrangement, walkover, void), ``results`` (tables,
their games and the roll-up into a fixture's result), ``adjustments`` (points deducted or given).
"""
