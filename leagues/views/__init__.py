"""Leagues pages: ``public`` (league, fixture, team, player), ``divisions`` (the standings,
fixtures and player-statistics tables with their CSV), ``secretary`` (league structure and
registrations) and ``manage_fixtures`` (fixture lists, re-arrangements, tables, walkovers,
adjustments). Views stay thin: selectors read, services write, forms check input.
"""
