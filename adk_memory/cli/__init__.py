"""`adk-memory`: the command line. `main` is the console script's entry point."""
