"""Email notices to captains and secretaries about their fixtures and results."""
