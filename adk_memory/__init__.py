"""adk-memory."""
