"""Registers the `adkmem+...` memory URIs before `adk web agents` / `adk api_server agents`
loads the agents (ADK imports this file by name from the agents directory)."""

from adk_memory.adk import register_schemes

register_schemes()
