"""factory-boy factories shared by the test suite, one module per app."""
